// The bench measurement (docs/cli.md, "Measurement method"), shared by `a2a bench` and the bench
// experiments of `a2a run`: warm-up, then per iteration an untimed barrier, the timed call, and
// the slowest rank's time; backends are interleaved, each round in its own order (B A C, C B A
// ...), so that drift on a shared machine, and what ran just before, affect all alike. `check`
// verifies every backend once per size, byte for byte, against MPI_Alltoall[v] and against the
// closed-form pattern, and that the send buffer is intact.
#include "bench_sweep.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <iostream>
#include <numeric>
#include <optional>
#include <random>
#include <set>

#include "a2a/alltoall.hpp"
#include "a2a/buffer.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "core/distribution.hpp"
#include "core/memory.hpp"
#include "core/pattern.hpp"
#include "core/records.hpp"
#include "core/stats.hpp"

namespace a2a::app {
namespace {

// A byte count: digits with an optional K, M or G suffix, checked for overflow.
std::size_t parse_size(std::string_view text) {
  std::size_t scale = 1;
  const std::string original(text);
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
  std::size_t bytes = 0;
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc() && __builtin_mul_overflow(value, scale, &bytes))) {
    throw Error("--sizes: '" + original + "' is too large (at most 2^64-1 bytes)");
  }
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw Error("--sizes: '" + original + "' is not a byte count");
  }
  return bytes;
}

// A fixed plan, or a per-call exchange handed the layout with every call.
struct Exchange {
  std::optional<Plan> plan;
  std::optional<VectorExchange> per_call;
  const VectorLayout* layout = nullptr;
  void execute(const void* send, void* recv) {
    if (plan) {
      plan->execute(send, recv);
    } else {
      per_call->execute(send, recv, *layout);
    }
  }
  std::string name() const { return plan ? plan->name() : per_call->name(); }
  std::string label() const { return plan ? plan->label() : per_call->label(); }
  const Counters& counters() const { return plan ? plan->counters() : per_call->counters(); }
};

struct Entry {
  std::string spec;
  Exchange plan;
  std::vector<double> times;  // slowest rank per iteration (rank 0 only)
  std::string check = "skipped";
};

// Compares one backend's output with the reference; returns the number of wrong bytes here.
std::size_t count_mismatches(const ByteBuffer& recv, const ByteBuffer& reference) {
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
    // Powers of two from MIN: stop before doubling would pass MAX (or wrap around).
    for (std::size_t s = std::max<std::size_t>(lo, 1); s <= hi; s *= 2) {
      sizes.push_back(s);
      if (s > hi / 2) break;
    }
  } else {
    std::size_t start = 0;
    while (start <= text.size()) {
      const auto comma = std::min(text.find(',', start), text.size());
      sizes.push_back(parse_size(std::string_view(text).substr(start, comma - start)));
      start = comma + 1;
    }
  }
  if (sizes.empty() || text.empty()) throw Error("--sizes '" + text + "': no sizes");
  return sizes;
}

// A plan's scratch in units of P S (the exchange's volume): none for direct algorithms (the
// MPI library's own gets one, for what it may keep), about three for the store-and-forward
// ones (work array, staging, overflow), and sloavx's leader holds its node's data twice more.
static double scratch_units(const std::string& spec, int procs) {
  const AlgorithmInfo* info = algorithm_of(spec);
  return info != nullptr && info->scratch_buffers ? info->scratch_buffers(procs) : 3;
}

std::uint64_t bench_memory(const BenchConfig& config, int procs) {
  std::size_t largest = 0;
  for (std::size_t s : config.sizes)
    largest = std::max(largest, s);
  double units = 2 + (config.check ? 3 : 0);  // send, recv; expected, reference, send copy
  for (const std::string& spec : config.backends())
    units += scratch_units(spec, procs);
  // Under SimGrid with folded buffers (a2a/buffer.hpp) those from the threshold up take no
  // memory: the largest that does is just below it.
  double buffer = static_cast<double>(largest) * procs;
  if (const std::size_t fold = simulation_fold_threshold(); fold > 0)
    buffer = std::min(buffer, static_cast<double>(fold));
  const double bytes = units * buffer;
  return bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes);
}

std::vector<std::string> BenchConfig::backends() const {
  return all() ? algorithm_names(kind()) : split_spec_list(algorithms);
}

namespace {

// The plans of one size: every backend asked for (with `all`, those that can run here; the
// others are said once per backend and reason).
std::vector<Entry> make_entries(const Session& session, const BenchConfig& config,
                                const VectorLayout& layout, std::size_t bytes,
                                std::set<std::string>& said) {
  const bool vector = !config.distribution.empty();
  std::vector<Entry> entries;
  for (const std::string& spec : config.backends()) {
    if (config.all()) {
      // 'all' skips what cannot run here (e.g. P not divisible by q); an explicit request
      // gets the error instead.
      if (auto why = check_applicable(spec, session.comm, config.kind(), bytes)) {
        if (session.root() && said.insert(spec + ": " + *why).second) {
          std::cerr << "bench: skipping " << spec << ": " << *why << "\n";
        }
        continue;
      }
    }
    Entry& e = entries.emplace_back();
    e.spec = spec;
    if (config.per_call) {
      e.plan.per_call.emplace(spec, session.comm);
      e.plan.layout = &layout;
    } else if (vector) {
      e.plan.plan.emplace(spec, session.comm, layout);
    } else {
      e.plan.plan.emplace(spec, session.comm, bytes);
    }
  }
  return entries;
}

// --check: every entry's output byte for byte against two independent references, MPI's own
// collective and the pattern itself, and its send buffer unchanged. Returns the failures.
int check_entries(const Session& session, const VectorLayout& layout, std::size_t bytes,
                  bool vector, std::vector<Entry>& entries, ByteBuffer& send, ByteBuffer& recv) {
  const int P = session.procs, me = session.rank;
  ByteBuffer expected(recv.size()), reference(recv.size());
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
  const ByteBuffer send_copy = send;
  int failures = 0;
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
        std::cerr << "bench: CHECK FAILED: " << e.plan.name() << " at " << bytes << " B: " << total
                  << " wrong bytes over all ranks\n";
      }
      send = send_copy;
    }
  }
  return failures;
}

// The warm-up, then the timed rounds: each runs every backend once, in an order of its own (a
// permutation drawn from a fixed seed, the same on every rank), so that a backend that slows
// its successor (shared_window's windows, say) slows each alike. Rank 0 keeps the slowest
// rank's time of every call.
void time_entries(const Session& session, const BenchConfig& config, std::vector<Entry>& entries,
                  ByteBuffer& send, ByteBuffer& recv) {
  for (int it = 0; it < config.warmup; ++it) {
    for (Entry& e : entries) {
      MPI_Barrier(session.comm);
      e.plan.execute(send.data(), recv.data());
    }
  }
  std::vector<std::size_t> order(entries.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 shuffler(0x5eed);
  for (int it = 0; it < config.iters; ++it) {
    std::shuffle(order.begin(), order.end(), shuffler);
    for (std::size_t index : order) {
      Entry& e = entries[index];
      MPI_Barrier(session.comm);
      const double t0 = MPI_Wtime();
      e.plan.execute(send.data(), recv.data());
      double elapsed = MPI_Wtime() - t0;
      MPI_Reduce(session.root() ? MPI_IN_PLACE : &elapsed, &elapsed, 1, MPI_DOUBLE, MPI_MAX, 0,
                 session.comm);
      if (session.root()) e.times.push_back(elapsed * 1e6);
    }
  }
}

// One record per entry (rank 0): what ran, its counters, its times' summary and, where `mpi`
// ran too, the ratio to it. `volume` and `largest` are over all ranks (the vector kind's).
void add_records(const Session& session, const BenchConfig& config,
                 const std::vector<Entry>& entries, std::size_t bytes, unsigned long long volume,
                 unsigned long long largest, BenchResult& result) {
  const int P = session.procs;
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
                          {"spec", e.spec},
                          {"kind", to_string(config.kind())},
                          {"per_call", config.per_call},
                          {"procs", P},
                          {"bytes", bytes},
                          {"iters", config.iters},
                          {"check", e.check},
                          {"rounds", c.rounds},
                          {"blocks_sent", c.blocks_sent},
                          {"messages_sent", c.messages_sent},
                          {"bytes_sent", c.bytes_sent},
                          {"waits", c.waits}};
    put_summary(rec, s);
    if (!config.distribution.empty()) {
      rec["distribution"] = config.distribution;
      rec["mean_bytes"] = static_cast<double>(volume) / (static_cast<double>(P) * P);
      rec["largest_bytes"] = largest;
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
    result.series.push_back({rec, e.times});
  }
}

}  // namespace

BenchResult bench_sweep(const Session& session, const BenchConfig& config,
                        const std::function<void(std::size_t)>& progress) {
  const bool vector = !config.distribution.empty();
  const int P = session.procs, me = session.rank;
  refuse_check_on_folded_buffers(config.check, "bench --check");
  BenchResult result;
  std::set<std::string> said;
  for (std::size_t si = 0; si < config.sizes.size(); ++si) {
    const std::size_t bytes = config.sizes[si];
    if (progress) progress(si);
    const VectorLayout layout = vector ? distribution_layout(config.distribution, P, me, bytes)
                                       : VectorLayout::uniform(P, bytes);
    std::vector<Entry> entries = make_entries(session, config, layout, bytes, said);
    ByteBuffer send(layout.send_extent()), recv(layout.recv_extent());
    for (int d = 0; d < P; ++d) {
      const auto i = static_cast<std::size_t>(d);
      fill_pattern(send.data() + layout.send_displs[i], layout.send_counts[i], me, d);
    }
    if (config.check) {
      result.failures += check_entries(session, layout, bytes, vector, entries, send, recv);
    }
    time_entries(session, config, entries, send, recv);
    // The mean bytes per peer over all ranks (the vector kind's actual volume), and the largest
    // block of any rank (the size `auto` selects by for Alltoallv).
    unsigned long long volume = 0, largest = 0;
    for (std::size_t c : layout.send_counts) {
      volume += c;
      largest = std::max<unsigned long long>(largest, c);
    }
    MPI_Allreduce(MPI_IN_PLACE, &volume, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, session.comm);
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, session.comm);
    if (session.root()) add_records(session, config, entries, bytes, volume, largest, result);
  }
  return result;
}

}  // namespace a2a::app
