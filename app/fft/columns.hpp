// FFTs along the columns of a len x cols row-major matrix (the x-lines of an x-pencil box:
// len = n0, cols = its y extent times its z extent), a few columns at a time: the panel's rows
// are copied into a compact len x width scratch, transformed there by one FFTW plan (stride
// width, unit distance), and copied out, scaled if asked, to the same or another array.
// heFFTe reorders the data so that every 1D transform is unit stride; this is that reorder in
// cache instead of a pass over memory. Against FFTW's own strided guru plan on the whole box
// it ran 4.3-4.6 ms against 5.0-5.5 in place (128 x 64 x 128, MEASURE, the 2-core AMD machine;
// on a 16-core Xeon the strided plan took 1.8x the panels' time): the box's lines are n1 n2
// elements apart (a power of two), a panel's are width.
//
// The best width is the machine's: each panel row is a separate run of memory, n1 n2 elements
// from the next, so wider panels mean fewer, longer runs (prefetching, TLB) and a larger
// scratch. At 128 rows the AMD machine ran 16 columns in 4.6 ms, 32 in 5.6, 64 in 7.2; on a
// 16-core Xeon (2 MiB L2) one 256^3 P = 4 rank's x transforms took 65 ms with 16 columns, 32
// with 64, 28 with 256 (a2a_local_ffts). So when FFTW may measure (MEASURE, PATIENT,
// EXHAUSTIVE), the width is measured too: each candidate (16 to 256 columns) transforms a few
// panels' worth of fresh columns of the caller's array, with the real row stride, on every
// rank at once, and the fastest for the slowest rank wins. ESTIMATE takes the L1-sized width
// below; WISDOM_ONLY the first candidate whose plan the wisdom has.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "fftw.hpp"
#include "trial.hpp"

namespace a2a::fft {

template <typename Real>
class ColumnFfts {
 public:
  using Complex = std::complex<Real>;
  using F = Fftw<Real>;

  // `trial`: len x cols of the caller's, whose contents may be overwritten, on which the widths
  // are timed, in step on every rank of comm (trial.hpp; every rank constructs its ColumnFfts
  // at the same point, its box empty or not).
  // `only`: these widths rather than the candidates (one: that width, untimed; the tests).
  ColumnFfts(std::int64_t len, std::int64_t cols, int sign, unsigned flags, Complex* trial,
             MPI_Comm comm, const std::vector<std::int64_t>& only = {})
      : len_(len), cols_(cols), width_(width_for(len, cols)) {
    const bool empty = len == 0 || cols == 0;
    const bool wisdom_only = (flags & FFTW_WISDOM_ONLY) != 0;
    const bool measure = !wisdom_only && (flags & FFTW_ESTIMATE) == 0;
    if (empty && !measure) return;  // no collective trials to join
    // The candidates, the same list on every rank (a width beyond the columns is all of them).
    std::vector<std::int64_t> widths{width_};
    if (measure || wisdom_only) widths.insert(widths.end(), {16, 32, 64, 128, 256});
    if (!only.empty()) widths = only;
    const bool timed = measure && widths.size() > 1;
    // Zeros: what FFTW's planning left in the array could hold denormals, which are slow.
    if (timed && !empty) std::fill_n(trial, static_cast<std::size_t>(len * cols), Complex(0));
    // Every candidate transforms the same number of columns, 1024 (a multiple of each), each
    // round on the next columns of the array, so that a large box is timed out of cache, as
    // it is used.
    const std::int64_t span = std::min<std::int64_t>(cols, 1024);
    double best = std::numeric_limits<double>::infinity();
    std::int64_t next_column = 0, chosen = 0;
    for (std::int64_t w : widths) {
      w = std::max<std::int64_t>(1, std::min(w, cols));
      const bool made = empty || make_plans(w, sign, flags);
      if (!timed) {
        if (made) break;  // the first that plans
        continue;
      }
      double fastest = std::numeric_limits<double>::infinity();
      for (int round = 0; round < 3; ++round) {
        if (next_column + span > cols) next_column = 0;
        fastest = std::min(fastest, slowest_seconds(comm, [&] {
                             if (!empty)
                               transform(trial, trial, 1, next_column, next_column + span);
                           }));
        next_column += span;
      }
      if (fastest < best) {
        best = fastest;
        chosen = w;
      }
    }
    if (empty) return;
    // The plans in hand are the last candidate's (make_plans sets width_).
    if (chosen != 0 && chosen != width_) make_plans(chosen, sign, flags);
  }
  ~ColumnFfts() { release(); }
  ColumnFfts(const ColumnFfts&) = delete;
  std::int64_t width() const { return width_; }  // columns per panel
  bool planned() const {
    return len_ == 0 || cols_ == 0 || (full_ != nullptr && (cols_ % width_ == 0 || tail_));
  }

  // dst = FFT(src) along the columns, times `scale`; dst may be src.
  void run(const Complex* src, Complex* dst, Real scale = 1) const {
    transform(src, dst, scale, 0, cols_);
  }

 private:
  // Columns [begin, end) of the panels that start at `begin`.
  void transform(const Complex* src, Complex* dst, Real scale, std::int64_t begin,
                 std::int64_t end) const {
    Complex* s = scratch_.get();
    for (std::int64_t c0 = begin; c0 < end; c0 += width_) {
      const std::int64_t m = std::min(width_, cols_ - c0);
      const auto bytes = static_cast<std::size_t>(m) * sizeof(Complex);
      for (std::int64_t r = 0; r < len_; ++r)
        std::memcpy(s + r * m, src + r * cols_ + c0, bytes);
      auto* p = reinterpret_cast<typename F::complex*>(s);
      F::execute(m == width_ ? full_ : tail_, p, p);
      if (scale == 1) {
        for (std::int64_t r = 0; r < len_; ++r)
          std::memcpy(dst + r * cols_ + c0, s + r * m, bytes);
      } else {
        for (std::int64_t r = 0; r < len_; ++r) {
          Complex* out = dst + r * cols_ + c0;
          const Complex* in = s + r * m;
          for (std::int64_t j = 0; j < m; ++j)
            out[j] = in[j] * scale;
        }
      }
    }
  }

  struct Free {
    void operator()(Complex* p) const { F::free(p); }
  };
  // Columns per panel without timing (ESTIMATE), and the first candidate: the panel (len x
  // width) within 32 KiB, L1 (measured on the AMD machine at 128 rows:
  // 16 columns 4.6 ms, 32 columns 5.6 ms, 64 columns 7.2 ms), but at least 16 columns, so
  // that each copied run is four or more cache lines: every row of a panel is on its own page
  // (4 KiB pages in a shared window), and at 256 rows 8-column panels (32 KiB) took 225-275 ms
  // of local FFTs per 256^3 pair where 16-64 columns took 189-227 (P = 2 and 4, docs/fft.md).
  static std::int64_t width_for(std::int64_t len, std::int64_t cols) {
    const auto fit =
        static_cast<std::int64_t>(32768 / sizeof(Complex)) / std::max<std::int64_t>(len, 1);
    return std::clamp<std::int64_t>(std::min(fit, cols), std::min<std::int64_t>(16, cols), 64);
  }
  // The panel plans (and the scratch) for width w; false where FFTW made none (wisdom-only).
  bool make_plans(std::int64_t w, int sign, unsigned flags) {
    release();
    width_ = w;
    scratch_.reset(F::allocate(static_cast<std::size_t>(len_ * w)));
    full_ = plan(w, sign, flags);
    if (cols_ % w != 0) tail_ = plan(cols_ % w, sign, flags);
    return planned();
  }
  typename F::plan plan(std::int64_t howmany, int sign, unsigned flags) {
    const int n = static_cast<int>(len_), stride = static_cast<int>(howmany);
    auto* p = reinterpret_cast<typename F::complex*>(scratch_.get());
    return F::many(1, &n, static_cast<int>(howmany), p, nullptr, stride, 1, p, nullptr, stride, 1,
                   sign, flags);
  }
  void release() {
    if (full_ != nullptr) F::destroy(full_);
    if (tail_ != nullptr) F::destroy(tail_);
    full_ = tail_ = nullptr;
  }

  std::int64_t len_ = 0, cols_ = 0, width_ = 0;
  std::unique_ptr<Complex[], Free> scratch_;
  typename F::plan full_ = nullptr, tail_ = nullptr;
};

}  // namespace a2a::fft
