// Work that one rank does on behalf of all (writing a file), with its failure agreed: every
// rank throws the same a2a::Error, so a bad path is an error on every rank, never a hang.
#pragma once

#include <mpi.h>

#include <exception>
#include <functional>
#include <string>

#include "a2a/error.hpp"

namespace a2a::app {

// Collective over comm: `work` runs on rank 0 only; when it throws, every rank throws the same
// a2a::Error.
inline void on_root_agreed(MPI_Comm comm, const std::function<void()>& work) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string why;
  int ok = 1;
  if (rank == 0) {
    try {
      work();
    } catch (const std::exception& e) {
      ok = 0;
      why = e.what();
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  if (ok) return;
  unsigned long long length = why.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  why.resize(length);
  MPI_Bcast(why.data(), static_cast<int>(length), MPI_CHAR, 0, comm);
  throw Error(why);
}

}  // namespace a2a::app
