// linear: the standard "post everything" all-to-all. Every rank posts all P-1 Irecv, then all
// P-1 Isend, in rank order, and waits for all of them (MPICH's and Open MPI's basic linear).
// Cost: 1 round of P-1 concurrent messages; alpha (P-1) + beta (P-1) S per rank, with all
// P(P-1) messages in flight at once. Split phase: start() posts, finish() waits.
#include "detail/algorithms.hpp"
#include "detail/point_to_point.hpp"

namespace a2a::detail {
namespace {

class LinearExchange final : public PointToPointExchange {
 public:
  using PointToPointExchange::PointToPointExchange;
  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    start(send, recv, l, c);
    finish(c);
  }
  // Split phase: start() posts every request, finish() waits for them.
  void start(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    for (int peer = 0; peer < procs_; ++peer) {
      if (peer != rank_) post_recv(recv, peer, l);
    }
    for (int peer = 0; peer < procs_; ++peer) {
      if (peer != rank_) post_send(send, peer, l, c);
    }
    copy_self(send, recv, l);
  }
  void finish(Counters& c) override {
    if (requests_.pending() > 0) {
      c.rounds = 1;
      wait(c);
    }
    report();
  }
  bool overlaps() const override { return true; }
};

}  // namespace

AlgorithmInfo describe_linear() {
  AlgorithmInfo info;
  info.name = "linear";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.summary = "post all Irecv, then all Isend, in rank order; Waitall";
  info.source = "standard linear algorithm (MPICH/Open MPI basic linear)";
  info.cost = "1 round, P-1 messages, (P-1) S bytes sent";
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<LinearExchange>(ctx);
  };
  info.tuning_candidates = [](Kind, int) { return std::vector<std::string>{"linear"}; };
  info.sends_direct = true;
  info.scratch_buffers = [](int) { return 0.0; };
  return info;
}

}  // namespace a2a::detail
