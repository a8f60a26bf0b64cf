// What several algorithm files share: the selection table of auto and random_auto, and the
// tuning candidates of the radix family. (Each file's describe_NAME() is declared by the
// registry's list, registry.cpp.)
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "a2a/registry.hpp"
#include "a2a/selection_table.hpp"

namespace a2a::detail {

struct Context;
// A selection table's JSON (a2a/selection_table.hpp's reader, parsed); `origin` names it in
// messages. Fails through ctx with a clear message.
nlohmann::json read_selection_table(const Context& ctx, const std::string& table,
                                    std::string& origin);
// A count in a selection table (a JSON unsigned integer), else a clear error through ctx.
std::uint64_t table_count(const Context& ctx, const nlohmann::json& value, const std::string& key,
                          const std::string& origin);

// Tuning candidates NAME:r=2 and, when ceil(sqrt P) is not 2, NAME:r=ceil(sqrt P) (+ suffix).
std::vector<std::string> radix_candidates(const std::string& name, int procs,
                                          const std::string& suffix = "");
// Tuning candidates NAME and NAME:q=Q for every emulated node size Q of P.
std::vector<std::string> node_candidates(const std::string& name, int procs);

}  // namespace a2a::detail
