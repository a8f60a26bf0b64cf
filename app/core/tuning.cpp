#include "core/tuning.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace a2a::app::tuning {
namespace {

struct Scored {
  std::string spec;
  double score = 0;
};

// Per size: every spec measured in each distribution of that size, with its score, in the
// order first measured.
std::map<std::size_t, std::vector<Scored>> scores(const std::vector<Measurement>& measurements) {
  // The last measurement of (size, distribution, spec) counts: a refinement replaces the
  // coarse one.
  std::map<std::tuple<std::size_t, std::string, std::string>, double> last;
  std::map<std::size_t, std::set<std::string>> distributions;
  std::map<std::size_t, std::vector<std::string>> order;
  for (const Measurement& m : measurements) {
    last[{m.bytes, m.distribution, m.spec}] = m.median_us;
    distributions[m.bytes].insert(m.distribution);
    auto& specs = order[m.bytes];
    if (std::find(specs.begin(), specs.end(), m.spec) == specs.end()) specs.push_back(m.spec);
  }
  std::map<std::pair<std::size_t, std::string>, double> best;
  for (const auto& [key, median] : last) {
    const auto& [bytes, dist, spec] = key;
    auto [it, fresh] = best.try_emplace({bytes, dist}, median);
    if (!fresh) it->second = std::min(it->second, median);
  }
  std::map<std::size_t, std::vector<Scored>> out;
  for (const auto& [bytes, specs] : order) {
    for (const std::string& spec : specs) {
      double log_sum = 0;
      std::size_t found = 0;
      for (const std::string& dist : distributions[bytes]) {
        const auto it = last.find({bytes, dist, spec});
        if (it == last.end() || it->second <= 0) break;
        log_sum += std::log(it->second / best[{bytes, dist}]);
        ++found;
      }
      if (found != distributions[bytes].size()) continue;
      out[bytes].push_back({spec, std::exp(log_sum / static_cast<double>(found))});
    }
  }
  return out;
}

std::uint64_t split(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint64_t>(
      std::floor(std::sqrt(static_cast<double>(a) * static_cast<double>(b))));
}

}  // namespace

std::vector<Winner> winners(const std::vector<Measurement>& measurements, double tie,
                            double smooth) {
  std::vector<Winner> out;
  std::vector<const std::vector<Scored>*> at;  // each size's scores
  const auto all = scores(measurements);
  const auto pick = [](Winner& w, const std::vector<Scored>& scored, const Scored& chosen) {
    w.spec = chosen.spec;
    w.score = chosen.score;
    w.runner_up.clear();
    for (const Scored& s : scored) {
      if (&s != &chosen && (w.runner_up.empty() || s.score < w.runner_up_score)) {
        w.runner_up = s.spec;
        w.runner_up_score = s.score;
      }
    }
  };
  std::string previous;
  for (const auto& [bytes, scored] : all) {
    if (scored.empty()) continue;
    double least = scored[0].score;
    for (const Scored& s : scored)
      least = std::min(least, s.score);
    // Within the tie of the best: the previous size's winner if it is there, else the first
    // measured (mpi leads the candidates): fewer, steadier rules, none slower than tie x best.
    const Scored* chosen = nullptr;
    for (const Scored& s : scored) {
      if (s.score > tie * least) continue;
      if (s.spec == previous || chosen == nullptr) chosen = &s;
    }
    Winner w;
    w.bytes = bytes;
    pick(w, scored, *chosen);
    previous = w.spec;
    out.push_back(w);
    at.push_back(&scored);
  }
  // A lone size whose winner differs from the same choice on both sides is more likely noise
  // than a regime: the neighbours' choice is kept there when it is within `smooth` of the best.
  for (std::size_t i = 1; i + 1 < out.size(); ++i) {
    const std::string& around = out[i - 1].spec;
    if (out[i + 1].spec != around || out[i].spec == around) continue;
    for (const Scored& s : *at[i]) {
      if (s.spec == around && s.score <= smooth) pick(out[i], *at[i], s);
    }
  }
  return out;
}

std::vector<std::pair<std::size_t, std::vector<std::string>>> near_winners(
    const std::vector<Measurement>& measurements, double keep) {
  std::vector<std::pair<std::size_t, std::vector<std::string>>> out;
  for (const auto& [bytes, scored] : scores(measurements)) {
    std::vector<std::string> kept;
    double least = scored.empty() ? 0 : scored[0].score;
    for (const Scored& s : scored)
      least = std::min(least, s.score);
    for (const Scored& s : scored) {
      if (s.score <= std::max(keep, 1.0) * least) kept.push_back(s.spec);
    }
    out.emplace_back(bytes, std::move(kept));
  }
  return out;
}

nlohmann::json rules(const std::vector<Winner>& winners, int procs, int ranks_per_node) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < winners.size();) {
    std::size_t j = i;
    while (j + 1 < winners.size() && winners[j + 1].spec == winners[i].spec)
      ++j;
    nlohmann::json rule = {{"min_procs", procs}, {"max_procs", procs}};
    if (ranks_per_node > 0) rule["ranks_per_node"] = ranks_per_node;
    if (i > 0) rule["min_bytes"] = split(winners[i - 1].bytes, winners[i].bytes) + 1;
    if (j + 1 < winners.size()) rule["max_bytes"] = split(winners[j].bytes, winners[j + 1].bytes);
    rule["backend"] = winners[i].spec;
    // What was measured: per size the chosen backend's and the runner-up's score (time over
    // the best time, geometric mean over the distributions).
    nlohmann::json measured = nlohmann::json::array();
    for (std::size_t k = i; k <= j; ++k) {
      nlohmann::json m = {{"bytes", winners[k].bytes}, {"vs_best", winners[k].score}};
      if (!winners[k].runner_up.empty()) {
        m["runner_up"] = winners[k].runner_up;
        m["runner_up_vs_best"] = winners[k].runner_up_score;
      }
      measured.push_back(m);
    }
    rule["measured"] = measured;
    out.push_back(rule);
    i = j + 1;
  }
  return out;
}

nlohmann::json table_entry(const TableEntry& entry, int procs) {
  nlohmann::json out = {{"procs", procs}};
  for (const auto& [key, value] : entry.values)
    out[key] = value;
  out["why"] = entry.why;
  return out;
}

namespace {

constexpr std::uint64_t kUnbounded = std::numeric_limits<std::uint64_t>::max();

std::vector<std::uint64_t> measured_sizes(const nlohmann::json& rule) {
  std::vector<std::uint64_t> sizes;
  for (const auto& m : rule.value("measured", nlohmann::json::array()))
    sizes.push_back(m.value("bytes", std::uint64_t{0}));
  return sizes;
}

// `rule` limited to [lo, hi] (its own bounds kept where tighter), with only the measured sizes
// inside; nothing when none of its measured sizes are (a rule that lists none, as a hand-written
// one, only needs the range not to be empty).
std::optional<nlohmann::json> clipped(const nlohmann::json& rule, std::uint64_t lo,
                                      std::uint64_t hi) {
  const std::uint64_t min = std::max(rule.value("min_bytes", std::uint64_t{0}), lo);
  const std::uint64_t max = std::min(rule.value("max_bytes", kUnbounded), hi);
  nlohmann::json measured = nlohmann::json::array();
  for (const auto& m : rule.value("measured", nlohmann::json::array())) {
    const std::uint64_t b = m.value("bytes", std::uint64_t{0});
    if (b >= min && b <= max) measured.push_back(m);
  }
  if (min > max || (measured.empty() && rule.contains("measured"))) return std::nullopt;
  nlohmann::json out = rule;
  out.erase("min_bytes");
  out.erase("max_bytes");
  if (min > 0) out["min_bytes"] = min;
  if (max != kUnbounded) out["max_bytes"] = max;
  if (rule.contains("measured")) out["measured"] = measured;
  return out;
}

}  // namespace

nlohmann::json merge(const nlohmann::json& existing, const nlohmann::json& tuned, int procs,
                     int ranks_per_node) {
  nlohmann::json out = existing.is_object() ? existing : nlohmann::json::object();
  const auto same = [&](const nlohmann::json& rule) {
    return rule.value("min_procs", -1) == procs && rule.value("max_procs", -1) == procs &&
           rule.value("ranks_per_node", 0) == ranks_per_node;
  };
  // The sizes this tune measured, per kind: the new rules hold from halfway (geometrically) to
  // the old measured sizes on either side; the old rules of this P keep the sizes outside.
  bool kept_old_sizes = false;
  for (const char* section : {"uniform", "vector"}) {
    // A kind not tuned this time (an empty section) keeps its rules for this P.
    if (tuned.value(section, nlohmann::json::array()).empty()) {
      if (!out.contains(section)) out[section] = nlohmann::json::array();
      continue;
    }
    // Rules for fused callers (single_copy) stay first: a tune measures plain exchanges only.
    nlohmann::json merged = nlohmann::json::array();
    for (const auto& rule : out.value(section, nlohmann::json::array())) {
      if (rule.value("single_copy", false)) merged.push_back(rule);
    }
    std::vector<std::uint64_t> fresh, old;
    for (const auto& rule : tuned[section]) {
      for (std::uint64_t b : measured_sizes(rule))
        fresh.push_back(b);
    }
    for (const auto& rule : out.value(section, nlohmann::json::array())) {
      if (!same(rule) || rule.value("single_copy", false)) continue;
      for (std::uint64_t b : measured_sizes(rule))
        old.push_back(b);
    }
    std::uint64_t lo = 0, hi = kUnbounded;
    if (!fresh.empty()) {
      const auto [first, last] = std::minmax_element(fresh.begin(), fresh.end());
      for (std::uint64_t b : old) {
        if (b < *first) lo = std::max<std::uint64_t>(lo, split(b, *first) + 1);
        if (b > *last) hi = std::min<std::uint64_t>(hi, split(*last, b));
      }
    }
    for (const auto& rule : tuned[section]) {
      if (auto part = clipped(rule, lo, hi)) merged.push_back(*part);
    }
    for (const auto& rule : out.value(section, nlohmann::json::array())) {
      if (rule.value("single_copy", false)) continue;
      if (!same(rule)) {
        merged.push_back(rule);
        continue;
      }
      // An old rule of this P: its parts below and above what was just measured.
      for (auto part : {lo > 0 ? clipped(rule, 0, lo - 1) : std::nullopt,
                        hi < kUnbounded ? clipped(rule, hi + 1, kUnbounded) : std::nullopt}) {
        if (part) {
          merged.push_back(*part);
          kept_old_sizes = true;
        }
      }
    }
    out[section] = merged;
  }
  for (const AlgorithmInfo& info : registry()) {
    if (!info.fit_table_entry) continue;
    nlohmann::json entries = tuned.value(info.name, nlohmann::json::array());
    for (const auto& entry : out.value(info.name, nlohmann::json::array())) {
      if (entry.value("procs", -1) != procs || entries.empty()) entries.push_back(entry);
    }
    if (!entries.empty()) out[info.name] = entries;
  }
  const nlohmann::json fresh_runs = tuned.value("tuned", nlohmann::json::array());
  const std::string kinds = fresh_runs.empty() ? "" : fresh_runs[0].value("kinds", "");
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : out.value("tuned", nlohmann::json::array())) {
    if (kept_old_sizes || run.value("procs", -1) != procs ||
        run.value("ranks_per_node", 0) != ranks_per_node || run.value("kinds", "") != kinds) {
      runs.push_back(run);
    }
  }
  for (const auto& run : fresh_runs)
    runs.push_back(run);
  out["tuned"] = runs;
  if (tuned.contains("model")) {
    const auto procs_of = [](const nlohmann::json& model) {
      return model.contains("fit") ? model["fit"].value("procs", 0) : 0;
    };
    if (!out.contains("model") || procs_of(tuned["model"]) >= procs_of(out["model"])) {
      out["model"] = tuned["model"];
    }
  }
  if (tuned.contains("about")) out["about"] = tuned["about"];
  return out;
}

}  // namespace a2a::app::tuning
