#include "a2a/error.hpp"

namespace a2a {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::argument:
      return "argument";
    case ErrorKind::spec:
      return "spec";
    case ErrorKind::unsupported:
      return "unsupported";
    case ErrorKind::resource:
      return "resource";
    case ErrorKind::mpi:
      return "mpi";
    case ErrorKind::internal:
      return "internal";
  }
  return "internal";
}

std::string missing_data(const char* name, const void* data, std::size_t bytes) {
  if (data != nullptr || bytes == 0) return {};
  return std::string("the ") + name + " is NULL where this rank has " + std::to_string(bytes) +
         " bytes of it";
}

void require_data(const char* what, const char* name, const void* data, std::size_t bytes) {
  const std::string problem = missing_data(name, data, bytes);  // "" allocates nothing
  if (!problem.empty()) throw Error(std::string(what) + ": " + problem);
}

void throw_error(ErrorKind kind, const std::string& what) {
  if (kind == ErrorKind::spec || kind == ErrorKind::unsupported) throw SpecError(what, kind);
  throw Error(what, kind);
}

}  // namespace a2a
