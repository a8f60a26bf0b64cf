// FFTs along the columns of a len x cols row-major matrix (the x-lines of an x-pencil box:
// len = n0, cols = its y extent times its z extent), from one array into another (or in place),
// scaled if asked. Two kinds of way:
//   strided    FFTW's own guru plan over the whole matrix (len-point lines cols elements apart,
//              cols of them at unit distance), out of place or in place as called, then the
//              scale in a pass of its own; FFTW's planner picks its own blocking;
//   panels     a few columns at a time: the panel's rows are copied into a compact len x width
//              scratch, transformed there by one FFTW plan (stride width, unit distance), and
//              copied out, scaled while in cache. heFFTe reorders the data so that every 1D
//              transform is unit stride; this is that reorder in cache instead of a pass over
//              memory. Each panel row is a separate run of memory, cols elements from the
//              next: wider panels mean fewer, longer runs and a larger scratch.
// Which is fastest, and which width, is the machine's and the size's (a2a_local_ffts shows
// them), so when FFTW may measure (MEASURE, PATIENT, EXHAUSTIVE) every way runs the whole
// matrix of the caller's work arrays at plan time, on every rank at once, and the fastest for
// the slowest rank wins (trial.hpp: interleaved rounds, medians). ESTIMATE takes the L1-sized
// panel width below; WISDOM_ONLY the first way whose plans the wisdom has. Fft3d remembers the
// choice with the wisdom (ways.hpp) and passes it back as `only`. A caller that consumes each
// transformed panel itself while it is in cache (run_panels: the six-step FFT twiddles it into
// its send buffer) asks for the panel ways only.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "a2a/fft/aligned.hpp"
#include "a2a/fft/ways.hpp"
#include "fftw.hpp"
#include "trial.hpp"
#include "vector_clones.hpp"

namespace a2a::fft {

template <typename Real>
class ColumnFfts {
 public:
  using Complex = std::complex<Real>;
  using F = Fftw<Real>;
  // The way: a panel width, or this for FFTW's strided plan over the whole matrix.
  static constexpr std::int64_t strided = 0;
  // Which ways compete: every one, or the panels only (run_panels' callers).
  enum class Candidates { all, panels };

  // `trial` and `trial_out`: two len x cols arrays of the caller's, whose contents may be
  // overwritten, on which the ways are planned and timed, in step on every rank of comm
  // (trial.hpp; every rank constructs its ColumnFfts at the same point, its matrix empty or
  // not); run() takes arrays of their alignment (others run on panels). A caller that only
  // runs in place may pass trial twice. `only`: these ways rather than the candidates (one:
  // that way, untimed; the tests, and a remembered choice).
  ColumnFfts(std::int64_t len, std::int64_t cols, int sign, unsigned flags, Complex* trial,
             Complex* trial_out, MPI_Comm comm, const std::vector<std::int64_t>& only = {},
             Candidates candidates = Candidates::all)
      : len_(len), cols_(cols), sign_(sign), flags_(flags), trial_(trial), trial_out_(trial_out) {
    const bool empty = len == 0 || cols == 0;
    const bool wisdom_only = (flags & FFTW_WISDOM_ONLY) != 0;
    const bool measure = !wisdom_only && (flags & FFTW_ESTIMATE) == 0;
    // The candidates, the same list on every rank (a width beyond the columns is all of them).
    std::vector<std::int64_t> ways{strided, 16, 32, 64, 128, 256};
    if (candidates == Candidates::panels) ways.erase(ways.begin());
    if (!measure && !wisdom_only) ways = {width_for(len, cols)};
    if (!only.empty()) ways = only;
    const bool timed = measure && ways.size() > 1;
    if (!timed) {  // the first that plans (every rank: no collective calls)
      for (std::int64_t w : ways) {
        if (empty || make(w)) {
          way_ = w;
          break;
        }
      }
      return;
    }
    for (std::int64_t w : ways)
      if (!empty) make(w);
    // Zeros: what FFTW's planning left in the arrays could hold denormals, which are slow.
    const auto cells = static_cast<std::size_t>(len * cols);
    if (!empty) {
      std::fill_n(trial, cells, Complex(0));
      std::fill_n(trial_out, cells, Complex(0));
    }
    const std::size_t best = fastest_way(comm, ways.size(), [&](std::size_t i) {
      if (!empty) transform(ways[i], trial, trial_out, 1);
    });
    way_ = ways[best];
    if (empty) return;
    // Keep the chosen way's plans (and, for strided, the panels for arrays of another
    // alignment), release the rest.
    for (auto it = plans_.begin(); it != plans_.end();) {
      const bool keep = it->first == way_ || (way_ == strided && it->first == width_for(len, cols));
      if (!keep) destroy(it->second);
      it = keep ? std::next(it) : plans_.erase(it);
    }
  }
  ~ColumnFfts() {
    for (auto& [w, p] : plans_)
      destroy(p);
  }
  ColumnFfts(const ColumnFfts&) = delete;
  std::int64_t way() const { return way_; }
  std::string name() const { return name(way_); }
  // The panels' scratch it keeps (every way planned: the timed candidates' too).
  std::size_t scratch_bytes() const {
    std::size_t bytes = 0;
    for (const auto& [w, p] : plans_)
      bytes += held_bytes(p.scratch);
    return bytes;
  }
  static std::string name(std::int64_t way) {
    return way == strided ? "strided" : "panels of " + std::to_string(way);
  }
  // The way as the remembered ways keep it (ways.hpp): "strided" or the panel width; and back
  // (none for text that names no way).
  static std::string remembered_name(std::int64_t way) {
    return way == strided ? "strided" : std::to_string(way);
  }
  static std::optional<std::int64_t> from_remembered(const std::string& text) {
    if (text == "strided") return strided;
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != text.npos)
      return std::nullopt;
    const std::int64_t width = std::stoll(text);
    if (width == 0) return std::nullopt;
    return width;
  }
  bool planned() const {
    if (len_ == 0 || cols_ == 0) return true;
    const Plans* p = find(way_);
    return p != nullptr && p->complete(cols_) &&
           (way_ != strided || find(width_for(len_, cols_)) != nullptr);
  }

  // dst = FFT(src) along the columns, times `scale`; dst may be src.
  void run(const Complex* src, Complex* dst, Real scale = 1) const {
    if (len_ == 0 || cols_ == 0) return;
    std::int64_t way = way_;
    const bool aligned = src == dst
                             ? same_alignment(dst, trial_out_)
                             : same_alignment(src, trial_) && same_alignment(dst, trial_out_);
    if (way == strided && !aligned)
      way = width_for(len_, cols_);  // FFTW runs a plan only on arrays of its alignment
    transform(way, src, dst, scale);
  }

  // The columns transformed a panel at a time, each handed to store(c0, m, panel) while it is
  // in cache: columns [c0, c0 + m) as len rows of m, row-major. A panel way only.
  template <typename Store>
  void run_panels(const Complex* src, Store&& store) const {
    if (len_ == 0 || cols_ == 0) return;
    const Plans& p = *find(way_ == strided ? width_for(len_, cols_) : way_);
    Complex* s = p.scratch.data();
    for (std::int64_t c0 = 0; c0 < cols_; c0 += p.width) {
      const std::int64_t m = std::min(p.width, cols_ - c0);
      transform_panel(p, src, c0, m);
      store(c0, m, static_cast<const Complex*>(s));
    }
  }

 private:
  // One way's FFTW plans: strided, out of place and in place; panels, the full panel's and
  // the last, narrower one's (where the width does not divide the columns), and its scratch.
  struct Plans {
    typename F::plan out = nullptr, in = nullptr;  // strided; panels: full, tail
    mutable AlignedVector<Complex> scratch;        // panels (a move keeps its buffer)
    std::int64_t width = 0;
    bool complete(std::int64_t cols) const {
      return width == strided ? out != nullptr && in != nullptr
                              : out != nullptr && (cols % width == 0 || in != nullptr);
    }
  };

  static bool same_alignment(const void* a, const void* b) {
    return F::alignment_of(a) == F::alignment_of(b);
  }
  const Plans* find(std::int64_t w) const {
    for (const auto& [way, p] : plans_)
      if (way == w) return &p;
    return nullptr;
  }
  void destroy(Plans& p) {
    for (auto plan : {p.out, p.in})
      if (plan != nullptr) F::destroy(plan);
    p.out = p.in = nullptr;
  }

  // Columns per panel without timing (ESTIMATE), and the first candidate: the panel (len x
  // width) within 32 KiB, L1, but at least 16 columns, so that each copied run is four or more
  // cache lines (every row of a panel is on its own page in a shared window); at most 64.
  static std::int64_t width_for(std::int64_t len, std::int64_t cols) {
    const auto fit =
        static_cast<std::int64_t>(32768 / sizeof(Complex)) / std::max<std::int64_t>(len, 1);
    return std::clamp<std::int64_t>(std::min(fit, cols), std::min<std::int64_t>(16, cols), 64);
  }

  // Plans way w (once); false where FFTW made none (wisdom-only without them).
  bool make(std::int64_t w) {
    if (const Plans* p = find(w)) return p->complete(cols_);
    Plans p;
    p.width = w == strided ? strided : std::min(w, cols_);
    const int n = static_cast<int>(len_);
    if (w == strided) {
      const Iodim<Real> line{n, static_cast<int>(cols_), static_cast<int>(cols_)};
      const Iodim<Real> how{static_cast<int>(cols_), 1, 1};
      auto* a = reinterpret_cast<typename F::complex*>(trial_);
      auto* b = reinterpret_cast<typename F::complex*>(trial_out_);
      p.out = F::guru(1, &line, 1, &how, a, b, sign_, flags_);
      p.in = F::guru(1, &line, 1, &how, b, b, sign_, flags_);
    } else {
      p.scratch.resize(static_cast<std::size_t>(len_ * p.width));
      auto* s = reinterpret_cast<typename F::complex*>(p.scratch.data());
      auto panel = [&](std::int64_t howmany) {
        const int stride = static_cast<int>(howmany);
        return F::many(1, &n, stride, s, nullptr, stride, 1, s, nullptr, stride, 1, sign_, flags_);
      };
      p.out = panel(p.width);
      if (cols_ % p.width != 0) p.in = panel(cols_ % p.width);
    }
    const bool complete = p.complete(cols_);
    plans_.emplace_back(w, std::move(p));
    // Strided runs arrays of another alignment than the plan's on panels.
    if (w == strided) return make(width_for(len_, cols_)) && complete;
    return complete;
  }

  void transform(std::int64_t way, const Complex* src, Complex* dst, Real scale) const {
    const Plans& p = *find(way);
    if (way == strided) {
      auto* s = reinterpret_cast<typename F::complex*>(const_cast<Complex*>(src));
      auto* d = reinterpret_cast<typename F::complex*>(dst);
      F::execute(src == dst ? p.in : p.out, s, d);
      a2a::fft::scale(dst, len_ * cols_, scale);
      return;
    }
    const Complex* s = p.scratch.data();
    for (std::int64_t c0 = 0; c0 < cols_; c0 += p.width) {
      const std::int64_t m = std::min(p.width, cols_ - c0);
      const auto bytes = static_cast<std::size_t>(m) * sizeof(Complex);
      transform_panel(p, src, c0, m);
      if (scale == 1) {
        for (std::int64_t r = 0; r < len_; ++r)
          std::memcpy(dst + r * cols_ + c0, s + r * m, bytes);
      } else {
        scaled_rows(s, m, dst + c0, scale);
      }
    }
  }
  // The panel's len rows of m values from s into dst's rows (cols apart), times scale: on
  // SSE2 alone this loop costs more than a copy and a scaling pass of their own.
  A2A_VECTOR_CLONES
  void scaled_rows(const Complex* s, std::int64_t m, Complex* dst, Real scale) const {
    for (std::int64_t r = 0; r < len_; ++r) {
      Real* __restrict out = reinterpret_cast<Real*>(dst + r * cols_);
      const Real* __restrict in = reinterpret_cast<const Real*>(s + r * m);
      for (std::int64_t j = 0; j < 2 * m; ++j)
        out[j] = in[j] * scale;
    }
  }

  // Columns [c0, c0 + m) of src copied into p's scratch (len rows of m) and transformed there.
  void transform_panel(const Plans& p, const Complex* src, std::int64_t c0, std::int64_t m) const {
    Complex* s = p.scratch.data();
    const auto bytes = static_cast<std::size_t>(m) * sizeof(Complex);
    for (std::int64_t r = 0; r < len_; ++r)
      std::memcpy(s + r * m, src + r * cols_ + c0, bytes);
    auto* panel = reinterpret_cast<typename F::complex*>(s);
    F::execute(m == p.width ? p.out : p.in, panel, panel);
  }

  std::int64_t len_ = 0, cols_ = 0;
  int sign_ = 0;
  unsigned flags_ = 0;
  Complex *trial_ = nullptr, *trial_out_ = nullptr;  // the arrays the plans are made on
  std::int64_t way_ = 0;
  std::vector<std::pair<std::int64_t, Plans>> plans_;
};

// A ColumnFfts whose choice is kept with the wisdom under `key` (ways.hpp): a remembered way
// among the candidates is taken untimed; where the ways were timed, the winner is remembered.
// Collective over comm, as the constructor.
template <typename Real>
std::unique_ptr<ColumnFfts<Real>> remembered_columns(
    const std::string& key, std::int64_t len, std::int64_t cols, int sign, unsigned flags,
    std::complex<Real>* trial, std::complex<Real>* trial_out, MPI_Comm comm,
    typename ColumnFfts<Real>::Candidates candidates = ColumnFfts<Real>::Candidates::all) {
  using Columns = ColumnFfts<Real>;
  const bool measuring = (flags & (FFTW_ESTIMATE | FFTW_WISDOM_ONLY)) == 0;
  std::vector<std::int64_t> only;
  if (const auto text = ways::recall(key)) {
    const auto way = Columns::from_remembered(*text);
    if (way && !(*way == Columns::strided && candidates == Columns::Candidates::panels))
      only = {*way};
  }
  auto fft =
      std::make_unique<Columns>(len, cols, sign, flags, trial, trial_out, comm, only, candidates);
  if (measuring && only.empty()) ways::remember(key, Columns::remembered_name(fft->way()));
  return fft;
}

}  // namespace a2a::fft
