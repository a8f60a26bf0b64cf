#include "distribution.hpp"

#include <algorithm>

#include "a2a/randomized.hpp"

namespace a2a {

const std::vector<std::string>& distribution_names() {
  static const std::vector<std::string> names = {"equal",     "random",  "powerlaw", "hot",
                                                 "onesender", "pernode", "zero"};
  return names;
}

bool is_distribution(const std::string& name) {
  const auto& names = distribution_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::size_t distribution_count(const std::string& dist, int procs, int s, int d,
                               std::size_t max_bytes) {
  if (dist == "equal") return max_bytes;
  if (dist == "hot") return d == procs / 2 ? max_bytes : static_cast<std::size_t>((s + d) % 2);
  if (dist == "powerlaw") {
    const auto k = static_cast<std::size_t>((d - s + procs) % procs) + 1;
    return max_bytes / (k * k);
  }
  if (dist == "onesender") return s == 0 ? max_bytes : 0;
  if (dist == "pernode") {
    return d % 2 == s % 2 ? max_bytes - static_cast<std::size_t>(d % 3 == 0 && max_bytes > 0) : 0;
  }
  if (dist == "random") {
    SplitMix64 rng(static_cast<std::uint64_t>(s) * 7919 + static_cast<std::uint64_t>(d) + 1);
    return static_cast<std::size_t>(rng.below(max_bytes + 1));
  }
  return 0;
}

VectorLayout distribution_layout(const std::string& dist, int procs, int rank,
                                 std::size_t max_bytes, bool send_reversed, bool recv_reversed,
                                 std::size_t first, std::size_t gap) {
  VectorLayout layout;
  for (int p = 0; p < procs; ++p) {
    layout.send_counts.push_back(distribution_count(dist, procs, rank, p, max_bytes));
    layout.recv_counts.push_back(distribution_count(dist, procs, p, rank, max_bytes));
  }
  auto place = [&](const std::vector<std::size_t>& counts, bool backwards) {
    std::vector<std::size_t> displs(counts.size());
    std::size_t offset = first;
    for (std::size_t k = 0; k < counts.size(); ++k) {
      const std::size_t i = backwards ? counts.size() - 1 - k : k;
      displs[i] = offset;
      offset += counts[i] + gap;
    }
    return displs;
  };
  layout.send_displs = place(layout.send_counts, send_reversed);
  layout.recv_displs = place(layout.recv_counts, recv_reversed);
  return layout;
}

}  // namespace a2a
