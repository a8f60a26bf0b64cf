// The registry: the single list of algorithms. The CLI, `a2a list`, the tests and the
// benchmarks all iterate over it; adding an algorithm is one source file plus one line in
// alltoall/src/registry.cpp.
#pragma once

#include <mpi.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "a2a/alltoall.hpp"

namespace a2a {

namespace detail {
struct Context;
class PlanImpl;
class ExchangeImpl;
}  // namespace detail

struct ParamInfo {
  std::string name;
  std::string default_value;  // as it would be written in a spec
  std::string help;           // including the valid range
  bool labelled = false;      // shown in short labels even when left at its default (radices)
};

struct AlgorithmInfo {
  std::string name;
  unsigned kinds = 0;  // bit-or of Kind values
  std::vector<ParamInfo> params;
  std::string source;  // paper and section
  std::string cost;    // rounds and bytes per rank, in words
  std::string summary;
  // Runs only where every rank of the communicator shares one node's memory (shared_window).
  bool needs_one_node = false;

  // Resolves and range-checks the parameters for this context and throws SpecError if the
  // algorithm cannot serve it. Local: no communication happens here.
  std::function<void(detail::Context&)> validate;
  // Builds a fixed plan (uniform, or a vector layout in ctx.layout); may communicate (collective
  // over the plan's communicator) and may resolve parameters that need it (such as the real
  // ranks per node). Optional: without it the plan is build_exchange's exchange run with the
  // fixed layout (the uniform layout for the uniform kind).
  std::function<std::unique_ptr<detail::PlanImpl>(detail::Context&)> build;
  // Builds the per-call exchange (VectorExchange): no layout in ctx, counts come with every
  // call. Required for every algorithm of the vector kind; direct algorithms need nothing else.
  std::function<std::unique_ptr<detail::ExchangeImpl>(detail::Context&)> build_exchange;

  bool supports(Kind kind) const { return (kinds & static_cast<unsigned>(kind)) != 0; }
  const ParamInfo* param(const std::string& key) const;
};

const std::vector<AlgorithmInfo>& registry();
const AlgorithmInfo* find_algorithm(const std::string& name);

// The names of every algorithm that serves this kind, in registry order.
std::vector<std::string> algorithm_names(Kind kind);

// Whether a spec can be planned for (comm, kind) without throwing: the reason if not. Used by
// `a2a bench --algorithms all` to skip inapplicable entries. Local, no communication, except
// for an algorithm that needs_one_node or detects its nodes (q=node): then collective over
// comm (the placement is read with MPI_Comm_split_type).
std::optional<std::string> check_applicable(const std::string& spec, MPI_Comm comm, Kind kind,
                                            std::size_t block_bytes);

}  // namespace a2a
