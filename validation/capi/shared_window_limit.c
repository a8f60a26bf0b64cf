/* A plain C MPI program on the C API, run under a file size limit below a shared window's
   size (ulimit -f): a shared_window plan must fail with the reason on every rank (Open MPI
   used to abort the job in MPI_Win_allocate_shared), and auto:single_copy=on must go on with a
   plain backend that exchanges correctly. Exit 0 only when both hold on every rank. */
#include <a2a/a2a.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, procs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  const size_t block = (size_t)8 << 20; /* the window: procs * procs * 8 MiB */
  int ok = 1;
  a2a_plan plan;
  if (a2a_plan_create_uniform("shared_window", MPI_COMM_WORLD, block, &plan) == 0) {
    printf("rank %d: shared_window was built under the limit\n", rank);
    a2a_plan_free(&plan);
    ok = 0;
  } else {
    printf("rank %d: %s\n", rank, a2a_last_error());
    ok = ok && strstr(a2a_last_error(), "does not fit: the file size limit") != NULL;
  }
  if (a2a_plan_create_uniform("auto:single_copy=on", MPI_COMM_WORLD, block, &plan) != 0) {
    printf("rank %d: auto failed: %s\n", rank, a2a_last_error());
    ok = 0;
  } else {
    char* send = malloc(block * (size_t)procs);
    char* recv = malloc(block * (size_t)procs);
    for (size_t i = 0; i < block * (size_t)procs; ++i)
      send[i] = (char)(rank * 7 + i / block + i);
    ok = ok && a2a_plan_execute(plan, send, recv) == 0;
    for (int q = 0; q < procs; ++q) {
      for (size_t i = 0; i < block; i += 4093) {
        const size_t at = (size_t)rank * block + i; /* where q put its block for this rank */
        ok = ok && recv[(size_t)q * block + i] == (char)(q * 7 + rank + at);
      }
    }
    printf("rank %d: %s %s\n", rank, a2a_plan_name(plan), ok ? "correct" : "WRONG");
    ok = ok && strstr(a2a_plan_name(plan), "shared_window") == NULL;
    a2a_plan_free(&plan);
    free(send);
    free(recv);
  }
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) printf("shared_window_limit: %s\n", ok ? "1 passed, 0 failed" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}
