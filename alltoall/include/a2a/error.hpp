// Errors thrown by the a2a libraries. Every error raised while making a plan is agreed on by all
// ranks of the communicator before it is thrown, so that every rank throws the same message,
// of the same kind, and none is left waiting in a collective.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace a2a {

// What went wrong, kept when an error is agreed across ranks: the C API, the Fortran module
// and the Python package map kinds (not messages) to their codes and exception classes.
enum class ErrorKind {
  argument,     // a null pointer, a bad layout or box, counts that do not match, misuse
  spec,         // a spec that names no backend, an unknown parameter, a value out of range
  unsupported,  // a backend that cannot serve this exchange here (placement, kind, P)
  resource,     // out of memory, shared memory or file space
  mpi,          // an MPI call failed
  internal,     // anything else
};

const char* to_string(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what, ErrorKind kind = ErrorKind::argument)
      : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

// A backend spec string that names no algorithm, an unknown or out-of-range parameter, or an
// algorithm that does not apply to the requested exchange (kind() says which: spec or
// unsupported).
class SpecError : public Error {
 public:
  explicit SpecError(const std::string& what, ErrorKind kind = ErrorKind::spec)
      : Error(what, kind) {}
};

// Throws the class of exception that carries `kind` (SpecError for spec and unsupported).
[[noreturn]] void throw_error(ErrorKind kind, const std::string& what);

// Throws (argument) where `data` is NULL and this rank has `bytes` of it to move: a call's error
// on its own rank, before it communicates, as MPI's own check of its arguments gives, instead of
// a crash. `what` names the call, `name` the array ("send buffer", "input array").
void require_data(const char* what, const char* name, const void* data, std::size_t bytes);
// The same check, its problem in words ("the send buffer is NULL where ..."), "" where none.
std::string missing_data(const char* name, const void* data, std::size_t bytes);

}  // namespace a2a
