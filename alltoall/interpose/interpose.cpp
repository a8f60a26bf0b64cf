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
// summary at MPI_Finalize (with the Ialltoall/Ialltoallv/Alltoallw calls that went through
// untouched). Everything inside goes through PMPI_ (this copy of the library is compiled with
// A2A_PMPI_COLLECTIVES), so it never calls itself. It is compiled without the MPI C++ bindings
// and depends on the MPI C library only, so it loads into C, C++ and Fortran programs.
//
// This file holds the interposed calls; c_entry.cpp the C entry points, fortran_entry.cpp Open
// MPI's Fortran ones.
//
// Languages: C and C++ programs call MPI_Alltoall[v]. Open MPI's Fortran bindings (mpif.h,
// `use mpi`: mpi_alltoall_ and its other manglings; `use mpi_f08`: mpi_alltoall_f08_) call
// PMPI_ directly, so this library also defines those symbols, converting handles with
// MPI_Comm_f2c/MPI_Type_f2c, Fortran's MPI_IN_PLACE and MPI_BOTTOM sentinels and ierror (which
// the f08 binding may omit). MPICH's Fortran bindings call the C MPI_Alltoall[v], which serves
// them as it is.
//
// No collective is added per call. Alltoall: the bytes per peer B are the same on every rank
// (MPI's type-signature rule), so plans are cached per communicator by B in the same order on
// every rank (a deterministic LRU of 8 shapes); a new B makes its plan (collective, agreed: a
// backend that cannot serve it makes every rank fall back for that B). Alltoallv: one
// a2a::VectorExchange per communicator, made at its first Alltoallv, given the counts of each
// call (O(P) conversion, nothing planned). Datatypes are a local matter: a type whose data is
// not provably plain bytes in order (detail/datatype.hpp), MPI_IN_PLACE and negative
// displacements are staged through MPI_Pack/MPI_Unpack into contiguous buffers kept per
// communicator, so no rank ever needs another rank's agreement to take the a2a path.
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "a2a/alltoall.hpp"
#include "detail/datatype.hpp"

#include "interposer.hpp"

namespace a2a::interpose {

using a2a::detail::pack_elements;
using a2a::detail::type_shape;
using a2a::detail::TypeShape;
using a2a::detail::unpack_elements;

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

// Verbose summary: per backend (and per pass-through entry point), calls, bytes and time.
struct Tally {
  unsigned long long calls = 0, bytes = 0;
  double seconds = 0;
};
// Under MPI_THREAD_MULTIPLE several threads call in at once (each on its own communicator, as
// MPI requires of collectives): what is shared between communicators is guarded by this lock,
// never held across an MPI call that waits for other ranks.
std::mutex& shared_lock() {
  static std::mutex m;
  return m;
}
std::map<std::string, Tally>& tallies() {
  static std::map<std::string, Tally> t;
  return t;
}
void count_passthrough(const char* what) {
  if (!settings().verbose) return;
  const std::lock_guard<std::mutex> hold(shared_lock());
  tallies()[std::string(what) + " (pass-through, not replaced)"].calls += 1;
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

// A spec that cannot be used is worth one line even without A2A_VERBOSE.
void warn_once(MPI_Comm comm, const std::string& variable, const std::string& why) {
  {
    const std::lock_guard<std::mutex> hold(shared_lock());
    static std::map<std::string, bool> warned;
    if (warned[variable]) return;
    warned[variable] = true;
  }
  if (rank_of(comm) == 0) {
    std::fprintf(stderr,
                 "a2a-interpose: warning: %s is not used (%s); calls go to the MPI library\n",
                 variable.c_str(), why.c_str());
  }
}

struct AlltoallEntry {
  std::size_t bytes = 0;
  std::unique_ptr<a2a::Plan> plan;  // null: this shape falls back to PMPI
};

// Everything kept per communicator (an attribute freed with it).
struct CommState {
  static constexpr std::size_t kKeep = 8;
  int procs = 1, rank = 0;
  bool inter = false;
  std::vector<AlltoallEntry> alltoall;  // most recently used last
  bool vector_made = false;
  std::unique_ptr<a2a::VectorExchange> vector;
  std::vector<std::size_t> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<std::byte> stage_send, stage_recv;
  std::map<std::string, bool> announced;
};

// Each thread remembers the last communicator it used and its state (the common case: one
// communicator, many calls). Any state deleted, by any thread, bumps the generation and so
// forgets every thread's memory: a freed communicator's handle may come back for a new one.
std::atomic<unsigned long long> generation{0};
thread_local MPI_Comm last_comm = MPI_COMM_NULL;
thread_local CommState* last_state = nullptr;
thread_local unsigned long long last_generation = 0;

int delete_state(MPI_Comm, int, void* value, void*) {
  generation.fetch_add(1);
  delete static_cast<CommState*>(value);
  return MPI_SUCCESS;
}

int keyval() {
  static const int k = [] {  // made once, whichever thread comes first
    int made = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &made, nullptr);
    return made;
  }();
  return k;
}
std::atomic<bool> keyval_made{false};

CommState& state_of(MPI_Comm comm) {
  if (comm == last_comm && last_state != nullptr && last_generation == generation.load()) {
    return *last_state;
  }
  keyval_made = true;
  last_generation = generation.load();
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, keyval(), &value, &found);
  if (found) {
    last_comm = comm;
    last_state = static_cast<CommState*>(value);
    return *last_state;
  }
  auto* state = new CommState;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  state->inter = inter != 0;
  if (!state->inter) {
    PMPI_Comm_size(comm, &state->procs);
    PMPI_Comm_rank(comm, &state->rank);
  }
  PMPI_Comm_set_attr(comm, keyval(), state);
  last_comm = comm;
  last_state = state;
  return *state;
}

void announce(CommState& st, MPI_Comm comm, const char* op, const std::string& name) {
  bool& done = st.announced[std::string(op) + " " + name];
  if (done) return;
  done = true;
  say(comm, std::string(op) + " on " + std::to_string(st.procs) + " ranks: " + name);
}

// An error of this call goes to the communicator's error handler with MPI's error class
// `code`, and is returned where the handler returns (MPI_ERRORS_RETURN): the default handler
// aborts the job, the message printed first.
int raise_error(MPI_Comm comm, const char* op, int code, const char* message) {
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  PMPI_Comm_get_errhandler(comm, &handler);
  const bool returns = handler == MPI_ERRORS_RETURN;
  if (handler != MPI_ERRHANDLER_NULL) PMPI_Errhandler_free(&handler);
  if (!returns || settings().verbose) {
    std::fprintf(stderr, "a2a-interpose: %s on rank %d: %s\n", op, rank_of(comm), message);
  }
  PMPI_Comm_call_errhandler(comm, code);
  return code;
}

// a2a errors inside a call, with the class MPI would have raised (a count mismatch is
// MPI_ERR_TRUNCATE).
int report(MPI_Comm comm, const char* op, const std::exception& e) {
  int code = MPI_ERR_OTHER;
  if (const auto* error = dynamic_cast<const a2a::Error*>(&e)) {
    if (error->kind() == a2a::ErrorKind::argument) code = MPI_ERR_TRUNCATE;
    if (error->kind() == a2a::ErrorKind::resource) code = MPI_ERR_NO_MEM;
  } else if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) {
    code = MPI_ERR_NO_MEM;
  }
  return raise_error(comm, op, code, e.what());
}

// A NULL buffer (not MPI_IN_PLACE) where this rank has `bytes` to send or receive, of a type
// whose data is not at absolute addresses (as it is from MPI_BOTTOM, its offsets made by
// MPI_Get_address): MPI_ERR_BUFFER, this rank's error, before it sends anything, as an MPI
// library that checks its arguments reports it (without the check Open MPI dereferences it).
// MPI_SUCCESS where the buffer is fine.
int refuse_null(MPI_Comm comm, const char* op, const char* name, const void* buf,
                const TypeShape& shape, std::size_t bytes) {
  if (shape.true_lb != 0) return MPI_SUCCESS;
  const std::string problem = a2a::missing_data(name, buf, bytes);
  return problem.empty() ? MPI_SUCCESS : raise_error(comm, op, MPI_ERR_BUFFER, problem.c_str());
}

// Arguments MPI itself must reject (a null communicator or datatype, null count arrays):
// those calls go to the MPI library as they are, which reports them through the
// communicator's error handler as it would without the interposer.
bool invalid_arguments(MPI_Comm comm, bool in_place, MPI_Datatype sendtype, MPI_Datatype recvtype,
                       std::initializer_list<const void*> arrays) {
  if (comm == MPI_COMM_NULL || recvtype == MPI_DATATYPE_NULL) return true;
  if (!in_place && sendtype == MPI_DATATYPE_NULL) return true;
  for (const void* a : arrays) {
    if (a == nullptr) return true;
  }
  return false;
}

void grow(std::vector<std::byte>& v, std::size_t bytes) {
  if (v.size() < bytes) v.resize(std::max(bytes, v.size() + v.size() / 2));
}

void tally(const std::string& name, std::size_t bytes, double seconds) {
  const std::lock_guard<std::mutex> hold(shared_lock());
  Tally& t = tallies()[name];
  t.calls += 1;
  t.bytes += bytes;
  t.seconds += seconds;
}

int interposed_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const std::string& spec = settings().alltoall;
  if (spec.empty()) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (invalid_arguments(comm, in_place, sendtype, recvtype, {})) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  CommState& st = state_of(comm);
  const TypeShape rt = type_shape(recvtype);
  const TypeShape stype = in_place ? rt : type_shape(sendtype);
  const std::size_t bytes = static_cast<std::size_t>(recvcount) * rt.size;
  if (st.inter || recvcount < 0 ||
      (!in_place && static_cast<std::size_t>(sendcount) * stype.size != bytes)) {
    // Inter-communicators, and arguments MPI itself must reject.
    if (st.inter) say(comm, "MPI_Alltoall: pass-through (inter-communicator)");
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  // The plan for this B: the same lookups and evictions on every rank.
  auto hit = st.alltoall.begin();
  while (hit != st.alltoall.end() && hit->bytes != bytes)
    ++hit;
  if (hit == st.alltoall.end()) {
    AlltoallEntry entry;
    entry.bytes = bytes;
    try {
      entry.plan = std::make_unique<a2a::Plan>(spec, comm, bytes);
      announce(st, comm, "MPI_Alltoall", entry.plan->name());
    } catch (const a2a::SpecError& e) {
      warn_once(comm, "A2A_ALLTOALL=" + spec, e.what());
    } catch (const a2a::Error& e) {
      say(comm,
          "MPI_Alltoall: pass-through for " + std::to_string(bytes) + " B (" + e.what() + ")");
    }
    if (st.alltoall.size() == CommState::kKeep) st.alltoall.erase(st.alltoall.begin());
    st.alltoall.push_back(std::move(entry));
  } else if (hit + 1 != st.alltoall.end()) {
    std::rotate(hit, hit + 1, st.alltoall.end());  // most recently used last
  }
  a2a::Plan* plan = st.alltoall.back().plan.get();
  if (plan == nullptr) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  const std::size_t total = bytes * static_cast<std::size_t>(st.procs);
  if (!in_place) {
    if (int code = refuse_null(comm, "MPI_Alltoall", "send buffer", sendbuf, stype, total))
      return code;
  }
  if (int code = refuse_null(comm, "MPI_Alltoall", "receive buffer", recvbuf, rt, total))
    return code;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    // Send side: the caller's bytes in place, or staged (in place, or a type that is not
    // plain bytes).
    const std::byte* send = nullptr;
    if (in_place || !stype.dense) {
      grow(st.stage_send, total);
      const void* from = in_place ? recvbuf : sendbuf;
      const MPI_Datatype type = in_place ? recvtype : sendtype;
      const int count = in_place ? recvcount : sendcount;
      // The packed form of a homogeneous run is the type signature's bytes in order.
      pack_elements(from, static_cast<std::size_t>(count) * static_cast<std::size_t>(st.procs),
                    type, stype, st.stage_send.data());
      send = st.stage_send.data();
    } else {
      send = static_cast<const std::byte*>(sendbuf) + stype.true_lb;
    }
    if (rt.dense) {
      plan->execute(send, static_cast<std::byte*>(recvbuf) + rt.true_lb);
    } else {
      grow(st.stage_recv, total);
      plan->execute(send, st.stage_recv.data());
      unpack_elements(st.stage_recv.data(),
                      static_cast<std::size_t>(recvcount) * static_cast<std::size_t>(st.procs),
                      recvtype, rt, recvbuf);
    }
  } catch (const std::exception& e) {
    return report(comm, "MPI_Alltoall", e);
  }
  if (settings().verbose) {
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    tally(plan->name(), total, dt.count());
  }
  return MPI_SUCCESS;
}

// One side of an Alltoallv in bytes: counts, and displacements into the caller's buffer
// (returns true: used where it is) when the type is plain bytes and no displacement is
// negative; otherwise the displacements of a packed staging buffer, peer after peer (false).
bool byte_layout(const int* counts, const int* displs, const TypeShape& shape, int procs,
                 std::vector<std::size_t>& byte_counts, std::vector<std::size_t>& byte_displs) {
  const auto n = static_cast<std::size_t>(procs);
  byte_counts.resize(n);
  byte_displs.resize(n);
  bool in_caller_buffer = shape.dense;
  for (std::size_t i = 0; i < n; ++i) {
    byte_counts[i] = static_cast<std::size_t>(counts[i]) * shape.size;
    in_caller_buffer = in_caller_buffer && displs[i] >= 0;
  }
  std::size_t packed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    byte_displs[i] = in_caller_buffer ? static_cast<std::size_t>(displs[i]) *
                                            static_cast<std::size_t>(shape.extent)
                                      : packed;
    packed += byte_counts[i];
  }
  return in_caller_buffer;
}

// The block of peer i of one side of an Alltoallv, as MPI addresses it.
const std::byte* block_of(const void* buf, const int* displs, int i, const TypeShape& shape) {
  return static_cast<const std::byte*>(buf) + static_cast<MPI_Aint>(displs[i]) * shape.extent;
}

int interposed_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const std::string& spec = settings().alltoallv;
  auto pass = [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  };
  if (spec.empty()) return pass();
  if (invalid_arguments(comm, sendbuf == MPI_IN_PLACE, sendtype, recvtype,
                        {recvcounts, rdispls, sendbuf == MPI_IN_PLACE ? recvcounts : sendcounts,
                         sendbuf == MPI_IN_PLACE ? rdispls : sdispls})) {
    return pass();
  }
  CommState& st = state_of(comm);
  if (st.inter) {
    say(comm, "MPI_Alltoallv: pass-through (inter-communicator)");
    return pass();
  }
  if (!st.vector_made) {
    // The first Alltoallv on this communicator: the same call on every rank.
    st.vector_made = true;
    try {
      st.vector = std::make_unique<a2a::VectorExchange>(spec, comm);
      announce(st, comm, "MPI_Alltoallv", st.vector->name());
    } catch (const a2a::SpecError& e) {
      warn_once(comm, "A2A_ALLTOALLV=" + spec, e.what());
    } catch (const a2a::Error& e) {
      say(comm, std::string("MPI_Alltoallv: pass-through (") + e.what() + ")");
    }
  }
  if (!st.vector) return pass();
  const bool in_place = sendbuf == MPI_IN_PLACE;
  // With MPI_IN_PLACE the data to send is the receive buffer's, laid out as received.
  const void* from = in_place ? recvbuf : sendbuf;
  const int* counts = in_place ? recvcounts : sendcounts;
  const int* displs = in_place ? rdispls : sdispls;
  const MPI_Datatype type = in_place ? recvtype : sendtype;
  for (int i = 0; i < st.procs; ++i) {
    if (recvcounts[i] < 0 || counts[i] < 0) return pass();  // MPI reports these
  }
  const TypeShape rt = type_shape(recvtype);
  const TypeShape stype = in_place ? rt : type_shape(sendtype);
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t sent = 0, received = 0;
  try {
    const bool recv_in_place =
        byte_layout(recvcounts, rdispls, rt, st.procs, st.recv_counts, st.recv_displs);
    const bool send_in_place =
        byte_layout(counts, displs, stype, st.procs, st.send_counts, st.send_displs) && !in_place;
    for (std::size_t c : st.send_counts)
      sent += c;
    for (std::size_t c : st.recv_counts)
      received += c;
    if (!in_place) {
      if (int code = refuse_null(comm, "MPI_Alltoallv", "send buffer", sendbuf, stype, sent))
        return code;
    }
    if (int code = refuse_null(comm, "MPI_Alltoallv", "receive buffer", recvbuf, rt, received))
      return code;
    const std::byte* send = static_cast<const std::byte*>(from) + stype.true_lb;
    if (!send_in_place) {
      // Staged peer after peer: plain bytes copied, other types packed.
      grow(st.stage_send, sent);
      std::size_t at = 0;
      for (int i = 0; i < st.procs; ++i) {
        const auto k = static_cast<std::size_t>(i);
        pack_elements(block_of(from, displs, i, stype), static_cast<std::size_t>(counts[i]), type,
                      stype, st.stage_send.data() + at);
        st.send_displs[k] = at;
        at += st.send_counts[k];
      }
      send = st.stage_send.data();
    }
    if (recv_in_place) {
      st.vector->execute(send, st.send_counts.data(), st.send_displs.data(),
                         static_cast<std::byte*>(recvbuf) + rt.true_lb, st.recv_counts.data(),
                         st.recv_displs.data());
    } else {
      grow(st.stage_recv, received);
      st.vector->execute(send, st.send_counts.data(), st.send_displs.data(), st.stage_recv.data(),
                         st.recv_counts.data(), st.recv_displs.data());
      for (int i = 0; i < st.procs; ++i) {
        const auto k = static_cast<std::size_t>(i);
        auto* block = const_cast<std::byte*>(block_of(recvbuf, rdispls, i, rt));
        unpack_elements(st.stage_recv.data() + st.recv_displs[k],
                        static_cast<std::size_t>(recvcounts[i]), recvtype, rt, block);
      }
    }
  } catch (const std::exception& e) {
    return report(comm, "MPI_Alltoallv", e);
  }
  if (settings().verbose) {
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    tally(st.vector->name(), sent, dt.count());
  }
  return MPI_SUCCESS;
}

// The summary, and MPI_COMM_WORLD's plans freed while MPI still works (MPI need not delete its
// attributes).
void before_finalize() {
  static std::atomic<bool> done{false};  // the C and a Fortran MPI_Finalize may both pass here
  if (done.exchange(true)) return;
  const std::lock_guard<std::mutex> hold(shared_lock());
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
  if (keyval_made) {
    void* value = nullptr;
    int found = 0;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, keyval(), &value, &found);
    if (found) PMPI_Comm_delete_attr(MPI_COMM_WORLD, keyval());
  }
}

}  // namespace a2a::interpose
