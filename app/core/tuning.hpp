// The selection table `a2a tune` writes (the format `auto` reads, alltoall/src/algorithms/
// auto.cpp), made from measurements: which backend wins at each measured size, merged into
// byte ranges whose bounds lie halfway (geometrically) between measured sizes, so a size that
// was not measured gets the winner of the nearest measured one; the algorithms' own fitted entries
// (AlgorithmInfo::fit_table_entry) as the table holds them; and the merge of a new P into an
// existing table. Pure functions: no MPI, so the tests can feed them synthetic measurements.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "a2a/registry.hpp"

namespace a2a::app::tuning {

struct Measurement {
  std::string spec;          // as measured (and as the table will name it)
  std::size_t bytes = 0;     // per peer (vector: the largest block)
  std::string distribution;  // "" for Alltoall
  double median_us = 0;
};

struct Winner {
  std::size_t bytes = 0;
  std::string spec;
  // Geometric mean over the distributions of median / the best median there (1 = best in
  // every one); the runner-up (the best of the others) the same.
  double score = 1;
  std::string runner_up;
  double runner_up_score = 0;  // 0: no runner-up
};

// Per size (ascending), among the specs measured in every distribution measured at that size,
// one whose score is within `tie` (a factor >= 1) of the least: the previous size's winner if
// it is, else the first measured. tie = 1 is the plain fastest. Then a lone size whose winner
// differs from the one choice of both its neighbours takes theirs when it scores at most
// `smooth` there (1 = never).
std::vector<Winner> winners(const std::vector<Measurement>& measurements, double tie = 1.0,
                            double smooth = 1.0);

// Per size, the specs whose score is at most `keep` (always at least the winner).
std::vector<std::pair<std::size_t, std::vector<std::string>>> near_winners(
    const std::vector<Measurement>& measurements, double keep);

// The table rules for one P (min_procs = max_procs = procs; ranks_per_node when > 0): runs of
// equal winners merged, a run ending at size a and the next starting at size b split at
// floor(sqrt(a b)); the first run starts at 0, the last is unbounded.
nlohmann::json rules(const std::vector<Winner>& winners, int procs, int ranks_per_node);

// An algorithm's fitted entry (AlgorithmInfo::fit_table_entry) as the table holds it:
// {"procs": P, its values..., "why": ...}.
nlohmann::json table_entry(const TableEntry& entry, int procs);

// `existing` with the rules, fitted entries and tuning record of `tuned` for P
// replacing those of the same P and ranks per node (new rules first, so they win over general
// ones); a kind `tuned` has no rules for keeps its old ones; the model of the largest P tuned is
// kept. Where the old rules of this P measured sizes outside the new ones, they keep those: the new
// rules hold from halfway (geometrically) to the nearest old measured size on either side, the
// old ones are cut to the rest, and both tuning records stay (a P tuned by size ranges).
nlohmann::json merge(const nlohmann::json& existing, const nlohmann::json& tuned, int procs,
                     int ranks_per_node);

}  // namespace a2a::app::tuning
