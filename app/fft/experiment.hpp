// The FFT experiments, one for the 3D FFT and one for the six-step 1D FFT, run alike by
// `a2a fft`, `a2a fft1d` and the decks' [[fft]] and [[fft1d]], so that a transform passes or
// fails the same checks whichever way it is asked for:
//   1. one plan per backend (planning timed: FFTW's measured plans cost once per machine with
//      the wisdom cache);
//   2. the check, once per backend before timing: the 3D spectrum against serial FFTW on the
//      whole grid (or a plane wave's closed form) and the round trip back to the input, or the
//      round trip alone; the 1D spectrum against serial FFTW's. The bound follows the
//      precision (1e-10 double, 1e-4 float); a NaN or Inf anywhere fails;
//   3. FFTW-MPI's own transforms (3D: its transposed form, the headline, and its natural
//      form) on the same input, their spectra compared with the first backend's;
//   4. interleaved timing, warm-up calls first: A B C baselines A B C ..., each call between a
//      barrier and the slowest rank's clock.
// Work before a plan is made (parsing options, the memory check) stays with the callers, which
// name their own errors (an option, a deck line).
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "a2a/fft.hpp"

namespace a2a::fft {

// Told after each step how many FFT calls it made (a check is 2; a round of timing is one per
// series) and what it was: progress bars and time-left estimates.
using Progress = std::function<void(double calls, const std::string& what)>;

// The transposes' phases per forward+backward pair: the slowest rank's time of each, and its
// rate (bytes this rank moved over that time), against memcpy of the largest buffer on every
// rank at once (best of 10, the slowest rank's).
struct TransposeRates {
  double pack_us = 0, exchange_us = 0, unpack_us = 0;
  double pack_gbps = 0, exchange_gbps = 0, unpack_gbps = 0, memcpy_gbps = 0;
};

// One series: an a2a backend or a baseline.
struct FftSeries {
  std::string label;             // the spec as asked, or the baseline's name
  std::string backend;           // what it resolved to (every transpose's backend)
  std::string local_transforms;  // a2a: the ways chosen at plan time
  bool baseline = false;
  // a2a: against the reference (and the round trip); a baseline: against the first backend's
  // spectrum. Unset (check "skipped") when not checked.
  bool checked = false;
  double relative_error = 0;
  double planning_s = 0;              // making the plans, slowest rank
  std::size_t plan_memory_bytes = 0;  // 3D a2a: the plan's memory_bytes(), the largest rank's
  // Per timed call, the slowest rank's: the whole call, its transposes, its local FFTs (us).
  std::vector<double> total_us, transpose_us, compute_us;
  TransposeRates rates;  // 3D a2a series
};

struct FftResult {
  std::vector<FftSeries> series;  // the backends in order, then the baselines
  // 3D with a baseline: per timed round, the slowest rank's LocalFloor pair (us).
  std::vector<double> local_floor_us;
  double bound = 0;
  std::size_t failures = 0;  // checks over the bound (the same on every rank)
  bool passed() const { return failures == 0; }
};

struct Fft3dExperiment {
  std::string grid;              // as given, for the records
  std::string decomp;            // slab or pencil (resolved)
  std::string decomp_requested;  // slab, pencil or auto
  Options options;               // n, p1 x p2, r2c, chunks, FFTW flags, backend2
  std::vector<std::string> backends;
  std::string check = "serial";  // serial, roundtrip, planewave or none
  bool in_place = false;         // c2c on one array, as FFTW-MPI's baseline runs
  bool baseline = false;         // FFTW-MPI's two forms (double only)
  int iters = 5, warmup = 0;
  std::string fftw_plan = "measure";
  std::string input_file;   // HDF5 dataset "input", read by a2a and the baselines
  std::string output_file;  // HDF5 "input" and "spectrum" of the first backend
};

// Collective. `save_wisdom` runs once every plan (a2a's and the baselines') is made. Throws
// a2a::Error, agreed on every rank, for what cannot be planned or read.
template <typename Real>
FftResult run_fft3d(MPI_Comm comm, const Fft3dExperiment& e,
                    const std::function<void()>& save_wisdom, const Progress& progress);

// Rank 0: one record per series, the fields docs/cli.md lists for `fft`.
std::vector<nlohmann::json> fft3d_records(const Fft3dExperiment& e, const FftResult& r, int procs,
                                          const std::string& precision);

struct Fft1dExperiment {
  std::int64_t points = 0, n1 = 0;  // N = n1 n2 (n1: resolved)
  std::vector<std::string> backends;
  bool check = true;      // against serial FFTW
  bool baseline = false;  // FFTW-MPI's 1D transform
  int iters = 10, warmup = 0;
  std::string fftw_plan = "measure";
};

FftResult run_fft1d(MPI_Comm comm, const Fft1dExperiment& e,
                    const std::function<void()>& save_wisdom, const Progress& progress);

std::vector<nlohmann::json> fft1d_records(const Fft1dExperiment& e, const FftResult& r, int procs);

}  // namespace a2a::fft
