// tra_v: two-phase radix-r Bruck for Alltoallv: the tunable radix of TRA (configurable-alltoall
// paper, section III, and its closing remark that the radix idea carries over to Alltoallv)
// on SLOAV's machinery (SLOAVx paper, section III-B): element index table instead of rotation,
// overflow buffer, and in every round (x, z) first the size of the merged message, then the
// message, to (n + z r^x) mod P. r = 2 is `sloav`.
// Cost: K(P, r) rounds (Propositions 1 and 3), 2 K messages per rank, D(P, r) elements sent;
// a fixed layout (planned once) sends K messages and no sizes. `window` as in tra.
#include "detail/algorithms.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {

AlgorithmInfo describe_tra_v() {
  AlgorithmInfo info;
  info.name = "tra_v";
  info.kinds = static_cast<unsigned>(Kind::vector);
  info.params = {radix_param_info(), window_param_info()};
  info.summary = "two-phase radix-r Bruck for Alltoallv (size, then data, per round)";
  info.source = "configurable-alltoall paper III + SLOAVx paper III-B";
  info.cost = "K(P,r) rounds, 2 K messages (per call) or K (fixed), D(P,r) elements";
  info.validate = [](Context& ctx) {
    ctx.radix_param("r", ctx.procs, "P");
    ctx.window_param("window");
  };
  info.build = [](Context& ctx) {
    return make_vector_radix_plan(ctx, std::stoull(ctx.resolved_value("r")), resolved_window(ctx));
  };
  info.build_exchange = [](Context& ctx) {
    return make_vector_radix_exchange(ctx, std::stoull(ctx.resolved_value("r")),
                                      resolved_window(ctx));
  };
  info.tuning_candidates = [](Kind, int procs) { return radix_candidates("tra_v", procs); };
  info.test_variants = [](Kind, int) {
    return std::vector<std::string>{"tra_v:r=2",
                                    "tra_v:r=3",
                                    "tra_v:r=max",
                                    "tra_v:r=max,window=2",
                                    "tra_v:r=sqrt,window=all",
                                    "tra_v:r=max,window=all"};
  };
  info.large_message_tests = false;  // sloav's engine, which those tests run
  return info;
}

}  // namespace a2a::detail
