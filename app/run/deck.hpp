// Run decks (TOML): the experiments `a2a run` performs, parsed and checked before anything runs.
//
//   [deck]                      # optional defaults for every experiment
//   title = "..."               # what the deck reproduces
//   iters = 20                  # timed iterations (bench, fft, fft1d) or repetitions (is)
//   warmup = 3
//   check = true
//
//   [[bench]]                   # backends x sizes, Alltoall or Alltoallv
//   backends = "all" | ["mpi", "tra:r=4"]
//   sizes = "8:4096" | [8, "64K"]
//   vector = "random"           # Alltoallv counts from this distribution (omit: Alltoall)
//   per_call = true             # Alltoallv through a2a::VectorExchange (counts every call)
//
//   [[fft]]   grid, decomp, proc_grid, transform, chunks, in_place, check,
//             baseline = "fftw-mpi", fftw_plan, wisdom, backends
//   [[fft1d]] points (or "64P^2", "2^20"), n1, check, baseline = "fftw-mpi", fftw_plan, wisdom,
//             backends
//   (fftw_plan = "measure" (default) | "estimate" | "patient" | "wisdom-only", wisdom = "auto"
//   (default: this machine's cache) | "none" | "FILE": as a2a fft's --fftw-plan and --wisdom,
//   for a2a's plans and the baseline's alike)
//   [[is]]    class, iterations (NPB's, per repetition), counts_backend, backends
//   [[model]] procs, radix = "all" | [2, 4, ...]   (K and D of TRA, Propositions 1-4)
//
// Every table may set name, iters, warmup and check. Unknown keys, wrong types and values out
// of range are errors that name the file and line (a2a::Error).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <toml.hpp>
#include <vector>

#include "a2a/error.hpp"
#include "bench_sweep.hpp"

namespace a2a::app::deck {

enum class Type { bench, fft, fft1d, is, model };
const char* to_string(Type type);

struct Experiment {
  Type type = Type::bench;
  std::string name;
  toml::value table;                  // the deck's table, for error messages that point at a line
  nlohmann::json params;              // the table's keys as given, plus the defaults applied
  std::vector<std::string> backends;  // explicit specs; empty with all_backends
  bool all_backends = false;
  int iters = 10, warmup = 2;
  bool check = true;
  BenchConfig bench;  // bench: algorithms, sizes, distribution (iters/warmup/check copied)
  // fft
  std::string grid, decomp = "auto", proc_grid, transform = "c2c", fft_check = "serial";
  std::string baseline;   // "fftw-mpi" or ""
  int chunks = 1;         // pipelined transposes (a2a fft --chunks)
  bool in_place = false;  // c2c forward and backward on one array (a2a fft --in-place)
  std::string spectrum_layout = "transposed";  // or natural (a2a fft --spectrum-layout)
  // fft and fft1d: FFTW planning for a2a and the baseline, and the wisdom kept across runs
  // (a2a fft's --fftw-plan and --wisdom: measured plans, this machine's cache by default)
  std::string fftw_plan = "measure", wisdom = "auto";
  // fft1d
  std::int64_t points = 0, n1 = 0;
  // is
  char is_class = 'S';
  int is_iterations = 10;
  std::string counts_backend = "mpi";
  // model
  std::uint64_t model_procs = 0;
  std::vector<std::uint64_t> radices;  // empty: every r in 2..P
};

struct Deck {
  std::string file, text, title;
  std::vector<Experiment> experiments;  // in deck order, bench before fft... as written
};

// Parses and checks a deck's text for a run on `procs` ranks (sizes may be relative to P:
// fft1d points = "64P^2"). Throws a2a::Error naming file and line.
Deck parse(const std::string& text, const std::string& file, int procs = 1);

// "FILE:LINE: message" and the deck line underlined, for errors found after parsing.
std::string error_at(const toml::value& where, const std::string& message);

// An error that already names its deck line: handlers that point errors at a line pass it on.
class LocatedError : public Error {
 public:
  using Error::Error;
};
[[noreturn]] void fail_at(const toml::value& where, const std::string& message);

}  // namespace a2a::app::deck
