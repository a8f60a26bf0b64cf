// The single source of truth for which algorithms exist. One line per algorithm.
#include "a2a/registry.hpp"

#include "a2a/spec.hpp"
#include "a2a/topology.hpp"
#include "detail/algorithms.hpp"
#include "detail/plan.hpp"

namespace a2a {

const std::vector<AlgorithmInfo>& registry() {
  static const std::vector<AlgorithmInfo> algorithms = {
      detail::describe_mpi(),
      detail::describe_linear(),
      detail::describe_pairwise(),
      detail::describe_bruck(),
      detail::describe_tra(),
      detail::describe_tra_modified(),
      detail::describe_tra2(),
      detail::describe_random_scatter(),
      detail::describe_random_sendrecv(),
      detail::describe_random_segmented(),
      detail::describe_random_auto(),
      detail::describe_sloav(),
      detail::describe_sloavx(),
      detail::describe_tra_v(),
      detail::describe_padded_bruck_v(),
      detail::describe_shared_window(),
      detail::describe_auto(),
  };
  return algorithms;
}

const AlgorithmInfo* find_algorithm(const std::string& name) {
  for (const auto& info : registry()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

const ParamInfo* AlgorithmInfo::param(const std::string& key) const {
  for (const auto& p : params) {
    if (p.name == key) return &p;
  }
  return nullptr;
}

std::vector<std::string> algorithm_names(Kind kind) {
  std::vector<std::string> names;
  for (const auto& info : registry()) {
    if (info.supports(kind)) names.push_back(info.name);
  }
  return names;
}

std::optional<std::string> check_applicable(const std::string& spec, MPI_Comm comm, Kind kind,
                                            std::size_t block_bytes) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  detail::Context ctx;
  ctx.rank = rank;
  ctx.procs = procs;
  ctx.kind = kind;
  ctx.block_bytes = block_bytes;
  ctx.layout = VectorLayout::uniform(procs, block_bytes);
  std::string error = detail::validate(spec, ctx);
  if (error.empty() && ctx.algorithm->needs_one_node) {
    if (const std::string why = one_node_refusal(comm); !why.empty()) {
      error = "backend '" + ctx.algorithm->name + "': " + why;
    }
  }
  // Node-aware backends on the real placement (q=node): the nodes must hold equal runs of
  // consecutive ranks, which only the placement itself can tell (collective).
  if (error.empty() && ctx.algorithm->param("q") != nullptr && ctx.raw("q") == "node") {
    const NodeTopology topology(comm);
    if (!topology.uniform()) {
      error = "backend '" + ctx.algorithm->name + "': not applicable: " + topology.problem();
    }
  }
  if (error.empty()) return std::nullopt;
  return error;
}

}  // namespace a2a
