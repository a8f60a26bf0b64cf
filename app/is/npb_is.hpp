// The NAS Parallel Benchmarks IS kernel (version 3.x, MPI): a parallel bucket sort of integer
// keys whose all-to-all exchanges go through a2a backends. Faithful to NPB so that the
// official verification values apply: classes, the randlc generator, key generation, the
// bucket redistribution, partial verification with the published test keys and ranks, and
// full verification. Generalised to any P >= 1 (NPB's power-of-two rule is a benchmark rule):
// each rank owns a contiguous range of the global key sequence and starts its generator at
// its place in the one global stream, so the keys do not depend on P.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace a2a::is {

struct ClassParams {
  char name;
  int total_keys_log2, max_key_log2, num_buckets_log2;
  std::array<std::int64_t, 5> test_index, test_rank;
  std::uint64_t total_keys() const { return std::uint64_t{1} << total_keys_log2; }
  std::int32_t max_key() const { return std::int32_t{1} << max_key_log2; }
  int num_buckets() const { return 1 << num_buckets_log2; }
  // The expected rank of test key i at iteration it (the per-class rule of NPB's rank()).
  std::int64_t expected_rank(int i, int it) const;
};

// S, W, A, B, C. Throws a2a::Error for anything else.
const ClassParams& class_params(char name);

// NPB's randlc: x <- a x mod 2^46, returns 2^-46 x; exact in integer arithmetic.
class Randlc {
 public:
  explicit Randlc(std::uint64_t seed) : x_(seed) {}
  double next();
  // Jumps over n numbers: x <- a^n x mod 2^46 (NPB's find_my_seed, for any offset).
  void skip(std::uint64_t n);
  std::uint64_t state() const { return x_; }
  static constexpr std::uint64_t kSeed = 314159265, kMultiplier = 1220703125;

 private:
  std::uint64_t x_;
};

// Keys [first, first + count) of the global sequence: key = (MAX_KEY/4) (r1 + r2 + r3 + r4).
std::vector<std::int32_t> generate_keys(const ClassParams& c, std::uint64_t first,
                                        std::uint64_t count);

struct Options {
  char class_name = 'S';
  std::string backend = "mpi";         // keys: Alltoallv (a per-call VectorExchange)
  std::string counts_backend = "mpi";  // per-rank key counts: Alltoall
  int iterations = 10;
  // Test-only faults on rank 0's received keys, which verification must catch: lose one,
  // flip the lowest bit of one (it stays in its bucket, so sorting still succeeds), or
  // duplicate one in place of another (the total stays right).
  enum class Fault { none, drop_key, flip_key, duplicate_key };
  Fault fault = Fault::none;
};

struct Result {
  bool partial_ok = false, full_ok = false, count_ok = false;
  // Every key sent arrived exactly once: the multiset of keys received over all ranks equals
  // the one sent (an order-independent hash, sum of a 64-bit mix of every key, and the count).
  bool keys_ok = false;
  int partial_passed = 0;             // over all ranks, out of 5 per iteration
  std::vector<double> iteration_us;   // slowest rank per timed iteration
  double counts_us = 0, keys_us = 0;  // slowest-rank sums over timed iterations
  // The local phases, the same way: bucketing the keys, the Allreduce of the bucket sizes (with
  // the redistribution computed from them), and ranking the received keys.
  double bucket_us = 0, reduce_us = 0, rank_us = 0;
  double time_s = 0;  // the slowest rank's time for the timed iterations, as NPB times them
  double mean_exchange_bytes = 0;  // per peer, keys exchange, averaged
  std::string backend_name, counts_backend_name;
  bool verified() const { return partial_ok && full_ok && count_ok && keys_ok; }
};

// Collective. Bytes per rank needed by the class at this P (for the memory check).
std::uint64_t bytes_per_rank(const ClassParams& c, int procs);
Result run(const Options& options, MPI_Comm comm);

}  // namespace a2a::is
