// pairwise: the spread-out / pairwise-exchange algorithm. In step i = 1..P-1 rank p sends to
// (p + i) mod P and receives from (p - i) mod P, one exchange at a time, so every step is a
// permutation and no rank receives from two peers at once. This is TRA with r = P (paper
// section II, "spread-out"), and what MPI libraries use for long messages.
// Cost: P-1 rounds; alpha (P-1) + beta (P-1) S per rank.
#include "detail/algorithms.hpp"
#include "detail/point_to_point.hpp"

namespace a2a::detail {
namespace {

class PairwiseExchange final : public PointToPointExchange {
 public:
  using PointToPointExchange::PointToPointExchange;
  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    copy_self(send, recv, l);
    for (int step = 1; step < procs_; ++step) {
      const int dst = (rank_ + step) % procs_;
      const int src = (rank_ - step + procs_) % procs_;
      post_recv(recv, src, l);
      post_send(send, dst, l, c);
      if (requests_.pending() == 0) continue;
      c.rounds += 1;
      wait(c);
    }
    report();
  }
};

}  // namespace

AlgorithmInfo describe_pairwise() {
  AlgorithmInfo info;
  info.name = "pairwise";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.summary = "P-1 steps: send to rank+i, receive from rank-i";
  info.source = "spread-out / pairwise exchange (configurable-alltoall paper, section II)";
  info.cost = "P-1 rounds, (P-1) S bytes sent";
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<PairwiseExchange>(ctx);
  };
  info.tuning_candidates = [](Kind, int) { return std::vector<std::string>{"pairwise"}; };
  info.sends_direct = true;
  info.scratch_buffers = [](int) { return 0.0; };
  return info;
}

}  // namespace a2a::detail
