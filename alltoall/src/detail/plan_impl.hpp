#pragma once

#include <cstddef>
#include <string>

#include "a2a/alltoall.hpp"

namespace a2a::detail {

// One algorithm's plan: built once, executed many times. Implementations precompute their
// schedule and allocate their scratch in the constructor; execute() does not allocate.
class PlanImpl {
 public:
  virtual ~PlanImpl() = default;
  virtual void execute(const std::byte* send, std::byte* recv, Counters& counters) = 0;
  // A plan that delegates (auto) names what it delegates to; "" keeps the spec's name.
  virtual std::string delegate_name() const { return {}; }
  virtual std::string delegate_label() const { return {}; }
};

}  // namespace a2a::detail
