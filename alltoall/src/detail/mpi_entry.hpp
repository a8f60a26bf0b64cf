// The collectives the interposition library replaces. The normal build calls the public
// MPI_ entry points (so a program's own `mpi` backend can itself be interposed); the
// interposer's copy of the library is compiled with A2A_PMPI_COLLECTIVES and calls PMPI_, so
// it never calls itself.
#pragma once

#include <mpi.h>

#ifdef A2A_PMPI_COLLECTIVES
#define A2A_MPI_ALLTOALL PMPI_Alltoall
#define A2A_MPI_ALLTOALLV PMPI_Alltoallv
#define A2A_MPI_ALLTOALLW PMPI_Alltoallw
#define A2A_MPI_IALLTOALL PMPI_Ialltoall
#define A2A_MPI_IALLTOALLV PMPI_Ialltoallv
#define A2A_MPI_IALLTOALLW PMPI_Ialltoallw
#else
#define A2A_MPI_ALLTOALL MPI_Alltoall
#define A2A_MPI_ALLTOALLV MPI_Alltoallv
#define A2A_MPI_ALLTOALLW MPI_Alltoallw
#define A2A_MPI_IALLTOALL MPI_Ialltoall
#define A2A_MPI_IALLTOALLV MPI_Ialltoallv
#define A2A_MPI_IALLTOALLW MPI_Ialltoallw
#endif
