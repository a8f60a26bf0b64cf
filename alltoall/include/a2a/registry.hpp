// The registry: the single list of algorithms. The CLI, `a2a list`, `a2a tune` (and so `auto`'s
// tables), the tests, the benchmarks and the interposer all iterate over it, and read what
// they need to know about an algorithm from its entry (the facts below), never from its name.
// Adding an algorithm is one source file in alltoall/src/algorithms/ (the build takes every
// file there) plus one entry in alltoall/src/registry.cpp's list; or, without rebuilding a2a,
// a plugin named in A2A_PLUGINS (below). docs/contributing.md shows both.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/model.hpp"

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

// One median `a2a tune` measured for Alltoall: the spec, the bytes per peer, microseconds.
struct MeasuredMedian {
  std::string spec;
  std::size_t bytes = 0;
  double median_us = 0;
};

// An algorithm's own entry in a selection table (under its name, one per P): parameter values
// to use where a spec leaves them out, and one line saying where they come from.
struct TableEntry {
  std::vector<std::pair<std::string, std::uint64_t>> values;
  std::string why;
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
  // Runs only where the ranks of each of its (emulated, `q`) nodes share memory (sloavx).
  bool needs_shared_nodes = false;

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

  // The specs `a2a tune --candidates default` measures for this kind at P ranks (each the
  // parameters worth comparing: radices, windows, emulated node sizes); the tuner drops those
  // that do not apply where it runs. Empty (or unset): never a tuning candidate (auto itself).
  std::function<std::vector<std::string>(Kind kind, int procs)> tuning_candidates;

  // Facts the tools read instead of naming the algorithm (each optional; the defaults suit a
  // store-and-forward algorithm that the generic tests cover):
  // - one round in which every block goes straight to its destination, no forwarding: `a2a
  //   tune`'s cost model stands the best of these for "direct" against the logarithmic ones;
  bool sends_direct = false;
  // - the scratch a plan takes, in multiples of one rank's send buffer at P ranks (`a2a
  //   bench` estimates its memory before it allocates); unset: 3;
  std::function<double(int procs)> scratch_buffers;
  // - the kinds (bit-or of Kind) at which `a2a tune` measures it at every size, not only
  //   where the coarse pass found it near the best (the library's own; the randomized ones,
  //   whose gains need a network);
  unsigned always_tuned = 0;
  // - the radix whose Propositions 1-4 (K rounds, D blocks, one wait per round or per digit)
  //   a plan's counters follow, from its resolved spec; unset or 0: no such model (the
  //   uniform tests check the counters of those that have one);
  std::function<std::uint64_t(const std::string& resolved_spec)> model_radix;
  // - specs the tests run beyond its defaults (and, for the uniform kind, beyond the radix
  //   and window sweeps every algorithm with `r` or `window` gets), per kind at P ranks; those
  //   that cannot run at P are skipped;
  std::function<std::vector<std::string>(Kind kind, int procs)> test_variants;
  // - whether the 2 GiB message tests run it (false where it would only multiply the memory
  //   those need, such as padding every block to the largest, or another entry's engine);
  bool large_message_tests = true;
  // - its time predicted by a fitted cost model, and the spec it would run (`auto`'s choice
  //   for a P its table has no rules for); unset: never predicted.
  std::function<std::optional<std::pair<std::string, double>>(
      const model::CostModel& model, Kind kind, std::uint64_t procs, std::uint64_t block_bytes)>
      predicted;
  // - its entry in the selection table, fitted by `a2a tune` from the Alltoall medians it
  //   measured at P (random_auto's thresholds); empty where they do not suffice; unset: no
  //   entry of its own;
  std::function<std::optional<TableEntry>(const std::vector<MeasuredMedian>& medians, int procs)>
      fit_table_entry;
  // (Whether it calls MPI's Alltoall collectives, which the interposer must reach through
  // PMPI_, the build reads from its file: its uses of detail/mpi_entry.hpp's macros.)

  bool supports(Kind kind) const { return (kinds & static_cast<unsigned>(kind)) != 0; }
  const ParamInfo* param(const std::string& key) const;
};

// Every algorithm: the built-in ones in their order, then those of the plugins named in
// A2A_PLUGINS (a colon-separated list of shared libraries, loaded once, at the first call;
// each exports `extern "C" void a2a_plugin_algorithms(std::vector<a2a::AlgorithmInfo>*)`,
// which appends its algorithms). A plugin that cannot be loaded, or that names an algorithm
// that exists, is one warning on stderr and is left out.
const std::vector<AlgorithmInfo>& registry();
const AlgorithmInfo* find_algorithm(const std::string& name);
// The entry a spec ("tra:r=3", "auto->pairwise") runs: the resolved algorithm's where the spec
// names one after "->"; nullptr for an unknown name.
const AlgorithmInfo* algorithm_of(const std::string& spec);

// The names of every algorithm that serves this kind, in registry order.
std::vector<std::string> algorithm_names(Kind kind);

// Every algorithm's tuning candidates for this kind at P ranks, in registry order.
std::vector<std::string> tuning_candidates(Kind kind, int procs);

// Helpers for tuning_candidates: the radices worth measuring at P (2, 3, 4, the powers of two,
// ceil(sqrt P) and P), and the emulated node sizes q with 1 < q < P dividing P.
std::vector<std::uint64_t> tuning_radices(int procs);
std::vector<int> tuning_node_sizes(int procs);

// Whether a spec can be planned for (comm, kind) without throwing: the reason if not. Used by
// `a2a bench --algorithms all` to skip inapplicable entries. Local, no communication, except
// for an algorithm that needs_one_node, needs_shared_nodes or detects its nodes (q=node): then
// collective over comm (the placement is read with MPI_Comm_split_type).
std::optional<std::string> check_applicable(const std::string& spec, MPI_Comm comm, Kind kind,
                                            std::size_t block_bytes);

}  // namespace a2a
