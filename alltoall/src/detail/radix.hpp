// The communication schedule of the radix-r Bruck family (configurable-alltoall paper, III):
// block positions 0..P-1 written in base r with w = ceil(log_r P) digits; round (x, z), for
// digit x = 0..w-1 and value z = 1..r-1, moves every position whose digit x equals z over the
// distance z r^x. Rounds with no such position (z r^x >= P) do not exist.
//
// Rounds in flight (beyond the paper, whose rounds are one blocking exchange each): the r-1
// rounds of one digit move disjoint positions, so up to `window` of them can be posted
// together and completed with one wait. window = 1 is the paper's schedule; 0 means every
// round of a digit. Rounds of different digits stay in order (digit x+1 forwards what digit x
// delivered).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "a2a/algorithm.hpp"
#include "a2a/buffer.hpp"
#include "detail/messages.hpp"

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

// Consecutive rounds of one digit, at most `window` (0: all of the digit) per group, as
// [first, last) indices into the schedule.
std::vector<std::pair<std::size_t, std::size_t>> radix_windows(
    const std::vector<RadixRound>& schedule, std::size_t window);

// What a radix engine did on this rank.
struct RadixSent {
  std::size_t rounds = 0, messages = 0, elements = 0, bytes = 0, waits = 0;
  void add_to(Counters& c) const {
    c.rounds += rounds;
    c.messages_sent += messages;
    c.blocks_sent += elements;
    c.bytes_sent += bytes;
    c.waits += waits;
  }
};

// The communication rounds of TRA over `procs` ranks of comm, on a work array of `procs`
// elements, already rotated (position i = the element for rank rank + i). After run(),
// position i holds the element from rank rank - i. Used by `tra` and `bruck` (an element is
// one block), by both phases of `tra2` (an element is a group of blocks) and by
// `padded_bruck_v` (an element is a padded block). With `reflected`, position i lives in slot
// (rank - i) mod P of the work array instead (tra_modified: the receive buffer is the work
// array); each run of positions is then a run of slots in reverse order, so a message lists
// every run's positions in descending order and still copies whole runs. A round whose
// positions form one piece of memory is sent straight from the work array; the others are
// packed. Owns its staging buffers.
class RadixExchange {
 public:
  RadixExchange(MPI_Comm comm, std::size_t rank, std::size_t procs, std::size_t radix,
                std::size_t window, std::size_t element_bytes, int tag, bool reflected = false);
  // With the element size given at construction: does not allocate.
  RadixSent run(std::byte* work) { return run(work, element_); }
  // With another element size (per-call padding): staging grows on demand and is kept.
  RadixSent run(std::byte* work, std::size_t element_bytes);
  std::size_t scratch_bytes() const { return send_tmp_.capacity() + recv_tmp_.capacity(); }

 private:
  void reserve(std::size_t element_bytes);

  MPI_Comm comm_;
  std::size_t rank_, procs_, element_;
  int tag_;
  std::vector<RadixRound> schedule_;
  // Per round, the work-array pieces (first element, count) in message order.
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> pieces_;
  std::vector<std::pair<std::size_t, std::size_t>> windows_;
  // Per window, the blocks staged for sending (multi-run rounds) and for receiving (all).
  std::size_t most_send_blocks_ = 0, most_recv_blocks_ = 0, staged_for_ = 0;
  ByteBuffer send_tmp_, recv_tmp_;
  std::vector<const std::byte*> send_from_;  // per round of the current window
  Requests requests_;
};

// TRA with initial rotation, the schedule above, and final rotation (used by `tra`, `bruck`).
std::unique_ptr<PlanImpl> make_tra_plan(const Context& ctx, std::size_t radix, std::size_t window);

}  // namespace a2a::detail
