#include "a2a/fft/ways.hpp"

#include <fftw3.h>

#include <map>
#include <mutex>
#include <sstream>

namespace a2a::fft::ways {
namespace {

std::mutex& guard() {
  static std::mutex m;
  return m;
}
std::map<std::string, std::string>& store() {
  static std::map<std::string, std::string> s;
  return s;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

std::optional<std::string> recall(const std::string& key) {
  std::lock_guard lock(guard());
  const auto it = store().find(key);
  if (it == store().end()) return std::nullopt;
  return it->second;
}

void remember(const std::string& key, const std::string& way) {
  std::lock_guard lock(guard());
  store()[key] = way;
}

std::string export_text() {
  std::lock_guard lock(guard());
  std::string text;
  for (const auto& [key, way] : store())
    text += key + " = " + way + "\n";
  return text;
}

void import_text(const std::string& text) {
  std::lock_guard lock(guard());
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.rfind(" = ");
    if (eq == std::string::npos) continue;
    const std::string key = trimmed(line.substr(0, eq)), way = trimmed(line.substr(eq + 3));
    if (!key.empty() && !way.empty()) store().emplace(key, way);
  }
}

void forget_all() {
  std::lock_guard lock(guard());
  store().clear();
}

std::string planner_name(unsigned fftw_flags) {
  const unsigned planner = fftw_flags & ~FFTW_WISDOM_ONLY;
  return (planner & FFTW_EXHAUSTIVE) == FFTW_EXHAUSTIVE ? "exhaustive"
         : (planner & FFTW_PATIENT) == FFTW_PATIENT     ? "patient"
         : (planner & FFTW_ESTIMATE) != 0               ? "estimate"
                                                        : "measure";
}

}  // namespace a2a::fft::ways
