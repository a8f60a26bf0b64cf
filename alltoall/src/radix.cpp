#include <algorithm>

#include "detail/radix.hpp"

namespace a2a::detail {

std::vector<RadixRound> radix_schedule(std::size_t procs, std::size_t radix) {
  std::vector<RadixRound> rounds;
  for (std::size_t unit = 1, x = 0; unit < procs; unit *= radix, ++x) {
    for (std::size_t z = 1; z < radix && z * unit < procs; ++z) {
      RadixRound round{x, z, z * unit, {}, {}};
      // Positions with digit x equal to z: the z-th unit of r^x positions in every group of
      // r^(x+1), the last group possibly cut short by P.
      for (std::size_t group = 0; group < procs; group += unit * radix) {
        const std::size_t first = group + z * unit;
        if (first >= procs) break;
        const std::size_t count = std::min(unit, procs - first);
        round.runs.emplace_back(first, count);
        for (std::size_t i = 0; i < count; ++i)
          round.positions.push_back(first + i);
      }
      rounds.push_back(std::move(round));
    }
  }
  return rounds;
}

std::size_t max_round_blocks(const std::vector<RadixRound>& schedule) {
  std::size_t most = 0;
  for (const auto& round : schedule)
    most = std::max(most, round.positions.size());
  return most;
}

}  // namespace a2a::detail
