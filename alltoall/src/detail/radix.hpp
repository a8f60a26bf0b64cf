// The communication schedule of the radix-r Bruck family (configurable-alltoall paper, III):
// block positions 0..P-1 written in base r with w = ceil(log_r P) digits; round (x, z), for
// digit x = 0..w-1 and value z = 1..r-1, moves every position whose digit x equals z over the
// distance z r^x. Rounds with no such position (z r^x >= P) do not exist.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "detail/context.hpp"
#include "detail/plan_impl.hpp"

namespace a2a::detail {

struct RadixRound {
  std::size_t digit = 0, value = 0;    // (x, z)
  std::size_t distance = 0;            // z r^x
  std::vector<std::size_t> positions;  // ascending
  // The same positions as maximal runs of consecutive positions: (first, count).
  std::vector<std::pair<std::size_t, std::size_t>> runs;
};

std::vector<RadixRound> radix_schedule(std::size_t procs, std::size_t radix);
std::size_t max_round_blocks(const std::vector<RadixRound>& schedule);

// TRA with initial rotation, the schedule above, and final rotation (used by `tra`, `bruck`).
std::unique_ptr<PlanImpl> make_tra_plan(const Context& ctx, std::size_t radix);

}  // namespace a2a::detail
