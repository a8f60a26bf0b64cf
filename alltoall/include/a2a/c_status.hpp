// How a2a's C entry points (a2a/a2a.h, a2a/transpose.h) turn C++ outcomes into return codes:
// no exception crosses into C; the message of this rank's last failure is kept for
// a2a_last_error(). Used by the C APIs of both libraries; not needed by C++ users.
#pragma once

#include <mpi.h>

#include <string>

#include "a2a/agree.hpp"

namespace a2a::c_api {

// Runs body; returns A2A_SUCCESS, or the code of the exception it threw (its message kept).
template <typename Body>
int guarded(Body&& body);

void set_last_error(const std::string& message);

// For the `_f` entry points: the Fortran communicator handle f as a C one. MPI_Comm_f2c is
// itself erroneous before MPI_Init and after MPI_Finalize (Open MPI aborts the job), so those
// are refused first, with the object being made (*made) left NULL; returns the code.
template <typename Handle>
int comm_from_fortran(MPI_Fint f, MPI_Comm& comm, Handle* made) {
  return guarded([&] {
    if (made != nullptr) *made = nullptr;
    require_mpi_running("a2a");
    comm = MPI_Comm_f2c(f);
  });
}
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
