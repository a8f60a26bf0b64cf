// The interposer's calls behind its entry points (interpose.cpp), shared by the C entry points
// (c_entry.cpp) and Open MPI's Fortran ones (fortran_entry.cpp).
#pragma once

#include <mpi.h>

#include <mutex>

// An entry point the interposer exports (interpose/exports.map lists what may leave the
// library).
#define A2A_EXPORT extern "C" __attribute__((visibility("default")))

namespace a2a::interpose {

// MPI_Alltoall and MPI_Alltoallv through a2a (or PMPI_ where a2a does not apply): MPI's
// arguments, MPI's return codes.
int interposed_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int interposed_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);

// A call that went through untouched, for A2A_VERBOSE's summary.
void count_passthrough(const char* what);

// The lock of the interposer's process-wide state.
std::mutex& shared_lock();

// The summary and MPI_COMM_WORLD's plans freed, once, before MPI_Finalize (C or Fortran).
void before_finalize();

}  // namespace a2a::interpose
