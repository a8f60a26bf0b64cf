// An independent count of the radix-r Bruck rounds and blocks: write every block index in base
// r digit by digit and count, for each (digit x, value z != 0), the indices with that digit.
// Shares no code with a2a::model or the library's schedule.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

namespace a2a::test {

struct BruteCount {
  std::uint64_t rounds = 0, blocks = 0;
};

inline BruteCount brute_force_count(std::uint64_t procs, std::uint64_t radix) {
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> per_round;
  for (std::uint64_t i = 0; i < procs; ++i) {
    std::uint64_t rest = i;
    for (std::uint64_t x = 0; rest > 0; ++x, rest /= radix) {
      if (rest % radix != 0) ++per_round[{x, rest % radix}];
    }
  }
  BruteCount c;
  c.rounds = per_round.size();
  for (const auto& [round, n] : per_round)
    c.blocks += n;
  return c;
}

}  // namespace a2a::test
