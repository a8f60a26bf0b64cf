// Radix-r Bruck rounds for elements of different sizes: SLOAV's machinery (SLOAVx paper,
// section III-B) generalised from radix 2 to radix r, used by `sloav`, `tra_v` and the
// leaders of `sloavx`.
//
// Element index table (EIT): one entry per position with the element's length and where it
// lives: still in the caller's input (initially; nothing is rotated or copied), in its slot of
// the arena (a buffer laid out like the input, so an element that fits the slot of the one it
// replaces goes there), or in the overflow buffer (the "SLOAV buffer") when it does not fit.
// Overflow space is recycled: once an element has been sent on, its space returns to a
// first-fit free list. An element that arrives at its last hop (position i's highest non-zero
// digit) goes straight to its destination in the receive buffer.
//
// Two ways to run it:
//  - per call (run): sizes travel in band, as in the paper: every round (x, z) first sends
//    the size of the merged message (4 bytes, eq. 3), then the message (the 4-byte lengths of
//    its elements, then their data). Nothing is exchanged beforehand. Lengths of 2^32-1 bytes
//    or more are escaped (an 8-byte length follows), so any size works.
//  - fixed layout (plan, then run_planned): one collective dry run at plan time exchanges the
//    element lengths round by round and places every element (arena, overflow offsets, final
//    destinations) as the per-call run would; each call then only moves data: one message per
//    round, no size phase, no headers, no allocation, and none at all for empty rounds.
//    A round whose data is one piece of memory is sent (or received) in place.
// Rounds of one digit can be in flight together (`window`, see radix.hpp).
#pragma once

#include "detail/tags.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "a2a/algorithm.hpp"
#include "a2a/buffer.hpp"
#include "detail/messages.hpp"
#include "detail/radix.hpp"

namespace a2a::detail {

class VectorRadixExchange {
 public:
  struct Element {
    const std::byte* data = nullptr;
    std::size_t bytes = 0;
  };
  struct Output {
    std::byte* data = nullptr;
    std::size_t bytes = 0;  // expected
  };

  VectorRadixExchange(MPI_Comm comm, std::size_t rank, std::size_t procs, std::size_t radix,
                      std::size_t window, tag::VectorRadixTags tags);

  // Per call. input[i]: the element for rank (rank + i) mod P; output[i]: where the element
  // from rank (rank - i) mod P goes and its expected length. The whole exchange always runs
  // (no rank is left waiting); a length that differs from the expected one is reported
  // afterwards by an a2a::Error on the rank that received it.
  RadixSent run(const Element* input, const Output* output);

  // Fixed layout: collective. Offsets are relative to the send and receive bases of
  // run_planned.
  void plan(const std::size_t* input_offsets, const std::size_t* input_bytes,
            const std::size_t* output_offsets, const std::size_t* output_bytes);
  RadixSent run_planned(const std::byte* send_base, std::byte* recv_base);
  std::size_t scratch_bytes() const {
    return arena_.capacity() + overflow_.capacity() + send_msg_.capacity() + recv_msg_.capacity() +
           send_stage_.capacity() + recv_stage_.capacity();
  }

 private:
  enum class Where : unsigned char { input, arena, overflow, output };
  struct Entry {
    Where where = Where::input;
    std::size_t offset = 0;  // arena, overflow or (plan) input/output offset
    std::size_t bytes = 0;
    const std::byte* input = nullptr;  // per call: the caller's element
  };
  struct Piece {
    Where where = Where::input;
    std::size_t offset = 0, bytes = 0;
  };
  struct PlannedRound {
    std::size_t send_bytes = 0, recv_bytes = 0;
    std::vector<Piece> pack, unpack;  // message order
  };

  // Placement shared by both modes: slots, the overflow free list, last hops.
  void reset_slots(const std::size_t* input_bytes);
  void place(std::size_t position, std::size_t bytes, std::size_t round, Entry& entry);
  std::size_t allocate_overflow(std::size_t bytes);
  void release_overflow(std::size_t offset, std::size_t bytes);
  const std::byte* data_of(const Entry& e, const std::byte* send_base) const;
  // Per call, one window of rounds [first, last): its messages merged (the wire format), sent
  // and received (sizes first), and what arrived placed (a length that disagrees with `output`
  // noted in `mismatch`).
  void merge_window(std::size_t first, std::size_t last);
  void exchange_window(std::size_t first, std::size_t last, RadixSent& sent);
  void place_window(std::size_t first, std::size_t last, const Output* output,
                    std::string& mismatch);
  std::byte* target_of(const Piece& p, std::byte* recv_base);

  MPI_Comm comm_;
  std::size_t rank_, procs_;
  tag::VectorRadixTags tags_;
  std::vector<RadixRound> schedule_;
  std::vector<std::pair<std::size_t, std::size_t>> windows_;
  std::size_t most_window_rounds_ = 1;
  std::vector<std::size_t> last_round_;  // the round in which each position arrives for good
  std::vector<Entry> eit_;
  std::vector<std::size_t> slot_offset_, slot_bytes_;  // arena slot of each position
  ByteBuffer arena_, overflow_;
  std::size_t overflow_used_ = 0;  // planning: high-water mark of the overflow buffer
  bool planning_ = false;
  std::vector<std::pair<std::size_t, std::size_t>> free_;  // overflow free list: (offset, bytes)

  // Per call: the merged messages of a window and their sizes.
  ByteBuffer send_msg_, recv_msg_;
  std::vector<std::uint32_t> size_out_, size_in_;
  std::vector<std::uint64_t> wide_out_, wide_in_;
  std::vector<std::size_t> msg_offset_in_, msg_offset_out_;

  // Fixed layout.
  std::vector<PlannedRound> planned_;
  std::size_t input0_offset_ = 0, output0_offset_ = 0, own_bytes_ = 0;
  std::vector<const std::byte*> send_from_;
  std::vector<std::byte*> recv_into_;
  ByteBuffer send_stage_, recv_stage_;

  Requests requests_;
};

// The vector plans over the engine: fixed layout (plan time dry run) and per call.
std::unique_ptr<PlanImpl> make_vector_radix_plan(const Context& ctx, std::size_t radix,
                                                 std::size_t window);
std::unique_ptr<ExchangeImpl> make_vector_radix_exchange(const Context& ctx, std::size_t radix,
                                                         std::size_t window);

}  // namespace a2a::detail
