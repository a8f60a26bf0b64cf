// FFTs along the columns of a len x cols row-major matrix (the x-lines of an x-pencil box:
// len = n0, cols = its y extent times its z extent), a few columns at a time: the panel's rows
// are copied into a compact len x width scratch that stays in L1/L2, transformed there by one
// FFTW plan (stride width, unit distance), and copied out, scaled if asked, to the same or
// another array. heFFTe reorders the data so that every 1D transform is unit stride; this is
// that reorder in cache instead of a pass over memory. Against FFTW's own strided guru plan
// on the whole box (MEASURE; 128 x 64 x 128, this machine, docs/fft.md) it ran 4.3-4.6 ms
// against 5.0-5.5 in place and 5.8-6.0 against 7.8-8.4 out of place: the whole box's lines
// are n1 n2 elements apart (a power of two), and each panel's lines are width.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>

#include "fftw.hpp"

namespace a2a::fft {

template <typename Real>
class ColumnFfts {
 public:
  using Complex = std::complex<Real>;
  using F = Fftw<Real>;

  ColumnFfts(std::int64_t len, std::int64_t cols, int sign, unsigned flags)
      : len_(len), cols_(cols), width_(width_for(len, cols)) {
    if (len == 0 || cols == 0) return;
    scratch_.reset(F::allocate(static_cast<std::size_t>(len * width_)));
    full_ = plan(width_, sign, flags);
    if (cols % width_ != 0) tail_ = plan(cols % width_, sign, flags);
  }
  ~ColumnFfts() { release(); }
  ColumnFfts(const ColumnFfts&) = delete;
  bool planned() const {
    return len_ == 0 || cols_ == 0 || (full_ != nullptr && (cols_ % width_ == 0 || tail_));
  }

  // dst = FFT(src) along the columns, times `scale`; dst may be src.
  void run(const Complex* src, Complex* dst, Real scale = 1) const {
    Complex* s = scratch_.get();
    for (std::int64_t c0 = 0; c0 < cols_; c0 += width_) {
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

 private:
  struct Free {
    void operator()(Complex* p) const { F::free(p); }
  };
  // Columns per panel: the panel (len x width) within 32 KiB, L1 (measured at 128 rows:
  // 16 columns 4.6 ms, 32 columns 5.6 ms, 64 columns 7.2 ms), but at least 16 columns, so
  // that each copied run is four or more cache lines: every row of a panel is on its own page
  // (4 KiB pages in a shared window), and at 256 rows 8-column panels (32 KiB) took 225-275 ms
  // of local FFTs per 256^3 pair where 16-64 columns took 189-227 (P = 2 and 4, docs/fft.md).
  static std::int64_t width_for(std::int64_t len, std::int64_t cols) {
    const auto fit =
        static_cast<std::int64_t>(32768 / sizeof(Complex)) / std::max<std::int64_t>(len, 1);
    return std::clamp<std::int64_t>(std::min(fit, cols), std::min<std::int64_t>(16, cols), 64);
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
