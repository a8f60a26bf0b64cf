// Statistics of repeated timings (docs/cli.md, "Measurement method"): the median with a bootstrap
// 95% confidence interval (as the randomized-alltoall paper reports), and the OSU-style
// mean/min/max.
#pragma once

#include <cstdint>
#include <vector>

namespace a2a::stats {

struct Summary {
  std::size_t count = 0;
  double median = 0, mean = 0, min = 0, max = 0;
  double ci95_low = 0, ci95_high = 0;  // bootstrap percentile interval of the median
};

double median(std::vector<double> samples);
// Percentile bootstrap of the median: `resamples` resamples drawn with a fixed-seed generator,
// so the same samples always give the same interval.
Summary summarize(const std::vector<double>& samples, std::size_t resamples = 2000,
                  std::uint64_t seed = 0x5eed);

struct Ratio {
  double value = 0, ci95_low = 0, ci95_high = 0;
};
// median(a) / median(b) with a percentile bootstrap interval, resampling a and b independently.
Ratio median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                   std::size_t resamples = 2000, std::uint64_t seed = 0x5eed);

}  // namespace a2a::stats
