// The randomized all-to-all schedule of Ferrari et al., "Optimized Alltoall Algorithm for
// Low-Diameter Network Topologies" (randomized-alltoall paper), Function 1 and Algorithm 2, as
// pure functions so that they can be tested without MPI.
#pragma once

#include <cstdint>
#include <vector>

namespace a2a {

// SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): a fixed, fully specified 64-bit generator, so
// every rank on every platform draws the same stream from the same seed (std::shuffle and the
// standard distributions are implementation-defined and are not used).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, n), n > 0, by rejection (exactly uniform).
  std::uint64_t below(std::uint64_t n);

 private:
  std::uint64_t state_;
};

namespace randomized {

// Function 1, get_shuffled_ranks: 0..P-1 in the order of a Fisher-Yates (Durstenfeld) shuffle
// driven by SplitMix64(seed); with shuffle = false the identity (the standard schedule).
std::vector<int> shuffled_ranks(int procs, std::uint64_t seed, bool shuffle = true);

// The randomized anti-circulant schedule (Algorithm 2): row p of the matrix is `ranks` shifted
// left by p. At iteration i rank p sends to ranks[(i + p) mod P] and receives from the rank
// whose row holds p in column i, q = (index_of(p) - i) mod P.
class AntiCirculant {
 public:
  explicit AntiCirculant(std::vector<int> ranks);
  int procs() const { return static_cast<int>(ranks_.size()); }
  int send_to(int rank, int iteration) const;
  int recv_from(int rank, int iteration) const;

 private:
  std::vector<int> ranks_, index_of_;
};

}  // namespace randomized
}  // namespace a2a
