#include "a2a/selection_table.hpp"

#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>

#include "a2a/error.hpp"
#include "a2a/nesting.hpp"
#include "a2a/text_file.hpp"
#include "a2a_default_tuning.hpp"

namespace a2a {

std::string selection_table_origin(const std::string& table) {
  return table == "builtin" ? "built-in table" : table;
}

std::string selection_table_text(const std::string& table) {
  const std::string origin = selection_table_origin(table);
  std::string text;
  if (table == "builtin") {
    text = detail::kDefaultTuningJson;
  } else {
    try {
      text = *read_text_file(table, "selection table");
    } catch (const Error& e) {
      throw SpecError(e.what());
    }
  }
  if (const std::string deep = nesting_problem(text, false, "selection table " + origin);
      !deep.empty()) {
    throw SpecError(deep);
  }
  bool object = false;
  try {
    object = nlohmann::json::parse(text).is_object();
  } catch (const std::exception& e) {
    throw SpecError("selection table " + origin + " is not valid JSON: " + e.what());
  }
  if (!object) throw SpecError("selection table " + origin + " is not a JSON object");
  return text;
}

std::string selection_table_from_environment() {
  const char* env = std::getenv("A2A_TUNING");
  return env != nullptr ? env : "";
}

}  // namespace a2a
