/* freed_comm: plans, exchanges and redistributions used after the communicator they were made on
 * is freed, and a new communicator has taken its place (MPI may hand out the freed handle
 * again). Each use must fail with A2A_ERR_ARGUMENT and a message that says so, on every rank,
 * leave the receive buffer untouched, and the handles must still free cleanly; plans made on the
 * new communicator must work. Prints "freed_comm: N passed, M failed". */
#include <a2a/a2a.h>
#include <a2a/transpose.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

/* A refused call: the code on every rank, the message naming the freed communicator. */
static void expect_freed(int code, const char* what) {
  expect_everywhere(code, A2A_ERR_ARGUMENT, "freed", what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  enum { B = 16 };
  unsigned char* send = malloc((size_t)procs * B);
  unsigned char* recv = malloc((size_t)procs * B);
  size_t* counts = malloc(sizeof(size_t) * procs);
  size_t* displs = malloc(sizeof(size_t) * procs);
  for (int p = 0; p < procs; ++p)
    counts[p] = B, displs[p] = (size_t)p * B;
  for (int i = 0; i < procs * B; ++i)
    send[i] = (unsigned char)(rank * 16 + i);

  const char* uniform[] = {"mpi", "linear", "tra:r=2", "shared_window", "auto"};
  const char* vector[] = {"sloav", "linear", "tra_v", "sloavx:q=1", "auto"};
  for (int k = 0; k < 5; ++k) {
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    a2a_plan plan = NULL;
    a2a_exchange ex = NULL;
    a2a_redistribution r = NULL;
    a2a_box box = {{rank, 0, 0}, {rank + 1, 2, 2}};
    const int made = a2a_plan_create_uniform(uniform[k], c, B, &plan) == 0 &&
                     a2a_exchange_create(vector[k], c, &ex) == 0 &&
                     a2a_redistribution_create(c, &box, &box, 8, vector[k], &r) == 0;
    expect(made, "made on a live communicator");
    if (!made) continue;
    MPI_Comm_free(&c);
    /* A new communicator where the old one was: a split, as in the report. */
    MPI_Comm other;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &other);
    memset(recv, 0x5A, (size_t)procs * B);
    expect_freed(a2a_plan_execute(plan, send, recv), "plan after MPI_Comm_free");
    expect_freed(a2a_plan_start(plan, send, recv), "plan start after MPI_Comm_free");
    expect_freed(a2a_exchange_execute(ex, send, counts, displs, recv, counts, displs),
                 "exchange after MPI_Comm_free");
    expect_freed(a2a_redistribution_execute(r, send, recv), "redistribution after MPI_Comm_free");
    int untouched = 1;
    for (int i = 0; i < procs * B; ++i)
      untouched = untouched && recv[i] == 0x5A;
    expect(untouched, "receive buffer untouched by refused calls");
    expect(a2a_plan_free(&plan) == 0 && a2a_exchange_free(&ex) == 0 &&
               a2a_redistribution_free(&r) == 0,
           "handles free cleanly after their communicator");
    /* The new communicator works, with a plan of its own. */
    int size = 0;
    MPI_Comm_size(other, &size);
    a2a_plan fresh = NULL;
    expect(a2a_plan_create_uniform(uniform[k], other, B, &fresh) == 0 &&
               a2a_plan_execute(fresh, send, recv) == 0,
           "a plan on the new communicator");
    a2a_plan_free(&fresh);
    MPI_Comm_free(&other);
  }
  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("freed_comm: %d passed, %d failed\n", totals[0] - totals[1], totals[1]);
  free(send), free(recv), free(counts), free(displs);
  MPI_Finalize();
  return totals[1] != 0;
}
