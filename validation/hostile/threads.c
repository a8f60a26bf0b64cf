/* threads [library] ITERATIONS: two threads of every rank, each calling collectives in a loop on
 * its own duplicate of MPI_COMM_WORLD (MPI_THREAD_MULTIPLE), every result compared with a
 * closed form. Plain mode calls MPI_Alltoall and MPI_Alltoallv (run it with
 * liba2a_interpose.so preloaded); `library` makes and runs a2a plans and exchanges through the
 * C API instead. Block sizes cycle through more shapes than the interposer keeps plans for, so
 * plans are made (collectively, with agreement) all the time in both threads at once: where
 * state is shared without a lock, the ranks disagree on whether a plan exists and hang (the
 * test's timeout) or mix data (a failed check). Prints "threads: N passed, M failed". */
#include <a2a/a2a.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, procs, iterations, library;

struct worker {
  MPI_Comm comm;
  int id;
  long checks, failures;
};

static int value(int from, int to, int i, int id) {
  return from * 1000003 + to * 1009 + i * 7 + id;
}

static void check(struct worker* w, int ok, const char* what, int i) {
  ++w->checks;
  if (!ok) {
    if (w->failures++ < 5)
      fprintf(stderr, "[rank %d thread %d] FAILED at iteration %d: %s\n", rank, w->id, i, what);
  }
}

static void* run(void* arg) {
  struct worker* w = arg;
  enum { SHAPES = 12 };
  int* send = malloc(sizeof(int) * (size_t)procs * 64);
  int* recv = malloc(sizeof(int) * (size_t)procs * 64);
  int *sc = malloc(sizeof(int) * procs), *sd = malloc(sizeof(int) * procs),
      *rc = malloc(sizeof(int) * procs), *rd = malloc(sizeof(int) * procs);
  size_t *zsc = malloc(sizeof(size_t) * procs), *zsd = malloc(sizeof(size_t) * procs),
         *zrc = malloc(sizeof(size_t) * procs), *zrd = malloc(sizeof(size_t) * procs);
  const char* uniform_spec = w->id == 0 ? "linear" : "tra:r=2";
  a2a_exchange ex = NULL;
  if (library) check(w, a2a_exchange_create("sloav", w->comm, &ex) == 0, "exchange create", -1);
  for (int i = 0; i < iterations; ++i) {
    const int n = 1 + (i * 5 + w->id) % SHAPES; /* ints per peer */
    for (int p = 0; p < procs; ++p)
      for (int k = 0; k < n; ++k)
        send[p * n + k] = value(rank, p, i, w->id) + k;
    memset(recv, 0xA5, sizeof(int) * (size_t)procs * n);
    if (!library) {
      check(w, MPI_Alltoall(send, n, MPI_INT, recv, n, MPI_INT, w->comm) == MPI_SUCCESS,
            "MPI_Alltoall", i);
    } else {
      a2a_plan plan = NULL;
      int code = a2a_plan_create_uniform(uniform_spec, w->comm, sizeof(int) * (size_t)n, &plan);
      if (code == 0) code = a2a_plan_execute(plan, send, recv);
      check(w, code == 0, a2a_last_error(), i);
      a2a_plan_free(&plan);
    }
    int ok = 1;
    for (int p = 0; p < procs; ++p)
      for (int k = 0; k < n; ++k)
        ok = ok && recv[p * n + k] == value(p, rank, i, w->id) + k;
    check(w, ok, "Alltoall data", i);
    /* Alltoallv: (from + to + i) % 4 ints from `from` to `to`. */
    int at = 0, rat = 0;
    for (int p = 0; p < procs; ++p) {
      sc[p] = (rank + p + i) % 4;
      rc[p] = (p + rank + i) % 4;
      sd[p] = at;
      rd[p] = rat;
      for (int k = 0; k < sc[p]; ++k)
        send[at + k] = value(rank, p, i, w->id) - k;
      at += sc[p];
      rat += rc[p];
      zsc[p] = sizeof(int) * (size_t)sc[p], zsd[p] = sizeof(int) * (size_t)sd[p];
      zrc[p] = sizeof(int) * (size_t)rc[p], zrd[p] = sizeof(int) * (size_t)rd[p];
    }
    memset(recv, 0xA5, sizeof(int) * (size_t)(rat + 1));
    if (!library) {
      check(w, MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, w->comm) == MPI_SUCCESS,
            "MPI_Alltoallv", i);
    } else {
      check(w, a2a_exchange_execute(ex, send, zsc, zsd, recv, zrc, zrd) == 0, a2a_last_error(), i);
    }
    ok = 1;
    for (int p = 0; p < procs; ++p)
      for (int k = 0; k < rc[p]; ++k)
        ok = ok && recv[rd[p] + k] == value(p, rank, i, w->id) - k;
    check(w, ok, "Alltoallv data", i);
  }
  a2a_exchange_free(&ex);
  free(send), free(recv), free(sc), free(sd), free(rc), free(rd);
  free(zsc), free(zsd), free(zrc), free(zrd);
  return NULL;
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  int arg = 1;
  library = argc > arg && strcmp(argv[arg], "library") == 0;
  arg += library;
  iterations = argc > arg ? atoi(argv[arg]) : 200;
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0)
      printf("threads: the MPI library gives no MPI_THREAD_MULTIPLE: 0 passed, 1 failed\n");
    MPI_Finalize();
    return 1;
  }
  struct worker w[2];
  for (int t = 0; t < 2; ++t) {
    w[t].id = t;
    w[t].checks = w[t].failures = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &w[t].comm); /* in the same order on every rank */
  }
  pthread_t threads[2];
  for (int t = 0; t < 2; ++t)
    pthread_create(&threads[t], NULL, run, &w[t]);
  for (int t = 0; t < 2; ++t)
    pthread_join(threads[t], NULL);
  long counts[2] = {w[0].checks + w[1].checks, w[0].failures + w[1].failures};
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int t = 0; t < 2; ++t)
    MPI_Comm_free(&w[t].comm);
  if (rank == 0) printf("threads: %ld passed, %ld failed\n", counts[0] - counts[1], counts[1]);
  MPI_Finalize();
  return counts[1] != 0;
}
