// Errors thrown by the a2a libraries. Every error raised while making a plan is agreed on by all
// ranks of the communicator before it is thrown, so that every rank throws the same message and
// none is left waiting in a collective.
#pragma once

#include <stdexcept>
#include <string>

namespace a2a {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A backend spec string that names no algorithm, an unknown or out-of-range parameter, or an
// algorithm that does not apply to the requested exchange.
class SpecError : public Error {
 public:
  using Error::Error;
};

}  // namespace a2a
