// Radix-r Bruck rounds for elements of different sizes: SLOAV's machinery (SLOAVx paper,
// section III-B) generalised from radix 2 to radix r, used by `sloav`, `tra_v` and the
// leaders of `sloavx`.
//
// Element index table (EIT): one entry per position with the element's length and where it
// lives: still in the caller's input (initially; nothing is rotated or copied), in its slot of
// the arena (a buffer laid out like the input, so an element that fits the slot of the one it
// replaces goes there), or in the overflow buffer (the "SLOAV buffer") when it does not fit.
// Overflow space is recycled: once an element has been sent on, its space returns to a
// first-fit free list. Each round (x, z) is two-phase: first the size of the merged message,
// then the message itself (the lengths of its elements, then their data), because a relay does
// not know the sizes of the elements it will receive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "detail/context.hpp"
#include "detail/p2p.hpp"
#include "detail/plan_impl.hpp"
#include "detail/radix.hpp"

namespace a2a::detail {

class VectorRadixExchange {
 public:
  struct Element {
    const std::byte* data = nullptr;
    std::size_t bytes = 0;
  };
  struct Sent {
    std::size_t rounds = 0, messages = 0, elements = 0, bytes = 0;
  };

  VectorRadixExchange(MPI_Comm comm, std::size_t rank, std::size_t procs, std::size_t radix,
                      int tag);

  // input[i]: the element for rank (rank + i) mod P. On return, element(i) is the element from
  // rank (rank - i) mod P (position 0 is the rank's own). Buffers grow on the first calls and
  // are then reused: a plan executed with the same sizes does not allocate.
  Sent run(const std::vector<Element>& input);
  Element element(std::size_t position) const;

 private:
  enum class Where : unsigned char { input, arena, overflow };
  struct Entry {
    Where where = Where::input;
    std::size_t offset = 0;  // arena or overflow offset
    std::size_t bytes = 0;
    const std::byte* input = nullptr;
  };
  const std::byte* data_of(const Entry& e) const;
  std::size_t allocate_overflow(std::size_t bytes);
  void release_overflow(std::size_t offset, std::size_t bytes);

  MPI_Comm comm_;
  std::size_t rank_, procs_;
  int tag_;
  std::vector<RadixRound> schedule_;
  std::vector<Entry> eit_;
  std::vector<std::size_t> slot_offset_;  // arena offset of each position's slot
  std::vector<std::byte> arena_, overflow_, send_msg_, recv_msg_;
  std::map<std::size_t, std::size_t> free_;  // overflow free list: offset -> bytes
  Requests requests_;
};

}  // namespace a2a::detail

namespace a2a::detail {

// The vector plan over the engine: input positions point into the caller's send buffer
// (rotation by index, no copy), outputs are copied to their receive displacements.
std::unique_ptr<PlanImpl> make_vector_radix_plan(const Context& ctx, std::size_t radix);

// The largest per-peer count of any rank (collective over ctx.comm).
std::size_t global_max_count(const Context& ctx);

}  // namespace a2a::detail
