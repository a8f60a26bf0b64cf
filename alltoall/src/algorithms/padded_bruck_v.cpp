// padded_bruck_v: Alltoallv by padding: all ranks agree on the largest block (one Allreduce,
// when the plan is made), every block is padded to it, the uniform `tra` runs, and the blocks
// are extracted. The baseline for logarithmic Alltoallv without size messages (the
// configurable-alltoall paper's closing remark on applying TRA to MPI_Alltoallv).
// Cost: that of tra with S = max block: K(P, r) rounds, D(P, r) max-size blocks, plus two
// local copies of P blocks.
#include <cstring>

#include "detail/algorithms.hpp"
#include "detail/plan.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

class PaddedPlan final : public PlanImpl {
 public:
  PaddedPlan(const Context& ctx, std::size_t padded, std::unique_ptr<PlanState> uniform)
      : procs_(static_cast<std::size_t>(ctx.procs)),
        padded_(padded),
        layout_(ctx.layout),
        uniform_(std::move(uniform)),
        send_(procs_ * padded_),
        recv_(procs_ * padded_) {}

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    if (padded_ == 0) return;
    for (std::size_t d = 0; d < procs_; ++d) {
      std::memcpy(send_.data() + d * padded_, send + layout_.send_displs[d],
                  layout_.send_counts[d]);
    }
    uniform_->impl->execute(send_.data(), recv_.data(), c);
    for (std::size_t s = 0; s < procs_; ++s) {
      std::memcpy(recv + layout_.recv_displs[s], recv_.data() + s * padded_,
                  layout_.recv_counts[s]);
    }
  }

 private:
  std::size_t procs_, padded_;
  VectorLayout layout_;
  std::unique_ptr<PlanState> uniform_;
  std::vector<std::byte> send_, recv_;  // padding bytes are zero and never read
};

}  // namespace

AlgorithmInfo describe_padded_bruck_v() {
  AlgorithmInfo info;
  info.name = "padded_bruck_v";
  info.kinds = static_cast<unsigned>(Kind::vector);
  info.params = {radix_param_info()};  // of the uniform tra it runs
  info.summary = "pad every block to the global maximum, run tra, extract";
  info.source = "configurable-alltoall paper, closing remark (TRA for Alltoallv)";
  info.cost = "that of tra with S = the largest block";
  info.validate = [](Context& ctx) { ctx.radix_param("r", ctx.procs, "P"); };
  info.build = [](Context& ctx) -> std::unique_ptr<PlanImpl> {
    const std::size_t padded = global_max_count(ctx);
    return std::make_unique<PaddedPlan>(
        ctx, padded,
        make_plan_state("tra:r=" + ctx.resolved_value("r"), ctx.comm, Kind::uniform, padded,
                        VectorLayout::uniform(ctx.procs, padded)));
  };
  return info;
}

}  // namespace a2a::detail
