/* finalize [barrier]: twenty MPI_Alltoalls of 16 KiB, then MPI_Finalize (after a barrier with
 * `barrier`): no a2a at all. Launched repeatedly on the emulated cluster under MPICH 4.0.2 with
 * UCX 1.13 (TCP between hosts) it hangs in MPI_Finalize in about 1 launch of 3 (4 of 12 here,
 * with or without the barrier): the evidence that the hang is MPICH's and UCX's
 * (validation/mpich_yield.c, docs/cluster.md), and the test that the shim avoids it. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int procs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  int* send = calloc((size_t)procs * 4096, sizeof(int));
  int* recv = calloc((size_t)procs * 4096, sizeof(int));
  for (int i = 0; i < 20; ++i)
    MPI_Alltoall(send, 4096, MPI_INT, recv, 4096, MPI_INT, MPI_COMM_WORLD);
  if (argc > 1) MPI_Barrier(MPI_COMM_WORLD);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
