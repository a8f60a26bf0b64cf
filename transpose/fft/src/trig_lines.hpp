// The base of a real-to-real transform of every line along one axis of a box, run through a
// complex scratch array and one FFTW complex DFT over it (in place, or from one array into
// another: its first pass reads the lines into the scratch, its last writes them back): what BoxFft
// holds for the kinds it does not leave to FFTW's own r2r plans (paired_trig.hpp: types II and III;
// half_length_dct4.hpp: type IV; extended_trig.hpp: type I, where split_trig1.hpp does not).
#pragma once

#include <complex>
#include <cstddef>

#include "fftw.hpp"

namespace a2a::fft {

// What BoxFft runs for such a transform: a TrigLines (one DFT), a SplitTrig1 (two:
// split_trig1.hpp), or a LinePanels running either a panel of the box at a time
// (line_panels.hpp).
template <typename Real>
class LineTransform {
 public:
  virtual ~LineTransform() = default;
  LineTransform() = default;
  LineTransform(const LineTransform&) = delete;
  LineTransform& operator=(const LineTransform&) = delete;
  // Transforms every line of `in` into `out` (the same array, or one of the same size), through
  // `scratch`, the results times `factor`.
  virtual void run(const Real* in, Real* out, std::complex<Real>* scratch,
                   Real factor = 1) const = 0;
  // False where FFTW made no plan (FFTW_WISDOM_ONLY without the wisdom).
  virtual bool planned() const = 0;
};

// Two real lines of a box [A][n][B] share one complex line: neighbours along B where B >= 2
// (the scratch [A][length][ceil(B/2)] complex), else along A ([ceil(A/2)][length]); an odd line
// out is paired with zeros.
struct LinePairs {
  std::size_t outer, inner;
  LinePairs(std::size_t a, std::size_t b)
      : outer(b >= 2 ? a : (a + 1) / 2), inner(b >= 2 ? (b + 1) / 2 : 1) {}
};

// FFTW's DFT of every line along the middle axis of a scratch [outer][length][inner] complex
// values, in place, rows row_stride(inner) apart.
template <typename Real>
class LinesDft {
  using F = Fftw<Real>;

 public:
  LinesDft() = default;
  LinesDft(const LinesDft&) = delete;
  LinesDft& operator=(const LinesDft&) = delete;
  ~LinesDft() {
    if (plan_ != nullptr) F::destroy(plan_);
  }
  // The complex values from one scratch row [o][k][...] to the next: `inner`, padded where it
  // is long (64 values on) to an odd number of cache lines, so that the DFTs along the middle
  // axis never step a multiple of two lines apart (a power of two puts them all in the same
  // cache sets, which costs FFTW twice the time: 23 against 13 us for 512 lines of 32 on an
  // AMD EPYC, 271 against 151 us for 2048 lines of 64; one rank's half of a 31^3 DST-I, rows
  // of 248 values, 218 against 170 us where they were 4 KiB apart).
  static std::size_t row_stride(std::size_t inner) {
    if (inner < 64) return inner;
    constexpr std::size_t per_line = 64 / sizeof(std::complex<Real>);  // values a cache line
    const std::size_t lines = (inner + per_line - 1) / per_line;
    return (lines % 2 == 0 ? lines + 1 : lines) * per_line;
  }
  // Plans the DFT (sign FFTW_FORWARD or FFTW_BACKWARD) on `scratch` with `flags`.
  void plan(std::size_t outer, std::size_t length, std::size_t inner, std::complex<Real>* scratch,
            int sign, unsigned flags) {
    const auto stride = static_cast<std::ptrdiff_t>(row_stride(inner));
    const auto n = static_cast<std::ptrdiff_t>(length);
    const typename F::iodim64 line{n, stride, stride};
    const typename F::iodim64 how[2] = {
        {static_cast<std::ptrdiff_t>(outer), n * stride, n * stride},
        {static_cast<std::ptrdiff_t>(inner), 1, 1}};
    auto* z = reinterpret_cast<typename F::complex*>(scratch);
    plan_ = F::guru64(1, &line, 2, how, z, z, sign, flags);
  }
  // False where FFTW made no plan (FFTW_WISDOM_ONLY without the wisdom).
  bool planned() const { return plan_ != nullptr; }
  void execute(std::complex<Real>* scratch) const {
    auto* z = reinterpret_cast<typename F::complex*>(scratch);
    F::execute(plan_, z, z);
  }

 private:
  typename F::plan plan_ = nullptr;
};

template <typename Real>
class TrigLines : public LineTransform<Real> {
 public:
  // A pass into the scratch, FFTW's DFT there, a pass back.
  void run(const Real* in, Real* out, std::complex<Real>* scratch, Real factor = 1) const override {
    into_scratch(in, scratch);
    dft_.execute(scratch);
    out_of_scratch(scratch, out, factor);
  }
  bool planned() const override { return dft_.planned(); }

 protected:
  TrigLines() = default;
  using Pairs = LinePairs;
  static std::size_t row_stride(std::size_t inner) { return LinesDft<Real>::row_stride(inner); }
  // Plans the DFT of every line along the middle axis of scratch, [outer][length][inner]
  // complex values (LinesDft).
  void plan_lines(std::size_t outer, std::size_t length, std::size_t inner,
                  std::complex<Real>* scratch, int sign, unsigned flags) {
    dft_.plan(outer, length, inner, scratch, sign, flags);
  }
  // The passes around the DFT: every line of `in` into the scratch, and the scratch's DFTs
  // into the lines of `out`, times `factor`.
  virtual void into_scratch(const Real* in, std::complex<Real>* scratch) const = 0;
  virtual void out_of_scratch(const std::complex<Real>* scratch, Real* out, Real factor) const = 0;

 private:
  LinesDft<Real> dft_;
};

}  // namespace a2a::fft
