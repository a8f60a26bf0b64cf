// random_auto: the dynamic selection of the randomized-alltoall paper (Ferrari et al.),
// section 2, "Dynamic Algorithm Selection Strategy": by the per-peer message size S,
//   S <  small (512 B)                    not randomized: the MPI library's own (`mpi`)
//   small <= S <= large (16 KiB), P < procs    random_scatter (few processes)
//   small <= S <= large,          P >= procs   random_sendrecv (many processes)
//   S > large                             random_segmented
// The paper gives the two byte thresholds ("empirically"); it does not give the process-count
// threshold, so `procs` is a parameter (default 64: between the 14-64 single-rank nodes and the
// 140-640 ranks of its 10-ppn runs). For the vector kind S is the largest per-peer count of
// any rank. seed, shuffle, queue and segment are passed to the chosen algorithm.
// The thresholds "determined from the hardware and P": with table=FILE (or builtin, or
// A2A_TUNING=FILE when table is not given), the table's "random_auto" entry for this P, as
// `a2a tune` measures it, replaces the defaults of small, large and procs; values written in
// the spec win over the table; a table without an entry for this P leaves the paper's.
// Cost: that of the chosen algorithm.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <map>
#include <optional>

#include "detail/algorithms.hpp"
#include "detail/plan.hpp"
#include "detail/randomized.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

enum Choice : std::size_t { kMpi, kScatter, kSendrecv, kSegmented };

Choice choice(const Context& ctx, std::uint64_t bytes, std::uint64_t small, std::uint64_t large,
              std::uint64_t procs) {
  if (bytes < small) return kMpi;
  if (bytes <= large) return static_cast<std::uint64_t>(ctx.procs) < procs ? kScatter : kSendrecv;
  return kSegmented;
}

// Each choice's spec, passing on the parameters the caller set (the others keep the same
// defaults there).
std::string spec_of(const Context& ctx, Choice which) {
  auto with = [&](std::string name, std::initializer_list<const char*> keys) {
    char separator = ':';
    for (const char* key : keys) {
      if (std::find(ctx.given.begin(), ctx.given.end(), key) == ctx.given.end()) continue;
      name += separator + std::string(key) + "=" + ctx.resolved_value(key);
      separator = ',';
    }
    return name;
  };
  switch (which) {
    case kMpi:
      return "mpi";
    case kScatter:
      return with("random_scatter", {"seed", "shuffle"});
    case kSendrecv:
      return with("random_sendrecv", {"seed", "shuffle", "queue"});
    case kSegmented:
      break;
  }
  return with("random_segmented", {"seed", "shuffle", "queue", "segment"});
}

// The table's thresholds for this P become the raw values of the keys the spec did not give.
void apply_table(Context& ctx) {
  std::string table = ctx.raw("table");
  if (table == "none" &&
      std::find(ctx.given.begin(), ctx.given.end(), "table") == ctx.given.end()) {
    if (const std::string env = selection_table_from_environment(); !env.empty()) table = env;
  }
  if (table == "none") return;  // the default stays implicit in names
  ctx.resolve("table", table);
  std::string origin;
  const nlohmann::json doc = read_selection_table(ctx, table, origin);
  if (!doc.is_object() || !doc.contains("random_auto")) return;
  const nlohmann::json& entries = doc["random_auto"];
  if (!entries.is_array())
    ctx.fail("selection table " + origin + ": 'random_auto' must be an array");
  for (const auto& entry : entries) {
    try {
      if (table_count(ctx, entry.at("procs"), "procs", origin) !=
          static_cast<std::uint64_t>(ctx.procs)) {
        continue;
      }
      for (const auto& [key, value] : entry.items()) {
        if (key == "procs" || key == "why") continue;
        if (key != "small" && key != "large" && key != "procs_threshold") {
          ctx.fail("selection table " + origin + ": unknown random_auto key '" + key + "'");
        }
        const std::string param = key == "procs_threshold" ? "procs" : key;
        if (std::find(ctx.given.begin(), ctx.given.end(), param) != ctx.given.end()) continue;
        for (auto& [k, v] : ctx.params) {
          if (k == param) v = std::to_string(table_count(ctx, value, key, origin));
        }
      }
    } catch (const nlohmann::json::exception& e) {
      ctx.fail("selection table " + origin + ": bad random_auto entry " + entry.dump() + ": " +
               e.what());
    }
    return;
  }
}

std::uint64_t value(const Context& ctx, const char* key) {
  return std::stoull(ctx.resolved_value(key));
}

std::string choose(const Context& ctx, std::uint64_t bytes) {
  return spec_of(ctx,
                 choice(ctx, bytes, value(ctx, "small"), value(ctx, "large"), value(ctx, "procs")));
}

// Per call: the largest count of the call (one 8-byte allreduce) picks; the chosen exchanges
// are made on first use and kept.
class RandomAutoExchange final : public ExchangeImpl {
 public:
  explicit RandomAutoExchange(const Context& ctx)
      : ctx_(ctx),
        small_(value(ctx, "small")),
        large_(value(ctx, "large")),
        procs_(value(ctx, "procs")) {}
  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    const Choice which = choice(ctx_, global_max_count(ctx_.comm, l.send_counts, ctx_.procs),
                                small_, large_, procs_);
    auto& state = chosen_[which];
    if (!state) state = make_exchange_state(spec_of(ctx_, which), ctx_.comm);
    last_ = state.get();
    last_->impl->execute(send, recv, l, c);
  }
  std::string delegate_name() const override { return last_ ? last_->name : std::string(); }
  std::string delegate_label() const override { return last_ ? last_->label : std::string(); }
  std::size_t scratch_bytes() const override {
    std::size_t bytes = 0;
    for (const auto& state : chosen_)
      if (state) bytes += state->impl->scratch_bytes();
    return bytes;
  }

 private:
  Context ctx_;
  std::uint64_t small_, large_, procs_;
  std::unique_ptr<ExchangeState> chosen_[4];
  ExchangeState* last_ = nullptr;
};

// The table entry `a2a tune` fits at P from the medians of the four choices at their defaults
// (the sizes where all four were measured): below small mpi wins, up to large the better of
// scatter and sendrecv (procs_threshold > P picks scatter), above it segmented; bounds halfway
// (geometrically) between measured sizes, as the tuner's rules. Empty without such a size.
std::optional<TableEntry> fit_thresholds(const std::vector<MeasuredMedian>& medians, int procs) {
  const char* names[] = {"mpi", "random_scatter", "random_sendrecv", "random_segmented"};
  std::map<std::size_t, std::array<double, 4>> at;  // per size, the four medians (0: missing)
  for (const MeasuredMedian& m : medians) {
    for (std::size_t k = 0; k < 4; ++k) {
      if (m.spec == names[k]) at[m.bytes][k] = m.median_us;
    }
  }
  std::vector<std::size_t> sizes;
  for (const auto& [bytes, four] : at) {
    if (std::all_of(four.begin(), four.end(), [](double t) { return t > 0; })) {
      sizes.push_back(bytes);
    }
  }
  if (sizes.empty()) return std::nullopt;
  const auto t = [&](std::size_t i, std::size_t k) { return at[sizes[i]][k]; };
  const auto random_best = [&](std::size_t i) { return std::min({t(i, 1), t(i, 2), t(i, 3)}); };
  const auto split = [](std::uint64_t a, std::uint64_t b) {
    return static_cast<std::uint64_t>(std::floor(std::sqrt(double(a) * double(b))));
  };
  // small: past the last size where mpi is at least as fast as every randomized one.
  std::size_t first_random = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (t(i, 0) <= random_best(i)) first_random = i + 1;
  }
  const std::uint64_t never = std::uint64_t{1} << 62;
  std::uint64_t small = never, large = never;
  double scatter = 0, sendrecv = 0;
  std::string why = "measured at " + std::to_string(sizes.size()) + " sizes from " +
                    std::to_string(sizes.front()) + " to " + std::to_string(sizes.back()) + " B: ";
  if (first_random < sizes.size()) {
    small = first_random == 0 ? 0 : split(sizes[first_random - 1], sizes[first_random]) + 1;
    // large: past the last size where scatter or sendrecv beats segmented.
    std::size_t first_segmented = first_random;
    for (std::size_t i = first_random; i < sizes.size(); ++i) {
      if (std::min(t(i, 1), t(i, 2)) < t(i, 3)) first_segmented = i + 1;
    }
    large = first_segmented == first_random ? small
            : first_segmented == sizes.size()
                ? never
                : split(sizes[first_segmented - 1], sizes[first_segmented]);
    large = std::max(large, small);
    for (std::size_t i = first_random; i < first_segmented; ++i) {
      scatter += t(i, 1);
      sendrecv += t(i, 2);
    }
    why += "mpi wins below " + std::to_string(small) + " B";
  } else {
    why += "mpi wins at every one";
  }
  const auto threshold = static_cast<std::uint64_t>(scatter <= sendrecv ? procs + 1 : procs);
  return TableEntry{{{"small", small}, {"large", large}, {"procs_threshold", threshold}}, why};
}

}  // namespace

AlgorithmInfo describe_random_auto() {
  AlgorithmInfo info;
  info.name = "random_auto";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.params = random_params(true, true);
  info.params.push_back({"small", "512", "below this many bytes per peer: not randomized (mpi)"});
  info.params.push_back({"large", "16384", "above this many bytes per peer: random_segmented"});
  info.params.push_back({"procs", "64", "from this many ranks on: random_sendrecv, not scatter"});
  info.params.push_back({"table", "none",
                         "'none' (the paper's thresholds), 'builtin' or a JSON file whose "
                         "random_auto entry for this P gives small, large and procs"});
  info.summary = "the paper's selection: mpi / scatter / sendrecv / segmented by size and P";
  info.source = "randomized-alltoall paper (Ferrari et al.), section 2";
  info.cost = "that of the chosen algorithm";
  info.fit_table_entry = fit_thresholds;
  info.validate = [](Context& ctx) {
    validate_random(ctx, true, true);
    apply_table(ctx);
    const long long small = ctx.int_param("small", 0, LLONG_MAX);
    ctx.int_param("large", small, LLONG_MAX);
    ctx.int_param("procs", 1, INT_MAX);
  };
  info.build = [](const Context& ctx) -> std::unique_ptr<PlanImpl> {
    // The vector kind selects by the largest block of any rank.
    const std::uint64_t bytes = ctx.kind == Kind::vector ? global_max_count(ctx) : ctx.block_bytes;
    return std::make_unique<DelegatePlan>(
        make_plan_state(choose(ctx, bytes), ctx.comm, ctx.kind, ctx.block_bytes, ctx.layout));
  };
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<RandomAutoExchange>(ctx);
  };
  info.scratch_buffers = [](int) { return 0.0; };  // it runs one of the randomized ones
  return info;
}

}  // namespace a2a::detail
