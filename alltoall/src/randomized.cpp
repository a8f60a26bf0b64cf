#include "a2a/randomized.hpp"

#include <numeric>
#include <stdexcept>
#include <utility>

namespace a2a {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t SplitMix64::below(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("SplitMix64::below(0)");
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
  std::uint64_t x = next();
  while (x >= limit)
    x = next();
  return x % n;
}

namespace randomized {

std::vector<int> shuffled_ranks(int procs, std::uint64_t seed, bool shuffle) {
  std::vector<int> ranks(static_cast<std::size_t>(procs));
  std::iota(ranks.begin(), ranks.end(), 0);
  if (!shuffle) return ranks;
  SplitMix64 rng(seed);
  for (std::size_t i = ranks.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.below(i));  // j in [0, i-1]
    std::swap(ranks[i - 1], ranks[j]);
  }
  return ranks;
}

AntiCirculant::AntiCirculant(std::vector<int> ranks)
    : ranks_(std::move(ranks)), index_of_(ranks_.size()) {
  for (std::size_t i = 0; i < ranks_.size(); ++i) {
    index_of_[static_cast<std::size_t>(ranks_[i])] = static_cast<int>(i);
  }
}

int AntiCirculant::send_to(int rank, int iteration) const {
  return ranks_[static_cast<std::size_t>((iteration + rank) % procs())];
}

int AntiCirculant::recv_from(int rank, int iteration) const {
  const int p = procs();
  return ((index_of_[static_cast<std::size_t>(rank)] - iteration) % p + p) % p;
}

}  // namespace randomized
}  // namespace a2a
