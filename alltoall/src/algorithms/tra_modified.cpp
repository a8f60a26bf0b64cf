// tra_modified: TRA without the final rotation, after Traff, Rougier, Hunold, "Implementing a
// classic: zero-copy all-to-all communication with MPI datatypes" (ICS 2014), the "modified
// Bruck" in the configurable-alltoall paper's related work (section II).
// The rounds are TRA's, but block position i of rank p lives in receive slot (p - i) mod P
// instead of a scratch array. The initial step therefore stores S[(p + i) mod P] at slot
// (p - i) mod P (a rotation "in a different order, anticipating the final block order"); when
// the rounds end, slot j holds the block from rank j and no final rotation is needed.
// Cost: the same K rounds and D blocks as TRA (Propositions 1-4); one local copy pass fewer
// and no P S scratch buffer.
// Implementation: TRA's engine on the receive buffer with positions reflected into slots, so
// each run of positions is a run of slots and moves with one copy (or none: a round of one
// run is sent straight from the receive buffer). `window` as in tra.
#include <cstring>

#include "a2a/spec.hpp"
#include "detail/algorithms.hpp"
#include "detail/messages.hpp"
#include "detail/radix.hpp"
#include "detail/tags.hpp"

namespace a2a::detail {
namespace {

class ModifiedTraPlan final : public PlanImpl {
 public:
  ModifiedTraPlan(const Context& ctx, std::size_t radix, std::size_t window)
      : rank_(static_cast<std::size_t>(ctx.rank)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        block_(ctx.block_bytes),
        exchange_(ctx.comm, rank_, procs_, radix, window, block_, tag::tra_modified,
                  /*reflected=*/true) {}

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    const std::size_t p = rank_, n = procs_, b = block_;
    if (b == 0) return;
    // Slot (p - i) mod P gets S[(p + i) mod P]: slot j gets block (2p - j) mod P.
    for (std::size_t j = 0; j < n; ++j) {
      std::memcpy(recv + j * b, send + ((2 * p + n - j) % n) * b, b);
    }
    exchange_.run(recv).add_to(c);
  }
  std::size_t scratch_bytes() const override { return exchange_.scratch_bytes(); }

 private:
  std::size_t rank_, procs_, block_;
  RadixExchange exchange_;
};

}  // namespace

AlgorithmInfo describe_tra_modified() {
  AlgorithmInfo info;
  info.name = "tra_modified";
  info.kinds = static_cast<unsigned>(Kind::uniform);
  info.params = {radix_param_info(), window_param_info()};
  info.summary = "TRA without the final rotation (modified Bruck)";
  info.source = "Traff et al. ICS 2014 (modified Bruck); configurable-alltoall paper, II";
  info.cost = "same K rounds and D blocks as tra; no final rotation";
  info.validate = [](Context& ctx) {
    ctx.radix_param("r", ctx.procs, "P");
    ctx.window_param("window");
  };
  info.build = [](const Context& ctx) -> std::unique_ptr<PlanImpl> {
    return std::make_unique<ModifiedTraPlan>(ctx, std::stoull(ctx.resolved_value("r")),
                                             resolved_window(ctx));
  };
  info.tuning_candidates = [](Kind, int procs) { return radix_candidates("tra_modified", procs); };
  info.model_radix = [](const std::string& resolved) -> std::uint64_t {
    return std::stoull(*Spec::parse(resolved).find("r"));
  };
  info.test_variants = [](Kind, int) {
    return std::vector<std::string>{"tra_modified:r=max,window=2"};
  };
  return info;
}

}  // namespace a2a::detail
