// DCT-IV and DST-IV (FFTW's REDFT11 and RODFT11, unnormalized) of every real line of even
// length n along one axis of a box, each through a complex DFT of n/2 points (the classic
// half-length algorithm: the line folded into n/2 complex values, a twiddle before the DFT and
// one after it). Each line keeps its own DFT: nothing mixes lines.
//
// Why not FFTW's own r2r plans: as for types II and III (paired_trig.hpp), FFTW runs these
// kinds one line at a time through a buffer, without its vector loops over neighbouring lines;
// here the DFT is FFTW's c2c over all lines at once, and the cost beyond it is two passes.
//
// With m = n/2, for j, k < m (a factor 2 for FFTW's normalization):
//   t[j] = (x[2j] + i x[n-1-2j]) e^{-i pi (j + 1/4) / n},  T = DFT_m(t),
//   u[k] = T[k] e^{-i pi k / n},
//   DCT-IV(x)[2k] = 2 Re u[k],  DCT-IV(x)[n-1-2k] = -2 Im u[k];
//   DST-IV(x)[k] = (-1)^k DCT-IV(x reversed)[k].
// The box is seen as [A][n][B] reals (as in paired_trig.hpp); the scratch is [A][n/2][B] complex,
// the same bytes.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "a2a/fft/box_fft.hpp"
#include "fftw.hpp"
#include "trig_lines.hpp"
#include "vector_clones.hpp"

namespace a2a::fft {

template <typename Real>
class HalfLengthDct4 final : public TrigLines<Real> {
  using C = std::complex<Real>;

 public:
  // The kinds and lengths served.
  static bool serves(Kind k, std::size_t n) {
    return (k == Kind::dct4 || k == Kind::dst4) && n % 2 == 0;
  }
  // Complex values of scratch a box [A][n][B] takes.
  static std::size_t scratch_size(std::size_t a, std::size_t n, std::size_t b) {
    return a * (n / 2) * TrigLines<Real>::row_stride(b);
  }

  // Plans FFTW's DFT of the folded lines on `scratch` (scratch_size values) with `flags`;
  // planned() is false where FFTW makes none (FFTW_WISDOM_ONLY without the wisdom).
  HalfLengthDct4(Kind kind, std::size_t a, std::size_t n, std::size_t b, C* scratch, unsigned flags,
                 std::size_t ldx = 0)
      : sine_(kind == Kind::dst4), a_(a), n_(n), b_(b), ldx_(ldx != 0 ? ldx : b) {
    const std::size_t m = n / 2;
    before_re_.resize(m);
    before_im_.resize(m);
    after_re_.resize(m);
    after_im_.resize(m);
    for (std::size_t j = 0; j < m; ++j) {  // in double
      const double nd = static_cast<double>(n), jd = static_cast<double>(j);
      before_re_[j] = static_cast<Real>(std::cos(-M_PI * (jd + 0.25) / nd));
      before_im_[j] = static_cast<Real>(std::sin(-M_PI * (jd + 0.25) / nd));
      after_re_[j] = static_cast<Real>(std::cos(-M_PI * jd / nd));
      after_im_[j] = static_cast<Real>(std::sin(-M_PI * jd / nd));
    }
    this->plan_lines(a, m, b, scratch, FFTW_FORWARD, flags);
  }

 private:
  // The lines of `in` ([A][n][B] reals) folded into the scratch; its DFTs unfolded into `out`.
  void into_scratch(const Real* in, C* scratch) const override { fold(in, scratch); }
  void out_of_scratch(const C* scratch, Real* out, Real factor) const override {
    unfold(scratch, out, factor);
  }

  // t[j] = (x[2j] + i x[n-1-2j]) before[j]; a DST reads the line reversed: the two swap.
  A2A_VECTOR_CLONES
  void fold(const Real* x, C* z) const {
    const std::size_t m = n_ / 2;
    if (b_ == 1) {  // lines along the last axis: a loop along each line (a loop over B would
                    // run once per value)
      const Real* wr = before_re_.data();
      const Real* wi = before_im_.data();
      auto lines = [&](auto sine) {
        for (std::size_t o = 0; o < a_; ++o) {
          const Real* line = x + o * n_;
          Real* out = reinterpret_cast<Real*>(z + o * m);
          for (std::size_t j = 0; j < m; ++j) {
            const Real even = sine ? line[n_ - 1 - 2 * j] : line[2 * j];
            const Real odd = sine ? line[2 * j] : line[n_ - 1 - 2 * j];
            out[2 * j] = even * wr[j] - odd * wi[j];
            out[2 * j + 1] = even * wi[j] + odd * wr[j];
          }
        }
      };
      sine_ ? lines(std::true_type{}) : lines(std::false_type{});
      return;
    }
    const std::size_t row = TrigLines<Real>::row_stride(b_);
    for (std::size_t o = 0; o < a_; ++o) {
      for (std::size_t j = 0; j < m; ++j) {
        const Real* even = x + (o * n_ + 2 * j) * ldx_;
        const Real* odd = x + (o * n_ + n_ - 1 - 2 * j) * ldx_;
        if (sine_) std::swap(even, odd);
        const Real wr = before_re_[j], wi = before_im_[j];
        Real* out = reinterpret_cast<Real*>(z + (o * m + j) * row);
        for (std::size_t i = 0; i < b_; ++i) {
          out[2 * i] = even[i] * wr - odd[i] * wi;
          out[2 * i + 1] = even[i] * wi + odd[i] * wr;
        }
      }
    }
  }
  // u[k] = T[k] after[k]; y[2k] = 2 Re u, y[n-1-2k] = -2 Im u (a DST: + 2 Im u, its odd sign),
  // times the factor.
  A2A_VECTOR_CLONES
  void unfold(const C* z, Real* x, Real factor) const {
    const std::size_t m = n_ / 2;
    const Real even_sign = 2 * factor, odd_sign = sine_ ? even_sign : -even_sign;
    if (b_ == 1) {  // as in fold
      const Real* vr = after_re_.data();
      const Real* vi = after_im_.data();
      for (std::size_t o = 0; o < a_; ++o) {
        const Real* in = reinterpret_cast<const Real*>(z + o * m);
        Real* line = x + o * n_;
        for (std::size_t k = 0; k < m; ++k) {
          const Real tr = in[2 * k], ti = in[2 * k + 1];
          line[2 * k] = even_sign * (tr * vr[k] - ti * vi[k]);
          line[n_ - 1 - 2 * k] = odd_sign * (tr * vi[k] + ti * vr[k]);
        }
      }
      return;
    }
    const std::size_t row = TrigLines<Real>::row_stride(b_);
    for (std::size_t o = 0; o < a_; ++o) {
      for (std::size_t k = 0; k < m; ++k) {
        Real* even = x + (o * n_ + 2 * k) * ldx_;
        Real* odd = x + (o * n_ + n_ - 1 - 2 * k) * ldx_;
        const Real vr = after_re_[k], vi = after_im_[k];
        const Real* in = reinterpret_cast<const Real*>(z + (o * m + k) * row);
        for (std::size_t i = 0; i < b_; ++i) {
          const Real tr = in[2 * i], ti = in[2 * i + 1];
          even[i] = even_sign * (tr * vr - ti * vi);
          odd[i] = odd_sign * (tr * vi + ti * vr);
        }
      }
    }
  }

  bool sine_;
  std::size_t a_, n_, b_, ldx_;
  // The twiddles before and after the DFT, real and imaginary parts apart (loops vectorize on
  // these).
  std::vector<Real> before_re_, before_im_, after_re_, after_im_;
};

}  // namespace a2a::fft
