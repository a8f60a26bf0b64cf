// Comparing transforms: the relative max error max|a - b| / max|b| over every element. A NaN
// or Inf anywhere in either array makes the error infinite, so a check against any bound
// fails (std::max would skip a NaN and report a clean 0).
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

namespace a2a::fft {

// Accumulates |got - want| and |want| maxima; non-finite values poison the result.
struct ErrorAccumulator {
  double diff = 0, scale = 0;
  bool finite = true;
  template <typename T>
  void add(const T& got, const T& want) {
    const double d = static_cast<double>(std::abs(got - want));
    const double w = static_cast<double>(std::abs(want));
    if (!std::isfinite(d) || !std::isfinite(w) ||
        !std::isfinite(static_cast<double>(std::abs(got)))) {
      finite = false;
      return;
    }
    if (d > diff) diff = d;
    if (w > scale) scale = w;
  }
  double relative() const {
    if (!finite) return std::numeric_limits<double>::infinity();
    return scale > 0 ? diff / scale : diff;
  }
};

template <typename T>
double relative_error(const std::vector<T>& got, const std::vector<T>& want) {
  ErrorAccumulator e;
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i)
    e.add(got[i], want[i]);
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  return e.relative();
}

}  // namespace a2a::fft
