// Closed-form cost model of the radix-r Bruck family (TRA), configurable-alltoall paper,
// section III-A, Propositions 1-4: K communication rounds and D data blocks sent per rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace a2a::model {

struct RadixCost {
  std::uint64_t digits = 0;  // w = ceil(log_r P)
  std::uint64_t rounds = 0;  // K
  std::uint64_t blocks = 0;  // D
};

// w = ceil(log_r P) computed exactly in integers (0 for P = 1).
std::uint64_t digits(std::uint64_t procs, std::uint64_t radix);
// Propositions 1 and 3.
std::uint64_t rounds(std::uint64_t procs, std::uint64_t radix);
// Blocks sent in round (x, z), Proposition 4 (Proposition 2 when P = r^w).
std::uint64_t blocks_in_round(std::uint64_t procs, std::uint64_t radix, std::uint64_t x,
                              std::uint64_t z);
// D: Proposition 2 when P = r^w, else the sum of Proposition 4.
std::uint64_t blocks(std::uint64_t procs, std::uint64_t radix);
RadixCost tra_cost(std::uint64_t procs, std::uint64_t radix);

// ceil(sqrt(P)), the paper's default radix, clamped to [2, max(2, P)].
std::uint64_t sqrt_radix(std::uint64_t procs);

}  // namespace a2a::model
