// auto: picks a backend per (kind, P, bytes) from a selection table kept as data (JSON):
// alltoall/tuning/default.json is compiled in; auto:table=FILE or A2A_AUTO_TABLE=FILE replaces
// it. Rules are tried in order; the first whose bounds hold and whose backend applies to this
// exchange wins, so a hierarchical backend that does not fit P falls through cleanly.
// Selection policy lives here only; the algorithms know nothing of it.
// Per call (VectorExchange): the rules that can apply at this P are kept; when they all give
// the same backend whatever the size, it is the only one and a call costs nothing extra;
// otherwise each call agrees on the largest count with one 8-byte allreduce and runs the
// chosen backend's exchange (made on first use, then kept).
#include <cstdlib>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "a2a/spec.hpp"
#include "a2a_default_tuning.hpp"
#include "detail/algorithms.hpp"
#include "detail/p2p.hpp"
#include "detail/plan.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

struct Rule {
  std::uint64_t min_procs = 0, max_procs = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t min_bytes = 0, max_bytes = std::numeric_limits<std::uint64_t>::max();
  std::string backend;
};

std::vector<Rule> load_rules(const Context& ctx, const std::string& table) {
  std::string text;
  std::string origin = table;
  if (table == "builtin") {
    text = kDefaultTuningJson;
    origin = "built-in table";
  } else {
    std::ifstream in(table);
    if (!in) ctx.fail("cannot read selection table '" + table + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    ctx.fail("selection table " + origin + " is not valid JSON: " + e.what());
  }
  const char* section = ctx.kind == Kind::uniform ? "uniform" : "vector";
  if (!doc.is_object() || !doc.contains(section) || !doc[section].is_array()) {
    ctx.fail("selection table " + origin + " has no '" + section + "' array");
  }
  std::vector<Rule> rules;
  for (const auto& item : doc[section]) {
    Rule rule;
    try {
      rule.backend = item.at("backend").get<std::string>();
      for (const auto& [key, value] : item.items()) {
        if (key == "min_procs")
          rule.min_procs = value.get<std::uint64_t>();
        else if (key == "max_procs")
          rule.max_procs = value.get<std::uint64_t>();
        else if (key == "min_bytes")
          rule.min_bytes = value.get<std::uint64_t>();
        else if (key == "max_bytes")
          rule.max_bytes = value.get<std::uint64_t>();
        else if (key != "backend" && key != "why") {
          ctx.fail("selection table " + origin + ": unknown key '" + key + "'");
        }
      }
    } catch (const nlohmann::json::exception& e) {
      ctx.fail("selection table " + origin + ": bad rule " + item.dump() + ": " + e.what());
    }
    if (Spec::parse(rule.backend).name == "auto") {
      ctx.fail("selection table " + origin + ": a rule may not select 'auto'");
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

// The first rule that holds and applies, or an error naming what was tried.
std::string choose(const Context& ctx, const std::vector<Rule>& rules, std::uint64_t bytes) {
  std::string tried;
  const auto procs = static_cast<std::uint64_t>(ctx.procs);
  for (const Rule& rule : rules) {
    if (procs < rule.min_procs || procs > rule.max_procs) continue;
    if (bytes < rule.min_bytes || bytes > rule.max_bytes) continue;
    Context probe;
    probe.rank = ctx.rank;
    probe.procs = ctx.procs;
    probe.kind = ctx.kind;
    probe.block_bytes = ctx.block_bytes;
    probe.layout = ctx.layout;
    probe.per_call = ctx.per_call;
    const std::string error = validate(rule.backend, probe);
    if (error.empty()) return rule.backend;
    tried += "\n  " + rule.backend + ": " + error;
  }
  ctx.fail("no rule of the selection table applies to P=" + std::to_string(procs) +
           ", bytes=" + std::to_string(bytes) + (tried.empty() ? "" : "; tried:" + tried));
}

std::string table_of(Context& ctx) {
  std::string table = ctx.raw("table");
  if (table != "builtin") ctx.resolve("table", table);  // the default stays implicit in names
  if (table == "builtin") {
    if (const char* env = std::getenv("A2A_AUTO_TABLE"); env != nullptr && *env != '\0') {
      table = env;
    }
  }
  return table;
}

// Per call: the applicable rules, and the exchanges chosen so far.
class AutoExchange final : public ExchangeImpl {
 public:
  explicit AutoExchange(const Context& ctx) : comm_(ctx.comm), procs_(ctx.procs) {
    Context copy = ctx;
    const auto procs = static_cast<std::uint64_t>(ctx.procs);
    for (Rule& rule : load_rules(copy, table_of(copy))) {
      if (procs < rule.min_procs || procs > rule.max_procs) continue;
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
    // One backend whatever the size: every rule before the first unbounded one names it.
    fixed_ = true;
    for (const Rule& rule : rules_) {
      fixed_ = fixed_ && rule.backend == rules_.front().backend;
      if (rule.min_bytes == 0 && rule.max_bytes == std::numeric_limits<std::uint64_t>::max()) break;
    }
    chosen_.reserve(rules_.size());
  }

  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    const Rule* rule = &rules_.front();
    if (!fixed_) {
      const std::uint64_t bytes = global_max_count(comm_, l.send_counts, procs_);
      rule = nullptr;
      for (const Rule& r : rules_) {
        if (bytes >= r.min_bytes && bytes <= r.max_bytes) {
          rule = &r;
          break;
        }
      }
      if (rule == nullptr) {
        throw Error("auto: no rule of the selection table applies to P=" + std::to_string(procs_) +
                    ", bytes=" + std::to_string(bytes));
      }
    }
    last_ = nullptr;
    for (auto& state : chosen_) {
      if (state.first == rule->backend) last_ = state.second.get();
    }
    if (last_ == nullptr) {
      chosen_.emplace_back(rule->backend, make_exchange_state(rule->backend, comm_));
      last_ = chosen_.back().second.get();
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

 private:
  MPI_Comm comm_;
  int procs_;
  std::vector<Rule> rules_;
  bool fixed_ = false;
  std::vector<std::pair<std::string, std::unique_ptr<ExchangeState>>> chosen_;
  ExchangeState* last_ = nullptr;
};

}  // namespace

AlgorithmInfo describe_auto() {
  AlgorithmInfo info;
  info.name = "auto";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.params = {{"table", "builtin", "selection table: 'builtin' or a JSON file path"}};
  info.summary = "picks a backend per (P, bytes) from a JSON selection table";
  info.source = "selection policy as data (alltoall/tuning/default.json)";
  info.cost = "that of the chosen backend";
  info.validate = [](Context& ctx) {
    const auto rules = load_rules(ctx, table_of(ctx));
    // The uniform choice is local; the vector one needs the global largest count (in build,
    // or per call).
    if (ctx.kind == Kind::uniform) choose(ctx, rules, ctx.block_bytes);
  };
  info.build = [](const Context& ctx) -> std::unique_ptr<PlanImpl> {
    Context copy = ctx;
    const auto rules = load_rules(copy, table_of(copy));
    // The vector kind selects by the largest block of any rank.
    const std::uint64_t bytes = ctx.kind == Kind::vector ? global_max_count(ctx) : ctx.block_bytes;
    const std::string chosen = choose(ctx, rules, bytes);
    return std::make_unique<DelegatePlan>(
        make_plan_state(chosen, ctx.comm, ctx.kind, ctx.block_bytes, ctx.layout));
  };
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<AutoExchange>(ctx);
  };
  return info;
}

}  // namespace a2a::detail
