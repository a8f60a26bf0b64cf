// The interposer's Fortran entry points. Open MPI's Fortran bindings call PMPI_ directly: these
// entry points take their place (the preloaded library comes first in symbol lookup). mpif.h
// and `use mpi` call mpi_alltoall_ (gfortran's mangling; the others are other compilers');
// `use mpi_f08` calls mpi_alltoall_f08_, whose handles are TYPE(MPI_Comm) etc. (one INTEGER,
// passed by reference: the same as an MPI_Fint*) and whose ierror is OPTIONAL (null when
// absent). MPICH's Fortran bindings call the C entry points, except MPI_FINALIZE.
#include <dlfcn.h>
#include <mpi.h>

#include <map>
#include <mutex>
#include <vector>

#include "interposer.hpp"

using namespace a2a::interpose;

#ifdef OPEN_MPI
namespace {

// Fortran's MPI_IN_PLACE and MPI_BOTTOM are the addresses of common blocks in libmpi.
bool is_fortran(const void* address, const char* const names[4]) {
  static std::map<const char*, std::vector<const void*>> cache;
  std::vector<const void*> found;
  {
    const std::lock_guard<std::mutex> hold(shared_lock());
    auto& known = cache[names[0]];
    if (known.empty()) {
      for (int i = 0; i < 4; ++i) {
        if (const void* p = dlsym(RTLD_DEFAULT, names[i])) known.push_back(p);
      }
      known.push_back(nullptr);  // never empty again
    }
    found = known;
  }
  for (const void* p : found) {
    if (p != nullptr && p == address) return true;
  }
  return false;
}
const char* const kInPlace[4] = {"mpi_fortran_in_place_", "mpi_fortran_in_place",
                                 "mpi_fortran_in_place__", "MPI_FORTRAN_IN_PLACE"};
const char* const kBottom[4] = {"mpi_fortran_bottom_", "mpi_fortran_bottom", "mpi_fortran_bottom__",
                                "MPI_FORTRAN_BOTTOM"};

const void* send_buffer(const void* buf) {
  if (is_fortran(buf, kInPlace)) return MPI_IN_PLACE;
  if (is_fortran(buf, kBottom)) return MPI_BOTTOM;
  return buf;
}
void* recv_buffer(void* buf) {
  return is_fortran(buf, kBottom) ? MPI_BOTTOM : buf;
}

void fortran_alltoall(void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype,
                      void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype,
                      const MPI_Fint* comm, MPI_Fint* ierror) {
  const int code = interposed_alltoall(send_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                       recv_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                                       PMPI_Comm_f2c(*comm));
  if (ierror != nullptr) *ierror = code;
}

void fortran_alltoallv(void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls,
                       const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts,
                       const MPI_Fint* rdispls, const MPI_Fint* recvtype, const MPI_Fint* comm,
                       MPI_Fint* ierror) {
  static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint arrays are read as int arrays");
  const int code = interposed_alltoallv(
      send_buffer(sendbuf), reinterpret_cast<const int*>(sendcounts),
      reinterpret_cast<const int*>(sdispls), PMPI_Type_f2c(*sendtype), recv_buffer(recvbuf),
      reinterpret_cast<const int*>(recvcounts), reinterpret_cast<const int*>(rdispls),
      PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm));
  if (ierror != nullptr) *ierror = code;
}

// The next definition of a Fortran entry point (Open MPI's), for the pass-through ones.
template <typename F>
F next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

#define A2A_FORTRAN_ALLTOALL(name)                                                              \
  A2A_EXPORT void name(void* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, void* recvbuf,   \
                       MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* comm,                 \
                       MPI_Fint* ierror) {                                                      \
    fortran_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierror); \
  }
#define A2A_FORTRAN_ALLTOALLV(name)                                                                \
  A2A_EXPORT void name(void* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype, \
                       void* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype, \
                       MPI_Fint* comm, MPI_Fint* ierror) {                                         \
    fortran_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,        \
                      recvtype, comm, ierror);                                                     \
  }
A2A_FORTRAN_ALLTOALL(mpi_alltoall_)
A2A_FORTRAN_ALLTOALL(mpi_alltoall__)
A2A_FORTRAN_ALLTOALL(mpi_alltoall)
A2A_FORTRAN_ALLTOALL(MPI_ALLTOALL)
A2A_FORTRAN_ALLTOALL(mpi_alltoall_f08_)
A2A_FORTRAN_ALLTOALLV(mpi_alltoallv_)
A2A_FORTRAN_ALLTOALLV(mpi_alltoallv__)
A2A_FORTRAN_ALLTOALLV(mpi_alltoallv)
A2A_FORTRAN_ALLTOALLV(MPI_ALLTOALLV)
A2A_FORTRAN_ALLTOALLV(mpi_alltoallv_f08_)

// Pass-through, counted: forwarded untouched to Open MPI's own definition (every Fortran
// argument is a pointer).
#define A2A_FORTRAN_COUNTED9(name, label)                                                      \
  A2A_EXPORT void name(void* a, void* b, void* c, void* d, void* e, void* f, void* g, void* h, \
                       void* i) {                                                              \
    count_passthrough(label);                                                                  \
    using Fn = void (*)(void*, void*, void*, void*, void*, void*, void*, void*, void*);        \
    static const Fn forward = next<Fn>(#name);                                                 \
    forward(a, b, c, d, e, f, g, h, i);                                                        \
  }
#define A2A_FORTRAN_COUNTED10(name, label)                                                     \
  A2A_EXPORT void name(void* a, void* b, void* c, void* d, void* e, void* f, void* g, void* h, \
                       void* i, void* j) {                                                     \
    count_passthrough(label);                                                                  \
    using Fn = void (*)(void*, void*, void*, void*, void*, void*, void*, void*, void*, void*); \
    static const Fn forward = next<Fn>(#name);                                                 \
    forward(a, b, c, d, e, f, g, h, i, j);                                                     \
  }
#define A2A_FORTRAN_COUNTED11(name, label)                                                     \
  A2A_EXPORT void name(void* a, void* b, void* c, void* d, void* e, void* f, void* g, void* h, \
                       void* i, void* j, void* k) {                                            \
    count_passthrough(label);                                                                  \
    using Fn =                                                                                 \
        void (*)(void*, void*, void*, void*, void*, void*, void*, void*, void*, void*, void*); \
    static const Fn forward = next<Fn>(#name);                                                 \
    forward(a, b, c, d, e, f, g, h, i, j, k);                                                  \
  }
// MPI_IALLTOALL(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
// ierror); MPI_ALLTOALLW(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
// rdispls, recvtypes, comm, ierror); MPI_IALLTOALLV: Alltoallv's ten and a request.
A2A_FORTRAN_COUNTED9(mpi_ialltoall_, "MPI_Ialltoall (Fortran)")
A2A_FORTRAN_COUNTED9(mpi_ialltoall_f08_, "MPI_Ialltoall (Fortran)")
A2A_FORTRAN_COUNTED11(mpi_ialltoallv_, "MPI_Ialltoallv (Fortran)")
A2A_FORTRAN_COUNTED11(mpi_ialltoallv_f08_, "MPI_Ialltoallv (Fortran)")
A2A_FORTRAN_COUNTED10(mpi_alltoallw_, "MPI_Alltoallw (Fortran)")
A2A_FORTRAN_COUNTED10(mpi_alltoallw_f08_, "MPI_Alltoallw (Fortran)")

#endif  // OPEN_MPI

// Fortran MPI_FINALIZE: Open MPI's (every binding) and MPICH's mpi_f08 one call PMPI_Finalize
// directly; the summary is printed first, then the library's own definition runs.
#define A2A_FORTRAN_FINALIZE(name)                                           \
  A2A_EXPORT void name(MPI_Fint* ierror) {                                   \
    before_finalize();                                                       \
    using Fn = void (*)(MPI_Fint*);                                          \
    static const Fn forward = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, #name)); \
    forward(ierror);                                                         \
  }
A2A_FORTRAN_FINALIZE(mpi_finalize_)
A2A_FORTRAN_FINALIZE(mpi_finalize__)
A2A_FORTRAN_FINALIZE(mpi_finalize)
A2A_FORTRAN_FINALIZE(MPI_FINALIZE)
A2A_FORTRAN_FINALIZE(mpi_finalize_f08_)
