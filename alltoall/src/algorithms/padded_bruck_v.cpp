// padded_bruck_v: Alltoallv by padding: all ranks agree on the largest block (one Allreduce:
// when a fixed plan is made, or per call for a VectorExchange), every block is padded to it,
// TRA's rounds run, and the blocks are extracted. The baseline for logarithmic Alltoallv
// without size messages (the configurable-alltoall paper's closing remark on applying TRA to
// MPI_Alltoallv).
// Two local passes: padding fused with TRA's initial rotation (block for rank p + i goes to
// position i), and extraction fused with the final rotation (position i holds the block from
// rank p - i); the rounds in between are TRA's (radix r, `window` as in tra).
// Cost: that of tra with S = max block: K(P, r) rounds, D(P, r) max-size blocks.
#include <cstring>

#include "a2a/buffer.hpp"
#include "detail/algorithms.hpp"
#include "detail/plan.hpp"
#include "detail/radix.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

constexpr int kPaddedTag = 4848;

class Padded {
 public:
  Padded(const Context& ctx, std::size_t padded)
      : rank_(static_cast<std::size_t>(ctx.rank)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        exchange_(ctx.comm, rank_, procs_, std::stoull(ctx.resolved_value("r")),
                  resolved_window(ctx), padded, kPaddedTag),
        work_(procs_ * padded) {}

  // padded: this call's block size (grows the work array when it grows).
  void run(const std::byte* send, std::byte* recv, const LayoutView& l, std::size_t padded,
           Counters& c) {
    if (padded == 0) return;
    if (work_.size() < procs_ * padded) work_.resize(procs_ * padded);
    const std::size_t p = rank_, n = procs_;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t dst = (p + i) % n;
      if (l.send_counts[dst] == 0) continue;  // (an empty buffer may be null)
      std::memcpy(work_.data() + i * padded, send + l.send_displs[dst], l.send_counts[dst]);
    }
    exchange_.run(work_.data(), padded).add_to(c);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t src = (p + n - i) % n;
      if (l.recv_counts[src] == 0) continue;
      std::memcpy(recv + l.recv_displs[src], work_.data() + i * padded, l.recv_counts[src]);
    }
  }

 private:
  std::size_t rank_, procs_;
  RadixExchange exchange_;
  ByteBuffer work_;  // padding bytes are never read by the receiver
};

class PaddedPlan final : public PlanImpl {
 public:
  PaddedPlan(const Context& ctx, std::size_t padded)
      : padded_(padded), layout_(ctx.layout), engine_(ctx, padded) {}
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    engine_.run(send, recv, LayoutView::of(layout_), padded_, c);
  }

 private:
  std::size_t padded_;
  VectorLayout layout_;
  Padded engine_;
};

class PaddedExchange final : public ExchangeImpl {
 public:
  explicit PaddedExchange(const Context& ctx)
      : comm_(ctx.comm), procs_(ctx.procs), engine_(ctx, 0) {}
  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    engine_.run(send, recv, l, global_max_count(comm_, l.send_counts, procs_), c);
  }

 private:
  MPI_Comm comm_;
  int procs_;
  Padded engine_;
};

}  // namespace

AlgorithmInfo describe_padded_bruck_v() {
  AlgorithmInfo info;
  info.name = "padded_bruck_v";
  info.kinds = static_cast<unsigned>(Kind::vector);
  info.params = {radix_param_info(), window_param_info()};  // of the TRA rounds it runs
  info.summary = "pad every block to the global maximum, run tra, extract";
  info.source = "configurable-alltoall paper, closing remark (TRA for Alltoallv)";
  info.cost = "that of tra with S = the largest block";
  info.validate = [](Context& ctx) {
    ctx.radix_param("r", ctx.procs, "P");
    ctx.window_param("window");
  };
  info.build = [](Context& ctx) -> std::unique_ptr<PlanImpl> {
    return std::make_unique<PaddedPlan>(ctx, global_max_count(ctx));
  };
  info.build_exchange = [](Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<PaddedExchange>(ctx);
  };
  return info;
}

}  // namespace a2a::detail
