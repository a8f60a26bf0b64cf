// a2a bench: OSU-style all-to-all microbenchmark over any set of registered backends.
// Measurement (DESIGN.md): warm-up, then per iteration an untimed barrier, the timed call, and
// the slowest rank's time; backends are interleaved (A B C A B C ...) so that drift on a shared
// machine affects all alike. --check verifies every backend once per size, byte for byte,
// against MPI_Alltoall and against the closed-form pattern, and that the send buffer is intact.
#include <charconv>
#include <climits>
#include <cstring>
#include <iostream>
#include <optional>

#include "a2a/alltoall.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "commands.hpp"
#include "core/distribution.hpp"
#include "core/pattern.hpp"
#include "core/records.hpp"
#include "core/stats.hpp"

namespace a2a::app {
namespace {

std::size_t parse_size(std::string_view text) {
  std::size_t scale = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'k':
      case 'K':
        scale = std::size_t{1} << 10;
        break;
      case 'm':
      case 'M':
        scale = std::size_t{1} << 20;
        break;
      case 'g':
      case 'G':
        scale = std::size_t{1} << 30;
        break;
      default:
        break;
    }
    if (scale != 1) text.remove_suffix(1);
  }
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw Error("--sizes: '" + std::string(text) + "' is not a byte count");
  }
  return value * scale;
}

struct Entry {
  std::string spec;
  Plan plan;
  std::vector<double> times;  // slowest rank per iteration (rank 0 only)
  std::string check = "skipped";
};

// Compares one backend's output with the reference; returns the number of wrong bytes here.
std::size_t count_mismatches(const std::vector<std::byte>& recv,
                             const std::vector<std::byte>& reference) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < recv.size(); ++i)
    wrong += recv[i] != reference[i];
  return wrong;
}

}  // namespace

std::vector<std::size_t> parse_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  if (const auto colon = text.find(':'); colon != std::string::npos) {
    const std::size_t lo = parse_size(std::string_view(text).substr(0, colon));
    const std::size_t hi = parse_size(std::string_view(text).substr(colon + 1));
    if (lo > hi) throw Error("--sizes " + text + ": MIN is larger than MAX");
    if (lo == 0) sizes.push_back(0);
    for (std::size_t s = std::max<std::size_t>(lo, 1); s <= hi; s *= 2)
      sizes.push_back(s);
  } else {
    std::size_t start = 0;
    while (start <= text.size()) {
      const auto comma = std::min(text.find(',', start), text.size());
      sizes.push_back(parse_size(std::string_view(text).substr(start, comma - start)));
      start = comma + 1;
    }
  }
  if (sizes.empty()) throw Error("--sizes " + text + ": no sizes");
  return sizes;
}

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
    const std::vector<std::size_t> sizes = parse_sizes(opt->sizes);
    const bool vector = !opt->vector.empty();
    const Kind kind = vector ? Kind::vector : Kind::uniform;
    const bool all = opt->algorithms == "all";
    const std::vector<std::string> specs =
        all ? algorithm_names(kind) : split_spec_list(opt->algorithms);
    const int P = session.procs, me = session.rank;
    std::vector<nlohmann::json> records;
    std::size_t failures = 0;

    for (std::size_t si = 0; si < sizes.size(); ++si) {
      const std::size_t bytes = sizes[si];
      if (session.root()) {
        std::cerr << "bench: " << (vector ? "largest block " : "") << bytes << " B per peer ("
                  << si + 1 << "/" << sizes.size() << ")" << std::endl;
      }
      const VectorLayout layout =
          vector ? distribution_layout(opt->vector, P, me, bytes) : VectorLayout::uniform(P, bytes);
      std::vector<Entry> entries;
      for (const std::string& spec : specs) {
        if (all) {
          // 'all' skips what cannot run here (e.g. P not divisible by q); an explicit request
          // gets the error instead.
          if (auto why = check_applicable(spec, session.comm, kind, bytes)) {
            if (session.root()) std::cerr << "bench: skipping " << spec << ": " << *why << "\n";
            continue;
          }
        }
        entries.push_back(
            {spec,
             vector ? Plan(spec, session.comm, layout) : Plan(spec, session.comm, bytes),
             {},
             "skipped"});
      }

      std::vector<std::byte> send(layout.send_extent()), recv(layout.recv_extent());
      for (int d = 0; d < P; ++d) {
        const auto i = static_cast<std::size_t>(d);
        fill_pattern(send.data() + layout.send_displs[i], layout.send_counts[i], me, d);
      }

      if (opt->check) {
        // Two independent references: MPI's own collective, and the pattern itself.
        std::vector<std::byte> expected(recv.size()), reference(recv.size());
        for (int s = 0; s < P; ++s) {
          const auto i = static_cast<std::size_t>(s);
          fill_pattern(expected.data() + layout.recv_displs[i], layout.recv_counts[i], s, me);
        }
        const bool mpi_reference = layout.send_extent() <= static_cast<std::size_t>(INT_MAX) &&
                                   layout.recv_extent() <= static_cast<std::size_t>(INT_MAX);
        if (mpi_reference && !vector) {
          MPI_Alltoall(send.data(), static_cast<int>(bytes), MPI_BYTE, reference.data(),
                       static_cast<int>(bytes), MPI_BYTE, session.comm);
        } else if (mpi_reference) {
          const std::vector<int> sc(layout.send_counts.begin(), layout.send_counts.end()),
              sd(layout.send_displs.begin(), layout.send_displs.end()),
              rc(layout.recv_counts.begin(), layout.recv_counts.end()),
              rd(layout.recv_displs.begin(), layout.recv_displs.end());
          MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, reference.data(), rc.data(),
                        rd.data(), MPI_BYTE, session.comm);
        }
        const std::vector<std::byte> send_copy = send;
        for (Entry& e : entries) {
          std::fill(recv.begin(), recv.end(), std::byte{0xA5});
          e.plan.execute(send.data(), recv.data());
          std::size_t wrong = count_mismatches(recv, expected);
          if (mpi_reference) wrong += count_mismatches(recv, reference);
          wrong += count_mismatches(send, send_copy);
          unsigned long long total = wrong;
          MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, session.comm);
          e.check = total == 0 ? "passed" : "failed";
          if (total != 0) {
            ++failures;
            if (session.root()) {
              std::cerr << "bench: CHECK FAILED: " << e.plan.name() << " at " << bytes
                        << " B: " << total << " wrong bytes over all ranks\n";
            }
            send = send_copy;
          }
        }
      }

      for (int it = 0; it < opt->warmup; ++it) {
        for (Entry& e : entries) {
          MPI_Barrier(session.comm);
          e.plan.execute(send.data(), recv.data());
        }
      }
      for (int it = 0; it < opt->iters; ++it) {
        for (Entry& e : entries) {
          MPI_Barrier(session.comm);
          const double t0 = MPI_Wtime();
          e.plan.execute(send.data(), recv.data());
          double elapsed = MPI_Wtime() - t0;
          MPI_Reduce(session.root() ? MPI_IN_PLACE : &elapsed, &elapsed, 1, MPI_DOUBLE, MPI_MAX, 0,
                     session.comm);
          if (session.root()) e.times.push_back(elapsed * 1e6);
        }
      }

      // Mean bytes per peer over all ranks (the vector kind's actual volume).
      unsigned long long volume = 0;
      for (std::size_t c : layout.send_counts)
        volume += c;
      MPI_Allreduce(MPI_IN_PLACE, &volume, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, session.comm);
      if (!session.root()) continue;
      const Entry* baseline = nullptr;
      for (const Entry& e : entries) {
        if (Spec::parse(e.spec).name == "mpi") baseline = &e;
      }
      for (const Entry& e : entries) {
        const stats::Summary s = stats::summarize(e.times);
        const Counters& c = e.plan.counters();
        nlohmann::json rec = {{"app", "bench"},
                              {"backend", e.plan.name()},
                              {"label", e.plan.label()},
                              {"kind", to_string(kind)},
                              {"procs", P},
                              {"bytes", bytes},
                              {"iters", opt->iters},
                              {"check", e.check},
                              {"rounds", c.rounds},
                              {"blocks_sent", c.blocks_sent},
                              {"messages_sent", c.messages_sent},
                              {"bytes_sent", c.bytes_sent}};
        put_summary(rec, s);
        if (vector) {
          rec["distribution"] = opt->vector;
          rec["mean_bytes"] = static_cast<double>(volume) / (static_cast<double>(P) * P);
        }
        if (c.rounds_intra + c.rounds_inter > 0) {
          rec["rounds_intra"] = c.rounds_intra;
          rec["rounds_inter"] = c.rounds_inter;
          rec["blocks_intra"] = c.blocks_intra;
          rec["blocks_inter"] = c.blocks_inter;
        }
        if (baseline != nullptr) {
          const stats::Ratio r = stats::median_ratio(e.times, baseline->times);
          rec["vs_mpi"] = r.value;
          rec["vs_mpi_ci95_low"] = r.ci95_low;
          rec["vs_mpi_ci95_high"] = r.ci95_high;
        }
        char ci[64];
        std::snprintf(ci, sizeof ci, "%.1f-%.1f", s.ci95_low, s.ci95_high);
        rec["ci95_us"] = ci;
        records.push_back(rec);
      }
    }

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
    unsigned long long failed = failures;
    MPI_Bcast(&failed, 1, MPI_UNSIGNED_LONG_LONG, 0, session.comm);
    return failed == 0 ? 0 : 1;
  };
}

}  // namespace a2a::app
