// a2a model --procs P [--radix r|sqrt|all] [--block-bytes S]: the closed-form K and D of the
// radix-r Bruck family (configurable-alltoall paper, Propositions 1-4).
#include <charconv>
#include <iostream>

#include "a2a/error.hpp"
#include "a2a/model.hpp"
#include "commands.hpp"
#include "core/records.hpp"

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

}  // namespace

Runner setup_model(CLI::App& app, const Session& session) {
  struct Options {
    std::uint64_t procs = 0;
    std::string radix = "sqrt";
    std::uint64_t block_bytes = 0;
    std::string format = "table";
    std::uint64_t ranks_per_node = 0;
    std::string r1 = "sqrt", r2 = "max";
  };
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("model", "Closed-form rounds K and blocks D of TRA (Props 1-4)");
  sub->add_option("--procs,-P", opt->procs, "process count P")
      ->required()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 31));
  sub->add_option("--radix,-r", opt->radix, "radix r in [2, P], 'sqrt' or 'all' (r = 2..P)");
  sub->add_option("--block-bytes,-S", opt->block_bytes, "block size S: also print D*S bytes");
  sub->add_option("--ranks-per-node,-Q", opt->ranks_per_node,
                  "tra2: Q ranks per node (P % Q == 0); prints K1, D1, K2, D2");
  sub->add_option("--r1", opt->r1, "tra2 intra-node radix in [2, Q], 'sqrt' or 'all'");
  sub->add_option("--r2", opt->r2, "tra2 inter-node radix in [2, N], 'max' (= N), 'sqrt' or 'all'");
  sub->add_option("--format", opt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  return [session, opt]() {
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
          throw Error("--block-bytes " + std::to_string(opt->block_bytes) + ": D x S at r = " +
                      std::to_string(r) + " is more than 2^64 bytes");
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
