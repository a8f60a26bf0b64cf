#include "stats.hpp"

#include "a2a/randomized.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace a2a::stats {

double median(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("median of no samples");
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

static double percentile(std::vector<double>& sorted, double q) {
  // Linear interpolation between closest ranks (numpy's default "linear" method).
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

static std::vector<double> bootstrap_medians(const std::vector<double>& samples,
                                             std::size_t resamples, SplitMix64& rng) {
  std::vector<double> medians(resamples), draw(samples.size());
  for (double& m : medians) {
    for (double& d : draw)
      d = samples[rng.below(samples.size())];
    m = median(draw);
  }
  return medians;
}

Summary summarize(const std::vector<double>& samples, std::size_t resamples, std::uint64_t seed) {
  if (samples.empty()) throw std::invalid_argument("summary of no samples");
  Summary s;
  s.count = samples.size();
  s.median = median(samples);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.count);
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.min = *lo;
  s.max = *hi;
  SplitMix64 rng(seed);
  std::vector<double> medians = bootstrap_medians(samples, resamples, rng);
  std::sort(medians.begin(), medians.end());
  s.ci95_low = percentile(medians, 0.025);
  s.ci95_high = percentile(medians, 0.975);
  return s;
}

Ratio median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                   std::size_t resamples, std::uint64_t seed) {
  Ratio r;
  r.value = median(a) / median(b);
  SplitMix64 rng(seed);
  std::vector<double> ma = bootstrap_medians(a, resamples, rng);
  std::vector<double> mb = bootstrap_medians(b, resamples, rng);
  std::vector<double> ratios(resamples);
  for (std::size_t i = 0; i < resamples; ++i)
    ratios[i] = ma[i] / mb[i];
  std::sort(ratios.begin(), ratios.end());
  r.ci95_low = percentile(ratios, 0.025);
  r.ci95_high = percentile(ratios, 0.975);
  return r;
}

}  // namespace a2a::stats
