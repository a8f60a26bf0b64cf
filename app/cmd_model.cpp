// a2a model --procs P [--radix r|sqrt|all] [--block-bytes S]: the closed-form K and D of the
// radix-r Bruck family (configurable-alltoall paper, Propositions 1-4).
// a2a model --fit RESULTS.jsonl|RESULTS.h5 [--procs P --block-bytes S]: a per-machine cost model
// fitted to measured exchanges (core/fit.hpp), and with P and S the predicted time per radix.
#include <charconv>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <tuple>

#include "a2a/error.hpp"
#include "a2a/model.hpp"
#include "a2a/text_file.hpp"
#include "commands.hpp"
#include "core/fit.hpp"
#include "core/records.hpp"
#ifdef A2A_WITH_HDF5
#include "io/results.hpp"
#endif

namespace a2a::app {

namespace {

// Tables longer than this many rows are refused (a million rows print in about a second).
constexpr std::uint64_t kMostRows = std::uint64_t{1} << 20;

// "all" = every radix in [2, max(2, n)]; "sqrt", "max", or an integer in that range.
std::vector<std::uint64_t> radices(const std::string& text, std::uint64_t n, const char* option) {
  const std::uint64_t hi = std::max<std::uint64_t>(2, n);
  if (text == "all") {
    if (hi - 1 > kMostRows) {
      throw Error(std::string(option) + " all at " + std::to_string(n) + " would print " +
                  std::to_string(hi - 1) + " rows (at most " + std::to_string(kMostRows) +
                  "): give the radices, or 'sqrt'");
    }
    std::vector<std::uint64_t> all;
    for (std::uint64_t r = 2; r <= hi; ++r)
      all.push_back(r);
    return all;
  }
  if (text == "sqrt") return {model::sqrt_radix(n)};
  if (text == "max") return {hi};
  std::uint64_t r = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), r);
  if (ec != std::errc() || end != text.data() + text.size() || r < 2 || r > hi) {
    throw Error(std::string(option) + " " + text + ": expected an integer in [2, " +
                std::to_string(hi) + "], 'sqrt', 'max' or 'all'");
  }
  return {r};
}

template <typename Options>
int run_tra2_model(const Session& session, const Options& opt) {
  const std::uint64_t p = opt.procs, q = opt.ranks_per_node;
  if (p % q != 0) {
    throw Error("--ranks-per-node " + std::to_string(q) + " does not divide --procs " +
                std::to_string(p));
  }
  const std::uint64_t n = p / q;
  const auto r1s = radices(opt.r1, q, "--r1");
  const auto r2s = radices(opt.r2 == "nodes" ? "max" : opt.r2, n, "--r2");
  if (r1s.size() * r2s.size() > kMostRows) {
    throw Error("--r1 x --r2 would print " + std::to_string(r1s.size() * r2s.size()) +
                " rows (at most " + std::to_string(kMostRows) + "): give fewer radices");
  }
  if (!session.root()) return 0;
  std::vector<nlohmann::json> records;
  for (std::uint64_t r1 : r1s) {
    for (std::uint64_t r2 : r2s) {
      // Phase blocks in units of the original blocks: an intra element is N blocks, an
      // inter element Q blocks.
      const auto intra = model::tra_cost(q, r1), inter = model::tra_cost(n, r2);
      nlohmann::json rec = {{"procs", p},
                            {"Q", q},
                            {"N", n},
                            {"r1", r1},
                            {"r2", r2},
                            {"K1", intra.rounds},
                            {"D1", intra.blocks * n},
                            {"K2", inter.rounds},
                            {"D2", inter.blocks * q},
                            {"K", intra.rounds + inter.rounds},
                            {"D", intra.blocks * n + inter.blocks * q}};
      if (opt.block_bytes > 0)
        rec["bytes"] = (intra.blocks * n + inter.blocks * q) * opt.block_bytes;
      records.push_back(rec);
    }
  }
  std::vector<std::string> columns = {"procs", "Q",  "N",  "r1", "r2", "K1",
                                      "D1",    "K2", "D2", "K",  "D"};
  if (opt.block_bytes > 0) columns.push_back("bytes");
  write_records(std::cout, records, columns, parse_format(opt.format));
  return 0;
}

// The bench records of a JSON-lines file, or of an HDF5 results file (a2a bench --output,
// a2a run, a2a tune), told apart by HDF5's signature.
// FILE's observations: a2a bench's JSON lines (a text file, read with a bound) or an a2a results
// file (HDF5, of any size); only a regular file either way.
std::vector<fit::Observation> observations_in(const std::string& file) {
  if (const std::string problem = text_file_problem(file, "--fit", SIZE_MAX); !problem.empty()) {
    throw Error(problem);
  }
  char magic[8] = {};
  std::ifstream(file, std::ios::binary).read(magic, sizeof magic);
  if (std::string(magic, sizeof magic) != "\x89HDF\r\n\x1a\n") {
    return fit::read_observations(*read_text_file(file, "--fit"), file);
  }
#ifdef A2A_WITH_HDF5
  std::vector<fit::Observation> out;
  std::size_t index = 0;
  for (const nlohmann::json& record : io::read_series_records(file)) {
    ++index;
    if (record.value("app", "") != "bench") continue;
    out.push_back(fit::observation(record, file + ": series record " + std::to_string(index)));
  }
  if (out.empty()) throw Error(file + ": no a2a bench series in this results file");
  return out;
#else
  throw Error("--fit " + file + ": an HDF5 results file, and this build has no HDF5");
#endif
}

// Fits the cost model to FILE; with P and S, predicts TRA's time per radix from K and D.
template <typename Options>
int run_fit(const Session& session, const Options& opt) {
  if (!session.root()) return 0;
  const fit::Result result = fit::fit(observations_in(opt.fit));
  const auto format = parse_format(opt.format);
  if (format == Format::json) {
    std::cout << fit::to_json(result).dump() << "\n";
  } else {
    std::printf("cost model fitted to %zu measurements in %s (weighted least squares, Eigen QR):\n",
                result.observations, opt.fit.c_str());
    std::printf("  alpha = %.4g us per message      (95%% CI +- %.2g)\n", result.alpha_us.value,
                result.alpha_us.ci95);
    std::printf("  beta  = %.4g us per byte sent    (95%% CI +- %.2g): %.3g GB/s\n",
                result.beta_us_per_byte.value, result.beta_us_per_byte.ci95,
                result.beta_us_per_byte.value > 0 ? 1e-3 / result.beta_us_per_byte.value : 0.0);
    if (result.has_gamma) {
      std::printf("  gamma = %.4g us per byte copied  (95%% CI +- %.2g)\n",
                  result.gamma_us_per_byte.value, result.gamma_us_per_byte.ci95);
    } else {
      std::printf(
          "  gamma: not separable (only direct or only store-and-forward backends "
          "measured): folded into beta\n");
    }
    std::printf("  R^2 = %.4f; median |predicted - measured| / measured per backend:\n",
                result.r_squared);
    for (const auto& [backend, error] : result.median_relative_error)
      std::printf("    %-40s %6.1f%%\n", backend.c_str(), 100 * error);
  }
  const std::vector<std::string> doubts = fit::doubts(result);
  if (format != Format::json) {
    if (doubts.empty()) std::printf("the fit holds (docs/algorithms.md: when a fit holds)\n");
    for (const std::string& doubt : doubts)
      std::printf("the fit does not hold: %s\n", doubt.c_str());
  }
  std::fflush(stdout);
  if (opt.procs == 0) return 0;
  if (opt.block_bytes == 0) throw Error("--fit with --procs needs --block-bytes S to predict");
  if (!doubts.empty()) {
    std::string why;
    for (const std::string& doubt : doubts)
      why += (why.empty() ? "" : "; ") + doubt;
    throw Error("--fit " + opt.fit + ": the fit does not hold (" + why +
                "), so it predicts nothing; measure more sizes and backends, with more "
                "iterations (docs/algorithms.md)");
  }
  // TRA at radix r: K(P, r) messages, D(P, r) S bytes sent and copied.
  const std::uint64_t p = opt.procs, hi = std::max<std::uint64_t>(2, p);
  const auto predicted = [&](std::uint64_t r) {
    const model::RadixCost c = model::tra_cost(p, r);
    const double bytes = static_cast<double>(c.blocks) * static_cast<double>(opt.block_bytes);
    return result.predict(static_cast<double>(c.rounds), bytes, bytes);
  };
  std::uint64_t best = 2;
  double best_us = predicted(2);
  const std::uint64_t searched = std::min<std::uint64_t>(hi, kMostRows);
  for (std::uint64_t r = 3; r <= searched; ++r) {
    const double us = predicted(r);
    if (us < best_us) std::tie(best, best_us) = std::pair{r, us};
  }
  std::set<std::uint64_t> shown = {2, 3, model::sqrt_radix(p), best, hi};
  if (opt.radix_given) {
    const auto list = radices(opt.radix, p, "--radix");
    shown = std::set<std::uint64_t>(list.begin(), list.end());
    shown.insert(best);
  } else {
    for (std::uint64_t r = 4; r < hi; r *= 2)
      shown.insert(r);
  }
  std::vector<nlohmann::json> records;
  for (std::uint64_t r : shown) {
    if (r > hi) continue;
    const model::RadixCost c = model::tra_cost(p, r);
    std::string note = r == best ? "best (of r = 2.." + std::to_string(searched) + ")" : "";
    if (r == model::sqrt_radix(p))
      note += std::string(note.empty() ? "" : ", ") + "r = ceil(sqrt P)";
    records.push_back({{"procs", p},
                       {"radix", r},
                       {"K", c.rounds},
                       {"D", c.blocks},
                       {"bytes", c.blocks * opt.block_bytes},
                       {"predicted_us", predicted(r)},
                       {"note", note}});
  }
  write_records(std::cout, records, {"procs", "radix", "K", "D", "bytes", "predicted_us", "note"},
                format);
  return 0;
}

}  // namespace

Runner setup_model(CLI::App& app, const Session& session) {
  struct Options {
    std::uint64_t procs = 0;
    std::string radix = "sqrt";
    std::uint64_t block_bytes = 0;
    std::string format = "table";
    std::uint64_t ranks_per_node = 0;
    std::string r1 = "sqrt", r2 = "max";
    std::string fit;
    bool radix_given = false;
  };
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("model", "Closed-form rounds K and blocks D of TRA (Props 1-4)");
  sub->add_option("--procs,-P", opt->procs, "process count P")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 31));
  auto* radix =
      sub->add_option("--radix,-r", opt->radix, "radix r in [2, P], 'sqrt' or 'all' (r = 2..P)");
  sub->add_option("--fit", opt->fit,
                  "fit alpha/beta/gamma to a2a bench records: JSON lines (FILE.jsonl) or a results "
                  "file (FILE.h5 of bench --output, run, tune); with --procs and "
                  "--block-bytes, predict TRA's time per radix");
  sub->add_option("--block-bytes,-S", opt->block_bytes, "block size S: also print D*S bytes");
  sub->add_option("--ranks-per-node,-Q", opt->ranks_per_node,
                  "tra2: Q ranks per node (P % Q == 0); prints K1, D1, K2, D2");
  sub->add_option("--r1", opt->r1,
                  "tra2 intra-node radix in [2, Q], 'sqrt' (the default), 'max' (= Q) or 'all'");
  sub->add_option("--r2", opt->r2, "tra2 inter-node radix in [2, N], 'max' (= N), 'sqrt' or 'all'");
  sub->add_option("--format", opt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  return [session, opt, radix]() {
    opt->radix_given = radix->count() > 0;
    if (!opt->fit.empty()) return run_fit(session, *opt);
    if (opt->procs == 0) throw Error("model: --procs P is required (or --fit FILE)");
    if (opt->ranks_per_node > 0) return run_tra2_model(session, *opt);
    const std::uint64_t p = opt->procs;
    const std::vector<std::uint64_t> list = radices(opt->radix, p, "--radix");
    if (!session.root()) return 0;
    std::vector<nlohmann::json> records;
    const std::uint64_t sqrt_r = model::sqrt_radix(p);
    for (std::uint64_t r : list) {
      const model::RadixCost cost = model::tra_cost(p, r);
      nlohmann::json rec = {{"procs", p},       {"radix", r},
                            {"w", cost.digits}, {"K", cost.rounds},
                            {"D", cost.blocks}, {"note", r == sqrt_r ? "r = ceil(sqrt P)" : ""}};
      if (opt->block_bytes > 0) {
        std::uint64_t bytes = 0;
        if (__builtin_mul_overflow(cost.blocks, opt->block_bytes, &bytes)) {
          throw Error("--block-bytes " + std::to_string(opt->block_bytes) +
                      ": D x S at r = " + std::to_string(r) + " is more than 2^64 bytes");
        }
        rec["bytes"] = bytes;
      }
      records.push_back(rec);
    }
    std::vector<std::string> columns = {"procs", "radix", "w", "K", "D"};
    if (opt->block_bytes > 0) columns.push_back("bytes");
    columns.push_back("note");
    write_records(std::cout, records, columns, parse_format(opt->format));
    return 0;
  };
}

}  // namespace a2a::app
