// A deck's experiments: validation and runners (experiments.hpp).
#include "run/experiments.hpp"

#include <climits>
#include <cmath>
#include <optional>

#include "a2a/error.hpp"
#include "a2a/model.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "bench_sweep.hpp"
#include "core/memory.hpp"
#include "core/records.hpp"
#include "core/stats.hpp"
#include "is/npb_is.hpp"
#ifdef A2A_WITH_FFTW
#include "a2a/fft.hpp"
#include "fft/baseline.hpp"
#include "fft/experiment.hpp"
#include "fft/grid.hpp"
#include "fft/wisdom.hpp"
#endif

namespace a2a::app {
namespace {

using deck::Experiment;
using deck::fail_at;
using deck::Type;

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
  o.natural_spectrum = e.spectrum_layout == "natural";
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

}  // namespace

namespace {

// Memory first (every experiment is checked before the first one runs), each where its deck
// line names the size.
void validate_memory(const Session& session, const Experiment& e) {
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
}

// Every backend can run the experiment here: each plan made once (FFTs with FFTW_ESTIMATE,
// cheap) to find impossible combinations, named at the deck's line.
void validate_backends(const Session& session, const Experiment& e) {
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
        // FFTW-MPI's 1D plans need N divisible by P: found now, named at the baseline line.
        at_line(e.table.at("baseline"), "",
                [&] { fft::fftw_mpi_1d_baselines(session.comm, e.points, FFTW_ESTIMATE); });
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

}  // namespace

void validate(const Session& session, const Experiment& e) {
  validate_memory(session, e);
  validate_backends(session, e);
}

namespace {

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

// The deck's side of an FFT experiment: its wisdom (errors name the wisdom line), progress in
// work units of `unit` per FFT call, its series as outputs.
template <typename Run, typename Records>
ExperimentResult fft_experiment(const Session& session, const Experiment& e, Progress& progress,
                                double unit, const std::string& size_key, Run&& run,
                                Records&& records) {
  const fft::Wisdom wisdom = wisdom_of(session, e);
  const fft::FftResult r =
      run([&] { save_wisdom(e, wisdom); },
          [&](double calls, const std::string& what) { progress.advance(calls * unit, what); });
  ExperimentResult result;
  result.failures = r.failures;
  if (session.root()) add_fft_outputs(result, records(r), r, size_key);
  return result;
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
  const auto& n = x.options.n;
  return fft_experiment(
      session, e, progress, fft_unit(static_cast<double>(n[0] * n[1] * n[2])), "grid",
      [&](auto&& save, auto&& report) {
        return fft::run_fft3d<double>(session.comm, x, save, report);
      },
      [&](const fft::FftResult& r) { return fft::fft3d_records(x, r, session.procs, "double"); });
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
  return fft_experiment(
      session, e, progress, fft_unit(static_cast<double>(e.points)), "points",
      [&](auto&& save, auto&& report) { return fft::run_fft1d(session.comm, x, save, report); },
      [&](const fft::FftResult& r) { return fft::fft1d_records(x, r, session.procs); });
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

}  // namespace

ExperimentResult run_experiment(const Session& session, const Experiment& e, Progress& progress) {
  switch (e.type) {
    case Type::bench:
      return run_bench(session, e, progress);
#ifdef A2A_WITH_FFTW
    case Type::fft:
      return run_fft(session, e, progress);
    case Type::fft1d:
      return run_fft1d(session, e, progress);
#else
    case Type::fft:
    case Type::fft1d:
      break;  // rejected by validate()
#endif
    case Type::is:
      return run_is(session, e, progress);
    case Type::model: {
      ExperimentResult r = run_model(session, e);
      progress.advance(1, "");
      return r;
    }
  }
  return {};
}

}  // namespace a2a::app
