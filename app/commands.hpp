// The a2a subcommands. Each setup_* registers its options on the CLI and returns the function
// that runs it; every rank parses the same argv, so option errors are identical on every rank.
#pragma once

#include <mpi.h>

// SimGrid's smpicxx force-includes smpi_helpers.h, whose exit(x) macro breaks CLI11's
// App::exit: keep it out of CLI11's way.
#pragma push_macro("exit")
#undef exit
#include <CLI/CLI.hpp>
#pragma pop_macro("exit")
#include <functional>
#include <string>

namespace a2a::app {

struct Session {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int procs = 1;
  bool root() const { return rank == 0; }
};

using Runner = std::function<int()>;

Runner setup_list(CLI::App& app, const Session& session);
Runner setup_model(CLI::App& app, const Session& session);
Runner setup_bench(CLI::App& app, const Session& session);
Runner setup_is(CLI::App& app, const Session& session);
Runner setup_fft(CLI::App& app, const Session& session);
Runner setup_fft1d(CLI::App& app, const Session& session);
Runner setup_run(CLI::App& app, const Session& session);
Runner setup_tune(CLI::App& app, const Session& session);
Runner setup_pingpong(CLI::App& app, const Session& session);

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
