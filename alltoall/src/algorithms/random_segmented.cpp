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
#include "detail/tags.hpp"

namespace a2a::detail {
namespace {

class RandomSegmentedExchange final : public RandomizedExchange {
 public:
  RandomSegmentedExchange(const Context& ctx, const RandomOptions& options)
      : RandomizedExchange(ctx, options), schedule_(ranks_) {}

  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    const std::size_t seg = options_.segment;
    // Passes: the segments in this rank's largest block, sent or received. Ranks may differ;
    // every pair agrees on its own blocks' segments, which is all that matching needs.
    std::size_t passes = 0;
    for (int p = 0; p < procs_; ++p) {
      if (p == rank_) continue;
      const auto i = static_cast<std::size_t>(p);
      passes = std::max({passes, l.send_counts[i] / seg, l.recv_counts[i] / seg});
    }
    copy_self(send, recv, l);
    for (std::size_t pass = 0; pass < passes; ++pass) {
      const std::size_t offset = pass * seg;
      for (int i = 0; i < procs_; ++i) {
        const int dst = schedule_.send_to(rank_, i);
        const int src = schedule_.recv_from(rank_, i);
        if (dst == rank_) continue;
        if (requests_.pending() >= options_.queue) {
          wait(c);
          c.rounds += 1;
        }
        const auto d = static_cast<std::size_t>(dst), s = static_cast<std::size_t>(src);
        if (l.send_counts[d] / seg > pass) {
          requests_.isend(send + l.send_displs[d] + offset, seg, dst, tag::point_to_point, comm_);
          c.messages_sent += 1;
          c.bytes_sent += seg;
          if (pass == 0) c.blocks_sent += 1;
        }
        if (l.recv_counts[s] / seg > pass) {
          requests_.irecv(recv + l.recv_displs[s] + offset, seg, src, tag::point_to_point, comm_);
        }
      }
      if (requests_.pending() > 0) {
        wait(c);
        c.rounds += 1;
      }
    }
    // Trailing scatter of the remainders (Algorithm 1 on the last count % segment bytes).
    for (int peer : ranks_) {
      const auto p = static_cast<std::size_t>(peer);
      const std::size_t rest = l.recv_counts[p] % seg;
      if (peer == rank_ || rest == 0) continue;
      requests_.irecv(recv + l.recv_displs[p] + l.recv_counts[p] - rest, rest, peer,
                      tag::point_to_point, comm_);
    }
    for (int peer : ranks_) {
      const auto p = static_cast<std::size_t>(peer);
      const std::size_t rest = l.send_counts[p] % seg;
      if (peer == rank_ || rest == 0) continue;
      requests_.isend(send + l.send_displs[p] + l.send_counts[p] - rest, rest, peer,
                      tag::point_to_point, comm_);
      c.messages_sent += 1;
      c.bytes_sent += rest;
      if (l.send_counts[p] < seg) c.blocks_sent += 1;
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

AlgorithmInfo describe_random_segmented() {
  AlgorithmInfo info;
  info.name = "random_segmented";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.params = random_params(true, true);
  info.summary = "Algorithm 2 per segment, trailing scatter for the remainder";
  info.source = "randomized-alltoall paper (Ferrari et al.), Algorithm 3";
  info.cost = "ceil(S/segment) passes of P iterations, (P-1) S bytes";
  info.validate = [](Context& ctx) { validate_random(ctx, true, true); };
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<RandomSegmentedExchange>(ctx, random_options(ctx, true, true));
  };
  info.tuning_candidates = [](Kind, int) {
    return std::vector<std::string>{"random_segmented", "random_segmented:segment=4096"};
  };
  info.sends_direct = true;
  info.scratch_buffers = [](int) { return 0.0; };
  info.always_tuned = static_cast<unsigned>(Kind::uniform);  // its gains need a network
  info.test_variants = [](Kind, int) {
    return std::vector<std::string>{"random_segmented:segment=100,queue=3"};
  };
  return info;
}

}  // namespace a2a::detail
