// Shared state of the point-to-point algorithms (one message per peer). They need
// nothing but the counts of the call, so each is one per-call exchange; a fixed plan is the
// same exchange with its layout kept (registry default).
#pragma once

#include <algorithm>
#include <cstring>
#include <string>

#include "a2a/algorithm.hpp"
#include "a2a/error.hpp"
#include "detail/messages.hpp"
#include "detail/tags.hpp"

namespace a2a::detail {

class PointToPointExchange : public ExchangeImpl {
 public:
  explicit PointToPointExchange(const Context& ctx)
      : comm_(ctx.comm), rank_(ctx.rank), procs_(ctx.procs) {
    // One receive and one send per peer; messages above the split limit grow it once.
    requests_.reserve(2 * static_cast<std::size_t>(procs_));
  }

 protected:
  // This rank's own block; with counts that disagree (an erroneous Alltoallv) what there is
  // is copied, the rest zero-filled, and wait() reports it.
  void copy_self(const std::byte* send, std::byte* recv, const LayoutView& l) {
    const auto me = static_cast<std::size_t>(rank_);
    const std::size_t sent = l.send_counts[me], expected = l.recv_counts[me];
    const std::size_t bytes = std::min(sent, expected);
    if (bytes > 0) std::memmove(recv + l.recv_displs[me], send + l.send_displs[me], bytes);
    if (sent != expected) {
      if (expected > bytes) std::memset(recv + l.recv_displs[me] + bytes, 0, expected - bytes);
      if (mismatch_.empty())
        mismatch_ = "rank " + std::to_string(rank_) + " sends itself " + std::to_string(sent) +
                    " bytes but expects " + std::to_string(expected) +
                    " (mismatched Alltoallv counts)";
    }
  }
  void post_recv(std::byte* recv, int peer, const LayoutView& l) {
    const auto i = static_cast<std::size_t>(peer);
    requests_.irecv(recv + l.recv_displs[i], l.recv_counts[i], peer, tag::point_to_point, comm_);
  }
  void post_send(const std::byte* send, int peer, const LayoutView& l, Counters& c) {
    const auto i = static_cast<std::size_t>(peer);
    const std::size_t bytes = l.send_counts[i];
    if (bytes == 0) return;
    requests_.isend(send + l.send_displs[i], bytes, peer, tag::point_to_point, comm_);
    c.messages_sent += 1;
    c.blocks_sent += 1;
    c.bytes_sent += bytes;
  }
  void wait(Counters& c) {
    requests_.wait_all(&mismatch_);
    c.waits += 1;
  }
  // At the end of a call: what arrived with other lengths than the counts said, if anything
  // (after every round, so no peer is left waiting).
  void report() {
    if (mismatch_.empty()) return;
    std::string error;
    std::swap(error, mismatch_);
    throw Error(error);
  }

  MPI_Comm comm_;
  int rank_, procs_;
  Requests requests_;
  std::string mismatch_;
};

}  // namespace a2a::detail
