// auto: picks a backend per (kind, P, bytes) from a selection table kept as data (JSON):
// alltoall/tuning/default.json is compiled in; auto:table=FILE or A2A_TUNING=FILE replaces
// it. Rules are tried in order; the first
// whose bounds hold (P, bytes, and ranks per node where a rule names it) and whose backend
// applies to this exchange wins, so a hierarchical backend that does not fit P falls through
// cleanly. A table `a2a tune` wrote has rules for the P it measured and a fitted cost model:
// for any other P the choice is the model's (direct exchange, TRA at the best radix, SLOAV).
// Selection policy lives here only; the algorithms know nothing of it.
// Per call (VectorExchange): the rules that can apply at this P are kept; when they all give
// the same backend whatever the size, it is the only one and a call costs nothing extra;
// otherwise the ranks agree on the largest count with one 8-byte allreduce every `every`
// calls (the first included) and keep that choice in between: a choice only affects speed,
// never the result, and every rank re-decides at the same calls. The chosen backend's
// exchange is made on first use, then kept.
// Rules marked single_copy (shared_window on one node) hold only for auto:single_copy=on: a
// caller such as the 3D FFT, which fuses its pack and unpack with a single-copy plan, gains
// from them where a plain exchange does not (shared_window copies twice as a plain Alltoall).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "a2a/model.hpp"
#include "a2a/spec.hpp"
#include "a2a/topology.hpp"
#include "detail/algorithms.hpp"
#include "detail/messages.hpp"
#include "detail/plan.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

struct Rule {
  std::uint64_t min_procs = 0, max_procs = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t min_bytes = 0, max_bytes = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t ranks_per_node = 0;  // 0: any placement
  bool single_copy = false;          // only for callers that fuse with a single-copy plan
  std::string backend;
};

// A table: its rules in order, and optionally a fitted cost model for the P it lacks.
struct Table {
  std::vector<Rule> rules;
  std::optional<model::CostModel> model;
  std::string direct = "mpi";    // the direct backend the model stands for
  bool needs_placement = false;  // some rule names ranks_per_node
};

double number_key(const nlohmann::json& value, const std::string& key, const Context& ctx,
                  const std::string& origin) {
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
    ctx.fail("selection table " + origin + ": model." + key + " must be a finite number >= 0");
  }
  return value.get<double>();
}

Table load_table(const Context& ctx, const std::string& table) {
  std::string origin;
  const nlohmann::json doc = read_selection_table(ctx, table, origin);
  const char* section = ctx.kind == Kind::uniform ? "uniform" : "vector";
  if (!doc.is_object() || !doc.contains(section) || !doc[section].is_array()) {
    ctx.fail("selection table " + origin + " has no '" + section + "' array");
  }
  Table result;
  for (const auto& item : doc[section]) {
    Rule rule;
    try {
      rule.backend = item.at("backend").get<std::string>();
      for (const auto& [key, value] : item.items()) {
        if (key == "min_procs")
          rule.min_procs = table_count(ctx, value, key, origin);
        else if (key == "max_procs")
          rule.max_procs = table_count(ctx, value, key, origin);
        else if (key == "min_bytes")
          rule.min_bytes = table_count(ctx, value, key, origin);
        else if (key == "max_bytes")
          rule.max_bytes = table_count(ctx, value, key, origin);
        else if (key == "ranks_per_node")
          rule.ranks_per_node = table_count(ctx, value, key, origin);
        else if (key == "single_copy") {
          if (!value.is_boolean()) {
            ctx.fail("selection table " + origin + ": 'single_copy' must be true or false, not " +
                     value.dump());
          }
          rule.single_copy = value.get<bool>();
        } else if (key != "backend" && key != "why" && key != "measured") {
          ctx.fail("selection table " + origin + ": unknown key '" + key + "'");
        }
      }
    } catch (const nlohmann::json::exception& e) {
      ctx.fail("selection table " + origin + ": bad rule " + item.dump() + ": " + e.what());
    }
    if (Spec::parse(rule.backend).name == "auto") {
      ctx.fail("selection table " + origin + ": a rule may not select 'auto'");
    }
    result.needs_placement |= rule.ranks_per_node != 0;
    result.rules.push_back(std::move(rule));
  }
  if (doc.contains("model")) {
    const nlohmann::json& m = doc["model"];
    if (!m.is_object()) ctx.fail("selection table " + origin + ": 'model' must be an object");
    model::CostModel cost;
    for (const auto& [key, value] : m.items()) {
      if (key == "alpha_us")
        cost.alpha_us = number_key(value, key, ctx, origin);
      else if (key == "beta_us_per_byte")
        cost.beta_us_per_byte = number_key(value, key, ctx, origin);
      else if (key == "gamma_us_per_byte")
        cost.gamma_us_per_byte = number_key(value, key, ctx, origin);
      else if (key == "direct" && value.is_string())
        result.direct = value.get<std::string>();
      else if (key != "why" && key != "fit") {
        ctx.fail("selection table " + origin + ": unknown or malformed model key '" + key + "'");
      }
    }
    if (!m.contains("alpha_us") || !m.contains("beta_us_per_byte")) {
      ctx.fail("selection table " + origin + ": the model needs alpha_us and beta_us_per_byte");
    }
    result.model = cost;
  }
  return result;
}

// The rules a table gives this P (and placement: rpn < 0 = not known yet, any rule holds; the
// single_copy rules only where the caller fuses with a single-copy plan); when
// it has none for this P but has a model, rules made from the model's predictions at every
// power of two of bytes, each covering up to the next: a direct exchange against what every
// algorithm with a prediction would take (TRA at its best radix, SLOAV).
std::vector<Rule> rules_for(const Table& table, Kind kind, std::uint64_t procs, long long rpn,
                            bool single_copy) {
  std::vector<Rule> rules;
  for (const Rule& rule : table.rules) {
    if (procs < rule.min_procs || procs > rule.max_procs) continue;
    if (rule.single_copy && !single_copy) continue;
    if (rpn >= 0 && rule.ranks_per_node != 0 &&
        rule.ranks_per_node != static_cast<std::uint64_t>(rpn)) {
      continue;
    }
    rules.push_back(rule);
  }
  // The model stands in for the plain rules only: a table whose single-copy rules are all it
  // has for this P still falls back to the model for the rest.
  const bool only_single_copy =
      std::all_of(rules.begin(), rules.end(), [](const Rule& r) { return r.single_copy; });
  if (!only_single_copy || !table.model) return rules;
  const model::CostModel& m = *table.model;
  for (int power = 0; power <= 40; ++power) {
    const std::uint64_t bytes = std::uint64_t{1} << power;
    // The table's direct backend against every algorithm the model predicts (their entries'
    // `predicted`: TRA at its best radix, SLOAV).
    std::string chosen = table.direct;
    double best = m.direct_us(procs, bytes);
    for (const AlgorithmInfo& info : registry()) {
      if (!info.predicted || !info.supports(kind)) continue;
      if (const auto guess = info.predicted(m, kind, procs, bytes); guess && guess->second < best) {
        chosen = guess->first;
        best = guess->second;
      }
    }
    if (!rules.empty() && !rules.back().single_copy && rules.back().backend == chosen) {
      rules.back().max_bytes =
          power == 40 ? std::numeric_limits<std::uint64_t>::max() : (bytes << 1) - 1;
      continue;
    }
    Rule rule;
    rule.backend = chosen;
    rule.min_bytes = power == 0 ? 0 : bytes;
    rule.max_bytes = power == 40 ? std::numeric_limits<std::uint64_t>::max() : (bytes << 1) - 1;
    rules.push_back(rule);
  }
  return rules;
}

// The placement the rules are matched against: Q when every node holds Q consecutive ranks,
// else 0 (only rules without ranks_per_node hold). Collective; only when a rule asks.
long long placement(const Table& table, MPI_Comm comm) {
  if (!table.needs_placement) return -1;
  const NodeTopology topo(comm);
  return topo.uniform() ? topo.ranks_per_node() : 0;
}

// The rules that hold and whose backend's spec applies, in table order (the first that can be
// built wins), or an error naming what was tried.
std::vector<std::string> candidates(const Context& ctx, const std::vector<Rule>& rules,
                                    std::uint64_t bytes) {
  std::string tried;
  std::vector<std::string> found;
  const auto procs = static_cast<std::uint64_t>(ctx.procs);
  for (const Rule& rule : rules) {
    if (bytes < rule.min_bytes || bytes > rule.max_bytes) continue;
    Context probe;
    probe.rank = ctx.rank;
    probe.procs = ctx.procs;
    probe.kind = ctx.kind;
    probe.block_bytes = ctx.block_bytes;
    probe.layout = ctx.layout;
    probe.per_call = ctx.per_call;
    const std::string error = validate(rule.backend, probe);
    if (error.empty()) {
      found.push_back(rule.backend);
    } else {
      tried += "\n  " + rule.backend + ": " + error;
    }
  }
  if (found.empty()) {
    ctx.fail("no rule of the selection table applies to P=" + std::to_string(procs) +
             ", bytes=" + std::to_string(bytes) + (tried.empty() ? "" : "; tried:" + tried));
  }
  return found;
}

std::string table_of(Context& ctx) {
  std::string table = ctx.raw("table");
  if (table != "builtin") ctx.resolve("table", table);  // the default stays implicit in names
  if (table == "builtin") {
    if (const std::string env = selection_table_from_environment(); !env.empty()) table = env;
  }
  return table;
}

// single_copy=on. Validation resolves it unless left at off, so the default stays implicit in
// names.
bool single_copy_of(const Context& ctx) {
  return ctx.raw("single_copy") != "off" && ctx.resolved_value("single_copy") == "on";
}

// Per call: the applicable rules, and the exchanges chosen so far.
class AutoExchange final : public ExchangeImpl {
 public:
  explicit AutoExchange(const Context& ctx)
      : comm_(ctx.comm), procs_(ctx.procs), every_(std::stoull(ctx.resolved_value("every"))) {
    Context copy = ctx;
    copy.kind = Kind::vector;
    const auto procs = static_cast<std::uint64_t>(ctx.procs);
    const Table table = load_table(copy, table_of(copy));
    for (Rule& rule :
         rules_for(table, Kind::vector, procs, placement(table, ctx.comm), single_copy_of(ctx))) {
      Context probe;
      probe.rank = ctx.rank;
      probe.procs = ctx.procs;
      probe.kind = Kind::vector;
      probe.per_call = true;
      if (!validate(rule.backend, probe).empty()) continue;
      rules_.push_back(std::move(rule));
    }
    if (rules_.empty())
      ctx.fail("no rule of the selection table applies to P=" + std::to_string(procs));
    chosen_.reserve(rules_.size());
    unusable_.assign(rules_.size(), false);
    fixed_ = size_independent();
  }

  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    // Size-independent table: the first usable rule, no agreement needed; else re-agree on
    // the size every `every_` calls and keep the last choice in between.
    if (last_ != nullptr && (fixed_ || calls_ % every_ != 0)) {
      ++calls_;
      last_->impl->execute(send, recv, l, c);
      return;
    }
    ++calls_;
    bool have_bytes = !fixed_;
    std::uint64_t bytes = have_bytes ? global_max_count(comm_, l.send_counts, procs_) : 0;
    last_ = nullptr;
    for (std::size_t k = 0; k < rules_.size() && last_ == nullptr; ++k) {
      const Rule& r = rules_[k];
      if (unusable_[k] || (have_bytes && (bytes < r.min_bytes || bytes > r.max_bytes))) continue;
      for (auto& state : chosen_) {
        if (state.first == r.backend) last_ = state.second.get();
      }
      if (last_ != nullptr) break;
      try {  // collective; a failure is the same on every rank, so all try the next rule
        chosen_.emplace_back(r.backend, make_exchange_state(r.backend, comm_));
        last_ = chosen_.back().second.get();
      } catch (const Error&) {
        unusable_[k] = true;
        fixed_ = size_independent();
        if (!fixed_ && !have_bytes) {  // every rank is here: agree on the size after all
          bytes = global_max_count(comm_, l.send_counts, procs_);
          have_bytes = true;
          k = static_cast<std::size_t>(-1);  // from the first rule again
        }
      }
    }
    if (last_ == nullptr) {
      throw Error("auto: no rule of the selection table could serve P=" + std::to_string(procs_) +
                  ", bytes=" + std::to_string(bytes));
    }
    last_->impl->execute(send, recv, l, c);
  }
  std::string delegate_name() const override {
    if (last_ == nullptr) return {};
    const std::string inner = last_->impl->delegate_name();
    return inner.empty() ? last_->name : last_->name + "->" + inner;
  }
  std::string delegate_label() const override {
    if (last_ == nullptr) return {};
    const std::string inner = last_->impl->delegate_label();
    return inner.empty() ? last_->label : last_->label + "->" + inner;
  }
  std::size_t scratch_bytes() const override {
    std::size_t bytes = 0;
    for (const auto& [backend, state] : chosen_)
      bytes += state->impl->scratch_bytes();
    return bytes;
  }

 private:
  MPI_Comm comm_;
  int procs_;
  std::uint64_t every_, calls_ = 0;
  // One backend whatever the size: every usable rule up to the first unbounded one names it.
  bool size_independent() const {
    const Rule* first = nullptr;
    for (std::size_t k = 0; k < rules_.size(); ++k) {
      if (unusable_[k]) continue;
      const Rule& rule = rules_[k];
      if (first == nullptr) first = &rule;
      if (rule.backend != first->backend) return false;
      if (rule.min_bytes == 0 && rule.max_bytes == std::numeric_limits<std::uint64_t>::max()) break;
    }
    return true;
  }

  std::vector<Rule> rules_;
  std::vector<bool> unusable_;  // a rule whose backend could not be built here
  bool fixed_ = false;
  std::vector<std::pair<std::string, std::unique_ptr<ExchangeState>>> chosen_;
  ExchangeState* last_ = nullptr;
};

}  // namespace

nlohmann::json read_selection_table(const Context& ctx, const std::string& table,
                                    std::string& origin) {
  origin = selection_table_origin(table);
  try {
    return nlohmann::json::parse(selection_table_text(table));
  } catch (const Error& e) {
    ctx.fail(e.what());
  }
}

std::uint64_t table_count(const Context& ctx, const nlohmann::json& value, const std::string& key,
                          const std::string& origin) {
  // nlohmann would turn -1 into 2^64 - 1 and 1.5 into 1: a count must be written as one.
  if (!value.is_number_unsigned()) {
    ctx.fail("selection table " + origin + ": '" + key + "' must be a non-negative integer, not " +
             value.dump());
  }
  return value.get<std::uint64_t>();
}

AlgorithmInfo describe_auto() {
  AlgorithmInfo info;
  info.name = "auto";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.params = {{"table", "builtin", "selection table: 'builtin' or a JSON file path"},
                 {"every", "16",
                  "per-call Alltoallv: re-agree on the largest count every N calls (one 8-byte "
                  "allreduce; 1 = every call); the last choice is kept in between"},
                 {"single_copy", "off",
                  "on: the caller fuses its pack and unpack with a single-copy plan (the 3D FFT "
                  "sets it), so the table's single_copy rules apply too"}};
  info.summary = "picks a backend per (P, bytes) from a JSON selection table";
  info.source = "selection policy as data (alltoall/tuning/default.json)";
  info.cost = "that of the chosen backend";
  info.validate = [](Context& ctx) {
    ctx.int_param("every", 1, INT_MAX);
    if (ctx.raw("single_copy") != "off") ctx.bool_param("single_copy");
    const Table table = load_table(ctx, table_of(ctx));
    const auto procs = static_cast<std::uint64_t>(ctx.procs);
    const auto rules = rules_for(table, ctx.kind, procs, -1, single_copy_of(ctx));
    if (rules.empty())
      ctx.fail("no rule of the selection table applies to P=" + std::to_string(procs));
    // The uniform choice is local (the placement aside); the vector one needs the global
    // largest count (in build, or per call).
    if (ctx.kind == Kind::uniform) candidates(ctx, rules, ctx.block_bytes);
  };
  info.build = [](const Context& ctx) -> std::unique_ptr<PlanImpl> {
    Context copy = ctx;
    const Table table = load_table(copy, table_of(copy));
    const auto rules = rules_for(table, ctx.kind, static_cast<std::uint64_t>(ctx.procs),
                                 placement(table, ctx.comm), single_copy_of(ctx));
    // The vector kind selects by the largest block of any rank.
    const std::uint64_t bytes = ctx.kind == Kind::vector ? global_max_count(ctx) : ctx.block_bytes;
    // A backend that cannot be built here (sloavx on nodes of unequal size, say) fails the
    // same way on every rank: the next rule is tried.
    std::string tried;
    for (const std::string& chosen : candidates(ctx, rules, bytes)) {
      try {
        return std::make_unique<DelegatePlan>(
            make_plan_state(chosen, ctx.comm, ctx.kind, ctx.block_bytes, ctx.layout));
      } catch (const Error& e) {
        tried += "\n  " + chosen + ": " + e.what();
      }
    }
    ctx.fail("no backend of the selection table could be built here; tried:" + tried);
  };
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<AutoExchange>(ctx);
  };
  info.large_message_tests = false;  // it runs one of the others
  return info;
}

}  // namespace a2a::detail
