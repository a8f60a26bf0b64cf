// FFTW wisdom kept across runs, so that FFTW's measured plans (the fast ones) cost their
// planning time once per machine, not once per run.
//
//   --wisdom auto  (the default) this machine's cache: DIR/fftw-VERSION-CPU.wisdom (and
//                  .float), DIR = $A2A_WISDOM_DIR, else $XDG_CACHE_HOME/a2a, else ~/.cache/a2a;
//                  keyed by what FFTW's wisdom depends on (FFTW's version and build, the CPU
//                  model and its features). A cache that cannot be read or written is one
//                  warning (rank 0) and planning goes on without it.
//   --wisdom FILE  that file (FILE and FILE.float): one that is not wisdom is an error.
// Beside it, FILE.ways keeps the local transforms' ways a2a chose by timing (ways.hpp), read
// and saved with it.
//   --wisdom none  no wisdom kept.
// Every rank imports what exists before planning; save() after planning merges every rank's
// wisdom with what the file holds by then (another job may have added to it), and replaces it
// atomically (a temporary file of this process's own, then a rename): jobs that start at once
// each write a whole file, and neither loses the other's plans that it had read.
#pragma once

#include <mpi.h>

#include <string>

namespace a2a::fft {

class Wisdom {
 public:
  // `plan` is the --fftw-plan value: wisdom-only needs a file of its own.
  Wisdom(MPI_Comm comm, const std::string& option, const std::string& plan);
  // Collective. Throws a2a::Error for a FILE that cannot be written; warns for the cache.
  void save() const;
  // The file in use ("" for none), and whether it is the per-machine cache.
  const std::string& file() const { return file_; }
  bool cache() const { return cache_; }
  // Plans the file held before this run (double and float): 0 on a first run.
  bool found() const { return found_; }
  // Whether the last save() wrote the file (false before it, and where it only warned).
  bool saved() const { return saved_; }

 private:
  MPI_Comm comm_;
  std::string file_;
  bool cache_ = false, found_ = false;
  mutable bool saved_ = false;
};

// This machine's cache file (see above), or "" when no directory can be named.
std::string wisdom_cache_path();

// --fftw-plan: estimate, measure, patient, or wisdom-only (measure-quality plans taken only
// from the wisdom: an error, on every rank, where the wisdom lacks one, instead of planning).
unsigned fftw_flags_of(const std::string& plan);

}  // namespace a2a::fft
