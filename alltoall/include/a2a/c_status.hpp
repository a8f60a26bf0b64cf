// How a2a's C entry points (a2a/a2a.h, a2a/transpose.h) turn C++ outcomes into return codes:
// no exception crosses into C; the message of this rank's last failure is kept for
// a2a_last_error(). Used by the C APIs of both libraries; not needed by C++ users.
#pragma once

#include <string>

namespace a2a::c_api {

// Runs body; returns A2A_SUCCESS, or the code of the exception it threw (its message kept).
template <typename Body>
int guarded(Body&& body);

void set_last_error(const std::string& message);
int status_of_current_exception();  // inside a catch (...): classifies and records it

template <typename Body>
int guarded(Body&& body) {
  try {
    body();
    set_last_error("");
    return 0;
  } catch (...) {
    return status_of_current_exception();
  }
}

}  // namespace a2a::c_api
