// bruck: Bruck's all-to-all with radix 2 (Bruck, Ho, Kipnis, Upfal, Weathersby, IEEE TPDS
// 1997; Thakur, Rabenseifner, Gropp 2005 for MPICH): initial rotation, ceil(log2 P) rounds in
// which rank p sends the blocks whose bit k is set to p + 2^k, final rotation. It is TRA with
// r = 2 (configurable-alltoall paper, section II) and shares its implementation.
// Cost: K = ceil(log2 P) rounds; D = w 2^(w-1) blocks when P = 2^w (Proposition 2); time
// alpha log2 P + beta (P/2) log2 P S. `window` is accepted like the rest of the radix family;
// with r = 2 every digit has one round, so it changes nothing.
#include "detail/algorithms.hpp"
#include "detail/radix.hpp"

namespace a2a::detail {

AlgorithmInfo describe_bruck() {
  AlgorithmInfo info;
  info.name = "bruck";
  info.kinds = static_cast<unsigned>(Kind::uniform);
  info.summary = "Bruck radix 2: rotation, ceil(log2 P) rounds, rotation";
  info.source = "Bruck et al. 1997; configurable-alltoall paper, section II (TRA with r = 2)";
  info.cost = "ceil(log2 P) rounds, D = w 2^(w-1) blocks when P = 2^w";
  info.params = {window_param_info()};
  info.validate = [](Context& ctx) { ctx.window_param("window"); };
  info.build = [](const Context& ctx) { return make_tra_plan(ctx, 2, resolved_window(ctx)); };
  info.tuning_candidates = [](Kind, int) { return std::vector<std::string>{"bruck"}; };
  info.model_radix = [](const std::string&) -> std::uint64_t { return 2; };
  return info;
}

}  // namespace a2a::detail
