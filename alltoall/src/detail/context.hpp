// What an algorithm sees when it is validated and built.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/registry.hpp"
#include "a2a/topology.hpp"

namespace a2a::detail {

struct Context {
  const AlgorithmInfo* algorithm = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;  // the plan's own communicator; MPI_COMM_NULL while validating
  int rank = 0;
  int procs = 1;
  Kind kind = Kind::uniform;
  std::size_t block_bytes = 0;  // uniform kind
  VectorLayout layout;          // both kinds (the uniform layout for the uniform kind)
  bool per_call = false;        // a VectorExchange: no layout, the counts come with every call

  // Parameter values as written, defaults filled in, in the registry's order.
  std::vector<std::pair<std::string, std::string>> params;
  // Values after validation, every one explicit; they make up the resolved name.
  std::vector<std::pair<std::string, std::string>> resolved;

  const std::string& raw(const std::string& key) const;
  // Integer in [lo, hi]; throws SpecError naming the algorithm, key and range.
  long long int_param(const std::string& key, long long lo, long long hi);
  // A radix: an integer, "sqrt" (ceil(sqrt(n))) or "max" (n), in [2, max(2, n)].
  long long radix_param(const std::string& key, long long n, const char* what);
  // Ranks per node: 'node' (the real placement; 0 returned, resolved when the plan is built)
  // or an integer q dividing P (emulated nodes of q consecutive ranks).
  int ranks_per_node_param(const std::string& key);
  // Rounds of one digit in flight: an integer >= 1, or 'all' (returns 0: every round).
  std::size_t window_param(const std::string& key);
  // on|off (also true/false, 1/0).
  bool bool_param(const std::string& key);
  // Any text (already non-empty); recorded as resolved.
  std::string text_param(const std::string& key);
  void resolve(const std::string& key, std::string value);
  // A value recorded by resolve() during validation (for build()).
  const std::string& resolved_value(const std::string& key) const;
  std::string resolved_name() const;
  std::vector<std::pair<std::string, std::string>> ordered() const;
  std::string label() const;
  std::vector<std::string> given;  // keys written in the spec
  [[noreturn]] void fail(const std::string& message) const;
  // The backend cannot serve this exchange here (placement, P, kind): "not applicable: why",
  // an unsupported error rather than a bad spec.
  [[noreturn]] void refuse(const std::string& why) const;
};

// The `q` parameter of the node-aware algorithms.
ParamInfo ranks_per_node_info();
// The `r` parameter of the radix-r Bruck family (tra, tra_modified, tra_v, padded_bruck_v).
ParamInfo radix_param_info();
// The `window` parameter of the radix family (rounds of one digit in flight at once).
ParamInfo window_param_info();
// The resolved `window` parameter (after window_param): rounds in flight, 0 = all of a digit.
std::size_t resolved_window(const Context& ctx);
// Build time: the topology for the resolved `q` (collective), the real placement for
// q=node (then q is resolved to the real Q). Fails, on every rank, if hierarchical
// algorithms cannot use it.
NodeTopology plan_topology(Context& ctx);

}  // namespace a2a::detail
