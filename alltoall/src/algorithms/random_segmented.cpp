// random_segmented: randomized segmented Sendrecv, Algorithm 3 of the randomized-alltoall
// paper (Ferrari et al.), section 2. Every block is cut into segments of `segment` bytes; for
// each segment index the anti-circulant schedule of Algorithm 2 runs once (queue reset per
// segment, Waitall at its end), which spreads a large exchange evenly over time and paths.
// When a block is not a multiple of the segment, a trailing randomized scatter (Algorithm 1)
// sends the remainders. Vector kind: each peer's block has its own number of segments; a peer
// without segment k in it is skipped in that pass, without changing the schedule.
// Cost: ceil(S / segment) passes of P iterations; (P-1) S bytes per rank in
// (P-1) ceil(S / segment) messages.
#include <algorithm>

#include "detail/algorithms.hpp"
#include "detail/randomized.hpp"

namespace a2a::detail {
namespace {

class RandomSegmentedPlan final : public RandomizedPlan {
 public:
  RandomSegmentedPlan(const Context& ctx, const RandomOptions& options)
      : RandomizedPlan(ctx, options), schedule_(ranks_) {
    for (int p = 0; p < procs_; ++p) {
      if (p == rank_) continue;
      const auto i = static_cast<std::size_t>(p);
      passes_ = std::max({passes_, layout_.send_counts[i] / options_.segment,
                          layout_.recv_counts[i] / options_.segment});
    }
  }

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    const std::size_t seg = options_.segment;
    copy_self(send, recv);
    for (std::size_t pass = 0; pass < passes_; ++pass) {
      const std::size_t offset = pass * seg;
      for (int i = 0; i < procs_; ++i) {
        const int dst = schedule_.send_to(rank_, i);
        const int src = schedule_.recv_from(rank_, i);
        if (dst == rank_) continue;
        if (requests_.pending() >= options_.queue) {
          requests_.wait_all();
          c.rounds += 1;
        }
        const auto d = static_cast<std::size_t>(dst), s = static_cast<std::size_t>(src);
        if (layout_.send_counts[d] / seg > pass) {
          requests_.isend(send + layout_.send_displs[d] + offset, seg, dst, kDirectTag, comm_);
          c.messages_sent += 1;
          c.bytes_sent += seg;
          if (pass == 0) c.blocks_sent += 1;
        }
        if (layout_.recv_counts[s] / seg > pass) {
          requests_.irecv(recv + layout_.recv_displs[s] + offset, seg, src, kDirectTag, comm_);
        }
      }
      if (requests_.pending() > 0) {
        requests_.wait_all();
        c.rounds += 1;
      }
    }
    // Trailing scatter of the remainders (Algorithm 1 on the last count % segment bytes).
    for (int peer : ranks_) {
      const auto p = static_cast<std::size_t>(peer);
      const std::size_t rest = layout_.recv_counts[p] % seg;
      if (peer == rank_ || rest == 0) continue;
      requests_.irecv(recv + layout_.recv_displs[p] + layout_.recv_counts[p] - rest, rest, peer,
                      kDirectTag, comm_);
    }
    for (int peer : ranks_) {
      const auto p = static_cast<std::size_t>(peer);
      const std::size_t rest = layout_.send_counts[p] % seg;
      if (peer == rank_ || rest == 0) continue;
      requests_.isend(send + layout_.send_displs[p] + layout_.send_counts[p] - rest, rest, peer,
                      kDirectTag, comm_);
      c.messages_sent += 1;
      c.bytes_sent += rest;
      if (layout_.send_counts[p] < seg) c.blocks_sent += 1;
    }
    if (requests_.pending() > 0) {
      requests_.wait_all();
      c.rounds += 1;
    }
  }

 private:
  randomized::AntiCirculant schedule_;
  std::size_t passes_ = 0;  // segments in this rank's largest block (sent or received)
};

}  // namespace

AlgorithmInfo describe_random_segmented() {
  AlgorithmInfo info;
  info.name = "random_segmented";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.params = random_params(true, true);
  info.summary = "Algorithm 2 per segment, trailing scatter for the remainder";
  info.source = "randomized-alltoall paper (Ferrari et al.), Algorithm 3";
  info.cost = "ceil(S/segment) passes of P iterations, (P-1) S bytes";
  info.validate = [](Context& ctx) { validate_random(ctx, true, true); };
  info.build = [](const Context& ctx) -> std::unique_ptr<PlanImpl> {
    return std::make_unique<RandomSegmentedPlan>(ctx, random_options(ctx, true, true));
  };
  return info;
}

}  // namespace a2a::detail
