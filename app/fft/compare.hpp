// Comparing transforms: the relative max error max|a - b| / max|b| over every element.
#pragma once

#include <algorithm>
#include <complex>
#include <vector>

namespace a2a::fft {

template <typename Real>
double relative_error(const std::vector<std::complex<Real>>& got,
                      const std::vector<std::complex<Real>>& want) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    diff = std::max(diff, static_cast<double>(std::abs(got[i] - want[i])));
    scale = std::max(scale, static_cast<double>(std::abs(want[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

}  // namespace a2a::fft
