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

namespace {

// One rank's part of the sort: its keys, the buffers of every iteration (made once), and what
// the last iteration left for the full verification.
class IntegerSort {
 public:
  static constexpr int kTests = 5;   // NPB's partial verification keys per iteration
  static constexpr int kPhases = 6;  // the per-iteration times kept (see phases below)

  IntegerSort(const Options& options, MPI_Comm comm)
      : options_(options),
        c_(class_params(options.class_name)),
        comm_(comm),
        rank_(rank_of(comm)),
        procs_(size_of(comm)),
        P_(static_cast<std::size_t>(procs_)),
        total_(c_.total_keys()),
        first_(first_key(total_, rank_, procs_)),
        num_keys_(first_key(total_, rank_ + 1, procs_) - first_),
        shift_(c_.max_key_log2 - c_.num_buckets_log2),
        buckets_(c_.num_buckets()),
        key_array_(generate_keys(c_, first_, num_keys_)),
        key_buff1_(num_keys_),
        bucket_size_(static_cast<std::size_t>(buckets_ + kTests)),
        bucket_totals_(bucket_size_.size()),
        send_count_(P_),
        recv_count_(P_),
        dest_of_bucket_(static_cast<std::size_t>(buckets_)),
        dest_next_(P_),
        ptr1_(P_),
        ptr2_(P_),
        counts_plan_(options.counts_backend, comm, sizeof(std::int32_t)),
        // The keys: counts change every iteration, so a per-call exchange (made once; nothing
        // planned per call, as MPI_Alltoallv in NPB).
        keys_exchange_(options.backend, comm) {
    layout_.send_counts.resize(P_);
    layout_.send_displs.resize(P_);
    layout_.recv_counts.resize(P_);
    layout_.recv_displs.resize(P_);
  }

  // One iteration (NPB's rank(it)); `timed` iterations count their partial verification and
  // write their phase times into phases[0..kPhases).
  void iterate(int it, bool timed, double* phases) {
    const double t_start = MPI_Wtime();
    alter_keys(it);
    count_buckets();
    const double t_bucketed = MPI_Wtime();
    MPI_Allreduce(bucket_size_.data(), bucket_totals_.data(), buckets_ + kTests, MPI_INT64_T,
                  MPI_SUM, comm_);
    assign_buckets();
    const double t_planned = MPI_Wtime();
    scatter_keys();
    const double t_counts = MPI_Wtime();
    const double scatter_s = t_counts - t_planned;
    counts_plan_.execute(send_count_.data(), recv_count_.data());
    const double t_counted = MPI_Wtime();
    const std::size_t sent = set_layout();
    const double t_keys = MPI_Wtime();
    keys_exchange_.execute(key_buff1_.data(), key_buff2_.data(), layout_);
    const double t_rank = MPI_Wtime();
    inject_fault();
    if (timed) {
      exchange_bytes_ += static_cast<double>(sent) / static_cast<double>(P_);
      backend_name_ = keys_exchange_.name();
    }
    rank_keys();
    verify_partial(it, timed);
    const double t_end = MPI_Wtime();
    if (!timed) return;
    // This rank's phases: the iteration; the counts exchange (with the layout); the keys
    // exchange; local bucketing; the Allreduce of the bucket sizes with the redistribution
    // computed from them; the local ranking with the partial verification.
    const double mine[kPhases] = {t_end - t_start,        t_counted - t_counts,
                                  t_rank - t_keys,        t_bucketed - t_start + scatter_s,
                                  t_planned - t_bucketed, t_end - t_rank};
    std::copy(mine, mine + kPhases, phases);
  }

  // After the timed iterations: the full verification into `result`.
  void verify_full(Result& result);

  int passed() const { return passed_; }
  void reset_passed() { passed_ = 0; }
  double exchange_bytes() const { return exchange_bytes_; }
  const std::string& backend_name() const { return backend_name_; }
  std::string counts_backend_name() const { return counts_plan_.name(); }

 private:
  static int rank_of(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    return rank;
  }
  static int size_of(MPI_Comm comm) {
    int procs = 1;
    MPI_Comm_size(comm, &procs);
    return procs;
  }
  bool mine(std::uint64_t index) const { return index >= first_ && index < first_ + num_keys_; }

  // Iteration alteration of keys, on the owner of global indices it and it + 10.
  void alter_keys(int it) {
    if (mine(static_cast<std::uint64_t>(it)))
      key_array_[static_cast<std::uint64_t>(it) - first_] = it;
    if (mine(static_cast<std::uint64_t>(it + 10))) {
      key_array_[static_cast<std::uint64_t>(it + 10) - first_] = c_.max_key() - it;
    }
  }

  // Bucket populations of this rank's keys; the partial verification keys ride in the top of
  // bucket_size through the Allreduce.
  void count_buckets() {
    std::fill(bucket_size_.begin(), bucket_size_.end(), 0);
    for (int i = 0; i < kTests; ++i) {
      const auto index = static_cast<std::uint64_t>(c_.test_index[static_cast<std::size_t>(i)]);
      if (mine(index))
        bucket_size_[static_cast<std::size_t>(buckets_ + i)] = key_array_[index - first_];
    }
    for (std::uint64_t i = 0; i < num_keys_; ++i)
      ++bucket_size_[static_cast<std::size_t>(key_array_[i] >> shift_)];
  }

  // Buckets to ranks by cumulative totals: rank j gets buckets until the running total reaches
  // (j+1) TOTAL / P (NPB: (j+1) NUM_KEYS).
  void assign_buckets() {
    std::int64_t running = 0, local_running = 0;
    std::size_t j = 0;
    std::fill(ptr1_.begin(), ptr1_.end(), 0);
    std::fill(ptr2_.begin(), ptr2_.end(), 0);
    for (int b = 0; b < buckets_; ++b) {
      running += bucket_totals_[static_cast<std::size_t>(b)];
      local_running += bucket_size_[static_cast<std::size_t>(b)];
      if (j < P_ && running >= static_cast<std::int64_t>(
                                   first_key(total_, static_cast<int>(j) + 1, procs_))) {
        send_count_[j] = static_cast<std::int32_t>(local_running);
        if (j != 0) ptr1_[j] = ptr2_[j - 1] + 1;
        ptr2_[j++] = b;
        local_running = 0;
      }
    }
    for (; j < P_; ++j) {  // ranks left without buckets
      send_count_[j] = 0;
      ptr1_[j] = 1;
      ptr2_[j] = 0;
    }
    std::fill(dest_of_bucket_.begin(), dest_of_bucket_.end(), procs_ - 1);
    for (std::size_t q = 0; q < P_; ++q) {
      for (int b = ptr1_[q]; b <= ptr2_[q]; ++b)
        dest_of_bucket_[static_cast<std::size_t>(b)] = static_cast<std::int32_t>(q);
    }
    std::int64_t next_free = 0;
    for (std::size_t q = 0; q < P_; ++q) {
      dest_next_[q] = next_free;
      next_free += send_count_[q];
    }
  }

  // The keys into the send buffer, grouped by destination rank. NPB scatters them into its
  // 1024 buckets before it knows which rank gets which bucket, then sends runs of buckets;
  // here the scatter waits for that (one table lookup per key) and writes P runs instead of
  // 1024, so at small P it streams where NPB's scatter spreads its stores over 1024 places.
  // Each rank receives the same keys (their order within a run does not matter to the
  // ranking, which counts populations).
  void scatter_keys() {
    for (std::uint64_t i = 0; i < num_keys_; ++i) {
      const std::int32_t key = key_array_[i];
      key_buff1_[static_cast<std::size_t>(dest_next_[static_cast<std::size_t>(
          dest_of_bucket_[static_cast<std::size_t>(key >> shift_)])]++)] = key;
    }
  }

  // The keys exchange's layout from the counts; returns the bytes this rank sends.
  std::size_t set_layout() {
    std::size_t send_off = 0, recv_off = 0;
    for (std::size_t p = 0; p < P_; ++p) {
      layout_.send_counts[p] = static_cast<std::size_t>(send_count_[p]) * sizeof(std::int32_t);
      layout_.recv_counts[p] = static_cast<std::size_t>(recv_count_[p]) * sizeof(std::int32_t);
      layout_.send_displs[p] = send_off;
      layout_.recv_displs[p] = recv_off;
      send_off += layout_.send_counts[p];
      recv_off += layout_.recv_counts[p];
    }
    local_keys_ = recv_off / sizeof(std::int32_t);
    if (key_buff2_.size() < local_keys_ + 1) key_buff2_.resize((local_keys_ + 1) * 5 / 4);
    return send_off;
  }

  // The test's faults (Options::fault), on rank 0's received keys.
  void inject_fault() {
    if (rank_ != 0 || local_keys_ <= 1) return;
    switch (options_.fault) {
      case Options::Fault::drop_key:
        --local_keys_;
        break;
      case Options::Fault::flip_key:
        key_buff2_[local_keys_ / 2] ^= 1;
        break;
      case Options::Fault::duplicate_key:
        key_buff2_[1] = key_buff2_[0];
        break;
      case Options::Fault::none:
        break;
    }
  }

  // Ranking: populations over this rank's key range, then cumulative counts. Populations are
  // 32-bit as in NPB: a rank holds fewer than 2^31 keys in every class (C has 2^27 in all), and
  // half the bytes halve the ranking's passes over memory.
  void rank_keys() {
    min_key_ = static_cast<std::int64_t>(ptr1_[static_cast<std::size_t>(rank_)]) << shift_;
    max_key_ =
        ((static_cast<std::int64_t>(ptr2_[static_cast<std::size_t>(rank_)]) + 1) << shift_) - 1;
    lesser_ = 0;
    for (int k = 0; k < rank_; ++k) {
      for (int b = ptr1_[static_cast<std::size_t>(k)]; b <= ptr2_[static_cast<std::size_t>(k)]; ++b)
        lesser_ += bucket_totals_[static_cast<std::size_t>(b)];
    }
    const std::int64_t range = std::max<std::int64_t>(0, max_key_ - min_key_ + 1);
    counting_.assign(static_cast<std::size_t>(range), 0);
    for (std::uint64_t i = 0; i < local_keys_; ++i)
      ++counting_[static_cast<std::size_t>(key_buff2_[i] - min_key_)];
    for (std::int64_t i = 1; i < range; ++i)
      counting_[static_cast<std::size_t>(i)] += counting_[static_cast<std::size_t>(i - 1)];
  }

  // Partial verification with the official test keys and ranks.
  void verify_partial(int it, bool timed) {
    for (int i = 0; i < kTests; ++i) {
      const std::int64_t k = bucket_totals_[static_cast<std::size_t>(buckets_ + i)];
      if (min_key_ <= k && k <= max_key_) {
        const std::int64_t key_rank =
            (k - 1 >= min_key_ ? counting_[static_cast<std::size_t>(k - 1 - min_key_)] : 0) +
            lesser_;
        if (timed && key_rank == c_.expected_rank(i, it)) ++passed_;
      }
    }
  }

  const Options& options_;
  const ClassParams& c_;
  MPI_Comm comm_;
  int rank_, procs_;
  std::size_t P_;
  std::uint64_t total_, first_, num_keys_;
  int shift_, buckets_;
  std::vector<std::int32_t> key_array_, key_buff1_, key_buff2_;
  std::vector<std::int64_t> bucket_size_, bucket_totals_;
  std::vector<std::int32_t> send_count_, recv_count_, dest_of_bucket_;
  std::vector<std::int64_t> dest_next_;
  std::vector<int> ptr1_, ptr2_;
  std::vector<std::int32_t> counting_;
  Plan counts_plan_;
  VectorExchange keys_exchange_;
  VectorLayout layout_;
  int passed_ = 0;
  std::int64_t min_key_ = 0, max_key_ = -1, lesser_ = 0;
  std::uint64_t local_keys_ = 0;
  double exchange_bytes_ = 0;
  std::string backend_name_;
};

// Full verification: sort locally from the ranks, check the order, the boundaries with the
// neighbours, and (our addition) that no key was lost or duplicated.
void IntegerSort::verify_full(Result& result) {
  std::vector<std::int32_t> sorted(local_keys_);
  for (std::uint64_t i = local_keys_; i-- > 0;) {
    const std::int32_t key = key_buff2_[i];
    sorted[static_cast<std::size_t>(--counting_[static_cast<std::size_t>(key - min_key_)])] = key;
  }
  long long out_of_order = 0;
  for (std::size_t i = 1; i < sorted.size(); ++i)
    out_of_order += sorted[i - 1] > sorted[i];
  // Boundaries: the last key of every non-empty rank is <= the first key of the next.
  struct Ends {
    std::int32_t lo, hi, empty;
  };
  Ends ends_here{sorted.empty() ? 0 : sorted.front(), sorted.empty() ? 0 : sorted.back(),
                 sorted.empty() ? 1 : 0};
  std::vector<Ends> ends(P_);
  MPI_Allgather(&ends_here, 3, MPI_INT32_T, ends.data(), 3, MPI_INT32_T, comm_);
  std::int32_t previous = -1;
  for (const Ends& e : ends) {
    if (e.empty) continue;
    out_of_order += previous > e.lo;
    previous = e.hi;
  }
  long long counts[3] = {out_of_order, static_cast<long long>(local_keys_), passed_};
  MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_LONG_LONG, MPI_SUM, comm_);
  result.full_ok = counts[0] == 0;
  result.count_ok = static_cast<std::uint64_t>(counts[1]) == total_;
  // The multiset check: the last iteration's keys as this rank held them (key_array) against
  // what it received (key_buff2), both as sums of a 64-bit mix of each key (mod 2^64).
  std::uint64_t hashes[2] = {0, 0};
  for (std::uint64_t i = 0; i < num_keys_; ++i)
    hashes[0] += key_hash(key_array_[i]);
  for (std::uint64_t i = 0; i < local_keys_; ++i)
    hashes[1] += key_hash(key_buff2_[i]);
  MPI_Allreduce(MPI_IN_PLACE, hashes, 2, MPI_UINT64_T, MPI_SUM, comm_);
  result.keys_ok = result.count_ok && hashes[0] == hashes[1];
  result.partial_passed = static_cast<int>(counts[2]);
  result.partial_ok = counts[2] == static_cast<long long>(kTests) * options_.iterations;
}

}  // namespace

Result run(const Options& options, MPI_Comm comm) {
  // Fail cleanly, on every rank, when the class does not fit: before any key is made.
  const ClassParams& c = class_params(options.class_name);
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  app::check_memory(comm, bytes_per_rank(c, procs), "IS class " + std::string(1, c.name));
  IntegerSort sort(options, comm);
  Result result;
  result.counts_backend_name = sort.counts_backend_name();
  // One untimed warm-up iteration (NPB's rank(1)), a barrier, then the timed ones back to back
  // as NPB times them: the run's time is the slowest rank's time for all of them. Each rank
  // also keeps its own phase times per iteration, reduced to their maxima after the loop.
  constexpr int kPhases = IntegerSort::kPhases;
  std::vector<double> phase_s(static_cast<std::size_t>(options.iterations) * kPhases);
  sort.iterate(1, false, nullptr);
  sort.reset_passed();
  MPI_Barrier(comm);
  const double loop_start = MPI_Wtime();
  for (int it = 1; it <= options.iterations; ++it)
    sort.iterate(it, true, phase_s.data() + static_cast<std::size_t>(it - 1) * kPhases);
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
  result.backend_name = sort.backend_name();
  sort.verify_full(result);
  result.mean_exchange_bytes = sort.exchange_bytes() / std::max(1, options.iterations);
  return result;
}

}  // namespace a2a::is
