// a2a bench: OSU-style all-to-all microbenchmark over any set of registered backends. The
// measurement itself is bench_sweep (bench_sweep.cpp); this file is the command line and the
// printing.
#include <iostream>

#include "bench_sweep.hpp"
#include "commands.hpp"
#include "core/distribution.hpp"
#include "core/records.hpp"

namespace a2a::app {

Runner setup_bench(CLI::App& app, const Session& session) {
  struct Options {
    std::string algorithms = "all";
    std::string sizes = "8:65536";
    int iters = 50;
    int warmup = 5;
    bool check = false;
    std::string format = "table";
    std::string vector;  // distribution name: the vector (Alltoallv) kind
  };
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("bench", "Time all-to-all backends (run under mpirun)");
  sub->add_option("--algorithms,-a", opt->algorithms,
                  "comma-separated backend specs, or 'all' (every backend of the kind)");
  sub->add_option("--sizes,-s,--max-bytes", opt->sizes,
                  "bytes per peer (with --vector: the largest block): MIN:MAX (powers of two) "
                  "or a,b,c; suffixes K, M, G");
  sub->add_option("--vector", opt->vector,
                  "Alltoallv with per-peer counts from a distribution: equal, random, powerlaw, "
                  "hot, onesender, pernode, zero")
      ->check(CLI::IsMember(distribution_names()));
  sub->add_option("--iters,-n", opt->iters, "timed iterations per backend and size")
      ->check(CLI::Range(1, 1000000));
  sub->add_option("--warmup,-w", opt->warmup, "untimed iterations first")
      ->check(CLI::Range(0, 1000000));
  sub->add_flag("--check", opt->check,
                "verify every backend byte for byte against MPI_Alltoall[v]; exit 1 on mismatch");
  sub->add_option("--format", opt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));

  return [session, opt]() {
    const Format format = parse_format(opt->format);
    BenchConfig config;
    config.algorithms = opt->algorithms;
    config.sizes = parse_sizes(opt->sizes);
    config.distribution = opt->vector;
    config.iters = opt->iters;
    config.warmup = opt->warmup;
    config.check = opt->check;
    const bool vector = !opt->vector.empty();
    const int P = session.procs;
    const BenchResult result = bench_sweep(session, config, [&](std::size_t si) {
      if (!session.root()) return;
      std::cerr << "bench: " << (vector ? "largest block " : "") << config.sizes[si]
                << " B per peer (" << si + 1 << "/" << config.sizes.size() << ")" << std::endl;
    });
    std::vector<nlohmann::json> records;
    for (const Series& s : result.series)
      records.push_back(s.record);
    if (session.root()) {
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
                  << (vector ? "Alltoallv, '" + opt->vector + "' counts, bytes = largest block, "
                             : std::string("Alltoall, "))
                  << opt->iters
                  << " iterations (slowest rank), median with bootstrap 95% CI in microseconds;"
                  << " vs_mpi = median / median(mpi)\n";
      }
      for (auto& r : records) {
        if (format == Format::json) r.erase("ci95_us");
      }
      write_records(std::cout, records, format == Format::csv ? csv_columns : columns, format);
    }
    unsigned long long failed = result.failures;
    MPI_Bcast(&failed, 1, MPI_UNSIGNED_LONG_LONG, 0, session.comm);
    return failed == 0 ? 0 : 1;
  };
}

}  // namespace a2a::app
