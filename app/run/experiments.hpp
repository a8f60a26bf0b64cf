// A deck's experiments (run/deck.hpp), for a2a run: each checked before anything runs, then
// run with the measurement method of docs/cli.md (backends interleaved inside each experiment).
// The FFT experiments are a2a fft's and a2a fft1d's (fft/experiment.hpp), the bench sweep is
// a2a bench's (bench_sweep.hpp), IS is a2a is's (is/npb_is.hpp).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/session.hpp"
#include "run/deck.hpp"
#include "run/progress.hpp"

namespace a2a::app {

// A measured series: the record (attributes) and named per-iteration datasets.
struct Output {
  nlohmann::json record;
  std::vector<std::pair<std::string, std::vector<double>>> datasets;
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> counts;
};

struct ExperimentResult {
  std::vector<Output> outputs;  // rank 0
  std::size_t failures = 0;     // every rank
};

// Collective: throws deck::LocatedError (naming the deck line) for an experiment that cannot
// run here: memory, backends that do not apply, plans that cannot be made.
void validate(const Session& session, const deck::Experiment& e);

// Collective: runs one (validated) experiment.
ExperimentResult run_experiment(const Session& session, const deck::Experiment& e,
                                Progress& progress);

}  // namespace a2a::app
