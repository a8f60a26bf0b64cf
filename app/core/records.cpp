#include "records.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "a2a/error.hpp"

namespace a2a {

Format parse_format(const std::string& text) {
  if (text == "table") return Format::table;
  if (text == "csv") return Format::csv;
  if (text == "json") return Format::json;
  throw Error("unknown format '" + text + "' (table, csv or json)");
}

void put_summary(nlohmann::json& record, const stats::Summary& s) {
  record["median_us"] = s.median;
  record["min_us"] = s.min;
  record["max_us"] = s.max;
  record["mean_us"] = s.mean;
  record["ci95_low_us"] = s.ci95_low;
  record["ci95_high_us"] = s.ci95_high;
}

void put_baseline(nlohmann::json& record, const std::string& name, const std::vector<double>& times,
                  const std::vector<double>& baseline_times, double relative_difference,
                  const std::string& key) {
  const stats::Ratio ratio = stats::median_ratio(times, baseline_times);
  record[key] = name;
  record[key + "_median_us"] = stats::median(baseline_times);
  record[key + "_relative_difference"] = relative_difference;
  record["vs_" + key] = ratio.value;
  record["vs_" + key + "_ci95_low"] = ratio.ci95_low;
  record["vs_" + key + "_ci95_high"] = ratio.ci95_high;
}

void print_baseline(const nlohmann::json& r, bool agrees, const std::string& key) {
  std::printf(
      "  %s baseline: median %.1f us, results differ by %.3e (%s); a2a / baseline = %.2f "
      "(95%% CI %.2f-%.2f)\n",
      r[key].get<std::string>().c_str(), r[key + "_median_us"].get<double>(),
      r[key + "_relative_difference"].get<double>(), agrees ? "agree" : "DISAGREE",
      r["vs_" + key].get<double>(), r["vs_" + key + "_ci95_low"].get<double>(),
      r["vs_" + key + "_ci95_high"].get<double>());
}

void put_display_intervals(nlohmann::json& r) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f-%.1f", r.value("ci95_low_us", 0.0),
                r.value("ci95_high_us", 0.0));
  r["ci95_us"] = text;
  if (r.contains("vs_mpi")) {
    std::snprintf(text, sizeof text, "%.2f-%.2f", r.value("vs_mpi_ci95_low", 0.0),
                  r.value("vs_mpi_ci95_high", 0.0));
    r["vs_mpi_ci95"] = text;
  }
}

static std::string cell(const nlohmann::json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) {
    const double v = value.get<double>();
    char buf[64];
    if (v != 0 && (std::abs(v) >= 1e6 || std::abs(v) < 1e-2)) {
      std::snprintf(buf, sizeof buf, "%.3g", v);
    } else {
      std::snprintf(buf, sizeof buf, "%.2f", v);
    }
    return buf;
  }
  return value.dump();
}

static std::string csv_cell(const nlohmann::json& value) {
  if (value.is_null()) return "";
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

void write_records(std::ostream& out, const std::vector<nlohmann::json>& records,
                   const std::vector<std::string>& columns, Format format) {
  auto get = [](const nlohmann::json& r, const std::string& key) {
    return r.contains(key) ? r.at(key) : nlohmann::json();
  };
  if (format == Format::json) {
    for (const auto& r : records)
      out << r.dump() << "\n";
    return;
  }
  if (format == Format::csv) {
    for (std::size_t c = 0; c < columns.size(); ++c)
      out << (c ? "," : "") << columns[c];
    out << "\n";
    for (const auto& r : records) {
      for (std::size_t c = 0; c < columns.size(); ++c) {
        out << (c ? "," : "") << csv_cell(get(r, columns[c]));
      }
      out << "\n";
    }
    return;
  }
  std::vector<std::size_t> width(columns.size());
  std::vector<bool> numeric(columns.size(), true);  // numbers right-aligned, text left-aligned
  std::vector<std::vector<std::string>> cells;
  for (std::size_t c = 0; c < columns.size(); ++c)
    width[c] = columns[c].size();
  for (const auto& r : records) {
    auto& row = cells.emplace_back();
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const nlohmann::json value = get(r, columns[c]);
      if (value.is_string()) numeric[c] = false;
      row.push_back(cell(value));
      width[c] = std::max(width[c], row.back().size());
    }
  }
  auto line = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string& s = row[c];
      const std::size_t pad = width[c] - s.size();
      if (c > 0) out << "  ";
      if (numeric[c])
        out << std::string(pad, ' ') << s;
      else
        out << s << (c + 1 < row.size() ? std::string(pad, ' ') : "");
    }
    out << "\n";
  };
  line(columns);
  std::vector<std::string> rule;
  for (std::size_t w : width)
    rule.emplace_back(w, '-');
  line(rule);
  for (const auto& row : cells)
    line(row);
}

}  // namespace a2a
