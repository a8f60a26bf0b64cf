// DCT-I (FFTW's REDFT00, unnormalized) of odd length n = 2h + 1 (the sizes DCT-I grids take:
// 2^k + 1 points) as two DFTs of the halves: the split-radix step of FFTW's reodft00e-splitradix
// (Z. Wang, "Fast algorithms for the discrete W transform and for the discrete Fourier
// transform", IEEE Trans. ASSP 32(4), 1984). With s[i] = x[i] + x[n-1-i] (i = 0 .. h) and
// d[i] = x[i] - x[n-1-i] (i = 0 .. h-1), the outputs fall apart by parity:
//   DCT-I(x)[2k] = DCT-I(s)[k],   DCT-I(x)[2k+1] = DCT-III(d)[k].
// The even half is ExtendedTrig's: the real part of the DFT of s's even extension, here
// x[j] + x[2h-j] for j = 0 .. 2h-1 (2h points, not ExtendedTrig's 4h for x); the odd half is
// PairedTrig's DCT-III, a DFT of h points. Two real lines ride in one complex line throughout,
// as there. s and d are never stored: the pass in reads them straight from x.
//
// Why: ExtendedTrig runs a complex DFT of 4h points per pair of lines; this runs DFTs of 2h
// and h, and its pass in writes 3h complex values per pair, not 4h. Sums and differences
// only: as accurate as ExtendedTrig.
//
// The box is seen as [A][n][B] reals (as in paired_trig.hpp); the scratch holds the even
// half, [outer][2h][inner] complex, then the odd half, [outer][h][inner].
#pragma once

#include <complex>
#include <cstddef>
#include <vector>

#include "a2a/fft/box_fft.hpp"
#include "paired_trig.hpp"
#include "trig_lines.hpp"
#include "vector_clones.hpp"

namespace a2a::fft {

template <typename Real>
class SplitDct1 final : public LineTransform<Real> {
  using C = std::complex<Real>;
  using Paired = PairedTrig<Real>;

 public:
  // Odd lengths from 9 on (below, ExtendedTrig's one DFT of 4h points is as cheap).
  static bool serves(Kind k, std::size_t n) { return k == Kind::dct1 && n % 2 == 1 && n >= 9; }
  // Complex values of scratch a box [A][n][B] takes.
  static std::size_t scratch_size(std::size_t a, std::size_t n, std::size_t b) {
    const LinePairs pairs(a, b);
    return even_size(pairs, n / 2) +
           pairs.outer * (n / 2) * LinesDft<Real>::row_stride(pairs.inner);
  }

  // Plans both DFTs on `scratch` (scratch_size values) with `flags`; planned() is false where
  // FFTW makes either not (FFTW_WISDOM_ONLY without the wisdom).
  SplitDct1(std::size_t a, std::size_t n, std::size_t b, std::complex<Real>* scratch,
            unsigned flags, std::size_t ldx = 0)
      : a_(a),
        n_(n),
        b_(b),
        ldx_(ldx != 0 ? ldx : b),
        h_(n / 2),
        outer_(LinePairs(a, b).outer),
        inner_(LinePairs(a, b).inner),
        stride_(LinesDft<Real>::row_stride(inner_)),
        odd_at_(even_size(LinePairs(a, b), n / 2)),
        twiddle_(Paired::twiddles(n / 2)) {
    even_.plan(outer_, 2 * h_, inner_, scratch, FFTW_FORWARD, flags);
    odd_.plan(outer_, h_, inner_, scratch + odd_at_, FFTW_BACKWARD, flags);
  }

  void run(const Real* in, Real* out, C* scratch, Real factor = 1) const override {
    into_scratch(in, scratch);
    even_.execute(scratch);
    odd_.execute(scratch + odd_at_);
    out_of_scratch(scratch, out, factor);
  }
  bool planned() const override { return even_.planned() && odd_.planned(); }

 private:
  // The even half's complex values, rounded up to 64 bytes: the odd half's DFT then runs on an
  // array aligned as the even one's.
  static std::size_t even_size(const LinePairs& pairs, std::size_t h) {
    const std::size_t values = pairs.outer * 2 * h * LinesDft<Real>::row_stride(pairs.inner);
    const std::size_t per_64 = 64 / sizeof(C);
    return (values + per_64 - 1) / per_64 * per_64;
  }
  Real* even_row(C* z, std::size_t o, std::size_t k) const {
    return reinterpret_cast<Real*>(z + (o * 2 * h_ + k) * stride_);
  }
  Real* odd_row(C* z, std::size_t o, std::size_t k) const {
    return reinterpret_cast<Real*>(z + odd_at_ + (o * h_ + k) * stride_);
  }
  const Real* even_row(const C* z, std::size_t o, std::size_t k) const {
    return even_row(const_cast<C*>(z), o, k);
  }
  const Real* odd_row(const C* z, std::size_t o, std::size_t k) const {
    return odd_row(const_cast<C*>(z), o, k);
  }

  // Even half: row j = x[j] + x[2h-j] for j < 2h. Odd half: PairedTrig's DCT-III pass in on
  // d[k] = x[k] - x[2h-k].
  A2A_VECTOR_CLONES
  void into_scratch(const Real* x, C* z) const {
    const std::size_t last = 2 * h_;
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        auto at = [&](std::size_t j) { return x + (o * n_ + j) * ldx_; };
        for (std::size_t j = 0; j < last; ++j) {
          const Real* front = at(j);
          const Real* back = at(last - j);
          Real* out = even_row(z, o, j);
          for (std::size_t v = 0; v < b_; ++v)
            out[v] = front[v] + back[v];
          if (b_ % 2 == 1) out[b_] = 0;
        }
        auto difference = [&](std::size_t k) {
          const Real* front = at(k);
          const Real* back = at(last - k);
          return [front, back](std::size_t v) { return front[v] - back[v]; };
        };
        Paired::twiddle_row_in(difference(0), Paired::zero, odd_row(z, o, 0), b_, twiddle_[0]);
        for (std::size_t k = 1; k < h_; ++k)
          Paired::twiddle_row_in(difference(k), difference(h_ - k), odd_row(z, o, k), b_,
                                 twiddle_[k]);
        continue;
      }
      // Lines 2o and 2o + 1 (b nullptr for an odd line out).
      const Real* a = x + 2 * o * n_;
      const Real* b = 2 * o + 1 < a_ ? a + n_ : nullptr;
      Real* even = even_row(z, o, 0);
      const Real* t = reinterpret_cast<const Real*>(twiddle_.data());
      auto difference = [last](const Real* line) {
        return [line, last](std::size_t k) { return line[k] - line[last - k]; };
      };
      if (b != nullptr) {
        for (std::size_t j = 0; j < last; ++j) {
          even[2 * j] = a[j] + a[last - j];
          even[2 * j + 1] = b[j] + b[last - j];
        }
        Paired::twiddle_line_in(difference(a), difference(b), odd_row(z, o, 0), h_, t);
      } else {
        for (std::size_t j = 0; j < last; ++j) {
          even[2 * j] = a[j] + a[last - j];
          even[2 * j + 1] = 0;
        }
        Paired::twiddle_line_in(difference(a), Paired::zero, odd_row(z, o, 0), h_, t);
      }
    }
  }
  // Point 2k from the even half's real (line a) and imaginary (line b) parts, k = 0 .. h;
  // point 2k + 1 from the odd half, its DCT-III reordered (PairedTrig's reorder_out: point k
  // at k/2 for k even, h-1-k/2 for k odd).
  A2A_VECTOR_CLONES
  void out_of_scratch(const C* z, Real* x, Real factor) const {
    auto position = [&](std::size_t k) { return k % 2 == 0 ? k / 2 : h_ - 1 - k / 2; };
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        for (std::size_t k = 0; k <= h_; ++k) {
          const Real* even = even_row(z, o, k);
          Real* out = x + (o * n_ + 2 * k) * ldx_;
          for (std::size_t v = 0; v < b_; ++v)
            out[v] = factor * even[v];
          if (k == h_) break;
          const Real* odd = odd_row(z, o, position(k));
          out += ldx_;
          for (std::size_t v = 0; v < b_; ++v)
            out[v] = factor * odd[v];
        }
        continue;
      }
      Real* a = x + 2 * o * n_;
      Real* b = 2 * o + 1 < a_ ? a + n_ : nullptr;
      const Real* even = even_row(z, o, 0);
      const Real* odd = odd_row(z, o, 0);
      for (std::size_t k = 0; k <= h_; ++k)
        a[2 * k] = factor * even[2 * k];
      for (std::size_t m = 0; 2 * m < h_; ++m)  // odd points 4m + 1 from odd[m]
        a[4 * m + 1] = factor * odd[2 * m];
      for (std::size_t m = 0; 2 * m + 1 < h_; ++m)  // 4m + 3 from odd[h-1-m]
        a[4 * m + 3] = factor * odd[2 * (h_ - 1 - m)];
      if (b == nullptr) continue;
      for (std::size_t k = 0; k <= h_; ++k)
        b[2 * k] = factor * even[2 * k + 1];
      for (std::size_t m = 0; 2 * m < h_; ++m)
        b[4 * m + 1] = factor * odd[2 * m + 1];
      for (std::size_t m = 0; 2 * m + 1 < h_; ++m)
        b[4 * m + 3] = factor * odd[2 * (h_ - 1 - m) + 1];
    }
  }

  std::size_t a_, n_, b_, ldx_, h_, outer_, inner_, stride_, odd_at_;
  std::vector<C> twiddle_;
  LinesDft<Real> even_, odd_;
};

}  // namespace a2a::fft
