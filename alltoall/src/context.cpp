#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>

#include "a2a/algorithm.hpp"
#include "a2a/error.hpp"
#include "a2a/model.hpp"
#include "a2a/registry.hpp"
#include "detail/algorithms.hpp"

namespace a2a::detail {

const std::string& Context::raw(const std::string& key) const {
  for (const auto& [k, v] : params) {
    if (k == key) return v;
  }
  fail("internal error: parameter '" + key + "' is not declared");
}

void Context::fail(const std::string& message) const {
  throw SpecError("backend '" + algorithm->name + "': " + message);
}

void Context::refuse(const std::string& why) const {
  throw SpecError("backend '" + algorithm->name + "': not applicable: " + why,
                  ErrorKind::unsupported);
}

long long Context::int_param(const std::string& key, long long lo, long long hi) {
  const std::string& text = raw(key);
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    fail(key + "=" + text + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  if (ec != std::errc() || end != text.data() + text.size()) {
    fail(key + "=" + text + " is not an integer");
  }
  if (value < lo || value > hi) {
    fail(key + "=" + text + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  resolve(key, std::to_string(value));
  return value;
}

long long Context::radix_param(const std::string& key, long long n, const char* what) {
  const std::string& text = raw(key);
  const long long hi = std::max<long long>(2, n);
  long long value = 0;
  if (text == "sqrt") {
    value = static_cast<long long>(model::sqrt_radix(static_cast<std::uint64_t>(n)));
  } else if (text == "max") {
    value = hi;
  } else {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc::result_out_of_range &&
        (ec != std::errc() || end != text.data() + text.size())) {
      fail(key + "=" + text + " is not an integer, 'sqrt' or 'max'");
    }
    if (ec == std::errc::result_out_of_range || value < 2 || value > hi) {
      fail(key + "=" + text + " is outside [2, " + std::to_string(hi) + "] (" + what + " = " +
           std::to_string(n) + ")");
    }
  }
  resolve(key, std::to_string(value));
  return value;
}

int Context::ranks_per_node_param(const std::string& key) {
  if (raw(key) == "node") return 0;
  const auto q = static_cast<int>(int_param(key, 1, procs));
  if (procs % q != 0) {
    fail("P=" + std::to_string(procs) + " is not a multiple of " + key + "=" + std::to_string(q) +
         " ranks per node");
  }
  return q;
}

ParamInfo radix_param_info() {
  return {"r", "sqrt", "radix in [2, P]; 'sqrt' = ceil(sqrt P), 'max' = P", true};
}

ParamInfo window_param_info() {
  return {"window", "1",
          "rounds of one digit in flight at once: 1 = the paper's schedule (one blocking round "
          "at a time), an integer >= 1, or 'all' (every round of a digit posted together)"};
}

// `window=all` is 0 rounds in the radix engines: every round of a digit at once.
std::size_t Context::window_param(const std::string& key) {
  if (raw(key) == "all") {
    resolve(key, "all");
    return 0;
  }
  return static_cast<std::size_t>(int_param(key, 1, INT_MAX));
}

std::size_t resolved_window(const Context& ctx) {
  const std::string& value = ctx.resolved_value("window");
  return value == "all" ? 0 : std::stoull(value);
}

ParamInfo ranks_per_node_info() {
  return {"q", "node",
          "ranks per node: 'node' = real (MPI_COMM_TYPE_SHARED), or an integer dividing P to "
          "emulate nodes of q consecutive ranks",
          true};
}

NodeTopology plan_topology(Context& ctx) {
  const bool detect = ctx.raw("q") == "node";
  NodeTopology topology(ctx.comm, detect ? 0 : std::stoi(ctx.resolved_value("q")));
  if (!topology.uniform()) ctx.refuse(topology.problem());
  if (detect) ctx.resolve("q", std::to_string(topology.ranks_per_node()));
  return topology;
}

bool Context::bool_param(const std::string& key) {
  const std::string& text = raw(key);
  bool value = false;
  if (text == "on" || text == "true" || text == "1") {
    value = true;
  } else if (text != "off" && text != "false" && text != "0") {
    fail(key + "=" + text + " is not on or off");
  }
  resolve(key, value ? "on" : "off");
  return value;
}

std::string Context::text_param(const std::string& key) {
  std::string value = raw(key);
  resolve(key, value);
  return value;
}

void Context::resolve(const std::string& key, std::string value) {
  for (auto& [k, v] : resolved) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  resolved.emplace_back(key, std::move(value));
}

const std::string& Context::resolved_value(const std::string& key) const {
  for (const auto& [k, v] : resolved) {
    if (k == key) return v;
  }
  fail("internal error: parameter '" + key + "' was not resolved");
}

// The resolved parameters in the registry's order (validation may resolve them in any order).
std::vector<std::pair<std::string, std::string>> Context::ordered() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const ParamInfo& p : algorithm->params) {
    for (const auto& kv : resolved) {
      if (kv.first == p.name) out.push_back(kv);
    }
  }
  return out;
}

std::string Context::label() const {
  std::string out = algorithm->name;
  bool first = true;
  for (const auto& [key, value] : ordered()) {
    const ParamInfo* info = algorithm->param(key);
    const bool written = std::find(given.begin(), given.end(), key) != given.end();
    if (!written && !(info != nullptr && info->labelled)) continue;
    out += (first ? ":" : ",") + key + "=" + value;
    first = false;
  }
  return out;
}

std::string Context::resolved_name() const {
  std::string out = algorithm->name;
  bool first = true;
  for (const auto& [key, value] : ordered()) {
    out += (first ? ":" : ",") + key + "=" + value;
    first = false;
  }
  return out;
}

std::vector<std::string> radix_candidates(const std::string& name, int procs,
                                          const std::string& suffix) {
  const std::string sqrt_r = std::to_string(model::sqrt_radix(static_cast<std::uint64_t>(procs)));
  std::vector<std::string> out = {name + ":r=2" + suffix};
  if (sqrt_r != "2") out.push_back(name + ":r=" + sqrt_r + suffix);
  return out;
}

std::vector<std::string> node_candidates(const std::string& name, int procs) {
  std::vector<std::string> out = {name};
  for (int q : tuning_node_sizes(procs))
    out.push_back(name + ":q=" + std::to_string(q));
  return out;
}

}  // namespace a2a::detail
