// Shared state of the direct (point-to-point, one message per peer) algorithms. They need
// nothing but the counts of the call, so each is one per-call exchange; a fixed plan is the
// same exchange with its layout kept (registry default).
#pragma once

#include <cstring>

#include "detail/context.hpp"
#include "detail/p2p.hpp"
#include "detail/plan_impl.hpp"

namespace a2a::detail {

inline constexpr int kDirectTag = 4242;

class DirectExchange : public ExchangeImpl {
 public:
  explicit DirectExchange(const Context& ctx)
      : comm_(ctx.comm), rank_(ctx.rank), procs_(ctx.procs) {
    // One receive and one send per peer; messages above the split limit grow it once.
    requests_.reserve(2 * static_cast<std::size_t>(procs_));
  }

 protected:
  void copy_self(const std::byte* send, std::byte* recv, const LayoutView& l) const {
    const auto me = static_cast<std::size_t>(rank_);
    if (l.recv_counts[me] > 0) {
      std::memmove(recv + l.recv_displs[me], send + l.send_displs[me], l.recv_counts[me]);
    }
  }
  void post_recv(std::byte* recv, int peer, const LayoutView& l) {
    const auto i = static_cast<std::size_t>(peer);
    requests_.irecv(recv + l.recv_displs[i], l.recv_counts[i], peer, kDirectTag, comm_);
  }
  void post_send(const std::byte* send, int peer, const LayoutView& l, Counters& c) {
    const auto i = static_cast<std::size_t>(peer);
    const std::size_t bytes = l.send_counts[i];
    if (bytes == 0) return;
    requests_.isend(send + l.send_displs[i], bytes, peer, kDirectTag, comm_);
    c.messages_sent += 1;
    c.blocks_sent += 1;
    c.bytes_sent += bytes;
  }
  void wait(Counters& c) {
    requests_.wait_all();
    c.waits += 1;
  }

  MPI_Comm comm_;
  int rank_, procs_;
  Requests requests_;
};

}  // namespace a2a::detail
