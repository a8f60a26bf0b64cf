// Result records (DESIGN.md "CLI"): one JSON object per measurement, or CSV, or a table.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "stats.hpp"

namespace a2a {

enum class Format { table, csv, json };
Format parse_format(const std::string& text);

// The timing fields every record has (DESIGN.md): median_us, min_us, max_us, mean_us,
// ci95_low_us, ci95_high_us.
void put_summary(nlohmann::json& record, const stats::Summary& summary);

// Writes records (JSON objects with the same keys) in the chosen format. `columns` orders the
// table and CSV; JSON prints every key of every record, one object per line.
void write_records(std::ostream& out, const std::vector<nlohmann::json>& records,
                   const std::vector<std::string>& columns, Format format);

}  // namespace a2a
