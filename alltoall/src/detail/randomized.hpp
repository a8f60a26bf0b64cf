// Parameters and shared state of the randomized algorithms (randomized-alltoall paper).
#pragma once

#include <cstdint>
#include <vector>

#include "a2a/randomized.hpp"
#include "detail/point_to_point.hpp"

namespace a2a::detail {

struct RandomOptions {
  std::uint64_t seed = 0;
  bool shuffle = true;
  std::size_t queue = 32;
  std::size_t segment = 16384;
};

// The parameter list: seed and shuffle always, queue and segment where the algorithm has them.
std::vector<ParamInfo> random_params(bool with_queue, bool with_segment);
// Validation: resolves and range-checks them (seed = 'procs' is P, as in the paper's listing).
void validate_random(Context& ctx, bool with_queue, bool with_segment);
// Build: reads what validation resolved.
RandomOptions random_options(const Context& ctx, bool with_queue, bool with_segment);

// A point-to-point exchange in the order of the shuffled ranks.
class RandomizedExchange : public PointToPointExchange {
 public:
  RandomizedExchange(const Context& ctx, const RandomOptions& options)
      : PointToPointExchange(ctx),
        options_(options),
        ranks_(randomized::shuffled_ranks(ctx.procs, options.seed, options.shuffle)) {}

 protected:
  RandomOptions options_;
  std::vector<int> ranks_;  // Function 1, the same on every rank
};

}  // namespace a2a::detail
