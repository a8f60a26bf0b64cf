// random_scatter: randomized scatter, Algorithm 1 of Ferrari, Lompa, Lo Russo, Cavalli, Wu,
// "Optimized Alltoall Algorithm for Low-Diameter Network Topologies" (ETH Zurich), section 2.
// All Irecv are posted in the order of the shuffled ranks (Function 1), then all Isend in the
// same order, then one Waitall, so that the P(P-1) flows start in a uniformly random order
// instead of every rank targeting rank 0 first. With shuffle=off it is `linear`.
// Cost: 1 round; P-1 messages and (P-1) S bytes per rank, all in flight at once.
#include "detail/algorithms.hpp"
#include "detail/randomized.hpp"

namespace a2a::detail {
namespace {

class RandomScatterExchange final : public RandomizedExchange {
 public:
  using RandomizedExchange::RandomizedExchange;
  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    for (int peer : ranks_) {
      if (peer != rank_) post_recv(recv, peer, l);
    }
    for (int peer : ranks_) {
      if (peer != rank_) post_send(send, peer, l, c);
    }
    copy_self(send, recv, l);
    if (requests_.pending() > 0) {
      c.rounds = 1;
      wait(c);
    }
    report();
  }
};

}  // namespace

AlgorithmInfo describe_random_scatter() {
  AlgorithmInfo info;
  info.name = "random_scatter";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.params = random_params(false, false);
  info.summary = "all Irecv then all Isend in shuffled rank order; Waitall";
  info.source = "randomized-alltoall paper (Ferrari et al.), Algorithm 1";
  info.cost = "1 round, P-1 messages, (P-1) S bytes";
  info.validate = [](Context& ctx) { validate_random(ctx, false, false); };
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<RandomScatterExchange>(ctx, random_options(ctx, false, false));
  };
  info.tuning_candidates = [](Kind, int) { return std::vector<std::string>{"random_scatter"}; };
  info.sends_direct = true;
  info.scratch_buffers = [](int) { return 0.0; };
  info.always_tuned = static_cast<unsigned>(Kind::uniform);  // its gains need a network
  return info;
}

}  // namespace a2a::detail
