// random_sendrecv: randomized Sendrecv, Algorithm 2 of the randomized-alltoall paper (Ferrari
// et al.), section 2. The schedule is an anti-circulant matrix whose first row is the shuffled
// ranks (Function 1): at iteration i rank p sends to ranks[(i + p) mod P] and receives from the
// rank whose row holds p in column i. Every iteration is a permutation, and every ordered pair
// meets once in P iterations. A request queue keeps at most `queue` requests in flight: before
// posting, if `queue` or more are pending, Waitall. With shuffle=off it is the spread-out order
// of `pairwise` with a request queue.
// Cost: P iterations (one is the local copy), ceil(2(P-1)/queue) Waitall rounds; P-1 messages
// and (P-1) S bytes per rank.
#include "detail/algorithms.hpp"
#include "detail/randomized.hpp"

namespace a2a::detail {
namespace {

class RandomSendrecvExchange final : public RandomizedExchange {
 public:
  RandomSendrecvExchange(const Context& ctx, const RandomOptions& options)
      : RandomizedExchange(ctx, options), schedule_(ranks_) {}

  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    for (int i = 0; i < procs_; ++i) {
      const int dst = schedule_.send_to(rank_, i);
      const int src = schedule_.recv_from(rank_, i);
      if (requests_.pending() >= options_.queue) {
        wait(c);
        c.rounds += 1;
      }
      if (dst == rank_) {  // then src == rank_ too: row p holds p in this column
        copy_self(send, recv, l);
        continue;
      }
      post_recv(recv, src, l);
      post_send(send, dst, l, c);
    }
    if (requests_.pending() > 0) {
      wait(c);
      c.rounds += 1;
    }
    report();
  }

 private:
  randomized::AntiCirculant schedule_;
};

}  // namespace

AlgorithmInfo describe_random_sendrecv() {
  AlgorithmInfo info;
  info.name = "random_sendrecv";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.params = random_params(true, false);
  info.summary = "randomized anti-circulant schedule with a request queue";
  info.source = "randomized-alltoall paper (Ferrari et al.), Algorithm 2";
  info.cost = "P iterations, ceil(2(P-1)/queue) Waitalls, (P-1) S bytes";
  info.validate = [](Context& ctx) { validate_random(ctx, true, false); };
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<RandomSendrecvExchange>(ctx, random_options(ctx, true, false));
  };
  info.tuning_candidates = [](Kind, int) {
    return std::vector<std::string>{"random_sendrecv", "random_sendrecv:queue=8"};
  };
  info.sends_direct = true;
  info.scratch_buffers = [](int) { return 0.0; };
  info.always_tuned = static_cast<unsigned>(Kind::uniform);  // its gains need a network
  return info;
}

}  // namespace a2a::detail
