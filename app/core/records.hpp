// Result records (docs/cli.md, "Output records"): one JSON object per measurement, or CSV, or a
// table.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "stats.hpp"

namespace a2a {

enum class Format { table, csv, json };
Format parse_format(const std::string& text);

// The timing fields every record has (docs/cli.md): median_us, min_us, max_us, mean_us,
// ci95_low_us, ci95_high_us.
void put_summary(nlohmann::json& record, const stats::Summary& summary);

// The baseline fields of a mini-app record under `key` (KEY = name, KEY_median_us,
// KEY_relative_difference, vs_KEY with its bootstrap CI: key "baseline" for the headline
// baseline, "baseline_natural" for the 3D FFT's second FFTW-MPI form), and their table line.
void put_baseline(nlohmann::json& record, const std::string& name, const std::vector<double>& times,
                  const std::vector<double>& baseline_times, double relative_difference,
                  const std::string& key = "baseline");
void print_baseline(const nlohmann::json& record, bool agrees, const std::string& key = "baseline");

// The table's text columns: ci95_us ("low-high" of the median, us) and, where vs_mpi is
// present, vs_mpi_ci95. Display only: records written as JSON, CSV or HDF5 keep the numbers.
void put_display_intervals(nlohmann::json& record);

// Writes records (JSON objects with the same keys) in the chosen format. `columns` orders the
// table and CSV; JSON prints every key of every record, one object per line.
void write_records(std::ostream& out, const std::vector<nlohmann::json>& records,
                   const std::vector<std::string>& columns, Format format);

}  // namespace a2a
