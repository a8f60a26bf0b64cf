// The interposer's C entry points: MPI_Alltoall and MPI_Alltoallv replaced, the nonblocking
// and Alltoallw calls counted and passed through, MPI_Finalize preceded by the summary. C and
// C++ programs call these, and so do MPICH's Fortran bindings.
#include <mpi.h>

#include "interposer.hpp"

using namespace a2a::interpose;

A2A_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return interposed_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

A2A_EXPORT int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return interposed_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
}

// Not replaced, counted: so that a user sees why a code was not accelerated.
A2A_EXPORT int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  count_passthrough("MPI_Ialltoall");
  return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
A2A_EXPORT int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request* request) {
  count_passthrough("MPI_Ialltoallv");
  return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, comm, request);
}
A2A_EXPORT int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  count_passthrough("MPI_Alltoallw");
  return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm);
}

A2A_EXPORT int MPI_Finalize(void) {
  before_finalize();
  return PMPI_Finalize();
}
