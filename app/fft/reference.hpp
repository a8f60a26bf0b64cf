// The FFT experiments' independent references: the deterministic inputs, gathering a
// distributed result on rank 0, serial FFTW's transforms of the whole input and a plane
// wave's closed-form spectrum, and the relative error between them.
#pragma once

#include <fftw3.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>
#include <vector>

#include "a2a/error.hpp"
#include "a2a/transpose.hpp"
#include "fft/compare.hpp"

namespace a2a::fft {

template <typename Real>
std::complex<Real> input_value(const std::array<std::int64_t, 3>& n, bool planewave, std::int64_t i,
                               std::int64_t j, std::int64_t k) {
  if (planewave) {
    // exp(2 pi i (kx x/nx + ky y/ny + kz z/nz)) with (kx, ky, kz) = (1, 2, 3) mod n.
    const double phase = 2 * std::numbers::pi *
                         (static_cast<double>((1 % n[0]) * i) / static_cast<double>(n[0]) +
                          static_cast<double>((2 % n[1]) * j) / static_cast<double>(n[1]) +
                          static_cast<double>((3 % n[2]) * k) / static_cast<double>(n[2]));
    return {static_cast<Real>(std::cos(phase)), static_cast<Real>(std::sin(phase))};
  }
  const double x = static_cast<double>(i * 7919 + j * 104729 + k * 1299709);
  return {static_cast<Real>(std::sin(0.001 * x)), static_cast<Real>(std::cos(0.0007 * x))};
}

// The input's values on box b, in a std::vector or any vector type V (AlignedVector).
template <typename Real, typename V = std::vector<std::complex<Real>>>
V fill(const Box& b, const std::array<std::int64_t, 3>& n, bool planewave) {
  V v(static_cast<std::size_t>(b.count()));
  std::size_t at = 0;
  for (auto i = b.lo[0]; i < b.hi[0]; ++i)
    for (auto j = b.lo[1]; j < b.hi[1]; ++j)
      for (auto k = b.lo[2]; k < b.hi[2]; ++k)
        v[at++] = input_value<Real>(n, planewave, i, j, k);
  return v;
}

// Gathers every rank's elements on rank 0 in rank order, counted in elements of T (an MPI
// type of sizeof(T) bytes), so that more than 2 GiB per rank still fits MPI's int counts.
// V: a std::vector or any vector type (AlignedVector).
template <typename V, typename T = typename V::value_type>
std::vector<T> gather_elements(MPI_Comm comm, const V& mine) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  if (mine.size() > static_cast<std::size_t>(INT_MAX)) {
    throw Error("gather: more than 2^31-1 elements on one rank");
  }
  MPI_Datatype element = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &element);
  MPI_Type_commit(&element);
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(procs)), displs(counts.size());
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::int64_t total = 0;
  for (int c : counts)
    total += c;
  // Displacements are int too: past 2^31-1 elements in all, one message per rank instead.
  int one_by_one = rank == 0 && total > INT_MAX;
  MPI_Bcast(&one_by_one, 1, MPI_INT, 0, comm);
  std::vector<T> all(rank == 0 ? static_cast<std::size_t>(total) : 0);
  if (one_by_one) {
    if (rank != 0) {
      MPI_Send(mine.data(), count, element, 0, 77, comm);
    } else {
      std::copy(mine.begin(), mine.end(), all.begin());
      std::size_t at = mine.size();
      for (int p = 1; p < procs; ++p) {
        MPI_Recv(all.data() + at, counts[static_cast<std::size_t>(p)], element, p, 77, comm,
                 MPI_STATUS_IGNORE);
        at += static_cast<std::size_t>(counts[static_cast<std::size_t>(p)]);
      }
    }
  } else {
    for (std::size_t p = 1; p < counts.size(); ++p)
      displs[p] = displs[p - 1] + counts[p - 1];
    MPI_Gatherv(mine.data(), count, element, all.data(), counts.data(), displs.data(), element, 0,
                comm);
  }
  MPI_Type_free(&element);
  return all;
}

// Gathers every rank's box of `local` into the whole row-major grid on rank 0.
template <typename V, typename Complex = typename V::value_type>
std::vector<Complex> gather(MPI_Comm comm, const Box& b, const V& local,
                            const std::array<std::int64_t, 3>& n) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  const std::int64_t mine[6] = {b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]};
  std::vector<std::int64_t> boxes(6 * static_cast<std::size_t>(procs));
  MPI_Gather(mine, 6, MPI_INT64_T, boxes.data(), 6, MPI_INT64_T, 0, comm);
  const std::vector<Complex> all = gather_elements(comm, local);
  std::vector<Complex> grid;
  if (rank != 0) return grid;
  grid.resize(static_cast<std::size_t>(n[0] * n[1] * n[2]));
  const Complex* src = all.data();
  for (std::size_t p = 0; p < static_cast<std::size_t>(procs); ++p) {
    const std::int64_t* q = &boxes[6 * p];
    for (auto i = q[0]; i < q[3]; ++i)
      for (auto j = q[1]; j < q[4]; ++j)
        for (auto k = q[2]; k < q[5]; ++k)
          grid[static_cast<std::size_t>((i * n[1] + j) * n[2] + k)] = *src++;
  }
  return grid;
}

template <typename V, typename Real = typename V::value_type::value_type,
          typename Out = std::vector<Real>>
Out real_parts(const V& v) {
  Out out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    out[i] = v[i].real();
  return out;
}

// The serial reference spectrum of the whole input `full` (rank 0): FFTW's 3D c2c or r2c.
template <typename Real>
std::vector<std::complex<Real>> serial_reference(const std::array<std::int64_t, 3>& n, bool r2c,
                                                 const std::vector<std::complex<Real>>& full) {
  const std::int64_t nc = r2c ? n[2] / 2 + 1 : n[2];
  std::vector<std::complex<Real>> out(static_cast<std::size_t>(n[0] * n[1] * nc));
  const int n0 = static_cast<int>(n[0]), n1 = static_cast<int>(n[1]), n2 = static_cast<int>(n[2]);
  if constexpr (std::is_same_v<Real, double>) {
    auto* o = reinterpret_cast<fftw_complex*>(out.data());
    if (r2c) {
      auto in = real_parts(full);
      fftw_plan p = fftw_plan_dft_r2c_3d(n0, n1, n2, in.data(), o, FFTW_ESTIMATE);
      fftw_execute(p);
      fftw_destroy_plan(p);
    } else {
      auto in = full;
      fftw_plan p = fftw_plan_dft_3d(n0, n1, n2, reinterpret_cast<fftw_complex*>(in.data()), o,
                                     FFTW_FORWARD, FFTW_ESTIMATE);
      fftw_execute(p);
      fftw_destroy_plan(p);
    }
  } else {
    auto* o = reinterpret_cast<fftwf_complex*>(out.data());
    if (r2c) {
      auto in = real_parts(full);
      fftwf_plan p = fftwf_plan_dft_r2c_3d(n0, n1, n2, in.data(), o, FFTW_ESTIMATE);
      fftwf_execute(p);
      fftwf_destroy_plan(p);
    } else {
      auto in = full;
      fftwf_plan p = fftwf_plan_dft_3d(n0, n1, n2, reinterpret_cast<fftwf_complex*>(in.data()), o,
                                       FFTW_FORWARD, FFTW_ESTIMATE);
      fftwf_execute(p);
      fftwf_destroy_plan(p);
    }
  }
  return out;
}

// The spectrum of fill()'s plane wave: N at the wave vector (1, 2, 3) mod n, 0 elsewhere.
template <typename Real>
std::vector<std::complex<Real>> planewave_spectrum(const std::array<std::int64_t, 3>& n) {
  const std::int64_t total = n[0] * n[1] * n[2];
  std::vector<std::complex<Real>> spectrum(static_cast<std::size_t>(total));
  const std::int64_t k = ((1 % n[0]) * n[1] + (2 % n[1])) * n[2] + (3 % n[2]);
  spectrum[static_cast<std::size_t>(k)] = static_cast<Real>(total);
  return spectrum;
}

// relative_error over a distributed array (a NaN or Inf on any rank makes it infinite).
template <typename A, typename B>
double max_relative(MPI_Comm comm, const A& got, const B& want) {
  ErrorAccumulator e;
  for (std::size_t i = 0; i < got.size(); ++i)
    e.add(got[i], want[i]);
  double local[3] = {e.diff, e.scale, e.finite ? 0.0 : 1.0};
  MPI_Allreduce(MPI_IN_PLACE, local, 3, MPI_DOUBLE, MPI_MAX, comm);
  if (local[2] > 0) return std::numeric_limits<double>::infinity();
  return local[1] > 0 ? local[0] / local[1] : local[0];
}

// The six-step FFT's input: point i of the global sequence.
inline std::complex<double> point(std::int64_t i) {
  const double x = static_cast<double>(i);
  return {std::sin(0.0137 * x), std::cos(0.0071 * x * x / 1000.0)};
}

// Concatenates every rank's block on rank 0, in rank order.
inline std::vector<std::complex<double>> gather_blocks(
    MPI_Comm comm, const std::vector<std::complex<double>>& mine) {
  return gather_elements(comm, mine);
}

// FFTW's serial 1D transform of the six-step FFT's input points: the fft1d reference.
inline std::vector<std::complex<double>> serial_1d_reference(std::int64_t points) {
  std::vector<std::complex<double>> x(static_cast<std::size_t>(points));
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = point(static_cast<std::int64_t>(i));
  auto* d = reinterpret_cast<fftw_complex*>(x.data());
  // The 64-bit interface: N may pass 2^31.
  const fftw_iodim64 dim{points, 1, 1};
  fftw_plan p = fftw_plan_guru64_dft(1, &dim, 0, nullptr, d, d, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  return x;
}

}  // namespace a2a::fft
