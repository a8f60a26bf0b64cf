#include <climits>

#include "detail/randomized.hpp"

namespace a2a::detail {

std::vector<ParamInfo> random_params(bool with_queue, bool with_segment) {
  std::vector<ParamInfo> params = {
      {"seed", "procs", "shuffle seed, an integer >= 0; 'procs' = P as in the paper's listing"},
      {"shuffle", "on", "off = the same code with the identity order (standard schedule)"}};
  if (with_queue) {
    params.push_back({"queue", "32", "requests in flight before a Waitall, >= 1"});
  }
  if (with_segment) {
    params.push_back({"segment", "16384", "segment bytes, in [1, 2^31-1]"});
  }
  return params;
}

void validate_random(Context& ctx, bool with_queue, bool with_segment) {
  if (ctx.raw("seed") == "procs") {
    ctx.resolve("seed", std::to_string(ctx.procs));
  } else {
    ctx.int_param("seed", 0, LLONG_MAX);
  }
  ctx.bool_param("shuffle");
  if (with_queue) ctx.int_param("queue", 1, INT_MAX);
  if (with_segment) ctx.int_param("segment", 1, INT_MAX);
}

RandomOptions random_options(const Context& ctx, bool with_queue, bool with_segment) {
  RandomOptions o;
  o.seed = std::stoull(ctx.resolved_value("seed"));
  o.shuffle = ctx.resolved_value("shuffle") == "on";
  if (with_queue) o.queue = std::stoull(ctx.resolved_value("queue"));
  if (with_segment) o.segment = std::stoull(ctx.resolved_value("segment"));
  return o;
}

}  // namespace a2a::detail
