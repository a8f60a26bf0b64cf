// A minimal MPI-aware check harness: every rank records its own failures, and finish() sums
// them over the communicator so that every rank exits with the same code.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <functional>
#include <string>

#include "a2a/error.hpp"

namespace a2a::test {

class Harness {
 public:
  explicit Harness(const char* name, MPI_Comm comm = MPI_COMM_WORLD) : name_(name), comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &procs_);
  }
  int rank() const { return rank_; }
  int procs() const { return procs_; }
  MPI_Comm comm() const { return comm_; }

  bool expect(bool ok, const std::string& what) {
    ++checks_;
    if (!ok) {
      ++failures_;
      if (failures_ <= 25) std::fprintf(stderr, "[rank %d] FAILED: %s\n", rank_, what.c_str());
    }
    return ok;
  }

  // Collective: whether `text` is the same on every rank (length and hash).
  bool same_everywhere(const std::string& text) const {
    unsigned long long mine[2] = {text.size(), std::hash<std::string>{}(text)};
    unsigned long long lo[2], hi[2];
    MPI_Allreduce(mine, lo, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm_);
    MPI_Allreduce(mine, hi, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm_);
    return lo[0] == hi[0] && lo[1] == hi[1];
  }

  // Collective. Prints "<name>: N passed, N failed" on rank 0; returns the exit code.
  int finish() {
    unsigned long long counts[2] = {checks_, failures_};
    MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm_);
    if (rank_ == 0) {
      std::printf("%s (P=%d): %llu passed, %llu failed\n", name_, procs_, counts[0] - counts[1],
                  counts[1]);
    }
    return counts[1] == 0 && counts[0] > 0 ? 0 : 1;
  }

 private:
  const char* name_;
  MPI_Comm comm_;
  int rank_ = 0, procs_ = 1;
  unsigned long long checks_ = 0, failures_ = 0;
};

// Runs make() and checks that every rank threw an a2a error containing `needle`, and that all
// ranks saw the same message.
template <typename Make>
void expect_error(Harness& h, const std::string& what, const std::string& needle, Make make) {
  std::string message;
  try {
    make();
  } catch (const a2a::Error& e) {
    message = e.what();
  }
  h.expect(!message.empty(), what + ": threw");
  h.expect(message.find(needle) != std::string::npos,
           what + ": message '" + message + "' mentions '" + needle + "'");
  h.expect(h.same_everywhere(message), what + ": identical message on every rank");
}

}  // namespace a2a::test
