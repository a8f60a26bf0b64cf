// DCT-I and DST-I (FFTW's REDFT00 and RODFT00, unnormalized) of odd length n = 2h + 1 (the
// sizes type-I grids take: 2^k + 1 points for DCT-I, 2^k - 1 for DST-I) as two DFTs of the
// halves: the split-radix step of FFTW's reodft00e-splitradix (Z. Wang, "Fast algorithms for
// the discrete W transform and for the discrete Fourier transform", IEEE Trans. ASSP 32(4),
// 1984). With s[i] = x[i] + x[n-1-i] (i = 0 .. h) and d[i] = x[i] - x[n-1-i] (i = 0 .. h-1), the
// outputs fall apart by parity:
//   DCT-I(x)[2k] = DCT-I(s)[k],    DCT-I(x)[2k+1] = DCT-III(d)[k];
//   DST-I(x)[2k] = DST-III(s)[k],  DST-I(x)[2k+1] = DST-I(d)[k].
// The type-I half is ExtendedTrig's: the DFT of the half's symmetric extension, which reads
// straight from x: x[j] + x[2h-j] for j < 2h (DCT: 2h points, not ExtendedTrig's 4h), or 0 then
// x[j-1] - x[n-j] for j = 1 .. n (DST: 2h + 2 points, not 4h + 4). The type-III half is
// PairedTrig's, a DFT of h (DCT) or h + 1 (DST) points, its pass in reading d or s as it goes.
// Two real lines ride in one complex line throughout, as there; s and d are never stored.
//
// Why: ExtendedTrig runs one complex DFT of about 4h points per pair of lines; this runs DFTs
// of about 2h and h, and its pass in writes about 3h complex values per pair, not 4h. Sums and
// differences only: as accurate as ExtendedTrig.
//
// The box is seen as [A][n][B] reals (as in paired_trig.hpp), rows ldx reals apart; the scratch
// holds the type-I half, [outer][2h or 2h+2][inner] complex, then the type-III half,
// [outer][h or h+1][inner].
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <memory>
#include <vector>

#include "a2a/fft/box_fft.hpp"
#include "lanes.hpp"
#include "paired_trig.hpp"
#include "trig_lines.hpp"
#include "vector_clones.hpp"

namespace a2a::fft {

// What BoxFft asks: the lengths served, the scratch, and the transform for a kind.
template <typename Real>
struct SplitTrig1 {
  // Odd lengths from 9 on (below, ExtendedTrig's one DFT is as cheap).
  static bool serves(Kind k, std::size_t n) {
    return (k == Kind::dct1 || k == Kind::dst1) && n % 2 == 1 && n >= 9;
  }
  // Complex values of scratch a box [A][n][B] takes.
  static std::size_t scratch_size(Kind k, std::size_t a, std::size_t n, std::size_t b);
  // The transform of kind k (dct1 or dst1) for a box [A][n][B], rows ldx reals apart (0: B),
  // planned on `scratch` (scratch_size values) with `flags`.
  static std::unique_ptr<LineTransform<Real>> make(Kind k, std::size_t a, std::size_t n,
                                                   std::size_t b, std::complex<Real>* scratch,
                                                   unsigned flags, std::size_t ldx = 0);
};

// The transform, compiled once per kind (Sine: DST-I), without a branch on it in the loops.
template <typename Real, bool Sine>
class SplitTrig1Of final : public LineTransform<Real> {
  using C = std::complex<Real>;
  using Paired = PairedTrig<Real>;

 public:
  static std::size_t scratch_size(std::size_t a, std::size_t n, std::size_t b) {
    const LinePairs pairs(a, b);
    return type1_size(pairs, n) +
           pairs.outer * type3_length(n) * LinesDft<Real>::row_stride(pairs.inner);
  }

  // Plans both DFTs on `scratch` (scratch_size values) with `flags`; planned() is false where
  // FFTW makes either not (FFTW_WISDOM_ONLY without the wisdom).
  SplitTrig1Of(std::size_t a, std::size_t n, std::size_t b, C* scratch, unsigned flags,
               std::size_t ldx)
      : a_(a),
        n_(n),
        b_(b),
        ldx_(ldx != 0 ? ldx : b),
        h_(n / 2),
        m1_(type1_length(n)),
        m3_(type3_length(n)),
        outer_(LinePairs(a, b).outer),
        inner_(LinePairs(a, b).inner),
        stride_(LinesDft<Real>::row_stride(inner_)),
        type3_at_(type1_size(LinePairs(a, b), n)),
        twiddle_(Paired::twiddles(m3_)),
        zeros_(n_) {
    for (const C& t : twiddle_) {  // as pair_in reads them: real parts, imaginary parts negated
      twiddle_re_.push_back(t.real());
      twiddle_im_.push_back(-t.imag());
    }
    type1_.plan(outer_, m1_, inner_, scratch, FFTW_FORWARD, flags);
    type3_.plan(outer_, m3_, inner_, scratch + type3_at_, FFTW_BACKWARD, flags);
  }

  void run(const Real* in, Real* out, C* scratch, Real factor = 1) const override {
    into_scratch(in, scratch);
    type1_.execute(scratch);
    type3_.execute(scratch + type3_at_);
    out_of_scratch(scratch, out, factor);
  }
  bool planned() const override { return type1_.planned() && type3_.planned(); }

 private:
  // The DFT lengths: the type-I half's extension and the type-III half.
  static std::size_t type1_length(std::size_t n) { return Sine ? n + 1 : n - 1; }
  static std::size_t type3_length(std::size_t n) { return Sine ? n / 2 + 1 : n / 2; }
  // The type-I half's complex values, rounded up to 64 bytes: the type-III half's DFT then
  // runs on an array aligned as the type-I one's.
  static std::size_t type1_size(const LinePairs& pairs, std::size_t n) {
    const std::size_t values =
        pairs.outer * type1_length(n) * LinesDft<Real>::row_stride(pairs.inner);
    const std::size_t per_64 = 64 / sizeof(C);
    return (values + per_64 - 1) / per_64 * per_64;
  }
  Real* type1_row(C* z, std::size_t o, std::size_t k) const {
    return reinterpret_cast<Real*>(z + (o * m1_ + k) * stride_);
  }
  Real* type3_row(C* z, std::size_t o, std::size_t k) const {
    return reinterpret_cast<Real*>(z + type3_at_ + (o * m3_ + k) * stride_);
  }
  const Real* type1_row(const C* z, std::size_t o, std::size_t k) const {
    return type1_row(const_cast<C*>(z), o, k);
  }
  const Real* type3_row(const C* z, std::size_t o, std::size_t k) const {
    return type3_row(const_cast<C*>(z), o, k);
  }
  // Where point k of the type-III half's DFT lands (PairedTrig's reorder).
  std::size_t position(std::size_t k) const { return Paired::reordered(k, m3_); }

  // The type-I half's extension row j from points front(j) and back(j) of x: DCT x[j] +
  // x[2h-j], DST x[j-1] - x[n-j] (its row 0 zero). The type-III half's input point k from points
  // front3(k) and back3(k): DCT d[k] = x[k] - x[2h-k], DST s read backward (PairedTrig's DST-III
  // reverses its input), s[h-k] = x[h-k] + x[h+k].
  A2A_VECTOR_CLONES
  void into_scratch(const Real* x, C* z) const {
    constexpr Real sign = Sine ? Real(-1) : Real(1);  // of the back point
    constexpr std::size_t first = Sine ? 1 : 0;
    const std::size_t n = n_, h = h_;
    auto front = [](std::size_t j) { return Sine ? j - 1 : j; };
    auto back = [n, h](std::size_t j) { return Sine ? n - j : 2 * h - j; };
    auto front3 = [h](std::size_t k) { return Sine ? h - k : k; };
    auto back3 = [h](std::size_t k) { return Sine ? h + k : 2 * h - k; };
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        auto at = [&](std::size_t j) { return x + (o * n_ + j) * ldx_; };
        if constexpr (Sine) {
          Real* zeros = type1_row(z, o, 0);
          for (std::size_t v = 0; v < 2 * inner_; ++v)
            zeros[v] = 0;
        }
        for (std::size_t j = first; j < m1_; ++j) {
          const Real* p = at(front(j));
          const Real* q = at(back(j));
          Real* out = type1_row(z, o, j);
          for (std::size_t v = 0; v < b_; ++v)
            out[v] = p[v] + sign * q[v];
          if (b_ % 2 == 1) out[b_] = 0;
        }
        auto values = [&](std::size_t k) {
          const Real* p = at(front3(k));
          const Real* q = at(back3(k));
          return [p, q](std::size_t v) { return p[v] - sign * q[v]; };
        };
        Paired::twiddle_row_in(values(0), Paired::zero, type3_row(z, o, 0), b_, twiddle_[0]);
        for (std::size_t k = 1; k < m3_; ++k)
          Paired::twiddle_row_in(values(k), values(m3_ - k), type3_row(z, o, k), b_, twiddle_[k]);
        continue;
      }
      // Lines 2o and 2o + 1 (zeros for an odd line out).
      const Real* a = x + 2 * o * n_;
      const Real* b = 2 * o + 1 < a_ ? a + n_ : zeros_.data();
      Real* extension = type1_row(z, o, 0);
      if (pair_in(a, b, extension, type3_row(z, o, 0))) continue;
      if constexpr (Sine) extension[0] = extension[1] = 0;
      for (std::size_t j = first; j < m1_; ++j) {
        extension[2 * j] = a[front(j)] + sign * a[back(j)];
        extension[2 * j + 1] = b[front(j)] + sign * b[back(j)];
      }
      auto values = [&](const Real* line) {
        return [line, front3, back3](std::size_t k) {
          return line[front3(k)] - sign * line[back3(k)];
        };
      };
      const Real* t = reinterpret_cast<const Real*>(twiddle_.data());
      Paired::twiddle_line_in(values(a), values(b), type3_row(z, o, 0), m3_, t);
    }
  }

  // Lines a and b (B == 1) into the type-I half's row `extension` and the type-III half's
  // `line`, as into_scratch's loops below, W points at a time (lanes.hpp): blocks from the
  // first point, the last moved back to end at the last point (overlapping the one before:
  // values written twice). False, with nothing written, where a half has fewer than W points.
  [[gnu::always_inline]] bool pair_in(const Real* a, const Real* b, Real* extension,
                                      Real* line) const {
    using L = Lanes<Real>;
    constexpr std::size_t W = L::W;
    constexpr Real sign = Sine ? Real(-1) : Real(1);  // of the back point
    constexpr std::size_t first = Sine ? 1 : 0;
    const std::size_t h = h_, m3 = m3_, count1 = m1_ - first;
    if (count1 < W || m3 < W + 1) return false;
    // The type-I half: point i + first from x[i] and x[2h - i].
    if constexpr (Sine) extension[0] = extension[1] = 0;
    for (std::size_t from = 0; from < count1; from += W) {
      const std::size_t i = std::min(from, count1 - W), back = 2 * h - i - (W - 1);
      L::store_zipped(extension + 2 * (i + first),
                      L::load(a + i) + sign * L::load_reversed(a + back),
                      L::load(b + i) + sign * L::load_reversed(b + back));
    }
    // The type-III half (PairedTrig::twiddle_line_in): points k and m3 - k of its input, DCT
    // d[k] = x[k] - x[2h-k], DST s[h-k] = x[h-k] + x[h+k].
    if constexpr (Sine) {
      line[0] = 2 * a[h];
      line[1] = 2 * b[h];
    } else {
      line[0] = a[0] - a[2 * h];
      line[1] = b[0] - b[2 * h];
    }
    for (std::size_t from = 1; from < m3; from += W) {
      const std::size_t k = std::min(from, m3 - W);
      typename L::V here_a, here_b, mirror_a, mirror_b;
      if constexpr (Sine) {
        here_a = L::load_reversed(a + h - k - (W - 1)) + L::load(a + h + k);
        here_b = L::load_reversed(b + h - k - (W - 1)) + L::load(b + h + k);
        mirror_a = L::load(a + k - 1) + L::load_reversed(a + 2 * h + 2 - k - W);
        mirror_b = L::load(b + k - 1) + L::load_reversed(b + 2 * h + 2 - k - W);
      } else {
        here_a = L::load(a + k) - L::load_reversed(a + 2 * h - k - (W - 1));
        here_b = L::load(b + k) - L::load_reversed(b + 2 * h - k - (W - 1));
        mirror_a = L::load_reversed(a + h - k - (W - 1)) - L::load(a + h + k);
        mirror_b = L::load_reversed(b + h - k - (W - 1)) - L::load(b + h + k);
      }
      const auto re = here_a + mirror_b, im = here_b - mirror_a;
      const auto ur = L::load(twiddle_re_.data() + k), ui = L::load(twiddle_im_.data() + k);
      L::store_zipped(line + 2 * k, ur * re - ui * im, ur * im + ui * re);
    }
    return true;
  }

  // Line `which` of a pair (B == 1) out of the type-I half's row `extension` and the type-III
  // half's `type3` into y, as out_of_scratch's loops below: 2W output pairs at a time (lanes.hpp)
  // while both halves have them; returns the points of each half done.
  [[gnu::always_inline]] std::size_t line_out(const Real* extension, const Real* type3, Real* y,
                                              std::size_t which, Real factor) const {
    using L = Lanes<Real>;
    constexpr std::size_t W = L::W;
    constexpr std::size_t type1_first = Sine ? 1 : 0;
    const std::size_t part = Sine ? 1 - which : which;
    const Real f = Sine && which == 0 ? -factor : factor;
    const Real odd = Sine ? -factor : factor;
    const std::size_t both = std::min(Sine ? h_ : h_ + 1, m3_);
    std::size_t done = 0;
    for (; done + 2 * W <= both; done += 2 * W) {
      const std::size_t q = done / 2;
      const auto here = factor * L::load_part(type3 + 2 * q, which);
      const auto mirror = odd * L::reversed(L::load_part(type3 + 2 * (m3_ - q - W), which));
      const auto low = L::zip_low(here, mirror), high = L::zip_high(here, mirror);
      const auto first = f * L::load_part(extension + 2 * (done + type1_first), part);
      const auto second = f * L::load_part(extension + 2 * (done + W + type1_first), part);
      if constexpr (Sine) {
        L::store_zipped(y + 2 * done, low, first);
        L::store_zipped(y + 2 * done + 2 * W, high, second);
      } else {
        L::store_zipped(y + 2 * done, first, low);
        L::store_zipped(y + 2 * done + 2 * W, second, high);
      }
    }
    return done;
  }

  // DCT: point 2k from the type-I half's row k (real parts line a, imaginary parts line b),
  // point 2k + 1 from the type-III half. DST: point 2k + 1 from the type-I half's row k + 1
  // (line a from its imaginary parts negated, line b from its real parts), point 2k from the
  // type-III half, negated where k is odd.
  A2A_VECTOR_CLONES
  void out_of_scratch(const C* z, Real* x, Real factor) const {
    const std::size_t type1_first = Sine ? 1 : 0;  // output point of type-I row 0 (+1)
    const std::size_t type3_first = Sine ? 0 : 1;
    const std::size_t type1_points = Sine ? h_ : h_ + 1;
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        // Row r of x in order: from the type-I half where r % 2 == type1_first.
        for (std::size_t r = 0; r < n_; ++r) {
          Real* out = x + (o * n_ + r) * ldx_;
          const std::size_t k = r / 2;
          if (r % 2 != type1_first) {
            const Real* in = type3_row(z, o, position(k));
            const Real f = Sine && k % 2 == 1 ? -factor : factor;
            for (std::size_t v = 0; v < b_; ++v)
              out[v] = f * in[v];
          } else if (Sine) {
            const Real* in = type1_row(z, o, k + 1);
            for (std::size_t i = 0; i < b_ / 2; ++i) {
              out[2 * i] = -factor * in[2 * i + 1];
              out[2 * i + 1] = factor * in[2 * i];
            }
            if (b_ % 2 == 1) out[b_ - 1] = -factor * in[b_];
          } else {
            const Real* in = type1_row(z, o, k);
            for (std::size_t v = 0; v < b_; ++v)
              out[v] = factor * in[v];
          }
        }
        continue;
      }
      Real* lines[2] = {x + 2 * o * n_, 2 * o + 1 < a_ ? x + (2 * o + 1) * n_ : nullptr};
      const Real* extension = type1_row(z, o, 0);
      const Real* type3 = type3_row(z, o, 0);
      for (std::size_t line = 0; line < 2 && lines[line] != nullptr; ++line) {
        Real* y = lines[line];
        // DCT: line a the real parts, b the imaginary; DST: a the imaginary negated, b the real.
        const std::size_t part = Sine ? 1 - line : line;
        const Real f = Sine && line == 0 ? -factor : factor;
        const std::size_t done = line_out(extension, type3, y, line, factor);  // even
        for (std::size_t k = done; k < type1_points; ++k)
          y[2 * k + type1_first] = f * extension[2 * (k + type1_first) + part];
        // The type-III half, reordered: point k even from k/2, odd from m3 - 1 - k/2.
        const Real odd = Sine ? -factor : factor;
        for (std::size_t k = done; k < m3_; k += 2)
          y[2 * k + type3_first] = factor * type3[2 * (k / 2) + line];
        for (std::size_t k = done + 1; k < m3_; k += 2)
          y[2 * k + type3_first] = odd * type3[2 * (m3_ - 1 - k / 2) + line];
      }
    }
  }

  std::size_t a_, n_, b_, ldx_, h_, m1_, m3_, outer_, inner_, stride_, type3_at_;
  std::vector<C> twiddle_;
  std::vector<Real> twiddle_re_, twiddle_im_, zeros_;  // zeros_: the odd line out's partner
  LinesDft<Real> type1_, type3_;
};

template <typename Real>
std::size_t SplitTrig1<Real>::scratch_size(Kind k, std::size_t a, std::size_t n, std::size_t b) {
  return k == Kind::dst1 ? SplitTrig1Of<Real, true>::scratch_size(a, n, b)
                         : SplitTrig1Of<Real, false>::scratch_size(a, n, b);
}
template <typename Real>
std::unique_ptr<LineTransform<Real>> SplitTrig1<Real>::make(Kind k, std::size_t a, std::size_t n,
                                                            std::size_t b,
                                                            std::complex<Real>* scratch,
                                                            unsigned flags, std::size_t ldx) {
  if (k == Kind::dst1)
    return std::make_unique<SplitTrig1Of<Real, true>>(a, n, b, scratch, flags, ldx);
  return std::make_unique<SplitTrig1Of<Real, false>>(a, n, b, scratch, flags, ldx);
}

}  // namespace a2a::fft
