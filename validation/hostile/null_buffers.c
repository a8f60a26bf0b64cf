/* null_buffers: a NULL send or receive buffer on the last rank only, where that rank has bytes
 * to move, through every exchange call of the C API (a2a_plan_execute and a2a_plan_start on
 * uniform and vector plans, a2a_exchange_execute, a2a_redistribution_execute and
 * a2a_redistribution_start), over several backends. That rank's call must return
 * A2A_ERR_ARGUMENT saying which buffer, before it communicates (it crashed the process before):
 * the same call made again with its buffers then meets the other ranks' one exchange, and every
 * rank's data must be right (a closed form: each byte names its sender, receiver and place).
 * As MPI's own check of its arguments, the error is the bad rank's alone: a program that does
 * not retry aborts, as after any MPI error.
 * Prints "null_buffers: N passed, M failed". */
#include <a2a/a2a.h>
#include <a2a/transpose.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"

enum { kBlock = 24 };

/* The byte at index i of the block from `from` to `to`. */
static unsigned char byte_of(int from, int to, size_t i) {
  return (unsigned char)(from * 31 + to * 7 + (int)i * 3 + 1);
}

static void fill_blocks(unsigned char* send, const size_t* displs) {
  for (int q = 0; q < procs; ++q)
    for (size_t i = 0; i < kBlock; ++i)
      send[displs[q] + i] = byte_of(rank, q, i);
}

static int blocks_right(const unsigned char* recv, const size_t* displs) {
  for (int s = 0; s < procs; ++s)
    for (size_t i = 0; i < kBlock; ++i)
      if (recv[displs[s] + i] != byte_of(s, rank, i)) return 0;
  return 1;
}

/* The last rank's bad call: A2A_ERR_ARGUMENT naming the buffer (every other rank: success). */
static int refused_here(int code, const char* words) {
  return rank == procs - 1 ? code == A2A_ERR_ARGUMENT && strstr(a2a_last_error(), words) != NULL
                           : code == A2A_SUCCESS;
}

/* side 0: the send buffer NULL on the last rank; 1: the receive buffer. */
static void plans(const char* spec, int side, int vector, int split) {
  char what[160];
  snprintf(what, sizeof what, "%s plan %s, NULL %s buffer on rank %d, %s",
           vector ? "vector" : "uniform", spec, side == 0 ? "send" : "receive", procs - 1,
           split ? "start" : "execute");
  size_t counts[64], displs[64];
  for (int q = 0; q < procs; ++q) {
    counts[q] = kBlock;
    displs[q] = (size_t)(procs - 1 - q) * kBlock; /* blocks in reverse: a vector layout */
  }
  a2a_plan plan = NULL;
  const int made =
      vector ? a2a_plan_create_vector(spec, MPI_COMM_WORLD, counts, displs, counts, displs, &plan)
             : a2a_plan_create_uniform(spec, MPI_COMM_WORLD, kBlock, &plan);
  if (made != A2A_SUCCESS) { /* a backend this P does not take is not this test's subject */
    expect(made == A2A_ERR_UNSUPPORTED, what);
    return;
  }
  if (!vector)
    for (int q = 0; q < procs; ++q)
      displs[q] = (size_t)q * kBlock;
  unsigned char* send = malloc((size_t)procs * kBlock);
  unsigned char* recv = calloc((size_t)procs, kBlock);
  fill_blocks(send, displs);
  const int bad = rank == procs - 1;
  const void* s = bad && side == 0 ? NULL : send;
  void* r = bad && side == 1 ? NULL : recv;
  int code = A2A_SUCCESS;
  if (bad) code = split ? a2a_plan_start(plan, s, r) : a2a_plan_execute(plan, s, r);
  expect(refused_here(code, side == 0 ? "send buffer is NULL" : "receive buffer is NULL"), what);
  /* Every rank's one exchange; the bad rank's retry with its buffers. */
  if (split) {
    code = a2a_plan_start(plan, send, recv);
    if (code == A2A_SUCCESS) code = a2a_plan_finish(plan);
  } else {
    code = a2a_plan_execute(plan, send, recv);
  }
  expect(code == A2A_SUCCESS && blocks_right(recv, displs), what);
  a2a_plan_free(&plan);
  free(send);
  free(recv);
}

static void per_call(const char* spec, int side) {
  char what[160];
  snprintf(what, sizeof what, "exchange %s, NULL %s buffer on rank %d", spec,
           side == 0 ? "send" : "receive", procs - 1);
  a2a_exchange exchange = NULL;
  expect(a2a_exchange_create(spec, MPI_COMM_WORLD, &exchange) == A2A_SUCCESS, what);
  size_t counts[64], displs[64];
  for (int q = 0; q < procs; ++q) {
    counts[q] = kBlock;
    displs[q] = (size_t)q * kBlock;
  }
  unsigned char* send = malloc((size_t)procs * kBlock);
  unsigned char* recv = calloc((size_t)procs, kBlock);
  fill_blocks(send, displs);
  int code = A2A_SUCCESS;
  if (rank == procs - 1) {
    code = a2a_exchange_execute(exchange, side == 0 ? NULL : send, counts, displs,
                                side == 1 ? NULL : recv, counts, displs);
  }
  expect(refused_here(code, side == 0 ? "send buffer is NULL" : "receive buffer is NULL"), what);
  expect(
      a2a_exchange_execute(exchange, send, counts, displs, recv, counts, displs) == A2A_SUCCESS &&
          blocks_right(recv, displs),
      what);
  a2a_exchange_free(&exchange);
  free(send);
  free(recv);
}

/* x-slabs to y-slabs of a (2P) x (2P) x 3 grid of 8-byte values, each its global index. */
static void redistributions(const char* spec, int side, int split) {
  char what[160];
  snprintf(what, sizeof what, "redistribution %s, NULL %s array on rank %d, %s", spec,
           side == 0 ? "input" : "output", procs - 1, split ? "start" : "execute");
  const int64_t n = 2 * procs, nz = 3;
  const a2a_box in = {{2 * rank, 0, 0}, {2 * rank + 2, n, nz}};
  const a2a_box out = {{0, 2 * rank, 0}, {n, 2 * rank + 2, nz}};
  a2a_redistribution r = NULL;
  expect(a2a_redistribution_create(MPI_COMM_WORLD, &in, &out, sizeof(int64_t), spec, &r) ==
             A2A_SUCCESS,
         what);
  const size_t count = (size_t)(2 * n * nz);
  int64_t* a = malloc(count * sizeof(int64_t));
  int64_t* b = calloc(count, sizeof(int64_t));
  for (size_t i = 0; i < count; ++i) {
    const int64_t x = 2 * rank + (int64_t)i / (n * nz), y = ((int64_t)i / nz) % n,
                  z = (int64_t)i % nz;
    a[i] = (x * n + y) * nz + z;
  }
  int code = A2A_SUCCESS;
  if (rank == procs - 1) {
    const void* from = side == 0 ? NULL : a;
    void* to = side == 1 ? NULL : b;
    code = split ? a2a_redistribution_start(r, from, to) : a2a_redistribution_execute(r, from, to);
  }
  expect(refused_here(code, side == 0 ? "input array is NULL" : "output array is NULL"), what);
  code = split ? a2a_redistribution_start(r, a, b) : a2a_redistribution_execute(r, a, b);
  if (split && code == A2A_SUCCESS) code = a2a_redistribution_finish(r);
  int right = code == A2A_SUCCESS;
  for (size_t i = 0; i < count && right; ++i) {
    const int64_t x = (int64_t)i / (2 * nz), y = 2 * rank + ((int64_t)i / nz) % 2,
                  z = (int64_t)i % nz;
    right = b[i] == (x * n + y) * nz + z;
  }
  expect(right, what);
  a2a_redistribution_free(&r);
  free(a);
  free(b);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  if (procs > 64) {
    if (rank == 0) fprintf(stderr, "null_buffers: at most 64 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int side = 0; side < 2; ++side) {
    for (int split = 0; split < 2; ++split) {
      for (const char* const* s =
               (const char* const[]){"pairwise", "mpi", "tra:r=2", "shared_window", "auto", NULL};
           *s != NULL; ++s) {
        plans(*s, side, 0, split);
      }
      for (const char* const* s =
               (const char* const[]){"linear", "sloav", "shared_window", "auto", NULL};
           *s != NULL; ++s) {
        plans(*s, side, 1, split);
      }
      for (const char* const* s = (const char* const[]){"pairwise", "shared_window", "auto", NULL};
           *s != NULL; ++s) {
        redistributions(*s, side, split);
      }
    }
    for (const char* const* s = (const char* const[]){"pairwise", "sloav", "auto", NULL};
         *s != NULL; ++s) {
      per_call(*s, side);
    }
  }
  int all[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("null_buffers: %d passed, %d failed\n", all[0] - all[1], all[1]);
  MPI_Finalize();
  return all[1] == 0 ? 0 : 1;
}
