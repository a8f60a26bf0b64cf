// Shared state of the direct (point-to-point, one message per peer) algorithms.
#pragma once

#include <cstring>

#include "detail/context.hpp"
#include "detail/p2p.hpp"
#include "detail/plan_impl.hpp"

namespace a2a::detail {

inline constexpr int kDirectTag = 4242;

class DirectPlan : public PlanImpl {
 public:
  explicit DirectPlan(const Context& ctx)
      : comm_(ctx.comm), rank_(ctx.rank), procs_(ctx.procs), layout_(ctx.layout) {
    std::size_t pieces = 0;
    for (int i = 0; i < procs_; ++i) {
      pieces += message_pieces(layout_.send_counts[i]) + message_pieces(layout_.recv_counts[i]);
    }
    requests_.reserve(pieces);
  }

 protected:
  void copy_self(const std::byte* send, std::byte* recv) const {
    const auto me = static_cast<std::size_t>(rank_);
    if (layout_.recv_counts[me] > 0) {
      std::memmove(recv + layout_.recv_displs[me], send + layout_.send_displs[me],
                   layout_.recv_counts[me]);
    }
  }
  void post_recv(std::byte* recv, int peer) {
    const auto i = static_cast<std::size_t>(peer);
    requests_.irecv(recv + layout_.recv_displs[i], layout_.recv_counts[i], peer, kDirectTag, comm_);
  }
  void post_send(const std::byte* send, int peer, Counters& c) {
    const auto i = static_cast<std::size_t>(peer);
    const std::size_t bytes = layout_.send_counts[i];
    if (bytes == 0) return;
    requests_.isend(send + layout_.send_displs[i], bytes, peer, kDirectTag, comm_);
    c.messages_sent += 1;
    c.blocks_sent += 1;
    c.bytes_sent += bytes;
  }

  MPI_Comm comm_;
  int rank_, procs_;
  VectorLayout layout_;
  Requests requests_;
};

}  // namespace a2a::detail
