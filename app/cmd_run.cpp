// a2a run DECK.toml [--output FILE.h5|none] [--format table|csv|json] [--dry-run]
// Runs a deck of experiments (run/deck.hpp) with the measurement method of docs/cli.md, backends
// interleaved inside each experiment, and writes every per-iteration time with its context to
// one HDF5 file (io/results.hpp); then prints the summary: per experiment and backend the
// median with its bootstrap 95% CI, mean/min/max, and the ratio to `mpi` with its own CI.
// The whole deck is parsed and checked on every rank before any experiment runs.
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "a2a/error.hpp"
#include "a2a/model.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "bench_sweep.hpp"
#include "commands.hpp"
#include "core/memory.hpp"
#include "core/records.hpp"
#include "core/stats.hpp"
#include "is/npb_is.hpp"
#include "run/deck.hpp"
#include "run/metadata.hpp"
#ifdef A2A_WITH_FFTW
#include "fft/baseline.hpp"
#include "fft/experiment.hpp"
#include "fft/fft1d.hpp"
#include "fft/grid.hpp"
#include "fft/wisdom.hpp"
#endif
#ifdef A2A_WITH_HDF5
#include "io/results.hpp"
#endif

namespace a2a::app {
namespace {

using deck::Experiment;
using deck::fail_at;
using deck::Type;

// Progress on rank 0's stderr: a bar on a terminal, plain lines otherwise, with an estimate of
// the time left from the work done so far (work units weight calls by their data volume).
class Progress {
 public:
  Progress(bool active, double total_units)
      : active_(active), tty_(active && isatty(STDERR_FILENO)), total_(total_units) {}
  void start(std::size_t index, std::size_t count, const Experiment& e) {
    experiment_ = "[" + std::to_string(index + 1) + "/" + std::to_string(count) + "] " +
                  deck::to_string(e.type) + " " + e.name;
    show("", true);
  }
  void advance(double units, const std::string& what) {
    done_ += units;
    show(what, !tty_);
  }
  void finish() {
    if (tty_ && active_) std::cerr << "\n";
    if (active_) std::cerr << "run: done in " << clock(elapsed()) << std::endl;
  }

 private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  static std::string clock(double seconds) {
    const auto s = static_cast<long>(std::lround(seconds));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
  }
  void show(const std::string& what, bool line) {
    if (!active_) return;
    const double fraction = total_ > 0 ? std::min(1.0, done_ / total_) : 0;
    const double t = elapsed();
    std::string left = "?";
    if (fraction > 0.02 && t > 1) left = clock(t / fraction - t);
    if (tty_) {
      const int width = 24, filled = static_cast<int>(fraction * width);
      std::cerr << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
                << std::string(static_cast<std::size_t>(width - filled), '.') << "] "
                << static_cast<int>(fraction * 100) << "% " << experiment_ << " " << what << ", ~"
                << left << " left\033[K" << std::flush;
    } else if (line) {
      std::cerr << "run: " << static_cast<int>(fraction * 100) << "% " << experiment_
                << (what.empty() ? "" : " " + what) << " (elapsed " << clock(t) << ", ~" << left
                << " left)" << std::endl;
    }
  }
  bool active_, tty_;
  double total_, done_ = 0;
  std::string experiment_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// Work units, for the estimate of the time left only: calls weighted by their data volume.
// One size of a bench sweep, every backend:
double bench_units(const Experiment& e, std::size_t bytes, int procs) {
  return static_cast<double>(e.backends.size()) * (e.iters + e.warmup) *
         (1 + static_cast<double>(bytes) * procs / 65536);
}
// One FFT call of `points` points:
double fft_unit(double points) {
  return 1 + points / 4096;
}
// One IS repetition of one backend:
double is_unit(const Experiment& e) {
  return e.is_iterations *
         (1 + static_cast<double>(is::class_params(e.is_class).total_keys()) / 65536);
}

double units_of(const Experiment& e, int procs) {
  const double calls = e.iters + e.warmup;
  // The 3D FFT's baseline is two series (FFTW-MPI's transposed and natural forms).
  const std::size_t baselines = e.baseline.empty() ? 0 : (e.type == Type::fft ? 2 : 1);
  const double backends = static_cast<double>(e.backends.size() + baselines);
  switch (e.type) {
    case Type::bench: {
      double u = 0;
      for (std::size_t s : e.bench.sizes)
        u += bench_units(e, s, procs);
      return u;
    }
    case Type::fft: {
      double volume = 1;
#ifdef A2A_WITH_FFTW
      for (auto n : fft::parse_grid(e.grid))
        volume *= static_cast<double>(n);
#endif
      return backends * (calls + 2) * fft_unit(volume);
    }
    case Type::fft1d:
      return backends * (calls + 2) * fft_unit(static_cast<double>(e.points));
    case Type::is:
      return backends * calls * is_unit(e);
    case Type::model:
      return 1;
  }
  return 1;
}

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

const toml::value& backends_key(const Experiment& e) {
  return e.table.contains("backends") ? e.table.at("backends") : e.table;
}

// Runs `body` (which may throw a2a::Error, agreed on by all ranks) and re-throws the error
// pointing at the deck line `where`.
template <typename Body>
void at_line(const toml::value& where, const std::string& context, Body&& body) {
  try {
    body();
  } catch (const deck::LocatedError&) {
    throw;  // already names its line
  } catch (const Error& err) {
    fail_at(where, context + err.what());
  }
}

// Collective: whether `spec` can run here, agreed on by all ranks.
std::optional<std::string> applicable(const Session& session, const std::string& spec, Kind kind,
                                      std::size_t bytes) {
  auto why = check_applicable(spec, session.comm, kind, bytes);
  int bad = why.has_value();
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, session.comm);
  if (!bad) return std::nullopt;
  return why.value_or("not applicable on some rank");
}

#ifdef A2A_WITH_FFTW
// The transform an [[fft]] experiment asks for, backend aside; errors name the grid or
// proc_grid line.
fft::Options fft_options(const Session& session, const Experiment& e) {
  fft::Options o;
  at_line(e.table.at("grid"), "", [&] { o.n = fft::parse_grid(e.grid); });
  at_line(e.table.contains("proc_grid") ? e.table.at("proc_grid") : e.table, "", [&] {
    std::tie(o.p1, o.p2) = fft::process_grid(fft::resolve_decomp(e.decomp, o.n, session.procs),
                                             e.proc_grid, session.procs);
  });
  o.r2c = e.transform == "r2c";
  o.chunks = e.chunks;
  o.fftw_flags = fft::fftw_flags_of(e.fftw_plan);
  return o;
}

// The experiment's wisdom file, read before any plan is made (errors name the wisdom line).
fft::Wisdom wisdom_of(const Session& session, const Experiment& e) {
  if (!e.table.contains("wisdom")) return fft::Wisdom(session.comm, e.wisdom, e.fftw_plan);
  std::optional<fft::Wisdom> w;
  at_line(e.table.at("wisdom"), "", [&] { w.emplace(session.comm, e.wisdom, e.fftw_plan); });
  return std::move(*w);
}

// Written once all the experiment's plans are made; errors name the wisdom line too.
void save_wisdom(const Experiment& e, const fft::Wisdom& wisdom) {
  if (!e.table.contains("wisdom")) return wisdom.save();
  at_line(e.table.at("wisdom"), "", [&] { wisdom.save(); });
}

std::int64_t n1_of(const Experiment& e) {
  return e.n1 != 0 ? e.n1 : fft::default_n1(e.points);
}
#endif

// ---- Checks before anything runs (collective; errors name the deck line) ----

void validate(const Session& session, const Experiment& e) {
  // Memory first: every experiment is checked before the first one runs.
  const toml::value& where = e.type == Type::bench   ? e.table.at("sizes")
                             : e.type == Type::fft   ? e.table.at("grid")
                             : e.type == Type::fft1d ? e.table.at("points")
                                                     : e.table;
  const std::string what = std::string(deck::to_string(e.type)) + " '" + e.name + "'";
  const bool verifies = e.type == Type::fft     ? e.fft_check != "none"
                        : e.type == Type::model ? false
                                                : e.check || e.type == Type::is;
  at_line(where, "", [&] { refuse_check_on_folded_buffers(verifies, what); });
  switch (e.type) {
    case Type::bench:
      at_line(where, "",
              [&] { check_memory(session.comm, bench_memory(e.bench, session.procs), what); });
      break;
#ifdef A2A_WITH_FFTW
    case Type::fft:
      at_line(where, "", [&] {
        check_memory(session.comm,
                     fft::fft_memory(fft::parse_grid(e.grid), session.procs,
                                     e.fft_check == "serial" || e.fft_check == "planewave",
                                     sizeof(std::complex<double>)),
                     what);
      });
      break;
    case Type::fft1d:
      at_line(where, "", [&] {
        const std::int64_t n1 = n1_of(e);
        if (n1 > INT_MAX || e.points / n1 > INT_MAX) {
          throw Error(std::to_string(e.points) + " points = " + std::to_string(n1) + " x " +
                      std::to_string(e.points / n1) + ": each factor must be at most 2147483647");
        }
        check_memory(session.comm, fft::fft1d_memory(e.points, session.procs, e.check), what);
      });
      break;
#endif
    case Type::is:
      at_line(where, "", [&] {
        check_memory(session.comm, is::bytes_per_rank(is::class_params(e.is_class), session.procs),
                     what);
      });
      break;
    default:
      break;
  }
  switch (e.type) {
    case Type::bench:
      if (e.all_backends) return;  // 'all' skips what cannot run, as a2a bench does
      for (const std::string& spec : e.backends) {
        for (std::size_t bytes : e.bench.sizes) {
          if (auto why = applicable(session, spec, e.bench.kind(), bytes)) {
            fail_at(backends_key(e), "backend '" + spec +
                                         "' cannot run at P=" + std::to_string(session.procs) +
                                         ", " + std::to_string(bytes) + " B: " + *why);
          }
        }
      }
      return;
    case Type::fft:
    case Type::fft1d: {
#ifdef A2A_WITH_FFTW
#ifndef A2A_WITH_FFTW_MPI
      if (!e.baseline.empty()) fail_at(e.table.at("baseline"), fft::kNoFftwMpi);
#endif
      // Plans are cheap with FFTW_ESTIMATE: make each once to find impossible combinations.
      fft::Options o;
      if (e.type == Type::fft) o = fft_options(session, e);
      if (e.type == Type::fft1d && !e.baseline.empty()) {
        // FFTW-MPI's 1D plan needs N divisible by P: found now, named at the baseline line.
        at_line(e.table.at("baseline"), "",
                [&] { fft::FftwMpi1d probe(session.comm, e.points, FFTW_ESTIMATE); });
      }
      for (const std::string& spec : e.backends) {
        at_line(backends_key(e), "backend '" + spec + "': ", [&] {
          if (e.type == Type::fft1d) {
            fft::SixStep probe(session.comm, n1_of(e), e.points / n1_of(e), spec, FFTW_ESTIMATE);
          } else {
            o.backend = spec;
            fft::Fft3d<double> probe(session.comm, o);
          }
        });
      }
      return;
#else
      fail_at(e.table, "this build has no FFTW (A2A_WITH_FFTW=OFF): fft experiments cannot run");
#endif
    }
    case Type::is:
      for (const std::string& spec : e.backends) {
        if (auto why = applicable(session, spec, Kind::vector, 1)) {
          fail_at(backends_key(e), "backend '" + spec + "' cannot run here: " + *why);
        }
      }
      if (auto why = applicable(session, e.counts_backend, Kind::uniform, 4)) {
        fail_at(e.table.contains("counts_backend") ? e.table.at("counts_backend") : e.table,
                "counts backend '" + e.counts_backend + "': " + *why);
      }
      return;
    case Type::model:
      return;
  }
}

// ---- The experiments ----

// The ratio of every series to the `mpi` series of the same experiment and size.
void add_vs_mpi(std::vector<Output>& outputs, const std::string& size_key) {
  for (Output& o : outputs) {
    for (const Output& base : outputs) {
      if (base.record.value("label", "") != "mpi" || o.datasets.empty() || base.datasets.empty())
        continue;
      if (base.record.value(size_key, nlohmann::json()) !=
          o.record.value(size_key, nlohmann::json()))
        continue;
      const stats::Ratio r = stats::median_ratio(o.datasets[0].second, base.datasets[0].second);
      o.record["vs_mpi"] = r.value;
      o.record["vs_mpi_ci95_low"] = r.ci95_low;
      o.record["vs_mpi_ci95_high"] = r.ci95_high;
    }
  }
}

ExperimentResult run_bench(const Session& session, const Experiment& e, Progress& progress) {
  ExperimentResult result;
  // The sweep reports each size as it starts: the previous one is done.
  const auto& sizes = e.bench.sizes;
  const BenchResult sweep = bench_sweep(session, e.bench, [&](std::size_t si) {
    if (si > 0) {
      progress.advance(bench_units(e, sizes[si - 1], session.procs),
                       std::to_string(sizes[si]) + " B");
    }
  });
  progress.advance(bench_units(e, sizes.back(), session.procs), "");
  result.failures = sweep.failures;
  for (const Series& s : sweep.series)
    result.outputs.push_back({s.record, {{"times_us", s.times_us}}, {}});
  return result;
}

#ifdef A2A_WITH_FFTW
// An FFT experiment's series as outputs: each record with its per-call datasets.
void add_fft_outputs(ExperimentResult& result, std::vector<nlohmann::json> records,
                     const fft::FftResult& r, const std::string& size_key) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    const fft::FftSeries& s = r.series[i];
    Output out{std::move(records[i]), {{"times_us", s.total_us}}, {}};
    if (!s.baseline) {
      out.datasets.emplace_back("transpose_us", s.transpose_us);
      out.datasets.emplace_back("compute_us", s.compute_us);
    }
    result.outputs.push_back(std::move(out));
  }
  add_vs_mpi(result.outputs, size_key);
}

ExperimentResult run_fft(const Session& session, const Experiment& e, Progress& progress) {
  fft::Fft3dExperiment x;
  x.grid = e.grid;
  x.options = fft_options(session, e);
  x.decomp_requested = e.decomp;
  x.decomp = fft::resolve_decomp(e.decomp, x.options.n, session.procs);
  x.backends = e.backends;
  x.check = e.fft_check;
  x.in_place = e.in_place;
  x.baseline = !e.baseline.empty();
  x.iters = e.iters;
  x.warmup = e.warmup;
  x.fftw_plan = e.fftw_plan;
  const double unit =
      fft_unit(static_cast<double>(x.options.n[0] * x.options.n[1] * x.options.n[2]));
  const fft::Wisdom wisdom = wisdom_of(session, e);
  const fft::FftResult r = fft::run_fft3d<double>(
      session.comm, x, [&] { save_wisdom(e, wisdom); },
      [&](double calls, const std::string& what) { progress.advance(calls * unit, what); });
  ExperimentResult result;
  result.failures = r.failures;
  if (session.root()) {
    add_fft_outputs(result, fft::fft3d_records(x, r, session.procs, "double"), r, "grid");
  }
  return result;
}

ExperimentResult run_fft1d(const Session& session, const Experiment& e, Progress& progress) {
  fft::Fft1dExperiment x;
  x.points = e.points;
  x.n1 = n1_of(e);
  x.backends = e.backends;
  x.check = e.check;
  x.baseline = !e.baseline.empty();
  x.iters = e.iters;
  x.warmup = e.warmup;
  x.fftw_plan = e.fftw_plan;
  const double unit = fft_unit(static_cast<double>(e.points));
  const fft::Wisdom wisdom = wisdom_of(session, e);
  const fft::FftResult r = fft::run_fft1d(
      session.comm, x, [&] { save_wisdom(e, wisdom); },
      [&](double calls, const std::string& what) { progress.advance(calls * unit, what); });
  ExperimentResult result;
  result.failures = r.failures;
  if (session.root()) {
    add_fft_outputs(result, fft::fft1d_records(x, r, session.procs), r, "points");
  }
  return result;
}
#endif

// NPB IS: `iters` repetitions of the whole benchmark per backend, interleaved (A B C A B C).
ExperimentResult run_is(const Session& session, const Experiment& e, Progress& progress) {
  ExperimentResult result;
  const is::ClassParams& c = is::class_params(e.is_class);
  struct Entry {
    std::string spec, name, counts_name;
    std::vector<double> times, mops, keys_us;
    bool verified = true;
    double bytes = 0;
  };
  std::vector<Entry> entries;
  for (const std::string& spec : e.backends)
    entries.push_back({spec, "", "", {}, {}, {}, true, 0});
  const double unit = is_unit(e);
  for (int rep = -e.warmup; rep < e.iters; ++rep) {
    for (Entry& x : entries) {
      is::Options opt;
      opt.class_name = e.is_class;
      opt.backend = x.spec;
      opt.counts_backend = e.counts_backend;
      opt.iterations = e.is_iterations;
      const is::Result r = is::run(opt, session.comm);
      if (rep < 0) continue;
      x.verified = x.verified && r.verified();
      x.times.insert(x.times.end(), r.iteration_us.begin(), r.iteration_us.end());
      x.mops.push_back(r.time_s > 0
                           ? e.is_iterations * static_cast<double>(c.total_keys()) / r.time_s / 1e6
                           : 0.0);
      x.keys_us.push_back(r.keys_us);
      x.name = r.backend_name;
      x.counts_name = r.counts_backend_name;
      x.bytes = r.mean_exchange_bytes;
    }
    progress.advance(static_cast<double>(entries.size()) * unit,
                     rep < 0
                         ? std::string("warm-up")
                         : "repetition " + std::to_string(rep + 1) + "/" + std::to_string(e.iters));
  }
  for (const Entry& x : entries)
    if (!x.verified) ++result.failures;
  if (!session.root()) return result;
  for (const Entry& x : entries) {
    nlohmann::json rec = {{"app", "is"},
                          {"label", x.spec},
                          {"backend", x.name},
                          {"counts_backend", x.counts_name},
                          {"class", std::string(1, c.name)},
                          {"procs", session.procs},
                          {"bytes", x.bytes},
                          {"iters", e.is_iterations},
                          {"repetitions", e.iters},
                          {"check", x.verified ? "passed" : "failed"},
                          {"mops_total", stats::median(x.mops)}};
    put_summary(rec, stats::summarize(x.times));
    result.outputs.push_back(
        {rec,
         {{"times_us", x.times}, {"mops_total", x.mops}, {"keys_exchange_us", x.keys_us}},
         {}});
  }
  add_vs_mpi(result.outputs, "class");
  return result;
}

// K and D of TRA (Propositions 1-4) against the radix: the data of configurable-alltoall Fig. 4.
ExperimentResult run_model(const Session& session, const Experiment& e) {
  ExperimentResult result;
  if (!session.root()) return result;
  std::vector<std::uint64_t> radix = e.radices, rounds, blocks;
  if (radix.empty()) {
    for (std::uint64_t r = 2; r <= std::max<std::uint64_t>(2, e.model_procs); ++r)
      radix.push_back(r);
  }
  for (std::uint64_t r : radix) {
    const model::RadixCost cost = model::tra_cost(e.model_procs, r);
    rounds.push_back(cost.rounds);
    blocks.push_back(cost.blocks);
  }
  result.outputs.push_back({{{"app", "model"},
                             {"label", "tra"},
                             {"procs", e.model_procs},
                             {"sqrt_radix", model::sqrt_radix(e.model_procs)}},
                            {},
                            {{"radix", radix}, {"rounds", rounds}, {"blocks", blocks}}});
  return result;
}

// ---- Run metadata and the results file ----

std::string default_output(const std::string& deck_file) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return "results/" + std::filesystem::path(deck_file).stem().string() + "-" + stamp + ".h5";
}

#ifdef A2A_WITH_HDF5
std::string experiment_group(std::size_t index, const Experiment& e) {
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "%02zu-", index);
  return "/experiments/" + std::string(prefix) + e.name;
}
#endif

#ifdef A2A_WITH_HDF5
// SIGINT/SIGTERM during a run: the results file on disk is always complete (it is replaced
// atomically after every experiment), so rank 0 only says where it is, then the signal takes
// its default course (the exit status reports it).
char g_interrupted_message[4096];
std::size_t g_interrupted_length = 0;

void on_interrupt(int sig) {
  if (g_interrupted_length > 0) {
    [[maybe_unused]] const ssize_t n = ::write(2, g_interrupted_message, g_interrupted_length);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void announce_on_signal(const std::string& output) {
  const int n = std::snprintf(g_interrupted_message, sizeof g_interrupted_message,
                              "\nrun: interrupted; every finished experiment is in %s "
                              "(completed = 0, experiments_completed says how many)\n",
                              output.c_str());
  g_interrupted_length =
      n > 0 ? std::min(static_cast<std::size_t>(n), sizeof g_interrupted_message - 1) : 0;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
}
#endif

std::string summary_size(const nlohmann::json& r) {
  const std::string app = r.value("app", "");
  if (app == "fft") return r.value("grid", "") + " " + r.value("transform", "");
  if (app == "fft1d") return "N=" + std::to_string(r.value("points", 0LL));
  if (app == "is") return "class " + r.value("class", "");
  std::string size = std::to_string(r.value("bytes", 0ULL)) + " B";
  if (r.contains("distribution")) size += " " + r.value("distribution", "");
  return size;
}

}  // namespace

Runner setup_run(CLI::App& app, const Session& session) {
  struct Options {
    std::string deck, output, format = "table";
    bool dry_run = false;
    std::string command;
  };
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("run", "Run a deck of experiments (TOML); results in HDF5");
  sub->add_option("deck", opt->deck, "the deck, e.g. inputs/demo.toml")->required();
  sub->add_option("--output,-o", opt->output,
                  "results file (default results/<deck>-<timestamp>.h5); 'none' writes none");
  sub->add_option("--format", opt->format, "summary as table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  sub->add_flag("--dry-run", opt->dry_run,
                "parse and check the deck (plans made once), run nothing, write nothing");

  return [session, opt]() {
    const Format format = parse_format(opt->format);
    // Rank 0 reads the deck; every rank parses the same text, so errors are identical.
    std::string text;
    long long size = -1;
    if (session.root()) {
      std::ifstream in(opt->deck, std::ios::binary);
      if (in) {
        std::ostringstream all;
        all << in.rdbuf();
        text = all.str();
        size = static_cast<long long>(text.size());
      }
    }
    MPI_Bcast(&size, 1, MPI_LONG_LONG, 0, session.comm);
    if (size < 0) throw Error("cannot read deck '" + opt->deck + "'");
    text.resize(static_cast<std::size_t>(size));
    MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, session.comm);
    const deck::Deck d = deck::parse(text, opt->deck, session.procs);
#ifndef A2A_WITH_HDF5
    if (opt->output != "none" && !opt->dry_run) {
      throw Error("this build has no HDF5 (A2A_WITH_HDF5=OFF): use --output none");
    }
#endif
    for (const Experiment& e : d.experiments)
      validate(session, e);
    if (session.root()) {
      std::cerr << "run: " << opt->deck << ": " << d.experiments.size()
                << " experiments checked at P=" << session.procs << std::endl;
    }
    if (opt->dry_run) return 0;

    std::string output = opt->output.empty() ? default_output(opt->deck) : opt->output;
    const nlohmann::json metadata =
        run_metadata(session, d.file, d.title, d.text,
                     "a2a run " + opt->deck + (opt->output.empty() ? "" : " -o " + output));
#ifdef A2A_WITH_HDF5
    // Create and write the file first: an unwritable path fails before hours of measurement.
    // It is rewritten (atomically) after every experiment, so whatever stops the run leaves a
    // readable file with every finished experiment; `completed` says whether the run ended.
    std::unique_ptr<io::ResultsWriter> writer;
    if (output != "none") {
      io::on_root_agreed(session.comm, [&] {
        writer = std::make_unique<io::ResultsWriter>(output);
        nlohmann::json root = metadata;
        root["completed"] = false;
        root["experiments_planned"] = d.experiments.size();
        root["experiments_completed"] = 0;
        writer->attributes("/", root);
        writer->commit();
      });
      if (session.root()) announce_on_signal(output);
    }
#endif

    double total = 0;
    for (const Experiment& e : d.experiments)
      total += units_of(e, session.procs);
    Progress progress(session.root(), total);
    std::vector<nlohmann::json> summary;
    std::size_t failures = 0;
    for (std::size_t i = 0; i < d.experiments.size(); ++i) {
      const Experiment& e = d.experiments[i];
      progress.start(i, d.experiments.size(), e);
      ExperimentResult r;
      switch (e.type) {
        case Type::bench:
          r = run_bench(session, e, progress);
          break;
#ifdef A2A_WITH_FFTW
        case Type::fft:
          r = run_fft(session, e, progress);
          break;
        case Type::fft1d:
          r = run_fft1d(session, e, progress);
          break;
#else
        case Type::fft:
        case Type::fft1d:
          break;  // rejected by validate()
#endif
        case Type::is:
          r = run_is(session, e, progress);
          break;
        case Type::model:
          r = run_model(session, e);
          progress.advance(1, "");
          break;
      }
      failures += r.failures;
      if (session.root()) {
        for (Output& o : r.outputs) {
          o.record["experiment"] = e.name;
          o.record["type"] = deck::to_string(e.type);
          if (e.type != Type::model) summary.push_back(o.record);
        }
      }
#ifdef A2A_WITH_HDF5
      if (output != "none") {
        io::on_root_agreed(session.comm, [&] {
          const std::string group = experiment_group(i, e);
          writer->attributes(group, e.params);
          for (std::size_t s = 0; s < r.outputs.size(); ++s) {
            char index[32];
            std::snprintf(index, sizeof index, "%03zu", s);
            const std::string series = group + "/series/" + index;
            writer->attributes(series, r.outputs[s].record);
            for (const auto& [name, values] : r.outputs[s].datasets)
              writer->dataset(series + "/" + name, values);
            for (const auto& [name, values] : r.outputs[s].counts)
              writer->dataset(series + "/" + name, values);
          }
          writer->attributes("/", {{"experiments_completed", i + 1},
                                   {"completed", i + 1 == d.experiments.size()}});
          writer->commit();
        });
      }
#endif
    }
    progress.finish();
#ifdef A2A_WITH_HDF5
    writer.reset();
#endif

    unsigned long long failed = failures;
    MPI_Bcast(&failed, 1, MPI_UNSIGNED_LONG_LONG, 0, session.comm);
    if (session.root()) {
      for (auto& r : summary) {
        r["size"] = summary_size(r);
        if (format == Format::table) put_display_intervals(r);
      }
      if (format == Format::table) {
        std::cout << "a2a run " << opt->deck << (d.title.empty() ? "" : ": " + d.title) << "\n"
                  << "P=" << session.procs
                  << "; per experiment and backend the slowest rank's time per iteration in "
                     "microseconds: median with bootstrap 95% CI, mean/min/max; vs_mpi = "
                     "median / median(mpi) with its CI\n";
        write_records(std::cout, summary,
                      {"experiment", "label", "size", "median_us", "ci95_us", "mean_us", "min_us",
                       "max_us", "vs_mpi", "vs_mpi_ci95", "check"},
                      format);
      } else {
        write_records(std::cout, summary,
                      {"experiment", "type", "label", "backend", "procs", "size", "bytes",
                       "median_us", "mean_us", "min_us", "max_us", "ci95_low_us", "ci95_high_us",
                       "vs_mpi", "vs_mpi_ci95_low", "vs_mpi_ci95_high", "iters", "check"},
                      format);
      }
      if (output != "none") std::cerr << "run: results in " << output << std::endl;
      if (failed) std::cerr << "run: " << failed << " CHECKS FAILED" << std::endl;
    }
    return failed == 0 ? 0 : 1;
  };
}

}  // namespace a2a::app
