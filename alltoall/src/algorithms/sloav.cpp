// sloav: Scalable LOgarithmic AlltoallV, Xu, Venkata, Graham, Wang, Liu, Yu, "SLOAVx: Scalable
// LOgarithmic AlltoallV Algorithm for Hierarchical Multicore Systems" (CCGrid 2013), section
// III. ceil(log2 P) rounds; in round s rank n merges the elements whose bit s-1 is set and
// sends first the size of the merged message, then the message, to (n + 2^(s-1)) mod P,
// receiving from (n - 2^(s-1)) mod P. The element index table replaces Bruck's data rotation;
// elements that do not fit the slot they land in go to the recycled overflow (SLOAV) buffer.
// Cost (section III-C): 2 ceil(log2 P) start-ups per rank (size and data per round);
// relayed data: every element travels as many hops as its distance has set bits.
// The paper switches to a linear algorithm when the largest message exceeds a threshold:
// `linear_above` (bytes, 0 = never), decided once when a fixed plan is made, and per call (one
// 8-byte allreduce of the largest count) by a VectorExchange.
// Two forms (vector_radix.hpp): per call, the paper's two phases with sizes in band; a fixed
// layout, planned once, one message per round and no size phase.
#include <climits>

#include "detail/algorithms.hpp"
#include "detail/plan.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

// Per call with a threshold: the largest count of the call decides, on every rank alike.
class SloavOrLinear final : public ExchangeImpl {
 public:
  SloavOrLinear(Context& ctx, std::size_t threshold)
      : comm_(ctx.comm),
        procs_(ctx.procs),
        threshold_(threshold),
        sloav_(make_vector_radix_exchange(ctx, 2, 1)),
        linear_(find_algorithm("linear")->build_exchange(ctx)) {}
  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    used_linear_ = global_max_count(comm_, l.send_counts, procs_) > threshold_;
    (used_linear_ ? linear_ : sloav_)->execute(send, recv, l, c);
  }
  std::string delegate_name() const override { return used_linear_ ? "linear" : ""; }
  std::string delegate_label() const override { return delegate_name(); }
  std::size_t scratch_bytes() const override {
    return sloav_->scratch_bytes() + linear_->scratch_bytes();
  }

 private:
  MPI_Comm comm_;
  int procs_;
  std::size_t threshold_;
  std::unique_ptr<ExchangeImpl> sloav_, linear_;
  bool used_linear_ = false;
};

}  // namespace

AlgorithmInfo describe_sloav() {
  AlgorithmInfo info;
  info.name = "sloav";
  info.kinds = static_cast<unsigned>(Kind::vector);
  info.params = {{"linear_above", "0",
                  "switch to `linear` when the largest per-peer count exceeds this many bytes "
                  "(0 = never)"}};
  info.summary = "logarithmic Alltoallv: log2 P two-phase rounds, element index table";
  info.source = "SLOAVx paper (Xu et al. 2013), section III";
  info.cost = "ceil(log2 P) rounds, 2 ceil(log2 P) messages per rank (per call), log2 P (fixed)";
  info.validate = [](Context& ctx) { ctx.int_param("linear_above", 0, LLONG_MAX); };
  info.build = [](Context& ctx) -> std::unique_ptr<PlanImpl> {
    const auto threshold = std::stoull(ctx.resolved_value("linear_above"));
    if (threshold > 0 && global_max_count(ctx) > threshold) {
      return std::make_unique<DelegatePlan>(
          make_plan_state("linear", ctx.comm, ctx.kind, ctx.block_bytes, ctx.layout));
    }
    return make_vector_radix_plan(ctx, 2, 1);
  };
  info.build_exchange = [](Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    const auto threshold = std::stoull(ctx.resolved_value("linear_above"));
    if (threshold > 0) return std::make_unique<SloavOrLinear>(ctx, threshold);
    return make_vector_radix_exchange(ctx, 2, 1);
  };
  info.tuning_candidates = [](Kind, int) { return std::vector<std::string>{"sloav"}; };
  info.test_variants = [](Kind, int) { return std::vector<std::string>{"sloav:linear_above=100"}; };
  info.predicted = [](const model::CostModel& m, Kind kind, std::uint64_t procs,
                      std::uint64_t bytes) -> std::optional<std::pair<std::string, double>> {
    if (kind != Kind::vector) return std::nullopt;
    return std::pair{std::string("sloav"), m.sloav_us(procs, bytes)};
  };
  return info;
}

}  // namespace a2a::detail
