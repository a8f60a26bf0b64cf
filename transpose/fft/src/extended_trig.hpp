// DCT-I and DST-I (FFTW's REDFT00 and RODFT00, unnormalized) of every real line along one axis
// of a box, each line extended to the sequence whose DFT it is: even for DCT-I (the n points,
// then points n-2 .. 1 again: 2(n - 1) in all), odd for DST-I (a zero, the n points, a zero,
// then the points negated in reverse: 2(n + 1)). That DFT is real for an even sequence and
// imaginary for an odd one, so two real lines ride as the real and imaginary parts of one
// complex line and come out apart with no arithmetic:
//   DCT-I(a)[k] = Re Z[k], DCT-I(b)[k] = Im Z[k]             (k = 0 .. n-1),
//   DST-I(a)[k] = -Im Z[k+1], DST-I(b)[k] = Re Z[k+1],
// where z is the extension of a + ib and Z its DFT (e^{-2 pi i/m}: the odd case's sign).
//
// Why not FFTW's own r2r plans: as for types II and III (paired_trig.hpp), FFTW runs these
// kinds one line at a time through a buffer; here the DFT is FFTW's c2c over all pairs at once
// (its vector loops). The DFT has twice each line's length, so the cost is about that of a
// complex DFT of the same grid, plus two passes. The extension is stable: FFTW's size n - 1
// algorithm for DCT-I, which it ranks below the padded one for its error, is not used.
//
// The box is seen as [A][n][B] reals, lines paired along B where B >= 2 (the scratch is
// [A][m][ceil(B/2)] complex), else along A ([ceil(A/2)][m] complex), as in paired_trig.hpp; an
// odd line out is paired with zeros.
#pragma once

#include <complex>
#include <cstddef>
#include <type_traits>

#include "a2a/fft/box_fft.hpp"
#include "fftw.hpp"
#include "trig_lines.hpp"
#include "vector_clones.hpp"

namespace a2a::fft {

template <typename Real>
class ExtendedTrig final : public TrigLines<Real> {
  using C = std::complex<Real>;
  using Pairs = typename TrigLines<Real>::Pairs;

 public:
  // The kinds and lengths served (DCT-I needs two points; its length-1 case is an error
  // before any plan).
  static bool serves(Kind k, std::size_t n) {
    return (k == Kind::dct1 && n >= 2) || (k == Kind::dst1 && n >= 1);
  }
  // The extended length.
  static std::size_t extended(Kind k, std::size_t n) {
    return k == Kind::dct1 ? 2 * (n - 1) : 2 * (n + 1);
  }
  // Complex values of scratch a box [A][n][B] takes.
  static std::size_t scratch_size(Kind k, std::size_t a, std::size_t n, std::size_t b) {
    const Pairs pairs(a, b);
    return pairs.outer * extended(k, n) * TrigLines<Real>::row_stride(pairs.inner);
  }

  // Plans FFTW's DFT of the extended pairs on `scratch` (scratch_size values) with `flags`;
  // planned() is false where FFTW makes none (FFTW_WISDOM_ONLY without the wisdom).
  ExtendedTrig(Kind kind, std::size_t a, std::size_t n, std::size_t b, C* scratch, unsigned flags,
               std::size_t ldx = 0)
      : sine_(kind == Kind::dst1),
        a_(a),
        n_(n),
        b_(b),
        ldx_(ldx != 0 ? ldx : b),
        m_(extended(kind, n)),
        outer_(Pairs(a, b).outer),
        inner_(Pairs(a, b).inner) {
    this->plan_lines(outer_, m_, inner_, scratch, FFTW_FORWARD, flags);
  }

 private:
  // The lines of `in` ([A][n][B] reals) extended into the scratch; its DFTs taken apart into
  // `out`.
  void into_scratch(const Real* in, C* scratch) const override { extend(in, scratch); }
  void out_of_scratch(const C* scratch, Real* out, Real factor) const override {
    take(scratch, out, factor);
  }

  // Where point j of a line sits in the extension, and where its mirror (negated for DST-I)
  // does; the points with a mirror of their own are [first, last) (DCT-I's ends are not: they
  // are the extension's points 0 and n - 1 once only).
  std::size_t at(std::size_t j) const { return sine_ ? j + 1 : j; }
  std::size_t mirror(std::size_t j) const { return m_ - at(j); }
  std::size_t first() const { return sine_ ? 0 : 1; }
  std::size_t last() const { return sine_ ? n_ : n_ - 1; }
  template <typename Z>  // C or const C
  Z* row(Z* z, std::size_t o, std::size_t k) const {
    return z + (o * m_ + k) * TrigLines<Real>::row_stride(inner_);
  }

  A2A_VECTOR_CLONES
  void extend(const Real* x, C* z) const {
    const Real odd = sine_ ? Real(-1) : Real(1);
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        // Rows of B reals: point j of every line of row o, the pairs' values side by side.
        auto copy_row = [&](std::size_t j, std::size_t k, Real sign) {
          const Real* in = x + (o * n_ + j) * ldx_;
          Real* out = reinterpret_cast<Real*>(row(z, o, k));
          for (std::size_t v = 0; v < b_; ++v)
            out[v] = sign * in[v];
          if (b_ % 2 == 1) out[b_] = 0;
        };
        for (std::size_t j = 0; j < n_; ++j)
          copy_row(j, at(j), Real(1));
        for (std::size_t j = first(); j < last(); ++j)
          copy_row(j, mirror(j), odd);
      } else {
        // Two plain loops, the odd line out chosen outside them: the points forward from
        // at(0), the mirrored ones (DCT-I: 1 .. n-2; DST-I: all) backward from mirror(first()).
        const Real* a = x + 2 * o * n_;
        const Real* b = 2 * o + 1 < a_ ? a + n_ : nullptr;
        Real* line = reinterpret_cast<Real*>(row(z, o, 0));
        Real* here = line + 2 * at(0);
        Real* there = line + 2 * mirror(first());
        auto points = [&](auto two) {
          for (std::size_t j = 0; j < n_; ++j) {
            here[2 * j] = a[j];
            here[2 * j + 1] = two ? b[j] : Real(0);
          }
          for (std::size_t j = first(); j < last(); ++j) {
            const std::size_t back = 2 * (j - first());
            there[-static_cast<std::ptrdiff_t>(back)] = odd * a[j];
            there[1 - static_cast<std::ptrdiff_t>(back)] = two ? odd * b[j] : Real(0);
          }
        };
        if (b != nullptr) {
          points(std::true_type{});
        } else {
          points(std::false_type{});
        }
      }
      if (sine_) {  // the odd extension's two zeros
        for (const std::size_t k : {std::size_t{0}, n_ + 1}) {
          C* zeros = row(z, o, k);
          for (std::size_t v = 0; v < inner_; ++v)
            zeros[v] = C(0);
        }
      }
    }
  }
  // DCT-I: line 2i (or a) from the real parts, 2i + 1 (or b) from the imaginary ones, of Z[k];
  // DST-I: from Z[k + 1], the imaginary parts negated into the first line.
  A2A_VECTOR_CLONES
  void take(const C* z, Real* x, Real factor) const {
    const std::size_t shift = sine_ ? 1 : 0;
    const Real first = sine_ ? -factor : factor;
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        for (std::size_t k = 0; k < n_; ++k) {
          const Real* in = reinterpret_cast<const Real*>(row(z, o, k + shift));
          Real* out = x + (o * n_ + k) * ldx_;
          if (sine_) {
            for (std::size_t i = 0; i < b_ / 2; ++i) {
              out[2 * i] = first * in[2 * i + 1];
              out[2 * i + 1] = factor * in[2 * i];
            }
            if (b_ % 2 == 1) out[b_ - 1] = first * in[b_];
          } else {
            for (std::size_t v = 0; v < b_; ++v)
              out[v] = factor * in[v];
          }
        }
      } else {
        Real* a = x + 2 * o * n_;
        Real* b = 2 * o + 1 < a_ ? a + n_ : nullptr;
        const Real* line = reinterpret_cast<const Real*>(row(z, o, shift));
        const std::size_t re = sine_ ? 1 : 0, im = 1 - re;  // a's part, b's part
        for (std::size_t k = 0; k < n_; ++k)
          a[k] = first * line[2 * k + re];
        if (b != nullptr) {
          for (std::size_t k = 0; k < n_; ++k)
            b[k] = factor * line[2 * k + im];
        }
      }
    }
  }

  bool sine_;
  std::size_t a_, n_, b_, ldx_, m_, outer_, inner_;
};

}  // namespace a2a::fft
