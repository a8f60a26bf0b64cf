#include "npb_is.hpp"

#include <algorithm>
#include <cstring>

#include "a2a/alltoall.hpp"
#include "a2a/error.hpp"
#include "core/memory.hpp"

namespace a2a::is {
namespace {

constexpr std::uint64_t kMask46 = (std::uint64_t{1} << 46) - 1;
constexpr std::uint64_t kMask23 = (std::uint64_t{1} << 23) - 1;

// a b mod 2^46 for a, b < 2^46, as randlc does with 23-bit halves (exact).
std::uint64_t mulmod46(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a1 = a >> 23, a2 = a & kMask23, b1 = b >> 23, b2 = b & kMask23;
  const std::uint64_t cross = (a1 * b2 + a2 * b1) & kMask23;
  return ((cross << 23) + a2 * b2) & kMask46;
}

const std::array<ClassParams, 5> kClasses = {{
    {'S', 16, 11, 9, {48427, 17148, 23627, 62548, 4431}, {0, 18, 346, 64917, 65463}},
    {'W',
     20,
     16,
     10,
     {357773, 934767, 875723, 898999, 404505},
     {1249, 11698, 1039987, 1043896, 1048018}},
    {'A',
     23,
     19,
     10,
     {2112377, 662041, 5336171, 3642833, 4250760},
     {104, 17523, 123928, 8288932, 8388264}},
    {'B',
     25,
     21,
     10,
     {41869, 812306, 5102857, 18232239, 26860214},
     {33422937, 10244, 59149, 33135281, 99}},
    {'C',
     27,
     23,
     10,
     {44172927, 72999161, 74326391, 129606274, 21736814},
     {61147, 882988, 266290, 133997595, 133525895}},
}};

// SplitMix64's finaliser: a key's contribution to the order-independent multiset hash.
std::uint64_t key_hash(std::int32_t key) {
  std::uint64_t z =
      static_cast<std::uint64_t>(static_cast<std::uint32_t>(key)) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Rank r of P owns keys [first(r), first(r+1)).
std::uint64_t first_key(std::uint64_t total, int rank, int procs) {
  return total * static_cast<std::uint64_t>(rank) / static_cast<std::uint64_t>(procs);
}

}  // namespace

std::int64_t ClassParams::expected_rank(int i, int it) const {
  const std::int64_t r = test_rank[static_cast<std::size_t>(i)];
  switch (name) {
    case 'S':
      return i <= 2 ? r + it : r - it;
    case 'W':
      return i < 2 ? r + (it - 2) : r - it;
    case 'A':
      return i <= 2 ? r + (it - 1) : r - (it - 1);
    case 'B':
      return (i == 1 || i == 2 || i == 4) ? r + it : r - it;
    default:
      return i <= 2 ? r + it : r - it;  // C
  }
}

const ClassParams& class_params(char name) {
  for (const auto& c : kClasses) {
    if (c.name == name) return c;
  }
  throw Error(std::string("unknown IS class '") + name + "' (S, W, A, B or C)");
}

double Randlc::next() {
  x_ = mulmod46(kMultiplier, x_);
  return static_cast<double>(x_) * (1.0 / static_cast<double>(std::uint64_t{1} << 46));
}

void Randlc::skip(std::uint64_t n) {
  std::uint64_t power = kMultiplier;  // a^(2^k)
  while (n > 0) {
    if (n & 1) x_ = mulmod46(power, x_);
    power = mulmod46(power, power);
    n >>= 1;
  }
}

std::vector<std::int32_t> generate_keys(const ClassParams& c, std::uint64_t first,
                                        std::uint64_t count) {
  Randlc rng(Randlc::kSeed);
  rng.skip(4 * first);
  const double k = c.max_key() / 4;
  std::vector<std::int32_t> keys(count);
  for (auto& key : keys) {
    double x = rng.next();
    x += rng.next();
    x += rng.next();
    x += rng.next();
    key = static_cast<std::int32_t>(k * x);
  }
  return keys;
}

std::uint64_t bytes_per_rank(const ClassParams& c, int procs) {
  const std::uint64_t keys = c.total_keys() / static_cast<std::uint64_t>(procs) + 1;
  // key_array, key_buff1 (bucketed), key_buff2 (received, up to ~2x imbalance), the counting
  // array over this rank's key range, and the send copy the exchange may make.
  return 4 * (keys * 5 + static_cast<std::uint64_t>(c.max_key()));
}

Result run(const Options& options, MPI_Comm comm) {
  const ClassParams& c = class_params(options.class_name);
  int rank = 0, procs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  const auto P = static_cast<std::size_t>(procs);
  // Fail cleanly, on every rank, when the class does not fit.
  app::check_memory(comm, bytes_per_rank(c, procs), "IS class " + std::string(1, c.name));
  const std::uint64_t total = c.total_keys();
  const std::uint64_t first = first_key(total, rank, procs);
  const std::uint64_t num_keys = first_key(total, rank + 1, procs) - first;
  const int shift = c.max_key_log2 - c.num_buckets_log2;
  const int buckets = c.num_buckets();
  const int tests = 5;

  const std::vector<std::int32_t> original = generate_keys(c, first, num_keys);
  std::vector<std::int32_t> key_array = original, key_buff1(num_keys), key_buff2;
  std::vector<std::int64_t> bucket_size(static_cast<std::size_t>(buckets + tests));
  std::vector<std::int64_t> bucket_totals(bucket_size.size());
  std::vector<std::int32_t> send_count(P), recv_count(P);
  std::vector<std::int32_t> dest_of_bucket(static_cast<std::size_t>(buckets));
  std::vector<std::int64_t> dest_next(P);
  std::vector<int> ptr1(P), ptr2(P);
  // Populations over this rank's key range, 32-bit as in NPB: a rank holds fewer than 2^31
  // keys in every class (C has 2^27 in all), and half the bytes halve the ranking's passes over
  // memory (the array is as large as the key range: 2 MiB at class A, P = 2, in 32 bits).
  std::vector<std::int32_t> counting;
  Plan counts_plan(options.counts_backend, comm, sizeof(std::int32_t));
  // The keys: counts change every iteration, so a per-call exchange (made once; nothing
  // planned per call, as MPI_Alltoallv in NPB).
  VectorExchange keys_exchange(options.backend, comm);
  VectorLayout layout;
  layout.send_counts.resize(P);
  layout.send_displs.resize(P);
  layout.recv_counts.resize(P);
  layout.recv_displs.resize(P);

  Result result;
  result.counts_backend_name = counts_plan.name();
  int passed = 0;
  std::int64_t min_key = 0, max_key = -1, lesser = 0;
  std::uint64_t local_keys = 0;
  double exchange_bytes = 0;

  // One untimed warm-up iteration (NPB's rank(1)), a barrier, then the timed ones back to back
  // as NPB times them: the run's time is the slowest rank's time for all of them. Each rank
  // also keeps its own phase times per iteration, reduced to their maxima after the loop.
  constexpr int kPhases = 6;
  std::vector<double> phase_s(static_cast<std::size_t>(options.iterations) * kPhases);
  double loop_start = 0;
  for (int pass = 0; pass <= options.iterations; ++pass) {
    const bool timed = pass > 0;
    const int it = timed ? pass : 1;
    if (pass == 1) {
      MPI_Barrier(comm);
      loop_start = MPI_Wtime();
    }
    const double t_start = MPI_Wtime();

    // Iteration alteration of keys, on the owner of global indices it and it + 10.
    auto set_global = [&](std::uint64_t index, std::int32_t value) {
      if (index >= first && index < first + num_keys) key_array[index - first] = value;
    };
    set_global(static_cast<std::uint64_t>(it), it);
    set_global(static_cast<std::uint64_t>(it + 10), c.max_key() - it);

    // The partial verification keys ride in the top of bucket_size through the Allreduce.
    std::fill(bucket_size.begin(), bucket_size.end(), 0);
    for (int i = 0; i < tests; ++i) {
      const auto index = static_cast<std::uint64_t>(c.test_index[static_cast<std::size_t>(i)]);
      if (index >= first && index < first + num_keys) {
        bucket_size[static_cast<std::size_t>(buckets + i)] = key_array[index - first];
      }
    }
    for (std::uint64_t i = 0; i < num_keys; ++i)
      ++bucket_size[static_cast<std::size_t>(key_array[i] >> shift)];
    const double t_bucketed = MPI_Wtime();
    MPI_Allreduce(bucket_size.data(), bucket_totals.data(), buckets + tests, MPI_INT64_T, MPI_SUM,
                  comm);

    // Buckets to ranks by cumulative totals: rank j gets buckets until the running total
    // reaches (j+1) TOTAL / P (NPB: (j+1) NUM_KEYS).
    std::int64_t running = 0, local_running = 0;
    std::size_t j = 0;
    std::fill(ptr1.begin(), ptr1.end(), 0);
    std::fill(ptr2.begin(), ptr2.end(), 0);
    for (int b = 0; b < buckets; ++b) {
      running += bucket_totals[static_cast<std::size_t>(b)];
      local_running += bucket_size[static_cast<std::size_t>(b)];
      if (j < P &&
          running >= static_cast<std::int64_t>(first_key(total, static_cast<int>(j) + 1, procs))) {
        send_count[j] = static_cast<std::int32_t>(local_running);
        if (j != 0) ptr1[j] = ptr2[j - 1] + 1;
        ptr2[j++] = b;
        local_running = 0;
      }
    }
    for (; j < P; ++j) {  // ranks left without buckets
      send_count[j] = 0;
      ptr1[j] = 1;
      ptr2[j] = 0;
    }

    // The keys into the send buffer, grouped by destination rank. NPB scatters them into its
    // 1024 buckets before it knows which rank gets which bucket, then sends runs of buckets;
    // here the scatter waits for that (one table lookup per key) and writes P runs instead of
    // 1024, so at small P it streams where NPB's scatter spreads its stores over 1024 places.
    // Each rank receives the same keys (their order within a run does not matter to the
    // ranking, which counts populations).
    std::fill(dest_of_bucket.begin(), dest_of_bucket.end(), procs - 1);
    for (std::size_t q = 0; q < P; ++q) {
      for (int b = ptr1[q]; b <= ptr2[q]; ++b)
        dest_of_bucket[static_cast<std::size_t>(b)] = static_cast<std::int32_t>(q);
    }
    std::int64_t next_free = 0;
    for (std::size_t q = 0; q < P; ++q) {
      dest_next[q] = next_free;
      next_free += send_count[q];
    }
    const double t_planned = MPI_Wtime();
    for (std::uint64_t i = 0; i < num_keys; ++i) {
      const std::int32_t key = key_array[i];
      key_buff1[static_cast<std::size_t>(dest_next[static_cast<std::size_t>(
          dest_of_bucket[static_cast<std::size_t>(key >> shift)])]++)] = key;
    }

    // The exchanges: counts through --counts-backend, keys through --backend.
    const double t_counts = MPI_Wtime();
    const double scatter_s = t_counts - t_planned;
    counts_plan.execute(send_count.data(), recv_count.data());
    const double t_counted = MPI_Wtime();
    std::size_t send_off = 0, recv_off = 0;
    for (std::size_t p = 0; p < P; ++p) {
      layout.send_counts[p] = static_cast<std::size_t>(send_count[p]) * sizeof(std::int32_t);
      layout.recv_counts[p] = static_cast<std::size_t>(recv_count[p]) * sizeof(std::int32_t);
      layout.send_displs[p] = send_off;
      layout.recv_displs[p] = recv_off;
      send_off += layout.send_counts[p];
      recv_off += layout.recv_counts[p];
    }
    local_keys = recv_off / sizeof(std::int32_t);
    if (key_buff2.size() < local_keys + 1) key_buff2.resize((local_keys + 1) * 5 / 4);
    const double t_keys = MPI_Wtime();
    keys_exchange.execute(key_buff1.data(), key_buff2.data(), layout);
    const double t_rank = MPI_Wtime();
    if (rank == 0 && local_keys > 1) {
      switch (options.fault) {
        case Options::Fault::drop_key:
          --local_keys;
          break;
        case Options::Fault::flip_key:
          key_buff2[local_keys / 2] ^= 1;
          break;
        case Options::Fault::duplicate_key:
          key_buff2[1] = key_buff2[0];
          break;
        case Options::Fault::none:
          break;
      }
    }
    if (timed) {
      exchange_bytes += static_cast<double>(send_off) / static_cast<double>(P);
      result.backend_name = keys_exchange.name();
    }

    // Ranking: populations over this rank's key range, then cumulative counts.
    min_key = static_cast<std::int64_t>(ptr1[static_cast<std::size_t>(rank)]) << shift;
    max_key = ((static_cast<std::int64_t>(ptr2[static_cast<std::size_t>(rank)]) + 1) << shift) - 1;
    lesser = 0;
    for (int k = 0; k < rank; ++k) {
      for (int b = ptr1[static_cast<std::size_t>(k)]; b <= ptr2[static_cast<std::size_t>(k)]; ++b) {
        lesser += bucket_totals[static_cast<std::size_t>(b)];
      }
    }
    const std::int64_t range = std::max<std::int64_t>(0, max_key - min_key + 1);
    counting.assign(static_cast<std::size_t>(range), 0);
    for (std::uint64_t i = 0; i < local_keys; ++i)
      ++counting[static_cast<std::size_t>(key_buff2[i] - min_key)];
    for (std::int64_t i = 1; i < range; ++i)
      counting[static_cast<std::size_t>(i)] += counting[static_cast<std::size_t>(i - 1)];

    // Partial verification with the official test keys and ranks.
    for (int i = 0; i < tests; ++i) {
      const std::int64_t k = bucket_totals[static_cast<std::size_t>(buckets + i)];
      if (min_key <= k && k <= max_key) {
        const std::int64_t key_rank =
            (k - 1 >= min_key ? counting[static_cast<std::size_t>(k - 1 - min_key)] : 0) + lesser;
        if (timed && key_rank == c.expected_rank(i, it)) ++passed;
      }
    }
    const double t_end = MPI_Wtime();
    if (!timed) {
      passed = 0;
      continue;
    }
    // This rank's phases: the iteration; the counts exchange (with the layout); the keys
    // exchange; local bucketing; the Allreduce of the bucket sizes with the redistribution
    // computed from them; the local ranking with the partial verification.
    const double phases[kPhases] = {t_end - t_start,        t_counted - t_counts,
                                    t_rank - t_keys,        t_bucketed - t_start + scatter_s,
                                    t_planned - t_bucketed, t_end - t_rank};
    std::copy(phases, phases + kPhases, phase_s.begin() + (pass - 1) * kPhases);
  }
  double loop_s = MPI_Wtime() - loop_start;
  MPI_Allreduce(MPI_IN_PLACE, &loop_s, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, phase_s.data(), static_cast<int>(phase_s.size()), MPI_DOUBLE, MPI_MAX,
                comm);
  for (int iteration = 0; iteration < options.iterations; ++iteration) {
    const double* times = phase_s.data() + static_cast<std::size_t>(iteration) * kPhases;
    result.iteration_us.push_back(times[0] * 1e6);
    result.counts_us += times[1] * 1e6;
    result.keys_us += times[2] * 1e6;
    result.bucket_us += times[3] * 1e6;
    result.reduce_us += times[4] * 1e6;
    result.rank_us += times[5] * 1e6;
  }
  result.time_s = loop_s;

  // Full verification: sort locally from the ranks, check the order, the boundaries with the
  // neighbours, and (our addition) that no key was lost or duplicated.
  std::vector<std::int32_t> sorted(local_keys);
  for (std::uint64_t i = local_keys; i-- > 0;) {
    const std::int32_t key = key_buff2[i];
    sorted[static_cast<std::size_t>(--counting[static_cast<std::size_t>(key - min_key)])] = key;
  }
  long long out_of_order = 0;
  for (std::size_t i = 1; i < sorted.size(); ++i)
    out_of_order += sorted[i - 1] > sorted[i];
  // Boundaries: the last key of every non-empty rank is <= the first key of the next.
  struct Ends {
    std::int32_t lo, hi, empty;
  };
  Ends mine{sorted.empty() ? 0 : sorted.front(), sorted.empty() ? 0 : sorted.back(),
            sorted.empty() ? 1 : 0};
  std::vector<Ends> ends(P);
  MPI_Allgather(&mine, 3, MPI_INT32_T, ends.data(), 3, MPI_INT32_T, comm);
  std::int32_t previous = -1;
  for (const Ends& e : ends) {
    if (e.empty) continue;
    out_of_order += previous > e.lo;
    previous = e.hi;
  }
  long long counts[3] = {out_of_order, static_cast<long long>(local_keys), passed};
  MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_LONG_LONG, MPI_SUM, comm);
  result.full_ok = counts[0] == 0;
  result.count_ok = static_cast<std::uint64_t>(counts[1]) == total;
  // The multiset check: the last iteration's keys as this rank held them (key_array) against
  // what it received (key_buff2), both as sums of a 64-bit mix of each key (mod 2^64).
  std::uint64_t hashes[2] = {0, 0};
  for (std::uint64_t i = 0; i < num_keys; ++i)
    hashes[0] += key_hash(key_array[i]);
  for (std::uint64_t i = 0; i < local_keys; ++i)
    hashes[1] += key_hash(key_buff2[i]);
  MPI_Allreduce(MPI_IN_PLACE, hashes, 2, MPI_UINT64_T, MPI_SUM, comm);
  result.keys_ok = result.count_ok && hashes[0] == hashes[1];
  result.partial_passed = static_cast<int>(counts[2]);
  result.partial_ok = counts[2] == static_cast<long long>(tests) * options.iterations;
  result.mean_exchange_bytes = exchange_bytes / std::max(1, options.iterations);
  return result;
}

}  // namespace a2a::is
