// Timing the ways of running a local transform at plan time (columns.hpp, planes.hpp), in step
// on every rank: each rank runs its own share at the same moment, as in the transform itself
// (two ranks sharing memory bandwidth time what they will see), and the slowest rank's time
// counts, so that every rank chooses the same way. Every rank of comm must make the same
// calls in the same order; MPI_COMM_NULL times this rank alone.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>
#include <vector>

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

// The fastest of `ways` ways (run(i) runs way i once, the whole transform, as it will run), the
// same index on every rank. Robust against a shared machine's noise: one untimed round first
// (first touches, FFTW's buffers), then timed rounds that interleave the ways (0, 1, ..., 0,
// 1, ...), so that a change of load touches every way alike, and each way's median round
// counts, not its luckiest. Five timed rounds, three where one round of every way takes over a
// second (large boxes: planning time). Ties go to the earlier way.
template <typename Run>
std::size_t fastest_way(MPI_Comm comm, std::size_t ways, Run&& run) {
  if (ways <= 1) return 0;
  double round_s = 0;
  for (std::size_t w = 0; w < ways; ++w)
    round_s += slowest_seconds(comm, [&] { run(w); });
  const int rounds = round_s > 1.0 ? 3 : 5;
  std::vector<std::vector<double>> times(ways);
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t w = 0; w < ways; ++w)
      times[w].push_back(slowest_seconds(comm, [&] { run(w); }));
  }
  std::size_t best = 0;
  double best_s = std::numeric_limits<double>::infinity();
  for (std::size_t w = 0; w < ways; ++w) {
    std::vector<double>& t = times[w];
    std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(t.size() / 2), t.end());
    if (t[t.size() / 2] < best_s) {
      best_s = t[t.size() / 2];
      best = w;
    }
  }
  return best;
}

}  // namespace a2a::fft
