// Errors found on some ranks of a collective call, agreed on before anything else happens, so
// that every rank throws the same message and none is left waiting. The libraries use it for
// every argument they check; it is public for layers built on them (the transpose layer).
#pragma once

#include <mpi.h>

#include <string>

namespace a2a {

// Collective over comm: the first (lowest) failing rank's message on every rank, or "" when no
// rank has one.
std::string agree_on_error(MPI_Comm comm, const std::string& local_error);

}  // namespace a2a
