// a2a run DECK.toml [--output FILE.h5|none] [--format table|csv|json] [--dry-run]
// Runs a deck of experiments (run/deck.hpp; each checked, then run, by run/experiments.hpp), and
// writes every per-iteration time with its context to
// one HDF5 file (io/results.hpp); then prints the summary: per experiment and backend the
// median with its bootstrap 95% CI, mean/min/max, and the ratio to `mpi` with its own CI.
// The whole deck is parsed and checked on every rank before any experiment runs.

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "a2a/error.hpp"
#include "a2a/text_file.hpp"
#include "commands.hpp"
#include "core/agree.hpp"
#include "core/files.hpp"
#include "core/records.hpp"
#include "run/deck.hpp"
#include "run/experiments.hpp"
#include "run/metadata.hpp"
#include "run/progress.hpp"
#ifdef A2A_WITH_HDF5
#include "io/results.hpp"
#endif

namespace a2a::app {
namespace {

using deck::Experiment;
using deck::Type;

// ---- Run metadata and the results file ----

std::string default_output(const std::string& deck_file) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return "results/" + std::filesystem::path(deck_file).stem().string() + "-" + stamp + ".h5";
}

#ifdef A2A_WITH_HDF5
// What rank 0 says when a signal stops the run (core/files.hpp: the handler also removes a
// half-written results image and the lock): which experiments the file on disk holds.
void say_on_signal(const std::string& output, std::size_t saved, std::size_t planned) {
  on_signal_say("\nrun: interrupted; " +
                (saved == 0 ? std::string("no experiment had finished: ") + output +
                                  " holds the run's metadata only"
                            : "the first " + std::to_string(saved) + " of " +
                                  std::to_string(planned) + " experiments are in " + output) +
                " (completed = 0; experiments_completed says how many)\n");
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

// The results file of a deck (none with --output none, or without HDF5): created and written
// first, so that an unwritable path fails before hours of measurement, then rewritten
// (atomically) after experiments, so that whatever stops the run leaves a readable file with
// every finished experiment; `completed` says whether the run ended.
class DeckResultsFile {
 public:
  DeckResultsFile(const Session& session, const std::string& output, const nlohmann::json& metadata,
                  std::size_t planned)
      : session_(session), output_(output), planned_(planned) {
#ifdef A2A_WITH_HDF5
    if (output == "none") return;
    io::on_root_agreed(session.comm, [&] {
      writer_ = std::make_unique<io::ResultsWriter>(output);
      nlohmann::json root = metadata;
      root["completed"] = false;
      root["experiments_planned"] = planned;
      root["experiments_completed"] = 0;
      writer_->attributes("/", root);
      writer_->commit();
    });
    if (session.root()) say_on_signal(output, 0, planned);
#else
    (void)metadata;
#endif
  }
  // Experiment i's parameters and series (collective).
  void add(std::size_t i, const Experiment& e, const ExperimentResult& r) {
#ifdef A2A_WITH_HDF5
    if (output_ == "none") return;
    io::on_root_agreed(session_.comm, [&] {
      const std::string group = io::ResultsWriter::experiment_group(i, e.name);
      writer_->attributes(group, e.params);
      for (std::size_t s = 0; s < r.outputs.size(); ++s) {
        const std::string series = io::ResultsWriter::series_group(group, s);
        writer_->attributes(series, r.outputs[s].record);
        for (const auto& [name, values] : r.outputs[s].datasets)
          writer_->dataset(series + "/" + name, values);
        for (const auto& [name, values] : r.outputs[s].counts)
          writer_->dataset(series + "/" + name, values);
      }
      writer_->attributes("/",
                          {{"experiments_completed", i + 1}, {"completed", i + 1 == planned_}});
      // The last experiment always; the others unless saving after each would cost more than
      // a tenth of the run (many short experiments): see commit_if_due.
      const bool saved = i + 1 == planned_ ? (writer_->commit(), true) : writer_->commit_if_due();
      if (saved) say_on_signal(output_, i + 1, planned_);
    });
#else
    (void)i, (void)e, (void)r;
#endif
  }
  void close() {
#ifdef A2A_WITH_HDF5
    writer_.reset();
#endif
  }

 private:
  const Session& session_;
  std::string output_;
  std::size_t planned_;
#ifdef A2A_WITH_HDF5
  std::unique_ptr<io::ResultsWriter> writer_;
#endif
};

// Every measured record of the run (rank 0): a table with its heading, or CSV or JSON lines.
template <typename Options>
void print_summary(std::vector<nlohmann::json>& summary, const Options& opt, const deck::Deck& d,
                   int procs, Format format) {
  for (auto& r : summary) {
    r["size"] = summary_size(r);
    if (format == Format::table) put_display_intervals(r);
  }
  if (format == Format::table) {
    std::cout << "a2a run " << opt.deck << (d.title.empty() ? "" : ": " + d.title) << "\n"
              << "P=" << procs
              << "; per experiment and backend the slowest rank's time per iteration in "
                 "microseconds: median with bootstrap 95% CI, mean/min/max; vs_mpi = "
                 "median / median(mpi) with its CI\n";
    write_records(std::cout, summary,
                  {"experiment", "label", "size", "median_us", "ci95_us", "mean_us", "min_us",
                   "max_us", "vs_mpi", "vs_mpi_ci95", "check"},
                  format);
  } else {
    write_records(std::cout, summary,
                  {"experiment", "type", "label", "backend", "procs", "size", "bytes", "median_us",
                   "mean_us", "min_us", "max_us", "ci95_low_us", "ci95_high_us", "vs_mpi",
                   "vs_mpi_ci95_low", "vs_mpi_ci95_high", "iters", "check"},
                  format);
  }
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
    // A deck is small: a regular file of at most 16 MiB (not a device or a FIFO).
    std::string text;
    on_root_agreed(session.comm, [&] { text = *read_text_file(opt->deck, "deck", 16u << 20); });
    unsigned long long size = text.size();
    MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, session.comm);
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
    DeckResultsFile file(session, output, metadata, d.experiments.size());

    double total = 0;
    for (const Experiment& e : d.experiments)
      total += units_of(e, session.procs);
    Progress progress(session.root(), total);
    std::vector<nlohmann::json> summary;
    std::size_t failures = 0;
    for (std::size_t i = 0; i < d.experiments.size(); ++i) {
      const Experiment& e = d.experiments[i];
      progress.start(i, d.experiments.size(), e);
      ExperimentResult r = run_experiment(session, e, progress);
      failures += r.failures;
      if (session.root()) {
        for (Output& o : r.outputs) {
          o.record["experiment"] = e.name;
          o.record["type"] = deck::to_string(e.type);
          if (e.type != Type::model) summary.push_back(o.record);
        }
      }
      file.add(i, e, r);
    }
    progress.finish();
    file.close();

    unsigned long long failed = failures;
    MPI_Bcast(&failed, 1, MPI_UNSIGNED_LONG_LONG, 0, session.comm);
    if (session.root()) {
      print_summary(summary, *opt, d, session.procs, format);
      if (output != "none") std::cerr << "run: results in " << output << std::endl;
      if (failed) std::cerr << "run: " << failed << " CHECKS FAILED" << std::endl;
    }
    return failed == 0 ? 0 : 1;
  };
}

}  // namespace a2a::app
