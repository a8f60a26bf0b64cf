// The statistics every benchmark reports (app/core/stats): the median, mean/min/max and the
// percentile-bootstrap 95% CI of the median, against values computed by hand and by an
// independent bootstrap (another generator, ten times the resamples).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "core/stats.hpp"
#include "serial_checks.hpp"

namespace {

// An independent percentile bootstrap of the median: std::mt19937_64, nearest-rank percentiles.
std::pair<double, double> reference_ci(const std::vector<double>& x, int resamples) {
  std::mt19937_64 rng(12345);
  std::uniform_int_distribution<std::size_t> pick(0, x.size() - 1);
  std::vector<double> medians, draw(x.size());
  for (int b = 0; b < resamples; ++b) {
    for (double& d : draw)
      d = x[pick(rng)];
    std::sort(draw.begin(), draw.end());
    const std::size_t n = draw.size();
    medians.push_back(n % 2 ? draw[n / 2] : (draw[n / 2 - 1] + draw[n / 2]) / 2);
  }
  std::sort(medians.begin(), medians.end());
  const auto at = [&](double q) {
    return medians[static_cast<std::size_t>(q * static_cast<double>(medians.size() - 1))];
  };
  return {at(0.025), at(0.975)};
}

}  // namespace

int main() {
  using namespace a2a;
  test::SerialChecks expect("test_stats");
  expect(stats::median({3, 1, 2}) == 2, "median of an odd sample");
  expect(stats::median({4, 1, 3, 2}) == 2.5, "median of an even sample (mean of the middle two)");
  const stats::Summary s = stats::summarize({5, 1, 4, 2, 3});
  expect(s.count == 5 && s.median == 3 && s.mean == 3 && s.min == 1 && s.max == 5,
         "count, median, mean, min, max of 1..5");
  const stats::Summary flat = stats::summarize(std::vector<double>(50, 7.5));
  expect(flat.ci95_low == 7.5 && flat.ci95_high == 7.5, "a constant sample has a zero-width CI");

  // 1..101: the median is 51; the bootstrap CI agrees with an independent bootstrap.
  std::vector<double> x(101);
  std::iota(x.begin(), x.end(), 1.0);
  const stats::Summary u = stats::summarize(x);
  const auto [lo, hi] = reference_ci(x, 20000);
  expect(u.median == 51, "median of 1..101");
  expect(std::abs(u.ci95_low - lo) <= 2 && std::abs(u.ci95_high - hi) <= 2,
         "bootstrap CI [" + std::to_string(u.ci95_low) + ", " + std::to_string(u.ci95_high) +
             "] matches the independent [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  expect(u.ci95_low < u.median && u.median < u.ci95_high, "the CI contains the median");
  // Skewed timings (a few slow outliers) keep the median and its CI near the bulk.
  std::vector<double> t(97, 10.0);
  for (int i = 0; i < 97; ++i)
    t[static_cast<std::size_t>(i)] += 0.01 * i;
  t.insert(t.end(), {500, 800, 1000});
  const stats::Summary k = stats::summarize(t);
  expect(k.ci95_high < 11 && k.mean > 30, "outliers move the mean, not the median's CI");
  // Same seed, same interval: results are reproducible.
  const stats::Summary again = stats::summarize(x);
  expect(again.ci95_low == u.ci95_low && again.ci95_high == u.ci95_high, "deterministic CI");

  // Ratios: identical samples give 1 within the CI; a sample twice as slow gives 2.
  std::vector<double> y = x;
  for (double& v : y)
    v *= 2;
  const stats::Ratio same = stats::median_ratio(x, x), twice = stats::median_ratio(y, x);
  expect(same.value == 1 && same.ci95_low <= 1 && same.ci95_high >= 1,
         "ratio of a sample to itself");
  expect(twice.value == 2 && twice.ci95_low < 2 && twice.ci95_high > 2 && twice.ci95_low > 1.4,
         "ratio of a sample twice as slow: 2 with a CI around it");
  return expect.finish();
}
