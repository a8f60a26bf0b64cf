// The single source of truth for which algorithms exist: one entry each in A2A_ALGORITHMS,
// in the order `a2a list`, `--algorithms all` and tuning use. An entry NAME is the function
// detail::describe_NAME() of alltoall/src/algorithms/NAME.cpp (the build compiles every file
// there); it declares itself here, so nothing else lists it.
#include "a2a/registry.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "a2a/model.hpp"
#include "a2a/spec.hpp"
#include "a2a/topology.hpp"
#include "detail/algorithms.hpp"
#include "detail/plan.hpp"

// One X(name) line per algorithm. (A2A_EXTRA_ALGORITHMS: the build's extra entries, from the
// generated extra_algorithms.hpp; none by default, one under A2A_EXAMPLE_ALGORITHM, the CI's
// proof that an algorithm is one file and one line.)
#include "extra_algorithms.hpp"
// clang-format off
#define A2A_ALGORITHMS(X) \
  X(mpi) \
  X(linear) \
  X(pairwise) \
  X(bruck) \
  X(tra) \
  X(tra_modified) \
  X(tra2) \
  X(random_scatter) \
  X(random_sendrecv) \
  X(random_segmented) \
  X(random_auto) \
  X(sloav) \
  X(sloavx) \
  X(tra_v) \
  X(padded_bruck_v) \
  X(shared_window) \
  X(auto) \
  A2A_EXTRA_ALGORITHMS(X)
// clang-format on

namespace a2a {

namespace detail {
#define A2A_DECLARE(name) AlgorithmInfo describe_##name();
A2A_ALGORITHMS(A2A_DECLARE)
#undef A2A_DECLARE
}  // namespace detail

namespace {

// The plugins of A2A_PLUGINS, appended after the built-in algorithms.
void load_plugins(std::vector<AlgorithmInfo>& algorithms) {
  const char* list = std::getenv("A2A_PLUGINS");
  if (list == nullptr || *list == '\0') return;
  const std::string paths = list;
  std::size_t start = 0;
  while (start <= paths.size()) {
    const std::size_t end = std::min(paths.find(':', start), paths.size());
    const std::string path = paths.substr(start, end - start);
    start = end + 1;
    if (path.empty()) continue;
    // Kept loaded for the life of the process: the algorithms' code lives there.
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "a2a: warning: A2A_PLUGINS: cannot load %s (%s); left out\n",
                   path.c_str(), dlerror());
      continue;
    }
    using Entry = void (*)(std::vector<AlgorithmInfo>*);
    auto entry = reinterpret_cast<Entry>(dlsym(library, "a2a_plugin_algorithms"));
    if (entry == nullptr) {
      std::fprintf(stderr, "a2a: warning: A2A_PLUGINS: %s has no a2a_plugin_algorithms; left out\n",
                   path.c_str());
      continue;
    }
    std::vector<AlgorithmInfo> brought;
    entry(&brought);
    for (AlgorithmInfo& info : brought) {
      bool taken = info.name.empty();
      for (const AlgorithmInfo& existing : algorithms)
        taken = taken || existing.name == info.name;
      if (taken || !info.build_exchange) {
        std::fprintf(stderr, "a2a: warning: A2A_PLUGINS: %s: algorithm '%s' %s; left out\n",
                     path.c_str(), info.name.c_str(),
                     taken ? "has no name or exists already" : "has no build_exchange");
        continue;
      }
      algorithms.push_back(std::move(info));
    }
  }
}

}  // namespace

const std::vector<AlgorithmInfo>& registry() {
  static const std::vector<AlgorithmInfo> algorithms = [] {
#define A2A_DESCRIBE(name) detail::describe_##name(),
    std::vector<AlgorithmInfo> all = {A2A_ALGORITHMS(A2A_DESCRIBE)};
#undef A2A_DESCRIBE
    load_plugins(all);
    return all;
  }();
  return algorithms;
}

const AlgorithmInfo* find_algorithm(const std::string& name) {
  for (const auto& info : registry()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

const AlgorithmInfo* algorithm_of(const std::string& spec) {
  const std::size_t arrow = spec.rfind("->");
  return find_algorithm(
      Spec::parse(arrow == std::string::npos ? spec : spec.substr(arrow + 2)).name);
}

const ParamInfo* AlgorithmInfo::param(const std::string& key) const {
  for (const auto& p : params) {
    if (p.name == key) return &p;
  }
  return nullptr;
}

std::vector<std::string> tuning_candidates(Kind kind, int procs) {
  std::vector<std::string> out;
  for (const auto& info : registry()) {
    if (!info.supports(kind) || !info.tuning_candidates) continue;
    for (std::string& spec : info.tuning_candidates(kind, procs))
      out.push_back(std::move(spec));
  }
  return out;
}

std::vector<std::uint64_t> tuning_radices(int procs) {
  const auto p = static_cast<std::uint64_t>(std::max(procs, 2));
  std::set<std::uint64_t> radices = {2, 3, 4, model::sqrt_radix(p), p};
  for (std::uint64_t r = 8; r < p; r *= 2)
    radices.insert(r);
  std::vector<std::uint64_t> out;
  for (std::uint64_t r : radices) {
    if (r <= p) out.push_back(r);
  }
  return out;
}

std::vector<int> tuning_node_sizes(int procs) {
  std::vector<int> sizes;
  for (int q = 2; q < procs; ++q) {
    if (procs % q == 0) sizes.push_back(q);
  }
  return sizes;
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
  const bool detect =
      error.empty() && ctx.algorithm->param("q") != nullptr && ctx.raw("q") == "node";
  if (detect || (error.empty() && ctx.algorithm->needs_shared_nodes)) {
    const NodeTopology topology(comm, detect ? 0 : std::stoi(ctx.resolved_value("q")));
    if (!topology.uniform()) {
      error = "backend '" + ctx.algorithm->name + "': not applicable: " + topology.problem();
    } else if (ctx.algorithm->needs_shared_nodes) {
      if (const std::string why = shared_nodes_refusal(topology, comm); !why.empty())
        error = "backend '" + ctx.algorithm->name + "': not applicable: " + why;
    }
  }
  if (error.empty()) return std::nullopt;
  return error;
}

}  // namespace a2a
