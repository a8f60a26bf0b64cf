// a2a model --procs P [--radix r|sqrt|all] [--block-bytes S]: the closed-form K and D of the
// radix-r Bruck family (configurable-alltoall paper, Propositions 1-4).
#include <charconv>
#include <iostream>

#include "a2a/error.hpp"
#include "a2a/model.hpp"
#include "commands.hpp"
#include "core/records.hpp"

namespace a2a::app {

Runner setup_model(CLI::App& app, const Session& session) {
  struct Options {
    std::uint64_t procs = 0;
    std::string radix = "sqrt";
    std::uint64_t block_bytes = 0;
    std::string format = "table";
  };
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("model", "Closed-form rounds K and blocks D of TRA (Props 1-4)");
  sub->add_option("--procs,-P", opt->procs, "process count P")
      ->required()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 31));
  sub->add_option("--radix,-r", opt->radix, "radix r in [2, P], 'sqrt' or 'all' (r = 2..P)");
  sub->add_option("--block-bytes,-S", opt->block_bytes, "block size S: also print D*S bytes");
  sub->add_option("--format", opt->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  return [session, opt]() {
    const std::uint64_t p = opt->procs;
    const std::uint64_t hi = std::max<std::uint64_t>(2, p);
    std::vector<std::uint64_t> radices;
    if (opt->radix == "all") {
      for (std::uint64_t r = 2; r <= hi; ++r)
        radices.push_back(r);
    } else if (opt->radix == "sqrt") {
      radices.push_back(model::sqrt_radix(p));
    } else {
      std::uint64_t r = 0;
      const auto& t = opt->radix;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), r);
      if (ec != std::errc() || end != t.data() + t.size() || r < 2 || r > hi) {
        throw Error("--radix " + t + ": expected an integer in [2, " + std::to_string(hi) +
                    "], 'sqrt' or 'all'");
      }
      radices.push_back(r);
    }
    if (!session.root()) return 0;
    std::vector<nlohmann::json> records;
    const std::uint64_t sqrt_r = model::sqrt_radix(p);
    for (std::uint64_t r : radices) {
      const model::RadixCost cost = model::tra_cost(p, r);
      nlohmann::json rec = {{"procs", p},       {"radix", r},
                            {"w", cost.digits}, {"K", cost.rounds},
                            {"D", cost.blocks}, {"note", r == sqrt_r ? "r = ceil(sqrt P)" : ""}};
      if (opt->block_bytes > 0) rec["bytes"] = cost.blocks * opt->block_bytes;
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
