// a2a tune: measures every applicable backend and parameter on this machine at this P and writes
// the selection table `auto` reads (core/tuning.hpp), with a cost model fitted to the same
// measurements for the P it did not measure, and the raw results beside it (FILE.h5; FILE.jsonl
// in builds without HDF5).
//
// Within a time budget, by pruning: a coarse pass measures every candidate at every third size
// with few iterations; a fine pass measures every size with full iterations, but only the
// candidates within --keep of the best at the neighbouring coarse sizes (plus those whose
// registry entry asks to be measured at every size, always_tuned). A fine size whose
// estimated cost would pass the deadline keeps its coarse result (the table says which sizes
// were refined); a fine measurement that would repeat a coarse one exactly (--iters 1 --warmup 0
// in a simulation) reuses it. Every measurement is a2a bench's: interleaved, slowest rank, median
// with a bootstrap CI. Decisions are rank 0's, broadcast, so every rank measures the same things.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include "a2a/model.hpp"
#include "a2a/registry.hpp"
#include "a2a/selection_table.hpp"
#include "a2a/spec.hpp"
#include "a2a/topology.hpp"
#include "bench_sweep.hpp"
#include "commands.hpp"
#include "core/agree.hpp"
#include "core/distribution.hpp"
#include "core/files.hpp"
#include "core/fit.hpp"
#include "core/memory.hpp"
#include "core/tuning.hpp"
#include "run/metadata.hpp"
#ifdef A2A_WITH_HDF5
#include "io/results.hpp"
#endif

namespace a2a::app {
namespace {

// "90", "90s", "10m", "1h" (seconds, minutes, hours).
double parse_duration(const std::string& text) {
  std::size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  const double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : 0;
  if (used == 0 || scale == 0 || !std::isfinite(value) || value <= 0) {
    throw Error("--budget '" + text + "': expected a positive duration such as 90s, 10m or 1h");
  }
  return value * scale;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& specs) {
  std::string out;
  for (const std::string& s : specs)
    out += (out.empty() ? "" : ";") + s;
  return out;
}

std::string today() {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d", std::gmtime(&now));
  return stamp;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

struct TuneOptions {
  std::string kind = "both";
  std::string sizes = "1:1M";
  std::string distributions = "random,powerlaw";
  std::string budget = "10m";
  std::string candidates = "default";
  int iters = 20, warmup = 3;
  double keep = 1.25;
  double tie = 1.03;
  double smooth = 1.10;
  std::string output = "tuning.json";
  bool update = false;
};

// One series measured, for the raw results file.
struct Measured {
  std::string group;  // e.g. "uniform-coarse", "vector-random-fine"
  Series series;
};

class Tuner {
 public:
  Tuner(const Session& session, const TuneOptions& opt) : session_(session), opt_(opt) {}

  // Both passes for one kind, with its share of the budget. Returns its measurements (coarse
  // first, so a refinement replaces the coarse result of the same spec and size).
  std::vector<tuning::Measurement> tune(Kind kind, const std::vector<std::size_t>& sizes,
                                        double deadline) {
    const bool vector = kind == Kind::vector;
    const std::vector<std::string> dists =
        vector ? split_commas(opt_.distributions) : std::vector<std::string>{""};
    const std::vector<std::string> all = candidates(kind);
    std::vector<tuning::Measurement> coarse, fine;
    std::vector<std::size_t> coarse_sizes;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      if (i % 3 == 0 || i + 1 == sizes.size()) coarse_sizes.push_back(sizes[i]);
    }
    // A quarter of the iterations, at least 3 (but never more than asked: a simulation is
    // deterministic and asks for 1), one warm-up.
    const int coarse_iters = std::min(opt_.iters, std::max(3, opt_.iters / 4));
    const int coarse_warmup = std::min(opt_.warmup, 1);
    for (std::size_t s : coarse_sizes) {
      if (root_decides(session_.comm, now() > deadline)) {
        note("budget spent during the coarse pass: sizes from " + std::to_string(s) +
             " B on not measured (" + to_string(kind) + ")");
        break;
      }
      for (const std::string& dist : dists) {
        measure(kind, applicable(all, kind, s), s, dist, coarse_iters, coarse_warmup, "coarse",
                coarse);
      }
    }
    const auto near = tuning::near_winners(coarse, opt_.keep);
    for (std::size_t s : sizes) {
      // The candidates near the best at the coarse sizes on either side of s.
      // ... and the algorithms measured at every size (their entries' always_tuned: the
      // library's own, the randomized ones for Alltoall), in their default form.
      std::set<std::string> keep;
      for (const std::string& spec : all) {
        const AlgorithmInfo* info = algorithm_of(spec);
        if (info != nullptr && spec == info->name &&
            (info->always_tuned & static_cast<unsigned>(kind)) != 0) {
          keep.insert(spec);
        }
      }
      double estimate_us = 0;
      const std::size_t lower_index = bracket(near, s, false), upper_index = bracket(near, s, true);
      if (lower_index >= near.size()) continue;  // not even coarsely measured
      for (std::size_t index : {lower_index, upper_index}) {
        for (const std::string& spec : near[index].second)
          keep.insert(spec);
      }
      for (const tuning::Measurement& m : coarse) {
        if (m.bytes == near[upper_index].first && keep.count(m.spec) > 0) {
          estimate_us += m.median_us * (opt_.iters + opt_.warmup);
        }
      }
      if (root_decides(session_.comm, now() + 1.5 * estimate_us * 1e-6 > deadline)) {
        unrefined_[to_string(kind)].push_back(s);
        continue;
      }
      std::vector<std::string> specs;
      for (const std::string& spec : all) {  // in the candidates' order
        if (keep.count(spec) > 0) specs.push_back(spec);
      }
      for (const std::string& dist : dists) {
        std::vector<std::string> todo = applicable(specs, kind, s);
        // A fine measurement that would repeat a coarse one exactly (the same iterations and
        // warm-up, as a deterministic simulation's --iters 1 --warmup 0) is not made twice.
        if (coarse_iters == opt_.iters && coarse_warmup == opt_.warmup) {
          std::erase_if(todo, [&](const std::string& spec) {
            return std::any_of(coarse.begin(), coarse.end(), [&](const tuning::Measurement& m) {
              return m.spec == spec && m.bytes == s && m.distribution == dist;
            });
          });
        }
        measure(kind, todo, s, dist, opt_.iters, opt_.warmup, "fine", fine);
      }
      refined_[to_string(kind)].push_back(s);
    }
    coarse.insert(coarse.end(), fine.begin(), fine.end());
    return coarse;
  }

  double now() const { return MPI_Wtime() - start_; }
  const std::vector<Measured>& measured() const { return measured_; }
  const std::vector<std::string>& notes() const { return notes_; }
  std::map<std::string, std::vector<std::size_t>> refined_, unrefined_;
  std::size_t candidate_count(Kind kind) const { return candidates(kind).size(); }
  std::vector<std::string> candidate_specs(Kind kind) const { return candidates(kind); }

  // The measurements keyed as `auto` will look them up. For Alltoallv that is the largest block
  // of the counts, not the nominal size the sweep was written with (a random distribution's
  // largest block is below it): every distribution measured at one nominal size is keyed by the
  // geometric mean of their largest blocks, so they are still scored together. Rank 0's view.
  std::vector<tuning::Measurement> as_selected(
      std::vector<tuning::Measurement> measurements) const {
    std::map<std::size_t, std::pair<double, int>> logs;  // nominal -> (sum of logs, count)
    for (const auto& [key, largest] : largest_) {
      auto& [sum, count] = logs[key.first];
      sum += std::log(static_cast<double>(std::max<std::size_t>(largest, 1)));
      ++count;
    }
    for (tuning::Measurement& m : measurements) {
      if (m.distribution.empty()) continue;
      const auto it = logs.find(m.bytes);
      if (it == logs.end()) continue;
      m.bytes = static_cast<std::size_t>(
          std::floor(std::exp(it->second.first / it->second.second) + 0.5));
    }
    return measurements;
  }

 private:
  std::vector<std::string> candidates(Kind kind) const {
    if (opt_.candidates == "default") return tuning_candidates(kind, session_.procs);
    std::vector<std::string> specs;
    for (const std::string& spec : split_spec_list(opt_.candidates)) {
      if (supports(spec, kind)) specs.push_back(spec);
    }
    return specs;
  }

  static bool supports(const std::string& spec, Kind kind) {
    const auto names = algorithm_names(kind);
    return std::find(names.begin(), names.end(), Spec::parse(spec).name) != names.end();
  }

  std::vector<std::string> applicable(const std::vector<std::string>& specs, Kind kind,
                                      std::size_t bytes) const {
    std::vector<std::string> out;
    for (const std::string& spec : specs) {
      if (!check_applicable(spec, session_.comm, kind, bytes)) out.push_back(spec);
    }
    return out;
  }

  // The index in `near` of the last coarse size <= s (upper: the first >= s; the last one
  // when s is past them all); near.size() when none is <= s.
  static std::size_t bracket(
      const std::vector<std::pair<std::size_t, std::vector<std::string>>>& near, std::size_t s,
      bool upper) {
    std::size_t lower = near.size();
    for (std::size_t i = 0; i < near.size(); ++i) {
      if (near[i].first <= s) lower = i;
      if (upper && near[i].first >= s) return i;
    }
    return upper ? (near.empty() ? 0 : near.size() - 1) : lower;
  }

  void measure(Kind kind, const std::vector<std::string>& specs, std::size_t bytes,
               const std::string& dist, int iters, int warmup, const std::string& phase,
               std::vector<tuning::Measurement>& into) {
    if (specs.empty()) return;
    BenchConfig config;
    config.algorithms = join(specs);
    config.sizes = {bytes};
    config.distribution = kind == Kind::vector ? dist : "";
    config.iters = iters;
    config.warmup = warmup;
    check_memory(session_.comm, bench_memory(config, session_.procs), "tune");
    if (session_.root()) {
      std::cerr << "tune: " << to_string(kind) << (dist.empty() ? "" : " (" + dist + ")") << ", "
                << bytes << " B, " << phase << ": " << specs.size() << " backends x " << iters
                << " iterations (" << static_cast<int>(now()) << " s so far)" << std::endl;
    }
    const BenchResult result = bench_sweep(session_, config);
    // Rank 0 holds the results (one series per spec, in order); every rank needs the medians
    // to make the same decisions.
    std::vector<double> medians(specs.size());
    for (std::size_t i = 0; i < result.series.size() && i < specs.size(); ++i) {
      medians[i] = result.series[i].record["median_us"].get<double>();
      measured_.push_back(
          {to_string(kind) + (dist.empty() ? "" : "-" + dist) + "-" + phase, result.series[i]});
      if (kind == Kind::vector) {
        largest_[{bytes, dist}] = result.series[i].record["largest_bytes"].get<std::size_t>();
      }
    }
    MPI_Bcast(medians.data(), static_cast<int>(medians.size()), MPI_DOUBLE, 0, session_.comm);
    for (std::size_t i = 0; i < specs.size(); ++i)
      into.push_back({specs[i], bytes, dist, medians[i]});
  }

  std::map<std::pair<std::size_t, std::string>, std::size_t> largest_;  // rank 0 only

  void note(const std::string& text) {
    notes_.push_back(text);
    if (session_.root()) std::cerr << "tune: " << text << std::endl;
  }

  const Session& session_;
  const TuneOptions& opt_;
  double start_ = MPI_Wtime();
  std::vector<Measured> measured_;
  std::vector<std::string> notes_;
};

// The cost model fitted to every measurement (as `a2a model --fit FILE.h5` fits the raw results
// file), as the table's "model" section, only where the fit holds (fit::doubts); gamma only
// where direct and store-and-forward backends were both measured.
std::optional<nlohmann::json> model_section(const std::vector<Measured>& measured, int procs,
                                            const std::string& direct) {
  std::vector<fit::Observation> observations;
  for (const Measured& m : measured)
    observations.push_back(fit::observation(m.series.record, "tune"));
  fit::Result result;
  try {
    result = fit::fit(observations);
  } catch (const Error& e) {
    std::cerr << "tune: no cost model: " << e.what() << std::endl;
    return std::nullopt;
  }
  // A fit that does not hold (a2a model --fit's criteria) predicts nothing: no section, so
  // auto falls back to the shipped model for the P the table has no rules for.
  if (const std::vector<std::string> why = fit::doubts(result); !why.empty()) {
    std::string reasons;
    for (const std::string& w : why)
      reasons += (reasons.empty() ? "" : "; ") + w;
    std::cerr << "tune: no cost model in the table: the fit does not hold (" << reasons << ")"
              << std::endl;
    return std::nullopt;
  }
  nlohmann::json fit_info = fit::to_json(result);
  fit_info["procs"] = procs;
  std::string clamped;
  const auto nonnegative = [&](const char* name, double value) {
    if (value >= 0) return value;
    clamped += std::string(clamped.empty() ? "" : ", ") + name;
    return 0.0;
  };
  nlohmann::json model = {
      {"alpha_us", nonnegative("alpha", result.alpha_us.value)},
      {"beta_us_per_byte", nonnegative("beta", result.beta_us_per_byte.value)},
      {"gamma_us_per_byte",
       result.has_gamma ? nonnegative("gamma", result.gamma_us_per_byte.value) : 0.0},
      {"direct", direct},
      {"why",
       "fitted by a2a tune (weighted least squares) to its measurements at P = " +
           std::to_string(procs) + "; auto uses it for a P the table has no rules for" +
           (clamped.empty() ? std::string() : "; negative estimate clamped to 0: " + clamped)},
      {"fit", fit_info}};
  return model;
}

// Of the direct backends (their entries' sends_direct), the one that is best among them at
// the most sizes.
std::string best_direct(const std::vector<tuning::Measurement>& uniform) {
  std::vector<tuning::Measurement> direct;
  for (const auto& m : uniform) {
    const AlgorithmInfo* info = algorithm_of(m.spec);
    if (info != nullptr && info->sends_direct) direct.push_back(m);
  }
  std::map<std::string, int> wins;
  for (const tuning::Winner& w : tuning::winners(direct))
    ++wins[w.spec];
  std::string best = "mpi";
  for (const auto& [spec, count] : wins) {
    if (count > wins[best]) best = spec;
  }
  return best;
}

std::string results_path(const std::string& table, const char* extension) {
  std::filesystem::path path(table);
  path.replace_extension(extension);
  return path.string();
}

void write_text(const std::string& path, const std::string& text) {
  app::replace_file(path, text.data(), text.size(), "selection table");
}

// The table --update merges into (null: none), read and checked, and the output path proved
// writable, before the first measurement.
nlohmann::json table_to_update(const Session& session, const TuneOptions& opt) {
  nlohmann::json existing;
  on_root_agreed(session.comm, [&] {
    if (opt.update && std::filesystem::exists(opt.output)) {
      try {
        existing = nlohmann::json::parse(selection_table_text(opt.output));
      } catch (const Error& e) {
        throw Error(std::string("--update: ") + e.what());
      }
    }
    write_text(opt.output, existing.is_null() ? "{}\n" : existing.dump(2) + "\n");
  });
  return existing;
}

// The raw results beside the table: a results file (T.h5, written as T.incomplete.h5 until
// complete, so an interrupted tune leaves the last one whole), or without HDF5 (the smpi and
// mpich presets) JSON lines as a2a bench --format json prints them (a2a model --fit reads both).
class RawResults {
 public:
  RawResults(const Session& session, const TuneOptions& opt) : session_(session), opt_(opt) {
#ifdef A2A_WITH_HDF5
    const nlohmann::json metadata =
        run_metadata(session, "", "a2a tune", "", "a2a tune --output " + opt.output);
    on_root_agreed(session.comm, [&] {
      writer_ = std::make_unique<io::ResultsWriter>(results_path(opt.output, ".incomplete.h5"));
      nlohmann::json root = metadata;
      root["completed"] = false;
      writer_->attributes("/", root);
      writer_->commit();
    });
#endif
  }
  void write(const std::vector<Measured>& measured) {
#ifdef A2A_WITH_HDF5
    on_root_agreed(session_.comm, [&] {
      std::map<std::string, std::size_t> counts;
      std::size_t experiment = 0;
      std::map<std::string, std::string> groups;
      for (const Measured& m : measured) {
        if (groups.count(m.group) == 0) {
          groups[m.group] = io::ResultsWriter::experiment_group(experiment++, m.group);
          writer_->attributes(groups[m.group], {{"type", "bench"}, {"name", m.group}});
        }
        const std::string series =
            io::ResultsWriter::series_group(groups[m.group], counts[m.group]++);
        nlohmann::json record = m.series.record;
        record["experiment"] = m.group;
        record["type"] = "bench";
        writer_->attributes(series, record);
        writer_->dataset(series + "/times_us", m.series.times_us);
      }
      writer_->attributes("/", {{"completed", true}, {"experiments_completed", experiment}});
      writer_->commit();
      const std::string final_path = results_path(opt_.output, ".h5");
      std::error_code ec;
      std::filesystem::rename(writer_->path(), final_path, ec);
      if (ec) {
        throw Error(
            "cannot rename '" + writer_->path() + "' to '" + final_path + "': " + ec.message(),
            ErrorKind::resource);
      }
      std::cerr << "tune: raw results in " << final_path << std::endl;
    });
#else
    on_root_agreed(session_.comm, [&] {
      std::string lines;
      for (const Measured& m : measured) {
        nlohmann::json record = m.series.record;
        record["experiment"] = m.group;
        lines += record.dump() + "\n";
      }
      const std::string path = results_path(opt_.output, ".jsonl");
      write_text(path, lines);
      std::cerr << "tune: raw results in " << path << std::endl;
    });
#endif
  }

 private:
  const Session& session_;
  const TuneOptions& opt_;
#ifdef A2A_WITH_HDF5
  std::unique_ptr<io::ResultsWriter> writer_;
#endif
};

// Both kinds measured (each an equal share of the budget left) into rules, the entries the
// algorithms fit themselves (fit_table_entry) and the fitted model: the table without its record.
// Rank 0 alone knows the largest blocks; only its table is written.
nlohmann::json measured_table(const Session& session, const TuneOptions& opt, Tuner& tuner,
                              const std::vector<Kind>& kinds, const std::vector<std::size_t>& sizes,
                              double budget, int ranks_per_node) {
  nlohmann::json table = {{"uniform", nlohmann::json::array()},
                          {"vector", nlohmann::json::array()}};
  std::vector<tuning::Measurement> uniform;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const double deadline = tuner.now() + (budget - tuner.now()) / double(kinds.size() - k);
    const auto measurements = tuner.as_selected(tuner.tune(kinds[k], sizes, deadline));
    const auto winners = tuning::winners(measurements, opt.tie, opt.smooth);
    table[to_string(kinds[k])] = tuning::rules(winners, session.procs, ranks_per_node);
    if (kinds[k] == Kind::uniform) uniform = measurements;
  }
  std::vector<MeasuredMedian> medians;
  for (const tuning::Measurement& m : uniform) {
    if (m.distribution.empty()) medians.push_back({m.spec, m.bytes, m.median_us});
  }
  for (const AlgorithmInfo& info : registry()) {
    if (!info.fit_table_entry || medians.empty()) continue;
    if (auto entry = info.fit_table_entry(medians, session.procs)) {
      table[info.name] = nlohmann::json::array({tuning::table_entry(*entry, session.procs)});
    }
  }
  if (session.root()) {
    if (auto model = model_section(tuner.measured(), session.procs, best_direct(uniform))) {
      table["model"] = *model;
    }
  }
  return table;
}

// The table's record of this tune: where, with what, how long, what was refined.
nlohmann::json tune_record(const Session& session, const TuneOptions& opt, const Tuner& tuner,
                           double budget, const NodeTopology& topology) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  nlohmann::json run = {{"procs", session.procs},
                        {"kinds", opt.kind},
                        {"ranks_per_node", topology.uniform() ? topology.ranks_per_node() : 0},
                        {"nodes", topology.uniform() ? topology.nodes() : 0},
                        {"mpi_library", mpi_library_name()},
                        {"machine", host},
                        {"cpu", cpu_model()},
                        {"date", today()},
                        {"budget_s", budget},
                        {"elapsed_s", tuner.now()},
                        {"iters", opt.iters},
                        {"sizes", opt.sizes},
                        {"distributions", opt.distributions},
                        {"refined_sizes", tuner.refined_},
                        {"unrefined_sizes", tuner.unrefined_},
                        {"notes", tuner.notes()}};
  for (const auto& [kind, list] : tuner.refined_) {
    const Kind k = kind == "uniform" ? Kind::uniform : Kind::vector;
    run["candidates_" + kind] = tuner.candidate_count(k);
    run["candidate_specs_" + kind] = tuner.candidate_specs(k);
  }
  return run;
}

}  // namespace

Runner setup_tune(CLI::App& app, const Session& session) {
  auto opt = std::make_shared<TuneOptions>();
  auto* sub = app.add_subcommand(
      "tune", "Measure every backend here and write the selection table auto reads (mpirun)");
  sub->add_option("--kind", opt->kind, "uniform (Alltoall), vector (Alltoallv) or both")
      ->check(CLI::IsMember({"uniform", "vector", "both"}));
  sub->add_option("--sizes,-s", opt->sizes,
                  "bytes per peer (vector: the largest block): MIN:MAX (powers of two) or a,b,c");
  sub->add_option("--distributions", opt->distributions,
                  "Alltoallv count distributions, comma-separated (the score of a backend is its "
                  "geometric mean over them)");
  sub->add_option("--budget", opt->budget, "time budget: 90s, 10m, 1h (split over the kinds)");
  sub->add_option("--candidates", opt->candidates,
                  "'default' (every backend with a grid of parameters) or backend specs");
  sub->add_option("--iters,-n", opt->iters, "timed iterations per backend in the fine pass")
      ->check(CLI::Range(1, 1000000));
  sub->add_option("--warmup,-w", opt->warmup, "untimed iterations first (fine pass)")
      ->check(CLI::Range(0, 1000000));
  sub->add_option("--keep", opt->keep,
                  "refine the candidates within this factor of the best coarse time")
      ->check(CLI::Range(1.0, 100.0));
  sub->add_option("--tie", opt->tie,
                  "sizes where backends are within this factor of the best keep the previous "
                  "size's choice (or mpi): fewer, steadier rules")
      ->check(CLI::Range(1.0, 2.0));
  sub->add_option("--smooth", opt->smooth,
                  "a lone size whose winner differs from both neighbours' one choice takes "
                  "theirs when it is within this factor of the best (1: never)")
      ->check(CLI::Range(1.0, 2.0));
  sub->add_option("--output,-o", opt->output,
                  "the selection table (JSON); the raw results go beside it as .h5");
  sub->add_flag("--update", opt->update,
                "merge into an existing --output table: the rules of other P stay, and those "
                "of this P at the sizes this tune did not measure (tune P = 2, 4, 8, or one P "
                "by size ranges, into one file)");

  return [session, opt]() {
    const double budget = parse_duration(opt->budget);
    const std::vector<std::size_t> sizes = parse_sizes(opt->sizes);
    for (const std::string& name : split_commas(opt->distributions)) {
      if (!is_distribution(name))
        throw Error("--distributions: unknown distribution '" + name + "'");
    }
    if (opt->candidates.empty()) throw Error("--candidates is empty: 'default' or backend specs");
    std::vector<Kind> kinds;
    if (opt->kind != "vector") kinds.push_back(Kind::uniform);
    if (opt->kind != "uniform") kinds.push_back(Kind::vector);
    const nlohmann::json existing = table_to_update(session, *opt);
    RawResults raw(session, *opt);
    const NodeTopology topology(session.comm);
    const int ranks_per_node = topology.uniform() ? topology.ranks_per_node() : 0;
    Tuner tuner(session, *opt);
    nlohmann::json table =
        measured_table(session, *opt, tuner, kinds, sizes, budget, ranks_per_node);
    nlohmann::json run = tune_record(session, *opt, tuner, budget, topology);
    table["tuned"] = nlohmann::json::array({run});
    table["about"] =
        "Selection table measured by `a2a tune` (" + run["mpi_library"].get<std::string>() +
        "); each rule holds for the P (and ranks per node) it was measured at, and `measured` "
        "lists its sizes with the runner-up's time relative to the winner's; for any other P "
        "auto uses the fitted model. Use with auto:table=FILE or A2A_TUNING=FILE.";
    on_root_agreed(session.comm, [&] {
      const nlohmann::json out =
          existing.is_null() ? table
                             : tuning::merge(existing, table, session.procs, ranks_per_node);
      write_text(opt->output, out.dump(2) + "\n");
      std::cerr << "tune: selection table in " << opt->output << " (" << int(tuner.now()) << " s)"
                << std::endl;
    });
    raw.write(tuner.measured());
    return 0;
  };
}

}  // namespace a2a::app
