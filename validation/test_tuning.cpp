// Selection tables, end to end: what `a2a tune` makes of measurements (app/core/tuning) and what
// `auto` and `random_auto` then choose, on every rank alike.
//  - winners/rules from synthetic measurements: the fastest (or a steady choice within the
//    tie), byte ranges split halfway between measured sizes;
//  - the table round trip: rules written by tuning::rules, read by auto:table=FILE, at the
//    measured sizes and between them, for Alltoall plans and per-call Alltoallv;
//  - a table without rules for this P falls back to its model: the choice must equal a
//    brute-force minimum of the closed-form cost over every radix and the direct exchange;
//  - rules by ranks per node; random_auto's thresholds from a table (and a spec's own values
//    winning over it); A2A_TUNING; merge of a new P into an existing table;
//  - single_copy rules (shared_window for fused callers): only with auto:single_copy=on, for
//    plans of both kinds, and kept first by a merge; the shipped table's such rule on one node;
//  - malformed tables: a clear error, the same on every rank.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/model.hpp"
#include "a2a/topology.hpp"
#include "core/tuning.hpp"
#include "harness.hpp"

namespace {

using a2a::app::tuning::Measurement;
using a2a::test::expect_error;
using a2a::test::Harness;

// The backend a selecting plan delegated to ("auto:...->tra:r=2" gives "tra:r=2").
std::string chosen(const std::string& name) {
  const auto arrow = name.rfind("->");
  return arrow == std::string::npos ? "(none: " + name + ")" : name.substr(arrow + 2);
}

// `got` is `want` with the defaults of its other parameters resolved ("tra:r=2,window=1").
bool is(const std::string& got, const std::string& want) {
  return got.rfind(want, 0) == 0 &&
         (got.size() == want.size() || got[want.size()] == ',' || got[want.size()] == ':');
}

// Rank 0 writes the file; everyone waits for it.
void write_table(Harness& h, const std::string& path, const nlohmann::json& table) {
  if (h.rank() == 0) std::ofstream(path) << table.dump(2);
  MPI_Barrier(h.comm());
}

std::string uniform_choice(Harness& h, const std::string& spec, std::size_t bytes) {
  const std::string name = chosen(a2a::Plan(spec, h.comm(), bytes).name());
  h.expect(h.same_everywhere(name),
           spec + " at " + std::to_string(bytes) + " B: same on every rank");
  return name;
}

// A per-call Alltoallv of `bytes` to every peer; the choice after the call.
std::string per_call_choice(Harness& h, const std::string& spec, std::size_t bytes) {
  const int P = h.procs();
  const auto layout = a2a::VectorLayout::uniform(P, bytes);
  std::vector<std::byte> send(layout.send_extent(), std::byte{1}), recv(layout.recv_extent());
  a2a::VectorExchange exchange(spec, h.comm());
  exchange.execute(send.data(), recv.data(), layout);
  const std::string name = chosen(exchange.name());
  h.expect(h.same_everywhere(name), spec + " per call at " + std::to_string(bytes) + " B: agreed");
  return name;
}

void pure_functions(Harness& h) {
  // Three sizes, one distribution: the fastest wins; equal winners merge; splits halfway.
  std::vector<Measurement> m = {
      {"mpi", 16, "", 10.0},   {"tra:r=2", 16, "", 5.0},    {"pairwise", 16, "", 20.0},
      {"mpi", 256, "", 10.0},  {"tra:r=2", 256, "", 6.0},   {"pairwise", 256, "", 20.0},
      {"mpi", 4096, "", 50.0}, {"tra:r=2", 4096, "", 90.0}, {"pairwise", 4096, "", 40.0}};
  auto w = a2a::app::tuning::winners(m);
  h.expect(w.size() == 3 && w[0].spec == "tra:r=2" && w[2].spec == "pairwise",
           "winners: fastest per size");
  h.expect(w[0].runner_up == "mpi" && std::abs(w[0].runner_up_score - 2.0) < 1e-12,
           "winners: runner-up and its score");
  auto rules = a2a::app::tuning::rules(w, 7, 0);
  h.expect(rules.size() == 2 && rules[0]["backend"] == "tra:r=2" && rules[0]["max_bytes"] == 1024 &&
               rules[1]["min_bytes"] == 1025 && !rules[0].contains("min_bytes") &&
               !rules[1].contains("max_bytes") && rules[0]["min_procs"] == 7 &&
               rules[0]["max_procs"] == 7 && !rules[0].contains("ranks_per_node"),
           "rules: merged, split at sqrt(256 * 4096) = 1024: " + rules.dump());
  // Within the tie the previous choice stays (pairwise 3% behind at 8192 is not a new rule).
  m.push_back({"mpi", 8192, "", 100.0});
  m.push_back({"pairwise", 8192, "", 103.0});
  m.push_back({"mpi", 16384, "", 100.0});
  m.push_back({"pairwise", 16384, "", 120.0});
  w = a2a::app::tuning::winners(m, 1.05);
  h.expect(w[3].spec == "pairwise" && w[4].spec == "mpi", "tie: previous choice kept");
  h.expect(a2a::app::tuning::winners(m, 1.0)[3].spec == "mpi", "no tie: the fastest");
  // Two distributions: the geometric mean of the ratios decides.
  const std::vector<Measurement> two = {{"a", 64, "random", 10.0},
                                        {"b", 64, "random", 12.0},
                                        {"a", 64, "powerlaw", 30.0},
                                        {"b", 64, "powerlaw", 15.0}};
  w = a2a::app::tuning::winners(two);
  h.expect(w.size() == 1 && w[0].spec == "b" && std::abs(w[0].score - std::sqrt(1.2)) < 1e-12,
           "two distributions: geometric mean of ratios");
  // Smoothing: a lone winner between two equal choices gives way when they are within 10%.
  {
    std::vector<Measurement> lone;
    for (std::size_t b : {8, 16, 32}) {
      lone.push_back({"mpi", b, "", b == 16 ? 1.08 : 1.0});
      lone.push_back({"linear", b, "", b == 16 ? 1.0 : 2.0});
    }
    h.expect(a2a::app::tuning::winners(lone, 1.0, 1.10)[1].spec == "mpi", "smooth: lone 8% win");
    h.expect(a2a::app::tuning::winners(lone, 1.0, 1.05)[1].spec == "linear",
             "smooth: an 8% win stands at 1.05");
  }
  // A refinement replaces the coarse measurement, also as the yardstick of the others.
  w = a2a::app::tuning::winners({{"a", 32, "", 1.0}, {"b", 32, "", 2.0}, {"a", 32, "", 3.0}});
  h.expect(w.size() == 1 && w[0].spec == "b" && w[0].score == 1.0 &&
               std::abs(w[0].runner_up_score - 1.5) < 1e-12,
           "the last measurement counts");
  const auto near = a2a::app::tuning::near_winners(m, 1.25);
  h.expect(near[0].second == std::vector<std::string>{"tra:r=2"} && near[2].second.size() == 2,
           "near winners within 1.25 of the best");
  // random_auto's own table entry (its registry entry fits it): mpi wins up to 64 B, scatter
  // to 4 KiB, segmented above.
  std::vector<a2a::MeasuredMedian> r;
  const double sizes[] = {16, 64, 256, 1024, 4096, 16384};
  for (double s : sizes) {
    const auto b = static_cast<std::size_t>(s);
    r.push_back({"mpi", b, s <= 64 ? 1.0 : 10.0});
    r.push_back({"random_scatter", b, 2.0});
    r.push_back({"random_sendrecv", b, 3.0});
    r.push_back({"random_segmented", b, s > 4096 ? 1.0 : 5.0});
  }
  const auto& fit = a2a::find_algorithm("random_auto")->fit_table_entry;
  const auto fitted = fit(r, 9);
  const nlohmann::json entry =
      fitted ? a2a::app::tuning::table_entry(*fitted, 9) : nlohmann::json();
  h.expect(
      entry.is_object() && entry["small"] == 129 && entry["large"] == 8192 &&
          entry["procs_threshold"] == 10 && entry["procs"] == 9,
      "random_auto thresholds: small past 64 B, large up to sqrt(4096*16384): " + entry.dump());
  r.pop_back();
  h.expect(fit(r, 9).has_value(), "random_auto: the sizes with all four measured");
  r.resize(3);
  h.expect(!fit(r, 9).has_value(), "random_auto: no entry without a size where all four ran");
  // Merge: the new P's rules first, the old P's replaced, other P kept; the larger model kept.
  nlohmann::json old_table = {
      {"uniform",
       {{{"min_procs", 4}, {"max_procs", 4}, {"backend", "linear"}}, {{"backend", "pairwise"}}}},
      {"vector", nlohmann::json::array()},
      {"model", {{"alpha_us", 1}, {"beta_us_per_byte", 0}, {"fit", {{"procs", 8}}}}}};
  nlohmann::json fresh = {
      {"uniform", a2a::app::tuning::rules(w, 4, 0)},
      {"vector", nlohmann::json::array()},
      {"model", {{"alpha_us", 2}, {"beta_us_per_byte", 0}, {"fit", {{"procs", 4}}}}},
      {"tuned", {{{"procs", 4}}}}};
  auto merged = a2a::app::tuning::merge(old_table, fresh, 4, 0);
  h.expect(merged["uniform"].back()["backend"] == "pairwise" &&
               merged["uniform"].size() == fresh["uniform"].size() + 1 &&
               merged["model"]["alpha_us"] == 1 && merged["tuned"].size() == 1,
           "merge: P = 4 replaced, general rule kept last, the P = 8 model kept: " + merged.dump());
}

void round_trip(Harness& h) {
  const int P = h.procs();
  const std::string path = "tuning_test_P" + std::to_string(P) + "_table.json";
  // As a2a tune would write them: Alltoall winners at 16, 256, 4096 B; Alltoallv at 64, 8192.
  const std::vector<Measurement> uniform = {
      {"tra:r=2", 16, "", 1.0},  {"pairwise", 16, "", 2.0}, {"pairwise", 256, "", 1.0},
      {"tra:r=2", 256, "", 2.0}, {"linear", 4096, "", 1.0}, {"pairwise", 4096, "", 2.0}};
  const std::vector<Measurement> vector = {{"random_scatter", 64, "random", 1.0},
                                           {"mpi", 64, "random", 2.0},
                                           {"mpi", 8192, "random", 1.0},
                                           {"random_scatter", 8192, "random", 2.0}};
  nlohmann::json table = {
      {"uniform", a2a::app::tuning::rules(a2a::app::tuning::winners(uniform), P, 0)},
      {"vector", a2a::app::tuning::rules(a2a::app::tuning::winners(vector), P, 0)}};
  write_table(h, path, table);
  const std::string spec = "auto:table=" + path;
  // Measured sizes and the halfway splits at 64 (sqrt(16*256)) and 1024 (sqrt(256*4096)).
  const std::pair<std::size_t, const char*> expected[] = {
      {0, "tra:r=2"},     {16, "tra:r=2"},  {64, "tra:r=2"},    {65, "pairwise"},
      {1024, "pairwise"}, {1025, "linear"}, {1 << 20, "linear"}};
  for (const auto& [bytes, want] : expected) {
    const std::string got = uniform_choice(h, spec, bytes);
    h.expect(is(got, want),
             "round trip at " + std::to_string(bytes) + " B: " + got + " (want " + want + ")");
  }
  // Alltoallv, per call and as a plan: split at sqrt(64 * 8192) = 724.
  for (const auto& [bytes, want] :
       {std::pair<std::size_t, const char*>{700, "random_scatter"}, {800, "mpi"}}) {
    const std::string got = per_call_choice(h, spec + ",every=1", bytes);
    h.expect(is(got, want), "per-call Alltoallv at " + std::to_string(bytes) + " B: " + got);
    const std::string plan =
        chosen(a2a::Plan(spec, h.comm(), a2a::VectorLayout::uniform(P, bytes)).name());
    h.expect(is(plan, want), "Alltoallv plan at " + std::to_string(bytes) + " B: " + plan);
  }
  // The same through A2A_TUNING (auto without a table).
  setenv("A2A_TUNING", path.c_str(), 1);
  h.expect(is(uniform_choice(h, "auto", 100), "pairwise"),
           "A2A_TUNING replaces the built-in table");
  unsetenv("A2A_TUNING");

  // A later tune of this P over other sizes (a2a tune --update): its rules hold from halfway
  // to the old measured sizes, the old rules keep theirs. 512 B and 2048 B measured afresh,
  // between the old 256 and 4096: new rules over [363, 2896], old ones below and above.
  const std::vector<Measurement> middle = {{"mpi", 512, "", 1.0},
                                           {"linear", 512, "", 2.0},
                                           {"mpi", 2048, "", 1.0},
                                           {"linear", 2048, "", 3.0}};
  const nlohmann::json later = {
      {"uniform", a2a::app::tuning::rules(a2a::app::tuning::winners(middle), P, 0)},
      {"vector", nlohmann::json::array()},
      {"tuned", {{{"procs", P}, {"kinds", "uniform"}}}}};
  nlohmann::json first = table;
  first["tuned"] = {{{"procs", P}, {"kinds", "uniform"}}};
  const nlohmann::json both = a2a::app::tuning::merge(first, later, P, 0);
  write_table(h, path, both);
  const std::pair<std::size_t, const char*> spliced[] = {
      {16, "tra:r=2"}, {256, "pairwise"}, {362, "pairwise"}, {363, "mpi"},
      {2896, "mpi"},   {2897, "linear"},  {4096, "linear"},  {1 << 20, "linear"}};
  for (const auto& [bytes, want] : spliced) {
    const std::string got = uniform_choice(h, spec, bytes);
    h.expect(is(got, want), "incremental tune at " + std::to_string(bytes) + " B: " + got +
                                " (want " + want + "): " + both["uniform"].dump());
  }
  h.expect(both["tuned"].size() == 2 && both["vector"] == table["vector"],
           "incremental tune: both runs recorded, Alltoallv rules untouched");
  // Measured again over every old size, nothing of the old rules stays.
  const nlohmann::json again = a2a::app::tuning::merge(both, table, P, 0);
  h.expect(again["uniform"] == table["uniform"],
           "a tune over all the old sizes replaces them: " + again["uniform"].dump());
}

// The model fallback against a brute-force minimum over every radix and the direct exchange.
void model_fallback(Harness& h) {
  const int P = h.procs();
  const auto p = static_cast<std::uint64_t>(P);
  const std::string path = "tuning_test_P" + std::to_string(P) + "_model.json";
  struct Case {
    double alpha, beta, gamma;
  };
  for (const Case c : {Case{50.0, 1e-4, 1e-4}, Case{0.5, 1e-3, 5e-3}, Case{5.0, 2e-4, 0.0}}) {
    nlohmann::json table = {
        {"uniform", {{{"min_procs", P + 1}, {"max_procs", P + 1}, {"backend", "mpi"}}}},
        {"vector", {{{"min_procs", P + 1}, {"max_procs", P + 1}, {"backend", "mpi"}}}},
        {"model",
         {{"alpha_us", c.alpha},
          {"beta_us_per_byte", c.beta},
          {"gamma_us_per_byte", c.gamma},
          {"direct", "pairwise"}}}};
    write_table(h, path, table);
    for (std::uint64_t power : {0, 4, 10, 16, 20}) {
      const std::uint64_t bytes = std::uint64_t{1} << power;
      // Brute force: time = alpha messages + beta bytes sent + gamma bytes copied.
      std::string want = "pairwise";
      double best = c.alpha * double(p - 1) + c.beta * double(p - 1) * double(bytes);
      for (std::uint64_t r = 2; r <= std::max<std::uint64_t>(p, 2); ++r) {
        const auto cost = a2a::model::tra_cost(p, r);
        const double moved = double(cost.blocks) * double(bytes);
        const double us = c.alpha * double(cost.rounds) + (c.beta + c.gamma) * moved;
        if (us < best) best = us, want = "tra:r=" + std::to_string(r);
      }
      const std::string got = uniform_choice(h, "auto:table=" + path, bytes);
      h.expect(is(got, want), "model fallback at P=" + std::to_string(P) + ", " +
                                  std::to_string(bytes) + " B, alpha " + std::to_string(c.alpha) +
                                  ": " + got + " (want " + want + ")");
    }
  }
  // Alltoallv: direct against SLOAV (log2 P rounds forwarding half the blocks).
  const std::uint64_t bytes = 8;
  nlohmann::json table = {
      {"uniform", nlohmann::json::array()},
      {"vector", nlohmann::json::array()},
      {"model", {{"alpha_us", 100.0}, {"beta_us_per_byte", 1e-4}, {"gamma_us_per_byte", 0.0}}}};
  write_table(h, path, table);
  const double rounds = std::ceil(std::log2(double(std::max(P, 1))));
  const double sloav = 100.0 * rounds + 1e-4 * rounds * double(p / 2) * double(bytes);
  const double direct = 100.0 * double(p - 1) + 1e-4 * double(p - 1) * double(bytes);
  const std::string want = sloav < direct ? "sloav" : "mpi";
  const std::string got = per_call_choice(h, "auto:table=" + path, bytes);
  h.expect(is(got, want), "vector model fallback: " + got + " (want " + want + ")");
}

void placement_and_random_auto(Harness& h) {
  const int P = h.procs();
  const std::string path = "tuning_test_P" + std::to_string(P) + "_placement.json";
  const a2a::NodeTopology topology(h.comm());
  const int here = topology.uniform() ? topology.ranks_per_node() : 0;
  nlohmann::json table = {
      {"uniform",
       {{{"ranks_per_node", here + 1}, {"backend", "linear"}},
        {{"ranks_per_node", std::max(here, 1)}, {"backend", here > 0 ? "pairwise" : "linear"}},
        {{"backend", "mpi"}}}},
      {"vector", nlohmann::json::array({{{"backend", "mpi"}}})},
      {"random_auto",
       {{{"procs", P + 1}, {"small", 1}, {"large", 2}},
        {{"procs", P}, {"small", 100}, {"large", 1000}, {"procs_threshold", P + 1}}}}};
  write_table(h, path, table);
  h.expect(is(uniform_choice(h, "auto:table=" + path, 8), here > 0 ? "pairwise" : "mpi"),
           "a rule for another placement is skipped; this placement's holds");
  const std::string random = "random_auto:table=" + path;
  h.expect(is(uniform_choice(h, random, 50), "mpi"), "random_auto table: below small, mpi");
  h.expect(is(uniform_choice(h, random, 500), "random_scatter"),
           "random_auto table: P < procs_threshold, scatter");
  h.expect(is(uniform_choice(h, random, 5000), "random_segmented"),
           "random_auto table: above large, segmented");
  h.expect(is(uniform_choice(h, random + ",small=10", 50), "random_scatter"),
           "random_auto: the spec's small wins over the table");
  h.expect(uniform_choice(h, "random_auto", 600).rfind("random_scatter", 0) == 0 &&
               is(uniform_choice(h, "random_auto", 200), "mpi"),
           "random_auto without a table: the paper's 512 B");
}

// Rules for callers that fuse with a single-copy plan (the 3D FFT): plain auto skips them.
void single_copy(Harness& h) {
  const int P = h.procs();
  const std::string path = "tuning_test_P" + std::to_string(P) + "_single_copy.json";
  const nlohmann::json rules = {{{"single_copy", true}, {"min_bytes", 100}, {"backend", "tra:r=2"}},
                                {{"backend", "pairwise"}}};
  write_table(h, path, {{"uniform", rules}, {"vector", rules}});
  const std::string spec = "auto:table=" + path;
  h.expect(is(uniform_choice(h, spec, 200), "pairwise"), "plain auto skips a single_copy rule");
  h.expect(is(uniform_choice(h, spec + ",single_copy=on", 200), "tra:r=2"),
           "auto:single_copy=on takes it");
  h.expect(is(uniform_choice(h, spec + ",single_copy=on", 50), "pairwise"),
           "auto:single_copy=on: the rule's bounds still hold");
  const auto layout = a2a::VectorLayout::uniform(P, 200);
  h.expect(is(chosen(a2a::Plan(spec + ",single_copy=on", h.comm(), layout).name()), "pairwise"),
           "Alltoallv plan: tra (uniform only) does not apply, the next rule does");
  // The shipped table: shared_window for fused callers, where every rank shares one node.
  const bool one_node = a2a::ranks_sharing_memory(h.comm()) == P;
  const std::string fused = uniform_choice(h, "auto:single_copy=on", 1 << 20);
  h.expect(is(fused, "shared_window") == one_node, "shipped table, fused caller: " + fused);
  h.expect(!is(uniform_choice(h, "auto", 1 << 20), "shared_window"),
           "shipped table, plain caller: never shared_window");
  expect_error(h, "single_copy must be on or off", "single_copy=maybe is not on or off",
               [&] { a2a::Plan("auto:single_copy=maybe", h.comm(), 64); });
  // A merge keeps such rules first, ahead of the freshly tuned ones.
  const nlohmann::json fresh = {
      {"uniform", {{{"min_procs", P}, {"max_procs", P}, {"backend", "mpi"}}}},
      {"vector", nlohmann::json::array()}};
  const auto merged = a2a::app::tuning::merge({{"uniform", rules}}, fresh, P, 0);
  h.expect(merged["uniform"].size() == 3 && merged["uniform"][0].value("single_copy", false) &&
               merged["uniform"][1]["backend"] == "mpi",
           "merge: the single_copy rule stays first: " + merged.dump());
}

void malformed(Harness& h) {
  const int P = h.procs();
  const std::string path = "tuning_test_P" + std::to_string(P) + "_bad.json";
  const auto plan = [&] { a2a::Plan("auto:table=" + path, h.comm(), 64); };
  struct Bad {
    const char* what;
    const char* text;
    const char* needle;
  };
  const Bad cases[] = {
      {"not JSON", "{\"uniform\": [", "is not valid JSON"},
      {"negative alpha", R"({"uniform": [], "model": {"alpha_us": -1, "beta_us_per_byte": 0}})",
       "model.alpha_us must be a finite number >= 0"},
      {"model without beta", R"({"uniform": [], "model": {"alpha_us": 1}})",
       "needs alpha_us and beta_us_per_byte"},
      {"unknown model key",
       R"({"uniform": [], "model": {"alpha_us": 1, "beta_us_per_byte": 0, "delta": 2}})",
       "unknown or malformed model key 'delta'"},
      {"rule key misspelt", R"({"uniform": [{"backend": "mpi", "max_byte": 4}]})",
       "unknown key 'max_byte'"},
      {"no rule and no model", R"({"uniform": [{"min_procs": 100000, "backend": "mpi"}]})",
       "no rule of the selection table applies"},
      // Counts nlohmann would wrap (-1 to 2^64 - 1) or truncate (1.5 to 1).
      {"negative bound", R"({"uniform": [{"max_bytes": -1, "backend": "mpi"}]})",
       "'max_bytes' must be a non-negative integer, not -1"},
      {"fractional bound", R"({"uniform": [{"min_procs": 1.5, "backend": "mpi"}]})",
       "'min_procs' must be a non-negative integer, not 1.5"},
      {"single_copy not a boolean", R"({"uniform": [{"single_copy": 1, "backend": "mpi"}]})",
       "'single_copy' must be true or false, not 1"}};
  for (const Bad& bad : cases) {
    if (h.rank() == 0) std::ofstream(path) << bad.text;
    MPI_Barrier(h.comm());
    expect_error(h, std::string("table: ") + bad.what, bad.needle, plan);
  }
  // random_auto entries for this P with one bad key each.
  const Bad bad_thresholds[] = {
      {"random_auto key misspelt", R"("smal": 3)", "unknown random_auto key 'smal'"},
      {"random_auto negative threshold", R"("small": -5)",
       "'small' must be a non-negative integer"}};
  for (const Bad& bad : bad_thresholds) {
    if (h.rank() == 0) {
      std::ofstream(path) << R"({"uniform": [], "random_auto": [{"procs": )" << P << ", "
                          << bad.text << "}]}";
    }
    MPI_Barrier(h.comm());
    expect_error(h, bad.what, bad.needle,
                 [&] { a2a::Plan("random_auto:table=" + path, h.comm(), 64); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Harness h("tuning");
    pure_functions(h);
    round_trip(h);
    model_fallback(h);
    placement_and_random_auto(h);
    single_copy(h);
    malformed(h);
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
