// FFTW's double and float interfaces behind one name, Fftw<Real>, for the templated
// transforms (fft3d.cpp, columns.hpp, box_fft.cpp).
#pragma once

#include <fftw3.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <type_traits>

namespace a2a::fft {

// FFTW's planner (making and destroying plans; executing one is safe) keeps global tables that
// two threads planning at once corrupt: two threads of a rank, each making plans on its own
// communicator, crashed in fftw_mkapiplan (a double free, a division by zero). Every plan the
// library makes or destroys goes through `planning`, under one lock for the process (fftw.cpp).
// A program that also plans with FFTW itself in other threads makes FFTW's planner thread-safe
// as FFTW documents (fftw_make_planner_thread_safe).
std::mutex& fftw_planner_lock();
template <typename Call>
auto planning(const Call& call) {
  std::lock_guard lock(fftw_planner_lock());
  return call();
}

// Whether FFTW's plans are its timed ones (measure, patient, exhaustive), or taken from wisdom
// (FFTW_WISDOM_ONLY, whatever the planner named beside it), rather than its estimated ones.
inline bool timed_plans(unsigned flags) {
  return (flags & FFTW_ESTIMATE) == 0 || (flags & FFTW_WISDOM_ONLY) != 0;
}

template <typename Real>
struct Fftw;

template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using complex = fftw_complex;
  static plan guru(int rank, const fftw_iodim* dims, int howmany, const fftw_iodim* how,
                   complex* in, complex* out, int sign, unsigned flags) {
    return planning(
        [&] { return fftw_plan_guru_dft(rank, dims, howmany, how, in, out, sign, flags); });
  }
  static void execute(plan p, complex* in, complex* out) { fftw_execute_dft(p, in, out); }
  static void destroy(plan p) {
    planning([&] { fftw_destroy_plan(p); });
  }
  static plan r2c(int rank, const fftw_iodim* dims, int howmany, const fftw_iodim* how, double* in,
                  complex* out, unsigned flags) {
    return planning(
        [&] { return fftw_plan_guru_dft_r2c(rank, dims, howmany, how, in, out, flags); });
  }
  static plan c2r(int rank, const fftw_iodim* dims, int howmany, const fftw_iodim* how, complex* in,
                  double* out, unsigned flags) {
    return planning(
        [&] { return fftw_plan_guru_dft_c2r(rank, dims, howmany, how, in, out, flags); });
  }
  static void execute_r2c(plan p, double* in, complex* out) { fftw_execute_dft_r2c(p, in, out); }
  static void execute_c2r(plan p, complex* in, double* out) { fftw_execute_dft_c2r(p, in, out); }
  static plan many(int rank, const int* n, int howmany, complex* in, const int* inembed,
                   int istride, int idist, complex* out, const int* onembed, int ostride, int odist,
                   int sign, unsigned flags) {
    return planning([&] {
      return fftw_plan_many_dft(rank, n, howmany, in, inembed, istride, idist, out, onembed,
                                ostride, odist, sign, flags);
    });
  }
  static int alignment_of(const void* p) {
    return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p)));
  }
  // The 64-bit guru interface (BoxFft: strides and counts past 2^31).
  using iodim64 = fftw_iodim64;
  static plan guru64(int rank, const iodim64* dims, int howmany, const iodim64* how, complex* in,
                     complex* out, int sign, unsigned flags) {
    return planning(
        [&] { return fftw_plan_guru64_dft(rank, dims, howmany, how, in, out, sign, flags); });
  }
  static plan guru64_r2r(int rank, const iodim64* dims, int howmany, const iodim64* how, double* in,
                         double* out, const fftw_r2r_kind* kind, unsigned flags) {
    return planning(
        [&] { return fftw_plan_guru64_r2r(rank, dims, howmany, how, in, out, kind, flags); });
  }
  static plan guru64_r2c(int rank, const iodim64* dims, int howmany, const iodim64* how, double* in,
                         complex* out, unsigned flags) {
    return planning(
        [&] { return fftw_plan_guru64_dft_r2c(rank, dims, howmany, how, in, out, flags); });
  }
  static plan guru64_c2r(int rank, const iodim64* dims, int howmany, const iodim64* how,
                         complex* in, double* out, unsigned flags) {
    return planning(
        [&] { return fftw_plan_guru64_dft_c2r(rank, dims, howmany, how, in, out, flags); });
  }
  static void execute_r2r(plan p, double* in, double* out) { fftw_execute_r2r(p, in, out); }
};

template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using complex = fftwf_complex;
  static plan guru(int rank, const fftwf_iodim* dims, int howmany, const fftwf_iodim* how,
                   complex* in, complex* out, int sign, unsigned flags) {
    return planning(
        [&] { return fftwf_plan_guru_dft(rank, dims, howmany, how, in, out, sign, flags); });
  }
  static void execute(plan p, complex* in, complex* out) { fftwf_execute_dft(p, in, out); }
  static void destroy(plan p) {
    planning([&] { fftwf_destroy_plan(p); });
  }
  static plan r2c(int rank, const fftwf_iodim* dims, int howmany, const fftwf_iodim* how, float* in,
                  complex* out, unsigned flags) {
    return planning(
        [&] { return fftwf_plan_guru_dft_r2c(rank, dims, howmany, how, in, out, flags); });
  }
  static plan c2r(int rank, const fftwf_iodim* dims, int howmany, const fftwf_iodim* how,
                  complex* in, float* out, unsigned flags) {
    return planning(
        [&] { return fftwf_plan_guru_dft_c2r(rank, dims, howmany, how, in, out, flags); });
  }
  static void execute_r2c(plan p, float* in, complex* out) { fftwf_execute_dft_r2c(p, in, out); }
  static void execute_c2r(plan p, complex* in, float* out) { fftwf_execute_dft_c2r(p, in, out); }
  static plan many(int rank, const int* n, int howmany, complex* in, const int* inembed,
                   int istride, int idist, complex* out, const int* onembed, int ostride, int odist,
                   int sign, unsigned flags) {
    return planning([&] {
      return fftwf_plan_many_dft(rank, n, howmany, in, inembed, istride, idist, out, onembed,
                                 ostride, odist, sign, flags);
    });
  }
  static int alignment_of(const void* p) {
    return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p)));
  }
  // The 64-bit guru interface (BoxFft: strides and counts past 2^31).
  using iodim64 = fftwf_iodim64;
  static plan guru64(int rank, const iodim64* dims, int howmany, const iodim64* how, complex* in,
                     complex* out, int sign, unsigned flags) {
    return planning(
        [&] { return fftwf_plan_guru64_dft(rank, dims, howmany, how, in, out, sign, flags); });
  }
  static plan guru64_r2r(int rank, const iodim64* dims, int howmany, const iodim64* how, float* in,
                         float* out, const fftwf_r2r_kind* kind, unsigned flags) {
    return planning(
        [&] { return fftwf_plan_guru64_r2r(rank, dims, howmany, how, in, out, kind, flags); });
  }
  static plan guru64_r2c(int rank, const iodim64* dims, int howmany, const iodim64* how, float* in,
                         complex* out, unsigned flags) {
    return planning(
        [&] { return fftwf_plan_guru64_dft_r2c(rank, dims, howmany, how, in, out, flags); });
  }
  static plan guru64_c2r(int rank, const iodim64* dims, int howmany, const iodim64* how,
                         complex* in, float* out, unsigned flags) {
    return planning(
        [&] { return fftwf_plan_guru64_dft_c2r(rank, dims, howmany, how, in, out, flags); });
  }
  static void execute_r2r(plan p, float* in, float* out) { fftwf_execute_r2r(p, in, out); }
};

template <typename Real>
using Iodim = std::conditional_t<std::is_same_v<Real, double>, fftw_iodim, fftwf_iodim>;

// data[0, count) *= factor (FFTW's transforms do not scale: the backward 1/N); nothing for 1.
template <typename Real>
void scale(Real* data, std::int64_t count, Real factor) {
  if (factor == Real(1)) return;
  for (std::int64_t i = 0; i < count; ++i)
    data[i] *= factor;
}
template <typename Real>
void scale(std::complex<Real>* data, std::int64_t count, Real factor) {
  scale(reinterpret_cast<Real*>(data), 2 * count, factor);
}
// Whether a's and b's elements share any byte.
template <typename A, typename B>
bool overlap(const A* a, std::int64_t a_count, const B* b, std::int64_t b_count) {
  const auto a0 = reinterpret_cast<std::uintptr_t>(a), b0 = reinterpret_cast<std::uintptr_t>(b);
  const auto a1 = a0 + static_cast<std::uintptr_t>(a_count) * sizeof(A);
  const auto b1 = b0 + static_cast<std::uintptr_t>(b_count) * sizeof(B);
  return a0 < b1 && b0 < a1;
}
// to[0, count) = factor * from[0, count): a copy and a scaling in one pass, as memmove copies:
// where `to` starts inside `from`, from the last value back, so that none is read after it was
// overwritten (a caller's output array that overlaps its input).
template <typename Real>
void scaled_copy(const Real* from, Real* to, std::size_t count, Real factor) {
  if (to > from && to < from + count) {
    for (std::size_t i = count; i-- > 0;)
      to[i] = factor * from[i];
    return;
  }
  for (std::size_t i = 0; i < count; ++i)
    to[i] = factor * from[i];
}

}  // namespace a2a::fft
