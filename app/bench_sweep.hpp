// One bench sweep (backends x sizes, uniform or vector counts) as `a2a bench` and the bench
// experiments of `a2a run` measure it.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "a2a/alltoall.hpp"
#include "core/session.hpp"

namespace a2a::app {

struct BenchConfig {
  std::string algorithms = "all";  // comma-separated specs, or "all" of the kind
  std::vector<std::size_t> sizes;  // bytes per peer (vector: the largest block)
  std::string distribution;        // "" = uniform (Alltoall), else Alltoallv counts
  bool per_call = false;           // vector: a VectorExchange given the counts every call
  int iters = 50, warmup = 5;
  bool check = false;
  bool all() const { return algorithms == "all"; }
  Kind kind() const { return distribution.empty() ? Kind::uniform : Kind::vector; }
  std::vector<std::string> backends() const;
};

// One backend at one size: its record (docs/cli.md fields, counters, vs_mpi) and the slowest
// rank's time per timed iteration, in microseconds.
struct Series {
  nlohmann::json record;
  std::vector<double> times_us;
};

struct BenchResult {
  std::vector<Series> series;  // rank 0 only
  std::size_t failures = 0;    // checks failed, same on every rank
};

// An estimate of the largest memory per rank the sweep needs (the buffers of the largest size
// with its check, and the scratch of every backend's plan for that size: they are all made
// before the size is measured).
std::uint64_t bench_memory(const BenchConfig& config, int procs);

// Collective. With "all", backends that cannot run here (e.g. P not divisible by q) are skipped
// with a note on rank 0's stderr; an explicit request gets the error. `progress` is called on
// every rank with the index of the size about to be measured.
BenchResult bench_sweep(const Session& session, const BenchConfig& config,
                        const std::function<void(std::size_t)>& progress = {});

}  // namespace a2a::app
