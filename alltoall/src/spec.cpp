#include "a2a/spec.hpp"

#include <cctype>

#include "a2a/error.hpp"

namespace a2a {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace

Spec Spec::parse(std::string_view text) {
  const std::string_view whole = trim(text);
  Spec spec;
  const auto colon = whole.find(':');
  spec.name = std::string(trim(whole.substr(0, colon)));
  if (!is_identifier(spec.name)) {
    throw SpecError("malformed backend spec '" + std::string(whole) +
                    "': expected name[:key=value[,key=value...]]");
  }
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = whole.substr(colon + 1);
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw SpecError("malformed backend spec '" + std::string(whole) + "': parameter '" +
                      std::string(item) + "' is not key=value");
    }
    std::string key(trim(item.substr(0, eq)));
    std::string value(trim(item.substr(eq + 1)));
    if (!is_identifier(key) || value.empty()) {
      throw SpecError("malformed backend spec '" + std::string(whole) + "': parameter '" +
                      std::string(item) + "' is not key=value");
    }
    if (spec.find(key) != nullptr) {
      throw SpecError("backend spec '" + std::string(whole) + "' sets '" + key + "' twice");
    }
    spec.params.emplace_back(std::move(key), std::move(value));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return spec;
}

std::string Spec::str() const {
  std::string out = name;
  for (std::size_t i = 0; i < params.size(); ++i) {
    out += (i == 0 ? ":" : ",");
    out += params[i].first + "=" + params[i].second;
  }
  return out;
}

const std::string* Spec::find(std::string_view key) const {
  for (const auto& [k, v] : params) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::vector<std::string> split_spec_list(std::string_view list) {
  std::vector<std::string> specs;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find_first_of(",;", start);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view piece = trim(list.substr(start, end - start));
    const bool continues = !specs.empty() && piece.find('=') != std::string_view::npos &&
                           piece.find(':') == std::string_view::npos && start > 0 &&
                           list[start - 1] == ',';
    if (continues) {
      specs.back() += ",";
      specs.back() += piece;
    } else if (!piece.empty()) {
      specs.emplace_back(piece);
    } else if (end < list.size() || start > 0) {
      throw SpecError("empty entry in backend list '" + std::string(list) + "'");
    }
    start = end + 1;
  }
  return specs;
}

}  // namespace a2a
