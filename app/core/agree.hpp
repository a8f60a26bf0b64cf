// Work that one rank does on behalf of all (writing a file), with its failure agreed: every
// rank throws the same a2a::Error, so a bad path is an error on every rank, never a hang.
#pragma once

#include <mpi.h>

#include <exception>
#include <functional>
#include <string>

#include "a2a/agree.hpp"
#include "a2a/error.hpp"

namespace a2a::app {

// Collective over comm: `work` runs on rank 0 only; when it throws, every rank throws the same
// a2a::Error.
inline void on_root_agreed(MPI_Comm comm, const std::function<void()>& work) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string why;
  if (rank == 0) {
    try {
      work();
    } catch (const std::exception& e) {
      why = *e.what() != '\0' ? e.what() : "failed";
    }
  }
  if (const std::string agreed = agree_on_error(comm, why); !agreed.empty()) throw Error(agreed);
}

}  // namespace a2a::app
