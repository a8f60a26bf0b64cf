// auto: picks a backend per (kind, P, bytes) from a selection table kept as data (JSON):
// alltoall/tuning/default.json is compiled in; auto:table=FILE or A2A_AUTO_TABLE=FILE replaces
// it. Rules are tried in order; the first whose bounds hold and whose backend applies to this
// exchange wins, so a hierarchical backend that does not fit P falls through cleanly.
// Selection policy lives here only; the algorithms know nothing of it.
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
    // The uniform choice is local; the vector one needs the global largest count (in build).
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
  return info;
}

}  // namespace a2a::detail
