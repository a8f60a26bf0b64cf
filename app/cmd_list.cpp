// a2a list [--format table|json]: the registry.
#include <iostream>
#include <nlohmann/json.hpp>

#include "a2a/registry.hpp"
#include "commands.hpp"
#include "core/records.hpp"

namespace a2a::app {

Runner setup_list(CLI::App& app, const Session& session) {
  auto* sub = app.add_subcommand("list", "List the registered all-to-all algorithms");
  auto format = std::make_shared<std::string>("table");
  sub->add_option("--format", *format, "table or json")->check(CLI::IsMember({"table", "json"}));
  return [session, format]() {
    if (!session.root()) return 0;
    std::vector<nlohmann::json> records;
    for (const auto& a : registry()) {
      std::string kinds;
      if (a.supports(Kind::uniform)) kinds += "uniform";
      if (a.supports(Kind::vector)) kinds += kinds.empty() ? "vector" : ",vector";
      nlohmann::json params = nlohmann::json::array();
      std::string defaults;
      for (const auto& p : a.params) {
        params.push_back({{"name", p.name}, {"default", p.default_value}, {"help", p.help}});
        defaults += (defaults.empty() ? "" : ",") + p.name + "=" + p.default_value;
      }
      if (*format == "json") {
        records.push_back({{"name", a.name},
                           {"kinds", kinds},
                           {"params", params},
                           {"summary", a.summary},
                           {"source", a.source},
                           {"cost", a.cost}});
      } else {
        records.push_back({{"name", a.name},
                           {"kinds", kinds},
                           {"parameters", defaults.empty() ? "-" : defaults},
                           {"summary", a.summary}});
      }
    }
    write_records(std::cout, records, {"name", "kinds", "parameters", "summary"},
                  parse_format(*format));
    return 0;
  };
}

}  // namespace a2a::app
