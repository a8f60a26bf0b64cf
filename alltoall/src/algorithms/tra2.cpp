// tra2: two-layer tunable-radix all-to-all (TRA2), Fan, Petruzza, Gilray, Kumar, "Configurable
// Algorithms for All-to-all Collectives", section IV (Figures 5-7) and V-B. With P = N Q ranks
// on N nodes of Q:
//   intra-node phase: N concurrent all-to-alls of the Q ranks of each node, radix r1. Rank
//     (n, l) gathers, for every local destination j, the N blocks bound for local rank j of
//     every node (rotation per group of Q blocks), and TRA-exchanges these groups, so all
//     groups' blocks travel merged, one message per round. Afterwards it holds, from every
//     rank of its node, the blocks bound for local rank l of every node.
//   inter-node phase: the nodes act as N super-processes exchanging super-blocks with radix
//     r2, in the Q-port model: local rank l talks only to local rank l of the other nodes (the
//     port communicator), sending the Q blocks of its node bound for local rank l of the
//     destination node.
// Cost (Propositions 1-4 with Q and N): K1 = K(Q, r1) rounds sending D(Q, r1) N blocks, then
// K2 = K(N, r2) rounds sending D(N, r2) Q blocks. The paper's best: r1 = ceil(sqrt Q),
// r2 = N (spread-out between nodes). Needs P % Q == 0 and nodes of Q consecutive ranks.
// `window` (beyond the paper, default 1): rounds of one digit in flight, in both phases.
#include <cstring>

#include "a2a/buffer.hpp"
#include "a2a/topology.hpp"
#include "detail/algorithms.hpp"
#include "detail/radix.hpp"
#include "detail/tags.hpp"

namespace a2a::detail {
namespace {

class Tra2Plan final : public PlanImpl {
 public:
  Tra2Plan(const Context& ctx, NodeTopology topology, std::size_t r1, std::size_t r2,
           std::size_t window)
      : topology_(std::move(topology)),
        q_(static_cast<std::size_t>(topology_.ranks_per_node())),
        n_(static_cast<std::size_t>(topology_.nodes())),
        local_(static_cast<std::size_t>(topology_.local_rank())),
        node_(static_cast<std::size_t>(topology_.node())),
        block_(ctx.block_bytes),
        work_intra_(q_ * n_ * block_),
        work_inter_(n_ * q_ * block_),
        intra_(topology_.node_comm(), local_, q_, r1, window, n_ * block_, tag::tra2_intra),
        inter_(topology_.port_comm(), node_, n_, r2, window, q_ * block_, tag::tra2_inter) {}

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    const std::size_t Q = q_, N = n_, l = local_, n = node_, b = block_;
    if (b == 0) return;
    // Intra-node rotation: group i holds, for local destination j = l + i, block m*Q + j of
    // every destination node m.
    for (std::size_t i = 0; i < Q; ++i) {
      const std::size_t j = (l + i) % Q;
      for (std::size_t m = 0; m < N; ++m) {
        std::memcpy(work_intra_.data() + (i * N + m) * b, send + (m * Q + j) * b, b);
      }
    }
    const RadixSent intra = intra_.run(work_intra_.data());
    // Group i now came from local rank l - i. Inter-node rotation: super-block k, for
    // destination node m = n + k, lists by source local rank s the block from (n, s) to (m, l).
    for (std::size_t k = 0; k < N; ++k) {
      const std::size_t m = (n + k) % N;
      for (std::size_t s = 0; s < Q; ++s) {
        const std::size_t group = (l + Q - s) % Q;
        std::memcpy(work_inter_.data() + (k * Q + s) * b, work_intra_.data() + (group * N + m) * b,
                    b);
      }
    }
    const RadixSent inter = inter_.run(work_inter_.data());
    // Super-block k came from node n - k: its Q blocks are recv[(n - k) Q .. (n - k) Q + Q).
    for (std::size_t k = 0; k < N; ++k) {
      const std::size_t source = (n + N - k) % N;
      std::memcpy(recv + source * Q * b, work_inter_.data() + k * Q * b, Q * b);
    }
    c.rounds_intra += intra.rounds;
    c.rounds_inter += inter.rounds;
    c.blocks_intra += intra.elements * N;
    c.blocks_inter += inter.elements * Q;
    c.rounds += intra.rounds + inter.rounds;
    c.waits += intra.waits + inter.waits;
    c.messages_sent += intra.messages + inter.messages;
    c.blocks_sent += intra.elements * N + inter.elements * Q;
    c.bytes_sent += intra.bytes + inter.bytes;
  }
  std::size_t scratch_bytes() const override {
    return work_intra_.capacity() + work_inter_.capacity() + intra_.scratch_bytes() +
           inter_.scratch_bytes();
  }

 private:
  NodeTopology topology_;
  std::size_t q_, n_, local_, node_, block_;
  ByteBuffer work_intra_, work_inter_;
  RadixExchange intra_, inter_;
};

// r1 in [2, Q] and r2 in [2, N] once Q is known ('nodes' is a synonym of 'max' for r2).
void resolve_radices(Context& ctx, int q) {
  const int nodes = ctx.procs / q;
  for (auto& [key, value] : ctx.params) {
    if (key == "r2" && value == "nodes") value = "max";
  }
  ctx.radix_param("r1", q, "Q");
  ctx.radix_param("r2", nodes, "N");
}

}  // namespace

AlgorithmInfo describe_tra2() {
  AlgorithmInfo info;
  info.name = "tra2";
  info.kinds = static_cast<unsigned>(Kind::uniform);
  info.params = {
      {"r1", "sqrt", "intra-node radix in [2, Q]; 'sqrt' = ceil(sqrt Q), 'max' = Q", true},
      {"r2", "nodes", "inter-node radix in [2, N]; 'nodes' = 'max' = N, 'sqrt' = ceil(sqrt N)",
       true},
      ranks_per_node_info(),
      window_param_info()};
  info.summary = "two-layer TRA: intra-node radix r1, then inter-node radix r2 (Q-port)";
  info.source = "configurable-alltoall paper (Fan et al.), section IV";
  info.cost = "K(Q,r1) + K(N,r2) rounds; D(Q,r1) N + D(N,r2) Q blocks";
  info.validate = [](Context& ctx) {
    const int q = ctx.ranks_per_node_param("q");
    ctx.window_param("window");
    if (q == 0) return;  // the real Q is known only collectively (build)
    resolve_radices(ctx, q);
  };
  info.build = [](Context& ctx) -> std::unique_ptr<PlanImpl> {
    const bool detect = ctx.raw("q") == "node";
    NodeTopology topology = plan_topology(ctx);
    if (detect) resolve_radices(ctx, topology.ranks_per_node());
    return std::make_unique<Tra2Plan>(ctx, std::move(topology),
                                      std::stoull(ctx.resolved_value("r1")),
                                      std::stoull(ctx.resolved_value("r2")), resolved_window(ctx));
  };
  // The real nodes, and every emulated node size.
  info.tuning_candidates = [](Kind, int procs) { return node_candidates("tra2", procs); };
  info.test_variants = [](Kind, int) { return std::vector<std::string>{"tra2:q=2"}; };
  return info;
}

}  // namespace a2a::detail
