// One describe_*() per algorithm source file; registry.cpp lists them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "a2a/registry.hpp"

namespace a2a::detail {

AlgorithmInfo describe_mpi();
AlgorithmInfo describe_linear();
AlgorithmInfo describe_pairwise();
AlgorithmInfo describe_bruck();
AlgorithmInfo describe_tra();
AlgorithmInfo describe_tra_modified();
AlgorithmInfo describe_tra2();
AlgorithmInfo describe_sloav();
AlgorithmInfo describe_sloavx();
AlgorithmInfo describe_tra_v();
AlgorithmInfo describe_padded_bruck_v();
AlgorithmInfo describe_random_scatter();
AlgorithmInfo describe_random_sendrecv();
AlgorithmInfo describe_random_segmented();
AlgorithmInfo describe_random_auto();
AlgorithmInfo describe_shared_window();
AlgorithmInfo describe_auto();

struct Context;
// A selection table's JSON (auto.cpp): "builtin" is alltoall/tuning/default.json, else a file.
// `origin` names it in messages. Fails through ctx with a clear message.
nlohmann::json read_selection_table(const Context& ctx, const std::string& table,
                                    std::string& origin);
// A count in a selection table (a JSON unsigned integer), else a clear error through ctx.
std::uint64_t table_count(const Context& ctx, const nlohmann::json& value, const std::string& key,
                          const std::string& origin);
// A2A_TUNING, else A2A_AUTO_TABLE, when set and not empty; else "".
std::string selection_table_from_environment();

}  // namespace a2a::detail
