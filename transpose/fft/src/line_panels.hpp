// A line transform (PairedTrig, HalfLengthDct4, ExtendedTrig, SplitTrig1) run a panel of the box
// at a time, where the box's scratch would not stay in cache: the box [A][n][B] in chunks of
// planes [c][n][B], or, where one plane's scratch is too large (a line axis first: A = 1, B the
// rest of the box), in panels [1][n][w] of w neighbouring values of B (rows of the box apart).
// Each panel goes into its scratch, through FFTW's DFT and back while both are in cache; over
// the whole box, those passes and the DFT each stream the box and a scratch as large or larger
// through memory (one rank's 129^3 DCT-I: 17 MB of data, 26 MB of scratch).
//
// Panels keep the pairs the whole box's transform makes: chunks of planes an even count where
// lines pair along A (B == 1), panels an even width (along B), the last one widened rather than
// left one value wide. The results are the same to the bit.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "trig_lines.hpp"

namespace a2a::fft {

template <typename Real>
class LinePanels final : public LineTransform<Real> {
  using C = std::complex<Real>;

 public:
  // A line transform for a box [A][n][B] whose rows are `ldx` reals apart, planned on
  // `scratch` (0: rows B apart).
  using Make = std::function<std::unique_ptr<LineTransform<Real>>(
      std::size_t a, std::size_t n, std::size_t b, std::size_t ldx, C* scratch)>;
  // The complex values of scratch it takes for [A][n][B].
  using ScratchSize = std::function<std::size_t(std::size_t a, std::size_t n, std::size_t b)>;

  // The scratch one panel aims at: well inside a core's L2 (1-2 MiB on current x86 cores),
  // with the panel's own rows beside it.
  static constexpr std::size_t kPanelBytes = std::size_t{256} << 10;

  // How a box [A][n][B] runs: `planes` planes at a time, or (planes == 1) `width` values of B
  // at a time; the whole box at once where both are the box's.
  struct Shape {
    std::size_t planes, width;
    bool whole(std::size_t a, std::size_t b) const { return planes >= a && width >= b; }
  };
  static Shape shape(std::size_t a, std::size_t n, std::size_t b, const ScratchSize& size,
                     std::size_t budget) {
    const std::size_t per_value = sizeof(C);
    if (size(a, n, b) * per_value <= budget) return {a, b};
    const std::size_t plane = size(1, n, b) * per_value;
    if (b == 1) {  // lines pair along A: an even count of planes
      const std::size_t pair = size(2, n, 1) * per_value;
      return {std::max<std::size_t>(2, budget / pair * 2), 1};
    }
    if (plane <= budget) return {budget / plane, b};
    // Panels of B: an even width, 16 values at least (FFTW's vector loops stay long).
    const std::size_t per_column = std::max<std::size_t>(1, size(1, n, 16) * per_value / 16);
    const std::size_t width = std::max<std::size_t>(16, budget / per_column / 2 * 2);
    return {1, std::min(width, b)};
  }

  // The box's scratch (complex values): the largest panel's. `budget`: the bytes of scratch a
  // panel aims at (tests make it small).
  static std::size_t scratch_size(std::size_t a, std::size_t n, std::size_t b,
                                  const ScratchSize& size, std::size_t budget = kPanelBytes) {
    const Shape s = shape(a, n, b, size, budget);
    if (s.whole(a, b)) return size(a, n, b);
    // Panels of B: the last may be one value wider.
    return size(std::min(s.planes, a), n, s.width < b ? s.width + 1 : b);
  }

  // The panels' transforms, planned on `scratch` (scratch_size values): one per panel shape
  // (at most two: the full panel and the last), each panel's offset into the box beside it.
  LinePanels(std::size_t a, std::size_t n, std::size_t b, C* scratch, const ScratchSize& size,
             const Make& make, std::size_t budget = kPanelBytes) {
    const Shape s = shape(a, n, b, size, budget);
    for (std::size_t plane = 0; plane < a; plane += s.planes) {
      const std::size_t planes = std::min(s.planes, a - plane);
      for (std::size_t value = 0; value < b; value += s.width) {
        std::size_t width = std::min(s.width, b - value);
        if (b - value - width == 1) ++width;  // no panel one value wide
        auto same = [&](const Piece& p) { return p.planes == planes && p.width == width; };
        auto piece = std::find_if(pieces_.begin(), pieces_.end(), same);
        if (piece == pieces_.end()) {
          pieces_.push_back({planes, width, make(planes, n, width, b, scratch)});
          piece = pieces_.end() - 1;
        }
        panels_.push_back({plane * n * b + value, piece->lines.get()});
        if (width > s.width) break;
      }
    }
  }

  // Whether the box runs in panels at all (else one transform of the whole box serves).
  static bool needed(std::size_t a, std::size_t n, std::size_t b, const ScratchSize& size,
                     std::size_t budget = kPanelBytes) {
    return !shape(a, n, b, size, budget).whole(a, b);
  }

  void run(const Real* in, Real* out, C* scratch, Real factor = 1) const override {
    for (const Panel& p : panels_)
      p.lines->run(in + p.at, out + p.at, scratch, factor);
  }
  bool planned() const override {
    return std::all_of(pieces_.begin(), pieces_.end(),
                       [](const Piece& p) { return p.lines->planned(); });
  }

 private:
  struct Piece {
    std::size_t planes, width;
    std::unique_ptr<LineTransform<Real>> lines;
  };
  struct Panel {
    std::size_t at;  // reals from the box's start
    const LineTransform<Real>* lines;
  };
  std::vector<Piece> pieces_;
  std::vector<Panel> panels_;  // in memory order
};

}  // namespace a2a::fft
