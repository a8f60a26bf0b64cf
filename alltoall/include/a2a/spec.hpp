// Backend spec strings: name[:key=value[,key=value...]], e.g. "tra:r=sqrt".
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace a2a {

struct Spec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;  // in the order written

  // Parses the syntax only (names and keys are checked against the registry by the plan).
  // Throws SpecError on malformed text.
  static Spec parse(std::string_view text);
  std::string str() const;
  const std::string* find(std::string_view key) const;
};

// Splits a comma-separated list of specs, where a comma may also separate the parameters of
// one spec: "tra:r=2,tra2:r1=2,r2=4,mpi" -> {"tra:r=2", "tra2:r1=2,r2=4", "mpi"}. A piece with
// '=' but no ':' continues the previous spec. ';' always separates specs.
std::vector<std::string> split_spec_list(std::string_view list);

}  // namespace a2a
