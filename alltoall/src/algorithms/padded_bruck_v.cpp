// padded_bruck_v: Alltoallv by padding: all ranks agree on the largest block (one Allreduce:
// when a fixed plan is made, or per call for a VectorExchange), every block is padded to it,
// TRA's rounds run, and the blocks are extracted. The baseline for logarithmic Alltoallv
// without size messages (the configurable-alltoall paper's closing remark on applying TRA to
// MPI_Alltoallv).
// Two local passes: padding fused with TRA's initial rotation (block for rank p + i goes to
// position i), and extraction fused with the final rotation (position i holds the block from
// rank p - i); the rounds in between are TRA's (radix r, `window` as in tra).
// Cost: that of tra with S = max block + 8 (the block's length travels with it): K(P, r)
// rounds, D(P, r) max-size blocks.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "a2a/buffer.hpp"
#include "a2a/error.hpp"
#include "detail/algorithms.hpp"
#include "detail/plan.hpp"
#include "detail/radix.hpp"
#include "detail/tags.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

// Every padded block starts with its length (8 bytes): a receiver whose count disagrees with
// its sender's (an erroneous Alltoallv) gets what was sent and zeros, and an error, never the
// padding's stale bytes.
constexpr std::size_t kHeader = sizeof(std::uint64_t);

class Padded {
 public:
  Padded(const Context& ctx, std::size_t padded)
      : rank_(static_cast<std::size_t>(ctx.rank)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        exchange_(ctx.comm, rank_, procs_, std::stoull(ctx.resolved_value("r")),
                  resolved_window(ctx), padded + kHeader, tag::padded),
        work_(procs_ * (padded + kHeader)),
        fold_(simulation_fold_threshold()) {}

  // padded: this call's largest block (grows the work array when it grows).
  void run(const std::byte* send, std::byte* recv, const LayoutView& l, std::size_t padded,
           Counters& c) {
    const std::size_t p = rank_, n = procs_;
    std::string mismatch;
    if (padded == 0) {  // nothing is sent anywhere: a rank expecting data has a wrong count
      for (std::size_t src = 0; src < n; ++src) {
        if (l.recv_counts[src] == 0) continue;
        std::memset(recv + l.recv_displs[src], 0, l.recv_counts[src]);
        if (mismatch.empty()) mismatch = length_mismatch(src, 0, l.recv_counts[src]);
      }
      if (!mismatch.empty()) throw Error(mismatch);
      return;
    }
    const std::size_t slot = padded + kHeader;
    if (work_.size() < n * slot) work_.resize(n * slot);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t dst = (p + i) % n;
      std::byte* at = work_.data() + i * slot;
      const std::uint64_t length = l.send_counts[dst];
      std::memcpy(at, &length, kHeader);
      if (length == 0) continue;  // (an empty buffer may be null)
      std::memcpy(at + kHeader, send + l.send_displs[dst], length);
    }
    exchange_.run(work_.data(), slot).add_to(c);
    // Under SimGrid with folded buffers (a2a/buffer.hpp) every rank's work array is the same
    // pages: the lengths read back are another rank's, so the receiver's counts stand.
    const bool headers_folded = fold_ != 0 && work_.size() >= fold_;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t src = (p + n - i) % n;
      const std::byte* at = work_.data() + i * slot;
      const std::size_t expected = l.recv_counts[src];
      std::uint64_t length = expected;
      if (!headers_folded) std::memcpy(&length, at, kHeader);
      const std::size_t bytes = std::min<std::size_t>(length, expected);
      if (bytes > 0) std::memcpy(recv + l.recv_displs[src], at + kHeader, bytes);
      if (length != expected) {
        if (expected > bytes) std::memset(recv + l.recv_displs[src] + bytes, 0, expected - bytes);
        if (mismatch.empty()) mismatch = length_mismatch(src, length, expected);
      }
    }
    if (!mismatch.empty()) throw Error(mismatch);
  }
  std::size_t scratch_bytes() const { return work_.capacity() + exchange_.scratch_bytes(); }

 private:
  std::string length_mismatch(std::size_t src, std::size_t sent, std::size_t expected) const {
    return "padded_bruck_v: rank " + std::to_string(src) + " sent " + std::to_string(sent) +
           " bytes where rank " + std::to_string(rank_) + " expected " + std::to_string(expected) +
           " (mismatched Alltoallv counts; the block is zero-filled past what arrived)";
  }

  std::size_t rank_, procs_;
  RadixExchange exchange_;
  ByteBuffer work_;   // padding bytes are never read: each block's length travels with it
  std::size_t fold_;  // from this size SimGrid folds work_ (a2a/buffer.hpp); 0: never
};

class PaddedPlan final : public PlanImpl {
 public:
  PaddedPlan(const Context& ctx, std::size_t padded)
      : padded_(padded), layout_(ctx.layout), engine_(ctx, padded) {}
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    engine_.run(send, recv, LayoutView::of(layout_), padded_, c);
  }
  std::size_t scratch_bytes() const override { return engine_.scratch_bytes(); }

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
  std::size_t scratch_bytes() const override { return engine_.scratch_bytes(); }

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
  info.tuning_candidates = [](Kind, int procs) {
    return radix_candidates("padded_bruck_v", procs);
  };
  info.test_variants = [](Kind, int) {
    return std::vector<std::string>{"padded_bruck_v:r=2", "padded_bruck_v:r=3",
                                    "padded_bruck_v:r=max,window=all"};
  };
  info.large_message_tests = false;  // it would pad every block to 2 GiB
  return info;
}

}  // namespace a2a::detail
