/* intercomm: every create call of the C API given a communicator it cannot use, as a user's
 * program does by mistake: an inter-communicator (MPI_Intercomm_create of the even and odd
 * ranks), under the default error handler and under MPI_ERRORS_RETURN; MPI_COMM_NULL; and,
 * after MPI_Finalize, any communicator. Each must return A2A_ERR_ARGUMENT with a message naming
 * the problem on every rank: never an abort (MPI's in-place Allreduce is illegal on an
 * inter-communicator), a hang, or a heap overrun. The merged intra-communicator
 * (MPI_Intercomm_merge) must then work. Needs 2 ranks or more.
 * Prints "intercomm: N passed, M failed" (the last line, after MPI_Finalize, on rank 0). */
#include <a2a/a2a.h>
#include <a2a/transpose.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

static void try_every_create(MPI_Comm comm, const char* words, const char* label) {
  char what[160];
  size_t counts[64], displs[64];
  for (int p = 0; p < 64; ++p)
    counts[p] = 8, displs[p] = (size_t)p * 8;
  /* Each handle not NULL before its create, which must clear it. */
  a2a_plan plan = (a2a_plan)counts;
  snprintf(what, sizeof what, "%s: a2a_plan_create_uniform", label);
  expect_refused(a2a_plan_create_uniform("linear", comm, 8, &plan), &plan, words, what);
  plan = (a2a_plan)counts;
  snprintf(what, sizeof what, "%s: a2a_plan_create_vector", label);
  expect_refused(a2a_plan_create_vector("sloav", comm, counts, displs, counts, displs, &plan),
                 &plan, words, what);
  a2a_exchange ex = (a2a_exchange)counts;
  snprintf(what, sizeof what, "%s: a2a_exchange_create", label);
  expect_refused(a2a_exchange_create("auto", comm, &ex), &ex, words, what);
  a2a_redistribution r = (a2a_redistribution)counts;
  a2a_box box = {{rank, 0, 0}, {rank + 1, 2, 2}};
  snprintf(what, sizeof what, "%s: a2a_redistribution_create", label);
  expect_refused(a2a_redistribution_create(comm, &box, &box, 8, "auto", &r), &r, words, what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  if (procs < 2 || procs > 64) {
    if (rank == 0) fprintf(stderr, "intercomm: run with 2 to 64 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Even ranks and odd ranks, joined by an inter-communicator (leaders: world ranks 0 and 1). */
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 7, &inter);
  try_every_create(inter, "inter-communicator", "inter-communicator, default handler");
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  try_every_create(inter, "inter-communicator", "inter-communicator, MPI_ERRORS_RETURN");
  try_every_create(MPI_COMM_NULL, "MPI_COMM_NULL", "MPI_COMM_NULL");

  /* Merged into one group, the same ranks can exchange. */
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, rank % 2, &merged);
  int merged_procs = 0, merged_rank = 0;
  MPI_Comm_size(merged, &merged_procs);
  MPI_Comm_rank(merged, &merged_rank);
  unsigned char* send = malloc((size_t)merged_procs * 8);
  unsigned char* recv = malloc((size_t)merged_procs * 8);
  for (int i = 0; i < merged_procs * 8; ++i)
    send[i] = (unsigned char)(merged_rank * 31 + i / 8);
  a2a_plan plan = NULL;
  int ok = a2a_plan_create_uniform("linear", merged, 8, &plan) == A2A_SUCCESS &&
           a2a_plan_execute(plan, send, recv) == A2A_SUCCESS;
  for (int p = 0; ok && p < merged_procs; ++p)
    ok = recv[p * 8] == (unsigned char)(p * 31 + merged_rank);
  expect(ok, "the merged intra-communicator exchanges");
  a2a_plan_free(&plan);
  free(send);
  free(recv);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);

  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();

  /* After MPI_Finalize: refused without any MPI call that MPI forbids now. */
  checks = failures = 0;
  a2a_plan late = (a2a_plan)&checks;
  expect_refused(a2a_plan_create_uniform("linear", MPI_COMM_WORLD, 8, &late), &late, "finalized",
                 "a2a_plan_create_uniform after MPI_Finalize");
  a2a_exchange late_ex = (a2a_exchange)&checks;
  expect_refused(a2a_exchange_create("auto", MPI_COMM_WORLD, &late_ex), &late_ex, "finalized",
                 "a2a_exchange_create after MPI_Finalize");
  a2a_redistribution late_r = (a2a_redistribution)&checks;
  a2a_box box = {{0, 0, 0}, {1, 1, 1}};
  expect_refused(a2a_redistribution_create(MPI_COMM_WORLD, &box, &box, 8, "auto", &late_r), &late_r,
                 "finalized", "a2a_redistribution_create after MPI_Finalize");
  if (rank == 0) {
    printf("intercomm: %d passed, %d failed\n", totals[0] + checks - totals[1] - failures,
           totals[1] + failures);
  }
  return totals[1] + failures == 0 ? 0 : 1;
}
