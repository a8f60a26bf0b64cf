// Memory every rank of a communicator on one node can load and store: each rank's area of one
// MPI-3 shared-memory window (MPI_Win_allocate_shared), mapped into every rank. Used by
// sloavx (the node leader's gather and scatter areas) and shared_window (every rank's
// receive area).
#pragma once

#include <mpi.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "a2a/error.hpp"
#include "detail/messages.hpp"

namespace a2a::detail {

class SharedAreas {
 public:
  SharedAreas(MPI_Comm comm, int procs)
      : comm_(comm),
        areas_(static_cast<std::size_t>(procs)),
        sizes_(static_cast<std::size_t>(procs)) {}
  ~SharedAreas() { release(); }
  SharedAreas(const SharedAreas&) = delete;

  // Collective: this rank's area becomes `bytes` (each rank gives its own size; 0 for none).
  void allocate(std::size_t bytes) {
    release();
    check_room(bytes);
    asked_ = bytes;
    // Each rank's area on its own pages, first touched by its owner.
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    void* mine = nullptr;
    const int code =
        MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes), 1, info, comm_, &mine, &win_);
    MPI_Info_free(&info);
    check_mpi(code, "MPI_Win_allocate_shared");
    for (std::size_t q = 0; q < areas_.size(); ++q) {
      MPI_Aint size = 0;
      int unit = 1;
      void* base = nullptr;
      MPI_Win_shared_query(win_, static_cast<int>(q), &size, &unit, &base);
      areas_[q] = static_cast<std::byte*>(base);
      sizes_[q] = static_cast<std::size_t>(size);
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  }
  // Collective: every area freed (none until the next allocate).
  void release() {
    std::fill(areas_.begin(), areas_.end(), nullptr);
    std::fill(sizes_.begin(), sizes_.end(), 0);
    asked_ = 0;
    if (win_ == MPI_WIN_NULL) return;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }
  std::byte* area(int q) const { return areas_[static_cast<std::size_t>(q)]; }
  std::size_t size(int q) const { return sizes_[static_cast<std::size_t>(q)]; }
  // What this rank asked for in the last allocate (size(): what MPI gave, perhaps whole pages).
  std::size_t asked() const { return asked_; }
  // The communicator of the next allocate (the window's ranks; a sharer's own duplicate of it,
  // where the areas outlive the communicator they were made on: shared_window's receive window).
  void use_comm(MPI_Comm comm) { comm_ = comm; }
  // Orders this rank's loads and stores with the other ranks' around a handshake of messages.
  void sync() const {
    if (win_ != MPI_WIN_NULL) MPI_Win_sync(win_);
  }
  // Every rank's stores before it are seen by every rank's loads after it (the MPI-3 shared
  // memory model: sync, barrier, sync), among `comm`'s ranks (the window's, or a duplicate of
  // them that outlives the one it was made on).
  void fence() const { fence(comm_); }
  void fence(MPI_Comm comm) const {
    sync();
    MPI_Barrier(comm);
    sync();
  }

 private:
  // Collective: throws the same Error on every rank where the window's file cannot be made.
  // Open MPI backs the window with a file in /dev/shm: a file size limit, or a /dev/shm too
  // small (64 MiB in a default Docker container), makes the job abort in
  // MPI_Win_allocate_shared (with errors returned, Open MPI 4.1 hangs: the other ranks wait
  // for the one that failed). Hence the check before, agreed by every rank.
  void check_room(std::size_t bytes) const {
    unsigned long long total = bytes;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm_);
    // Each rank's area is rounded up to pages; a header beside them.
    const unsigned long long need = total + (areas_.size() + 1) * 65536ULL;
    const auto mib = [](unsigned long long b) { return std::to_string((b + (1 << 20) - 1) >> 20); };
    std::string problem;
    rlimit limit{};
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        limit.rlim_cur < need) {
      problem = "the file size limit (ulimit -f) is " + mib(limit.rlim_cur) + " MiB";
    }
    struct statvfs shm {};
    if (statvfs("/dev/shm", &shm) == 0 &&
        static_cast<unsigned long long>(shm.f_bavail) * shm.f_frsize < need) {
      problem = "/dev/shm has " +
                mib(static_cast<unsigned long long>(shm.f_bavail) * shm.f_frsize) + " MiB free";
    }
    int bad = problem.empty() ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm_);
    if (bad != 0) {
      throw Error("a shared-memory window of " + mib(total) + " MiB does not fit: " +
                      (problem.empty() ? "so another rank found" : problem) +
                      "; raise it (docker run --shm-size, ulimit -f) or pick another backend",
                  ErrorKind::resource);
    }
  }

  MPI_Comm comm_;
  MPI_Win win_ = MPI_WIN_NULL;
  std::size_t asked_ = 0;
  std::vector<std::byte*> areas_;
  std::vector<std::size_t> sizes_;
};

}  // namespace a2a::detail
