// The communication schedule of the radix-r Bruck family (configurable-alltoall paper, III):
// block positions 0..P-1 written in base r with w = ceil(log_r P) digits; round (x, z), for
// digit x = 0..w-1 and value z = 1..r-1, moves every position whose digit x equals z over the
// distance z r^x. Rounds with no such position (z r^x >= P) do not exist.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "detail/context.hpp"
#include "detail/p2p.hpp"
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

// The communication rounds of TRA over `procs` ranks of comm, on a work array of `procs`
// elements of `element_bytes` each, already rotated (position i = the element for rank
// rank + i). After run(), position i holds the element from rank rank - i. Used by `tra` and
// `bruck` (an element is one block) and by both phases of `tra2` (an element is a group of
// blocks). Owns its pack/unpack buffers; run() does not allocate.
class RadixExchange {
 public:
  RadixExchange(MPI_Comm comm, std::size_t rank, std::size_t procs, std::size_t radix,
                std::size_t element_bytes, int tag);
  // Returns the rounds and elements sent by this rank (also added to nothing else).
  struct Sent {
    std::size_t rounds = 0, elements = 0, bytes = 0;
  };
  Sent run(std::byte* work);

 private:
  MPI_Comm comm_;
  std::size_t rank_, procs_, element_;
  int tag_;
  std::vector<RadixRound> schedule_;
  std::vector<std::byte> send_tmp_, recv_tmp_;
  Requests requests_;
};

// TRA with initial rotation, the schedule above, and final rotation (used by `tra`, `bruck`).
std::unique_ptr<PlanImpl> make_tra_plan(const Context& ctx, std::size_t radix);

}  // namespace a2a::detail
