// What every command and experiment shares, without the command-line parser: the ranks a run
// spans, the slowest rank's time of a step, and the sizes lists the options and decks take.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace a2a::app {

struct Session {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int procs = 1;
  bool root() const { return rank == 0; }
};

// Runs body between an untimed barrier and the slowest rank's clock: microseconds.
template <typename Body>
double slowest_us(MPI_Comm comm, Body&& body) {
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  body();
  double elapsed = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
  return elapsed * 1e6;
}

// "MIN:MAX" (powers of two from MIN to MAX; MIN = 0 adds 0 first) or "a,b,c". Throws a2a::Error.
std::vector<std::size_t> parse_sizes(const std::string& text);

}  // namespace a2a::app
