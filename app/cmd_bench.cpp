// a2a bench: OSU-style all-to-all microbenchmark over any set of registered backends. The
// measurement itself is bench_sweep (bench_sweep.cpp); this file is the command line and the
// printing.
#include <cstdio>
#include <iostream>
#include <memory>

#include "bench_sweep.hpp"
#include "commands.hpp"
#include "core/distribution.hpp"
#include "core/memory.hpp"
#include "core/records.hpp"
#include "run/metadata.hpp"
#ifdef A2A_WITH_HDF5
#include "io/results.hpp"
#endif

namespace a2a::app {

namespace {

#ifdef A2A_WITH_HDF5
// The results file, created (and written once, so an unwritable path fails now) before the
// sweep: the layout `a2a run` writes, with one bench experiment.
template <typename Options>
std::unique_ptr<io::ResultsWriter> create_results(const Session& session, const Options& opt) {
  std::unique_ptr<io::ResultsWriter> writer;
  const nlohmann::json metadata =
      run_metadata(session, "", "a2a bench", "", "a2a bench --output " + opt.output);
  io::on_root_agreed(session.comm, [&] {
    writer = std::make_unique<io::ResultsWriter>(opt.output);
    nlohmann::json root = metadata;
    root["completed"] = false;
    writer->attributes("/", root);
    writer->commit();
  });
  return writer;
}

template <typename Options>
void write_results(const Session& session, io::ResultsWriter* writer, const Options& opt,
                   const BenchConfig& config, const BenchResult& result) {
  io::on_root_agreed(session.comm, [&] {
    const std::string group = io::ResultsWriter::experiment_group(0, "bench");
    writer->attributes(group, {{"type", "bench"},
                               {"name", "bench"},
                               {"backends", opt.algorithms},
                               {"sizes", opt.sizes},
                               {"vector", opt.vector},
                               {"per_call", opt.per_call},
                               {"iters", config.iters},
                               {"warmup", config.warmup},
                               {"check", config.check}});
    for (std::size_t i = 0; i < result.series.size(); ++i) {
      const std::string series = io::ResultsWriter::series_group(group, i);
      nlohmann::json record = result.series[i].record;
      record["experiment"] = "bench";
      record["type"] = "bench";
      writer->attributes(series, record);
      writer->dataset(series + "/times_us", result.series[i].times_us);
    }
    writer->attributes("/", {{"completed", true}, {"experiments_completed", 1}});
    writer->commit();
  });
  if (session.root()) std::cerr << "bench: results in " << opt.output << std::endl;
}
#endif

// The sweep's settings from the options.
template <typename Options>
BenchConfig bench_config(const Options& opt) {
  BenchConfig config;
  config.algorithms = opt.algorithms;
  config.sizes = parse_sizes(opt.sizes);
  config.distribution = opt.vector;
  config.per_call = opt.per_call;
  if (config.per_call && opt.vector.empty()) {
    throw Error("--per-call needs --vector (it times the per-call Alltoallv)");
  }
  config.iters = opt.iters;
  config.warmup = opt.warmup;
  config.check = opt.check;
  return config;
}

// The records as a table (with a heading), CSV or JSON lines (rank 0).
template <typename Options>
void print_records(std::vector<nlohmann::json>& records, const Options& opt, int P, Format format) {
  const bool vector = !opt.vector.empty();
  const std::vector<std::string> columns = {"label",   "bytes",         "median_us", "ci95_us",
                                            "mean_us", "min_us",        "max_us",    "vs_mpi",
                                            "rounds",  "messages_sent", "check"};
  std::vector<std::string> csv_columns = {"label",
                                          "backend",
                                          "kind",
                                          "bytes",
                                          "median_us",
                                          "mean_us",
                                          "min_us",
                                          "max_us",
                                          "ci95_low_us",
                                          "ci95_high_us",
                                          "vs_mpi",
                                          "vs_mpi_ci95_low",
                                          "vs_mpi_ci95_high",
                                          "rounds",
                                          "blocks_sent",
                                          "messages_sent",
                                          "bytes_sent",
                                          "check",
                                          "procs",
                                          "iters"};
  if (vector) csv_columns.insert(csv_columns.begin() + 3, "distribution");
  if (format == Format::table) {
    std::cout << "a2a bench: P=" << P << ", "
              << (vector ? "Alltoallv, '" + opt.vector + "' counts, bytes = largest block, "
                         : std::string("Alltoall, "))
              << opt.iters
              << " iterations (slowest rank), median with bootstrap 95% CI in microseconds;"
              << " vs_mpi = median / median(mpi)\n";
  }
  if (format == Format::table) {
    for (auto& r : records)
      put_display_intervals(r);
  }
  write_records(std::cout, records, format == Format::csv ? csv_columns : columns, format);
}

}  // namespace

Runner setup_bench(CLI::App& app, const Session& session) {
  struct Options {
    std::string algorithms = "all";
    std::string sizes = "8:65536";
    int iters = 50;
    int warmup = 5;
    bool check = false;
    std::string format = "table";
    std::string vector;  // distribution name: the vector (Alltoallv) kind
    bool per_call = false;
    std::string output;  // HDF5 results file (as a2a run writes)
  };
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("bench", "Time all-to-all backends (run under mpirun)");
  sub->add_option("--algorithms,-a", opt->algorithms,
                  "backend specs separated by ';' or ',' (a ',' before key=value continues the "
                  "spec: tra:r=4,window=all), or 'all' (every backend of the kind)");
  sub->add_option("--sizes,-s,--max-bytes", opt->sizes,
                  "bytes per peer (with --vector: the largest block): MIN:MAX (powers of two) "
                  "or a,b,c; suffixes K, M, G");
  sub->add_option("--vector", opt->vector,
                  "Alltoallv with per-peer counts from a distribution: equal, random, powerlaw, "
                  "hot, onesender, pernode, zero")
      ->check(CLI::IsMember(distribution_names()));
  sub->add_flag("--per-call", opt->per_call,
                "with --vector: time a2a::VectorExchange (counts given every call, nothing "
                "planned) instead of a fixed-layout plan");
  sub->add_option("--iters,-n", opt->iters, "timed iterations per backend and size")
      ->check(CLI::Range(1, 1000000));
  sub->add_option("--warmup,-w", opt->warmup, "untimed iterations first")
      ->check(CLI::Range(0, 1000000));
  sub->add_flag("--check", opt->check,
                "verify every backend byte for byte against MPI_Alltoall[v]; exit 1 on mismatch");
  sub->add_option("--format", opt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));

  sub->add_option("--output,-o", opt->output,
                  "also write the per-iteration times to this HDF5 results file (docs/decks.md: "
                  "Results files)");

  return [session, opt]() {
    const Format format = parse_format(opt->format);
#ifndef A2A_WITH_HDF5
    if (!opt->output.empty()) throw Error("--output: this build has no HDF5 (A2A_WITH_HDF5=OFF)");
#endif
    const BenchConfig config = bench_config(*opt);
    const bool vector = !opt->vector.empty();
    const int P = session.procs;
    if (opt->algorithms.empty()) throw Error("--algorithms is empty: name backends, or 'all'");
    check_memory(session.comm, bench_memory(config, P), "bench");
#ifdef A2A_WITH_HDF5
    std::unique_ptr<io::ResultsWriter> writer;
    if (!opt->output.empty()) writer = create_results(session, *opt);
#endif
    const BenchResult result = bench_sweep(session, config, [&](std::size_t si) {
      if (!session.root()) return;
      std::cerr << "bench: " << (vector ? "largest block " : "") << config.sizes[si]
                << " B per peer (" << si + 1 << "/" << config.sizes.size() << ")" << std::endl;
    });
    std::vector<nlohmann::json> records;
    for (const Series& s : result.series)
      records.push_back(s.record);
    if (session.root()) print_records(records, *opt, P, format);
#ifdef A2A_WITH_HDF5
    if (!opt->output.empty()) write_results(session, writer.get(), *opt, config, result);
#endif
    unsigned long long failed = result.failures;
    MPI_Bcast(&failed, 1, MPI_UNSIGNED_LONG_LONG, 0, session.comm);
    return failed == 0 ? 0 : 1;
  };
}

}  // namespace a2a::app
