// Timing one way of running a local transform at plan time (columns.hpp, planes.hpp), in step
// on every rank: each rank runs its own share at the same moment, as in the transform itself
// (two ranks sharing memory bandwidth time what they will see), and the slowest rank's time
// counts, so that every rank chooses the same way. Every rank of comm must make the same
// calls in the same order; MPI_COMM_NULL times this rank alone.
#pragma once

#include <mpi.h>

#include <chrono>

namespace a2a::fft {

template <typename Run>
double slowest_seconds(MPI_Comm comm, Run&& run) {
  if (comm != MPI_COMM_NULL) MPI_Barrier(comm);
  const auto t0 = std::chrono::steady_clock::now();
  run();
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
  return t;
}

}  // namespace a2a::fft
