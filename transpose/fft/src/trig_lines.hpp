// The base of a real-to-real transform of every line along one axis of a box, run through a
// complex scratch array and one FFTW complex DFT over it (in place, or from one array into
// another: its first pass reads the lines into the scratch, its last writes them back): what BoxFft
// holds for the kinds it does not leave to FFTW's own r2r plans (paired_trig.hpp: types II and III;
// half_length_dct4.hpp: type IV; extended_trig.hpp: type I).
#pragma once

#include <complex>
#include <cstddef>

#include "fftw.hpp"

namespace a2a::fft {

template <typename Real>
class TrigLines {
  using F = Fftw<Real>;

 public:
  virtual ~TrigLines() {
    if (plan_ != nullptr) F::destroy(plan_);
  }
  TrigLines(const TrigLines&) = delete;
  TrigLines& operator=(const TrigLines&) = delete;

  // Transforms every line of `in` into `out` (the same array, or one of the same size), through
  // `scratch`, the results times `factor`: a pass into the scratch, FFTW's DFT there, a pass
  // back.
  void run(const Real* in, Real* out, std::complex<Real>* scratch, Real factor = 1) const {
    into_scratch(in, scratch);
    transform_lines(scratch);
    out_of_scratch(scratch, out, factor);
  }
  // False where FFTW made no plan (FFTW_WISDOM_ONLY without the wisdom).
  bool planned() const { return plan_ != nullptr; }

 protected:
  TrigLines() = default;
  // Two real lines of a box [A][n][B] share one complex line: neighbours along B where B >= 2
  // (the scratch [A][length][ceil(B/2)] complex), else along A ([ceil(A/2)][length]); an odd
  // line out is paired with zeros.
  struct Pairs {
    std::size_t outer, inner;
    Pairs(std::size_t a, std::size_t b)
        : outer(b >= 2 ? a : (a + 1) / 2), inner(b >= 2 ? (b + 1) / 2 : 1) {}
  };
  // The complex values from one scratch row [o][k][...] to the next: `inner`, padded where it
  // is long, so that the DFTs along the middle axis do not step a power of two apart (all in
  // the same cache sets, which costs FFTW twice the time: 23 against 13 us for 512 lines of
  // 32 on an AMD EPYC, 271 against 151 us for 2048 lines of 64).
  static std::size_t row_stride(std::size_t inner) { return inner >= 64 ? inner + 8 : inner; }
  // Plans FFTW's DFT (sign FFTW_FORWARD or FFTW_BACKWARD) of every line along the middle axis of
  // scratch, [outer][length][inner] complex values (rows row_stride(inner) apart), in place.
  void plan_lines(std::size_t outer, std::size_t length, std::size_t inner,
                  std::complex<Real>* scratch, int sign, unsigned flags) {
    const auto stride = static_cast<std::ptrdiff_t>(row_stride(inner));
    const auto n = static_cast<std::ptrdiff_t>(length);
    const typename F::iodim64 line{n, stride, stride};
    const typename F::iodim64 how[2] = {
        {static_cast<std::ptrdiff_t>(outer), n * stride, n * stride},
        {static_cast<std::ptrdiff_t>(inner), 1, 1}};
    auto* z = reinterpret_cast<typename F::complex*>(scratch);
    plan_ = F::guru64(1, &line, 2, how, z, z, sign, flags);
  }
  // The passes around the DFT: every line of `in` into the scratch, and the scratch's DFTs
  // into the lines of `out`, times `factor`.
  virtual void into_scratch(const Real* in, std::complex<Real>* scratch) const = 0;
  virtual void out_of_scratch(const std::complex<Real>* scratch, Real* out, Real factor) const = 0;

 private:
  void transform_lines(std::complex<Real>* scratch) const {
    auto* z = reinterpret_cast<typename F::complex*>(scratch);
    F::execute(plan_, z, z);
  }

  typename F::plan plan_ = nullptr;
};

}  // namespace a2a::fft
