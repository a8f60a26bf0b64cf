// DCT-II, DCT-III, DST-II and DST-III (FFTW's REDFT10, REDFT01, RODFT10, RODFT01, unnormalized)
// of every real line along one axis of a box, through complex DFTs of half as many lines: two
// real lines ride as the real and imaginary parts of one complex line (J. Makhoul, "A fast
// cosine transform in one and two dimensions", IEEE Trans. ASSP 28(1), 1980: a DCT-II of n
// points is a DFT of the same n points reordered, then a twiddle).
//
// Why not FFTW's own r2r plans: FFTW runs these kinds one line at a time through a buffer
// (redft10e-r2hc), without its vector loops over neighbouring lines; measured on one rank's
// 128 x 4096 lines they take 2-4x a complex DFT of the same lines holding twice the data. Here
// the DFT is FFTW's c2c over all pairs at once (its vector loops), and the cost beyond it is two
// passes: the reorder (into the scratch array) and the twiddle back (into the lines).
//
// The box is seen as [A][n][B] reals (A: the axes before the line axis, B: those after it,
// times anything interleaved: a batch, a complex value's two parts); lines are paired along B
// where B >= 2 (neighbouring values of one row: the scratch is [A][n][ceil(B/2)] complex), else
// along A ([ceil(A/2)][n] complex). An odd line out is paired with zeros.
//
// Type II, with v the line reordered (v[j] = x[2j], v[n-1-j] = x[2j+1]) and V its DFT:
//   DCT-II(x)[k] = 2 Re(e^{-i pi k / 2n} V[k]);
//   DST-II(x)[k] = DCT-II((-1)^j x[j])[n-1-k].
// Type III, the inverse up to 2n: W[k] = e^{i pi k / 2n} (X[k] - i X[n-k]) (X[n] = 0), w its
// unnormalized inverse DFT, then x[2j] = w[j], x[2j+1] = w[n-1-j];
//   DST-III(X)[j] = (-1)^j DCT-III(X reversed)[j].
// Two real lines a, b in one complex line z = a + ib separate as A = (Z[k] + conj Z[n-k]) / 2,
// B = (Z[k] - conj Z[n-k]) / 2i, and combine as Z = A + iB.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "a2a/fft/box_fft.hpp"
#include "fftw.hpp"
#include "trig_lines.hpp"
#include "vector_clones.hpp"

namespace a2a::fft {

template <typename Real>
class PairedTrig final : public TrigLines<Real> {
  using C = std::complex<Real>;
  using Pairs = typename TrigLines<Real>::Pairs;

 public:
  // The kinds served.
  static bool serves(Kind k) {
    return k == Kind::dct2 || k == Kind::dct3 || k == Kind::dst2 || k == Kind::dst3;
  }
  // Complex values of scratch a box [A][n][B] takes.
  static std::size_t scratch_size(std::size_t a, std::size_t n, std::size_t b) {
    const typename TrigLines<Real>::Pairs pairs(a, b);
    return pairs.outer * n * TrigLines<Real>::row_stride(pairs.inner);
  }

  // e^{-i pi k / 2n} for k < n, in double: type II's twiddle out, type III's (conjugated) in.
  static std::vector<C> twiddles(std::size_t n) {
    std::vector<C> t(n);
    for (std::size_t k = 0; k < n; ++k) {
      const double angle = -M_PI * static_cast<double>(k) / (2.0 * static_cast<double>(n));
      t[k] = C(static_cast<Real>(std::cos(angle)), static_cast<Real>(std::sin(angle)));
    }
    return t;
  }
  // Type III's pass in, for row k of pairs side by side (B >= 2; b reals):
  //   Z[k] = conj(t[k]) ((a[k] + b[n-k]) + i (b[k] - a[n-k]))   (X[n] = 0),
  // `here(v)` and `mirror(v)` the values of rows k and n-k (`zero` for row 0). SplitTrig1 calls
  // it on rows it computes as it goes.
  template <typename Here, typename Mirror>
  static void twiddle_row_in(Here here, Mirror mirror, Real* out, std::size_t b, C t) {
    const Real ur = t.real(), ui = -t.imag();
    for (std::size_t i = 0; i < b / 2; ++i) {
      const Real re = here(2 * i) + mirror(2 * i + 1), im = here(2 * i + 1) - mirror(2 * i);
      out[2 * i] = ur * re - ui * im;
      out[2 * i + 1] = ur * im + ui * re;
    }
    if (b % 2 == 1) {  // an odd line out: its partner is zero
      const Real ar = mirror(b - 1);
      out[b - 1] = ur * here(b - 1) + ui * ar;
      out[b] = -ur * ar + ui * here(b - 1);
    }
  }
  // The same along one pair of lines (B == 1) of n points, a(k) and b(k) their values (b
  // `zero` for an odd line out), t the twiddles as (re, im) reals; point 0 has no mirror and
  // t[0] = 1.
  template <typename A, typename B>
  static void twiddle_line_in(A a, B b, Real* line, std::size_t n, const Real* t) {
    line[0] = a(0);
    line[1] = b(0);
    for (std::size_t k = 1; k < n; ++k) {
      const Real ur = t[2 * k], ui = -t[2 * k + 1];
      const Real re = a(k) + b(n - k), im = b(k) - a(n - k);
      line[2 * k] = ur * re - ui * im;
      line[2 * k + 1] = ur * im + ui * re;
    }
  }
  static constexpr auto zero = [](std::size_t) { return Real(0); };
  // Where value j of a line of n goes in the reordered line (type II's pass in; type III's
  // pass out reads it back from there): j/2 for j even, n-1-j/2 for j odd.
  static std::size_t reordered(std::size_t j, std::size_t n) {
    return j % 2 == 0 ? j / 2 : n - 1 - j / 2;
  }

  // Plans FFTW's DFT of the pairs on `scratch` (scratch_size values) with `flags`; planned()
  // is false where FFTW makes none (FFTW_WISDOM_ONLY without the wisdom).
  PairedTrig(Kind kind, std::size_t a, std::size_t n, std::size_t b, C* scratch, unsigned flags,
             std::size_t ldx = 0)
      : kind_(kind),
        a_(a),
        n_(n),
        b_(b),
        ldx_(ldx != 0 ? ldx : b),
        outer_(Pairs(a, b).outer),
        inner_(Pairs(a, b).inner) {
    twiddle_ = twiddles(n);
    this->plan_lines(outer_, n, inner_, scratch, second() ? FFTW_FORWARD : FFTW_BACKWARD, flags);
  }

 private:
  // Type II: the lines of `in` ([A][n][B] reals) reordered into the scratch, its DFTs
  // twiddled into `out`; type III: twiddled in, reordered out.
  bool second() const { return kind_ == Kind::dct2 || kind_ == Kind::dst2; }
  void into_scratch(const Real* in, C* scratch) const override {
    second() ? reorder_in(in, scratch) : twiddle_in(in, scratch);
  }
  void out_of_scratch(const C* scratch, Real* out, Real factor) const override {
    second() ? twiddle_out(scratch, out, factor) : reorder_out(scratch, out, factor);
  }

  // Where value j of a line goes in the reordered line v.
  std::size_t position(std::size_t j) const { return reordered(j, n_); }
  // The pairs, as pointers: pair (o, i)'s two lines start at x + first, x + first + 1 (along B)
  // or x + first, x + first + n (along A); `two` is false for an odd line out.
  // Along B (b_ >= 2) value j of both lines of row o lies in row (o, j) of x: b_ reals, the
  // pairs' values side by side as the scratch row's complex values. Along A (b_ == 1) line q is
  // x[q n .. q n + n).
  template <typename Z>  // C or const C
  Z* row(Z* z, std::size_t o, std::size_t k) const {
    return z + (o * n_ + k) * TrigLines<Real>::row_stride(inner_);
  }
  // Calls f(two, reversed) with each as std::true_type or std::false_type: the loops it runs
  // are compiled once per case, without a branch on either inside.
  template <typename Loop>
  static void with_constants(bool two, bool reversed, Loop&& f) {
    using Yes = std::true_type;
    using No = std::false_type;
    if (two) {
      reversed ? f(Yes{}, Yes{}) : f(Yes{}, No{});
    } else {
      reversed ? f(No{}, Yes{}) : f(No{}, No{});
    }
  }
  // Line pair o along A: its two lines (the second nullptr for an odd line out).
  template <typename R>  // Real or const Real
  std::pair<R*, R*> line_pair(R* x, std::size_t o) const {
    return {x + 2 * o * n_, 2 * o + 1 < a_ ? x + (2 * o + 1) * n_ : nullptr};
  }

  // Type II, in: z[position(j)] = sign(j) (a[j] + i b[j]).
  A2A_VECTOR_CLONES
  void reorder_in(const Real* x, C* z) const {
    const bool alternate = kind_ == Kind::dst2;
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        for (std::size_t j = 0; j < n_; ++j) {
          const Real sign = alternate && j % 2 == 1 ? Real(-1) : Real(1);
          const Real* in = x + (o * n_ + j) * ldx_;
          Real* out = reinterpret_cast<Real*>(row(z, o, position(j)));
          for (std::size_t v = 0; v < b_; ++v)
            out[v] = sign * in[v];
          if (b_ % 2 == 1) out[b_] = 0;
        }
        continue;
      }
      const auto [a, b] = line_pair(x, o);
      Real* line = reinterpret_cast<Real*>(row(z, o, 0));
      const Real odd = alternate ? Real(-1) : Real(1);
      // Even values forward from the start, odd ones backward from the end: two plain loops.
      for (std::size_t m = 0; 2 * m < n_; ++m) {
        line[2 * m] = a[2 * m];
        line[2 * m + 1] = b != nullptr ? b[2 * m] : Real(0);
      }
      for (std::size_t m = 0; 2 * m + 1 < n_; ++m) {
        line[2 * (n_ - 1 - m)] = odd * a[2 * m + 1];
        line[2 * (n_ - 1 - m) + 1] = b != nullptr ? odd * b[2 * m + 1] : Real(0);
      }
    }
  }
  // Type II, out: a[k'] = Re(t (Z[k] + conj Z[n-k])), b[k'] = Im(t (Z[k] - conj Z[n-k])), with
  // t = twiddle[k] times the factor and k' = k (DCT) or n-1-k (DST).
  A2A_VECTOR_CLONES
  void twiddle_out(const C* z, Real* x, Real factor) const {
    const bool reverse = kind_ == Kind::dst2;
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        for (std::size_t k = 0; k < n_; ++k) {
          const Real* here = reinterpret_cast<const Real*>(row(z, o, k));
          const Real* mirror = reinterpret_cast<const Real*>(row(z, o, (n_ - k) % n_));
          const Real tr = factor * twiddle_[k].real(), ti = factor * twiddle_[k].imag();
          Real* out = x + (o * n_ + (reverse ? n_ - 1 - k : k)) * ldx_;
          const std::size_t pairs = b_ / 2;
          for (std::size_t i = 0; i < pairs; ++i) {
            // s = Z[k] + conj Z[n-k], d = Z[k] - conj Z[n-k]
            const Real sr = here[2 * i] + mirror[2 * i], si = here[2 * i + 1] - mirror[2 * i + 1];
            const Real dr = here[2 * i] - mirror[2 * i], di = here[2 * i + 1] + mirror[2 * i + 1];
            out[2 * i] = tr * sr - ti * si;
            out[2 * i + 1] = tr * di + ti * dr;
          }
          if (b_ % 2 == 1) {
            const Real sr = here[b_ - 1] + mirror[b_ - 1], si = here[b_] - mirror[b_];
            out[b_ - 1] = tr * sr - ti * si;
          }
        }
        continue;
      }
      // Variables, not a structured binding: the loops below capture them, which Clang before 16
      // does not allow.
      const auto pair = line_pair(x, o);
      const auto a = pair.first, b = pair.second;
      const Real* line = reinterpret_cast<const Real*>(row(z, o, 0));
      // Z[0]'s mirror is itself (t[0] = 1); Z[k]'s for k >= 1 is Z[n-k]. Branch-free loops:
      // the odd line out and the DST's reversal chosen outside them.
      const Real* t = reinterpret_cast<const Real*>(twiddle_.data());
      auto lines_out = [&](auto two, auto reversed) {
        const std::size_t first = reversed ? n_ - 1 : 0;
        a[first] = 2 * factor * line[0];
        if constexpr (two) b[first] = 2 * factor * line[1];
        for (std::size_t k = 1; k < n_; ++k) {
          const std::size_t m = n_ - k;
          const Real hr = line[2 * k], hi = line[2 * k + 1];
          const Real mr = line[2 * m], mi = line[2 * m + 1];
          const Real tr = factor * t[2 * k], ti = factor * t[2 * k + 1];
          const std::size_t kout = reversed ? m - 1 : k;
          a[kout] = tr * (hr + mr) - ti * (hi - mi);
          if constexpr (two) b[kout] = tr * (hi + mi) + ti * (hr - mr);
        }
      };
      with_constants(b != nullptr, reverse, lines_out);
    }
  }
  // Type III, in: row k (or point k of a pair's line) from points k and n-k, the lines
  // reversed first for a DST.
  A2A_VECTOR_CLONES
  void twiddle_in(const Real* x, C* z) const {
    const bool reverse = kind_ == Kind::dst3;
    auto index = [&](std::size_t k) { return reverse ? n_ - 1 - k : k; };
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        auto values = [&](std::size_t k) {
          const Real* p = x + (o * n_ + index(k)) * ldx_;
          return [p](std::size_t v) { return p[v]; };
        };
        twiddle_row_in(values(0), zero, reinterpret_cast<Real*>(row(z, o, 0)), b_, twiddle_[0]);
        for (std::size_t k = 1; k < n_; ++k)
          twiddle_row_in(values(k), values(n_ - k), reinterpret_cast<Real*>(row(z, o, k)), b_,
                         twiddle_[k]);
        continue;
      }
      // Variables, not a structured binding: the loops below capture them, which Clang before 16
      // does not allow.
      const auto pair = line_pair(x, o);
      const auto a = pair.first, b = pair.second;
      Real* line = reinterpret_cast<Real*>(row(z, o, 0));
      const Real* t = reinterpret_cast<const Real*>(twiddle_.data());
      // Branch-free loops as in twiddle_out.
      with_constants(b != nullptr, reverse, [&](auto two, auto reversed) {
        auto at = [&, last = n_ - 1](const Real* values) {
          return [values, last](std::size_t k) -> Real {
            return values[decltype(reversed)::value ? last - k : k];
          };
        };
        if constexpr (two) {
          twiddle_line_in(at(a), at(b), line, n_, t);
        } else {
          twiddle_line_in(at(a), zero, line, n_, t);
        }
      });
    }
  }
  // Type III, out: a[j] = sign(j) Re w[position(j)], b[j] = sign(j) Im w[position(j)], times
  // the factor.
  A2A_VECTOR_CLONES
  void reorder_out(const C* z, Real* x, Real factor) const {
    const bool alternate = kind_ == Kind::dst3;
    for (std::size_t o = 0; o < outer_; ++o) {
      if (b_ >= 2) {
        for (std::size_t j = 0; j < n_; ++j) {
          const Real sign = alternate && j % 2 == 1 ? -factor : factor;
          const Real* in = reinterpret_cast<const Real*>(row(z, o, position(j)));
          Real* out = x + (o * n_ + j) * ldx_;
          for (std::size_t v = 0; v < b_; ++v)
            out[v] = sign * in[v];
        }
        continue;
      }
      const auto [a, b] = line_pair(x, o);
      const Real* line = reinterpret_cast<const Real*>(row(z, o, 0));
      const Real odd = alternate ? -factor : factor;
      for (std::size_t m = 0; 2 * m < n_; ++m) {
        a[2 * m] = factor * line[2 * m];
        if (b != nullptr) b[2 * m] = factor * line[2 * m + 1];
      }
      for (std::size_t m = 0; 2 * m + 1 < n_; ++m) {
        a[2 * m + 1] = odd * line[2 * (n_ - 1 - m)];
        if (b != nullptr) b[2 * m + 1] = odd * line[2 * (n_ - 1 - m) + 1];
      }
    }
  }

  Kind kind_;
  std::size_t a_, n_, b_, ldx_, outer_, inner_;
  std::vector<C> twiddle_;
};

}  // namespace a2a::fft
