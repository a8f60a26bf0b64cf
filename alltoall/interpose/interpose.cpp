// liba2a_interpose.so: MPI_Alltoall and MPI_Alltoallv replaced by a2a backends in programs
// that are not changed, through the MPI profiling interface (randomized-alltoall paper,
// section 3.1: a plug-in that replaces Alltoall and keeps the standard implementation where
// the replacement does not apply).
//
//   mpirun -np 4 -x LD_PRELOAD=.../liba2a_interpose.so -x A2A_ALLTOALL=tra:r=sqrt ./program
//
// A2A_ALLTOALL / A2A_ALLTOALLV select the backend (any registry spec, `auto` included); unset
// means pass-through to PMPI_. A2A_VERBOSE=1 names the backend chosen, once per communicator
// and backend, on the communicator's rank 0, every fallback and its reason, and prints a
// summary at MPI_Finalize. Everything inside goes through PMPI_ (this copy of the library is
// compiled with A2A_PMPI_COLLECTIVES), so it never calls itself.
//
// Plans are cached per communicator (an attribute whose delete callback frees them, so an
// application that creates and frees communicators does not grow) and per shape. Whether a
// call may use a plan, and which cached plan, is agreed by all ranks with one small
// MPI_Allreduce per call: ranks whose arguments differ in ways MPI allows (different but
// equivalent datatypes) still take the same path.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "a2a/alltoall.hpp"

#define A2A_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct Settings {
  std::string alltoall, alltoallv;
  bool verbose = false;
};

const Settings& settings() {
  static const Settings s = [] {
    Settings out;
    if (const char* v = std::getenv("A2A_ALLTOALL")) out.alltoall = v;
    if (const char* v = std::getenv("A2A_ALLTOALLV")) out.alltoallv = v;
    if (const char* v = std::getenv("A2A_VERBOSE")) out.verbose = *v != '\0' && *v != '0';
    return out;
  }();
  return s;
}

struct Tally {
  unsigned long long calls = 0, bytes = 0;
  double seconds = 0;
};
std::map<std::string, Tally>& tallies() {
  static std::map<std::string, Tally> t;
  return t;
}

struct Entry {
  long id = 0;
  std::string key;
  std::unique_ptr<a2a::Plan> plan;  // null: this shape falls back to PMPI
  std::string reason;               // why it falls back
};

// The plans of one communicator, newest last; at most kKeep shapes.
struct Cache {
  static constexpr std::size_t kKeep = 8;
  std::deque<Entry> entries;
  long next_id = 1;
  std::map<std::string, bool> announced;
  Entry* find(const std::string& key) {
    for (auto& e : entries) {
      if (e.key == key) return &e;
    }
    return nullptr;
  }
  Entry* by_id(long id) {
    for (auto& e : entries) {
      if (e.id == id) return &e;
    }
    return nullptr;
  }
};

int delete_cache(MPI_Comm, int, void* value, void*) {
  delete static_cast<Cache*>(value);
  return MPI_SUCCESS;
}

int keyval_storage = MPI_KEYVAL_INVALID;

int cache_keyval() {
  int& keyval = keyval_storage;
  if (keyval == MPI_KEYVAL_INVALID) {
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cache, &keyval, nullptr);
  }
  return keyval;
}

Cache& cache_of(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, cache_keyval(), &value, &found);
  if (found) return *static_cast<Cache*>(value);
  auto* cache = new Cache;
  PMPI_Comm_set_attr(comm, cache_keyval(), cache);
  return *cache;
}

int rank_of(MPI_Comm comm) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  return rank;
}

void say(MPI_Comm comm, const std::string& text) {
  if (settings().verbose && rank_of(comm) == 0) {
    std::fprintf(stderr, "a2a-interpose: %s\n", text.c_str());
  }
}

// Contiguous, zero lower bound: then count elements are count * size bytes in a row.
bool contiguous(MPI_Datatype type) {
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_size(type, &size);
  PMPI_Type_get_extent(type, &lb, &extent);
  return lb == 0 && static_cast<MPI_Aint>(size) == extent;
}

std::size_t type_size(MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<std::size_t>(size);
}

// The plan all ranks agree on for this call, or null to fall back. `local_reason` non-empty:
// this rank cannot use a plan. make() builds a new plan (collective).
template <typename Make>
a2a::Plan* agree(MPI_Comm comm, const char* op, const std::string& local_reason,
                 const std::string& key, Make make) {
  Cache& cache = cache_of(comm);
  Entry* hit = local_reason.empty() ? cache.find(key) : nullptr;
  const long id = hit ? hit->id : -1;
  long votes[3] = {id, -id, local_reason.empty() ? 1 : 0};
  PMPI_Allreduce(MPI_IN_PLACE, votes, 3, MPI_LONG, MPI_MIN, comm);
  if (votes[2] == 0) {
    say(comm, std::string(op) + ": pass-through (" +
                  (local_reason.empty() ? "another rank's arguments" : local_reason) + ")");
    return nullptr;
  }
  if (votes[0] != -1 && votes[0] == -votes[1]) {
    Entry* e = cache.by_id(votes[0]);
    return e->plan.get();
  }
  // A new shape for some rank: make the plan (collective; errors are agreed by the library).
  Entry entry;
  entry.id = cache.next_id++;
  entry.key = key;
  try {
    entry.plan = make();
  } catch (const a2a::Error& e) {
    entry.reason = e.what();
  }
  if (!entry.plan) {
    say(comm, std::string(op) + ": pass-through (" + entry.reason + ")");
  } else if (!cache.announced[entry.plan->name()]) {
    cache.announced[entry.plan->name()] = true;
    int procs = 1;
    PMPI_Comm_size(comm, &procs);
    say(comm, std::string(op) + " on " + std::to_string(procs) + " ranks: " + entry.plan->name());
  }
  if (cache.entries.size() == Cache::kKeep) cache.entries.pop_front();
  cache.entries.push_back(std::move(entry));
  return cache.entries.back().plan.get();
}

int run(a2a::Plan& plan, const void* send, void* recv, std::size_t bytes) {
  const auto t0 = std::chrono::steady_clock::now();
  plan.execute(send, recv);
  const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
  Tally& t = tallies()[plan.name()];
  t.calls += 1;
  t.bytes += bytes;
  t.seconds += dt.count();
  return MPI_SUCCESS;
}

bool simple_path_excluded(const void* sendbuf, MPI_Comm comm, const char* op) {
  // Both are the same on every rank by the standard, so no agreement is needed.
  if (sendbuf == MPI_IN_PLACE) {
    say(comm, std::string(op) + ": pass-through (MPI_IN_PLACE)");
    return true;
  }
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    say(comm, std::string(op) + ": pass-through (inter-communicator)");
    return true;
  }
  return false;
}

}  // namespace

A2A_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const std::string& spec = settings().alltoall;
  if (spec.empty() || simple_path_excluded(sendbuf, comm, "MPI_Alltoall")) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  const std::size_t send_bytes = static_cast<std::size_t>(sendcount) * type_size(sendtype);
  const std::size_t recv_bytes = static_cast<std::size_t>(recvcount) * type_size(recvtype);
  std::string reason;
  if (!contiguous(sendtype) || !contiguous(recvtype))
    reason = "non-contiguous datatype";
  else if (send_bytes != recv_bytes)
    reason = "send and receive type signatures differ in size";
  a2a::Plan* plan = agree(comm, "MPI_Alltoall", reason, std::to_string(send_bytes),
                          [&] { return std::make_unique<a2a::Plan>(spec, comm, send_bytes); });
  if (plan == nullptr) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  int procs = 1;
  PMPI_Comm_size(comm, &procs);
  return run(*plan, sendbuf, recvbuf, send_bytes * static_cast<std::size_t>(procs));
}

A2A_EXPORT int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const std::string& spec = settings().alltoallv;
  if (spec.empty() || simple_path_excluded(sendbuf, comm, "MPI_Alltoallv")) {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  }
  int procs = 1;
  PMPI_Comm_size(comm, &procs);
  std::string reason;
  a2a::VectorLayout layout;
  std::size_t total = 0;
  if (!contiguous(sendtype) || !contiguous(recvtype)) {
    reason = "non-contiguous datatype";
  } else {
    const std::size_t ss = type_size(sendtype), rs = type_size(recvtype);
    for (int i = 0; i < procs; ++i) {
      if (sendcounts[i] < 0 || sdispls[i] < 0 || recvcounts[i] < 0 || rdispls[i] < 0) {
        reason = "negative count or displacement";
        break;
      }
      layout.send_counts.push_back(static_cast<std::size_t>(sendcounts[i]) * ss);
      layout.send_displs.push_back(static_cast<std::size_t>(sdispls[i]) * ss);
      layout.recv_counts.push_back(static_cast<std::size_t>(recvcounts[i]) * rs);
      layout.recv_displs.push_back(static_cast<std::size_t>(rdispls[i]) * rs);
      total += layout.send_counts.back();
    }
  }
  std::string key;
  if (reason.empty()) {
    key.reserve(static_cast<std::size_t>(procs) * 4 * 12);
    for (int i = 0; i < procs; ++i) {
      const auto k = static_cast<std::size_t>(i);
      key += std::to_string(layout.send_counts[k]) + "," + std::to_string(layout.send_displs[k]) +
             "," + std::to_string(layout.recv_counts[k]) + "," +
             std::to_string(layout.recv_displs[k]) + ";";
    }
  }
  a2a::Plan* plan = agree(comm, "MPI_Alltoallv", reason, key,
                          [&] { return std::make_unique<a2a::Plan>(spec, comm, layout); });
  if (plan == nullptr) {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  }
  return run(*plan, sendbuf, recvbuf, total);
}

A2A_EXPORT int MPI_Finalize(void) {
  if (settings().verbose && !tallies().empty()) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      std::fprintf(stderr, "a2a-interpose summary (rank 0): backend, calls, bytes sent, seconds\n");
      for (const auto& [name, t] : tallies()) {
        std::fprintf(stderr, "a2a-interpose summary: %s, %llu calls, %llu bytes, %.6f s\n",
                     name.c_str(), t.calls, t.bytes, t.seconds);
      }
    }
  }
  // Free MPI_COMM_WORLD's plans while MPI still works (MPI need not delete its attributes).
  if (keyval_storage != MPI_KEYVAL_INVALID) {
    void* value = nullptr;
    int found = 0;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, keyval_storage, &value, &found);
    if (found) PMPI_Comm_delete_attr(MPI_COMM_WORLD, keyval_storage);
  }
  return PMPI_Finalize();
}
