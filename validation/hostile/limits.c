/* limits: integers at and past their limits through the C API, each an error with a clear
 * message on every rank (never a wrap-around, a hang or a read past an array), and calls out
 * of order refused:
 *   a2a_model where K or D exceed 2^64 - 1 (and the loop that never ended for P > 2^63);
 *   a2a_block_start past 2^63 / 4 and with bad arguments;
 *   redistribution boxes whose bytes exceed 2^63 - 1 (2^21 x 2^21 x 2^22 elements, 2^62 + 1);
 *   a vector plan with a count of (size_t)-1;
 *   a2a_plan_execute between a2a_plan_start and a2a_plan_finish.
 * Prints "limits: N passed, M failed". */
#include <a2a/a2a.h>
#include <a2a/transpose.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  uint64_t w = 0, k = 0, d = 0;

  /* The model: exact where it fits, an error where it does not, always quick. */
  expect(a2a_model(16384, 128, &w, &k, &d) == 0 && w == 2 && k == 254 && d == 32512,
         "model P=16384 r=128: K = 2 (r - 1) = 254, D = 2 (r - 1) r = 32512");
  expect(a2a_model((UINT64_C(1) << 63) + 1, 2, &w, &k, &d) == A2A_ERR_ARGUMENT &&
             strstr(a2a_last_error(), "exceeds 2^64 - 1") != NULL,
         "model P=2^63+1 r=2: D does not fit, an error (it looped forever)");
  expect(a2a_model(UINT64_MAX, 2, &w, &k, &d) == A2A_ERR_ARGUMENT, "model P=2^64-1 r=2");
  expect(a2a_model(UINT64_MAX, UINT64_MAX, &w, &k, &d) == 0 && w == 1 && k == UINT64_MAX - 1 &&
             d == UINT64_MAX - 1,
         "model P=r=2^64-1: one digit, K = D = P - 1");
  expect(a2a_model(UINT64_C(1) << 62, UINT64_C(1) << 31, &w, &k, &d) == 0 && w == 2 &&
             k == 2 * ((UINT64_C(1) << 31) - 1),
         "model P=2^62 r=2^31: Proposition 1, K = 2 (r - 1)");
  expect(a2a_model(0, 2, &w, &k, &d) == A2A_ERR_SPEC, "model P=0: a spec error");

  /* block_start: exact (it wrapped to a negative number), -1 for bad arguments. */
  expect(a2a_block_start(INT64_C(1) << 62, 4, 3) == 3 * (INT64_C(1) << 60),
         "block_start(2^62, 4, 3) = 3 * 2^60");
  /* floor((2^63 - 1) * 2 / 3), exactly */
  expect(a2a_block_start(INT64_MAX, 3, 2) == INT64_C(6148914691236517204),
         "block_start(2^63 - 1, 3, 2)");
  expect(a2a_block_start(10, 0, 0) == -1 && strstr(a2a_last_error(), "parts") != NULL,
         "block_start with no parts: -1 and why");
  expect(a2a_block_start(-5, 2, 1) == -1, "block_start of a negative n: -1");
  expect(a2a_block_start(10, 2, 3) == -1, "block_start of part 3 of 2: -1");

  /* Boxes past 2^63 - 1 bytes: refused on every rank, before anything is exchanged. */
  a2a_redistribution r = NULL;
  a2a_box huge = {{0, 0, 0}, {INT64_C(1) << 21, INT64_C(1) << 21, INT64_C(1) << 22}};
  a2a_box empty = {{0, 0, 0}, {0, 0, 0}};
  a2a_box* mine = rank == 0 ? &huge : &empty;
  expect_everywhere(
      a2a_redistribution_create(MPI_COMM_WORLD, mine, mine, 16, "mpi", &r), A2A_ERR_ARGUMENT,
      "[0:2097152, 0:2097152, 0:4194304) of 16-byte elements holds more than 2^63 - 1 bytes",
      "a box of 2^64 elements (rank 0's only): the same error on every rank");
  expect(r == NULL, "no handle for a refused box");
  a2a_box long_box = {{0, 0, 0}, {(INT64_C(1) << 62) + 1, 1, 1}};
  mine = rank == procs - 1 ? &long_box : &empty;
  expect_everywhere(a2a_redistribution_create(MPI_COMM_WORLD, mine, mine, 16, "mpi", &r),
                    A2A_ERR_ARGUMENT, "more than 2^63 - 1 bytes",
                    "a box of 2^62 + 1 16-byte elements: refused on every rank");

  /* A vector plan with a count of (size_t)-1 on one rank: a clear error on every rank. */
  size_t* counts = calloc((size_t)procs, sizeof(size_t));
  size_t* displs = calloc((size_t)procs, sizeof(size_t));
  size_t* bad = calloc((size_t)procs, sizeof(size_t));
  memcpy(bad, counts, sizeof(size_t) * procs);
  if (rank == 0) bad[procs - 1] = (size_t)-1;
  a2a_plan plan = NULL;
  expect_everywhere(
      a2a_plan_create_vector("linear", MPI_COMM_WORLD, bad, displs, counts, displs, &plan),
      A2A_ERR_ARGUMENT, "reaches past 2^63 bytes",
      "a count of (size_t)-1: a clear error on every rank");

  /* execute between start and finish: refused, and the started exchange still completes. */
  enum { B = 8 };
  unsigned char* send = malloc((size_t)procs * B);
  unsigned char* recv = malloc((size_t)procs * B);
  unsigned char* other = malloc((size_t)procs * B);
  for (int i = 0; i < procs * B; ++i)
    send[i] = (unsigned char)(rank + i);
  const char* specs[] = {"linear", "mpi", "tra:r=2"};
  for (int s = 0; s < 3; ++s) {
    expect(a2a_plan_create_uniform(specs[s], MPI_COMM_WORLD, B, &plan) == 0, "plan made");
    memset(recv, 0, (size_t)procs * B);
    expect(a2a_plan_start(plan, send, recv) == 0, "start");
    memset(other, 0x5A, (size_t)procs * B);
    expect(a2a_plan_execute(plan, send, other) == A2A_ERR_ARGUMENT &&
               strstr(a2a_last_error(), "in progress") != NULL,
           "execute between start and finish: refused");
    int untouched = 1;
    for (int i = 0; i < procs * B; ++i)
      untouched = untouched && other[i] == 0x5A;
    expect(untouched, "the refused execute wrote nothing");
    expect(a2a_plan_finish(plan) == 0, "finish");
    int right = 1;
    for (int p = 0; p < procs; ++p)
      for (int i = 0; i < B; ++i)
        right = right && recv[p * B + i] == (unsigned char)(p + rank * B + i);
    expect(right, "the started exchange's data");
    a2a_plan_free(&plan);
  }

  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("limits: %d passed, %d failed\n", totals[0] - totals[1], totals[1]);
  free(counts), free(displs), free(bad), free(send), free(recv), free(other);
  MPI_Finalize();
  return totals[1] != 0;
}
