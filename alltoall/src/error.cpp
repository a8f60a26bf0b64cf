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

void throw_error(ErrorKind kind, const std::string& what) {
  if (kind == ErrorKind::spec || kind == ErrorKind::unsupported) throw SpecError(what, kind);
  throw Error(what, kind);
}

}  // namespace a2a
