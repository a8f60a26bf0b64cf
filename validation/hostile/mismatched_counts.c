/* mismatched_counts: an erroneous Alltoallv through every vector backend of the registry, per
 * call (a2a_exchange_execute) as a user's program would make it: rank 0 expects 24 bytes more
 * from rank 1 than rank 1 sends ("more"), or 24 fewer ("less"). Then a correct call on the same
 * exchange. What must hold, for every backend:
 *   - no abort (a2a.h promises return codes) and no hang (the test's timeout);
 *   - rank 0 gets an error (only the MPI library's own MPI_Alltoallv, `mpi`, cannot tell:
 *     there the call may succeed);
 *   - no byte of a receive buffer is anything but the right data, zero, or what the caller had
 *     there (0x5A): never another block's, another call's or a heap's bytes; and nothing is
 *     written past a block's end (the guard after it);
 *   - the next, correct call gives the right data on every rank;
 *   - with A2A_CHECK_COUNTS=1 ("checked"), every rank gets the same error and no data moves.
 * `unchecked more`: only the first case. Both cases run under Open MPI and MPICH (which raises
 * MPI_Waitall's errors on MPI_COMM_WORLD's handler: a2a sets it to return while it waits).
 * Prints "mismatched_counts: N passed, M failed". */
#include <a2a/a2a.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, procs, checks, failures;

static void expect(int ok, const char* backend, const char* what) {
  ++checks;
  if (!ok) {
    ++failures;
    fprintf(stderr, "[rank %d] FAILED %s: %s (last error: %s)\n", rank, backend, what,
            a2a_last_error());
  }
}

enum { B = 40, SLOT = B + 64 }; /* each receive block sits in a slot with room to spare */

static unsigned char data(int from, int to, size_t i) {
  unsigned char v = (unsigned char)(from * 37 + to * 11 + (int)i * 3 + 1);
  return v == 0 || v == 0x5A ? 1 : v; /* never the sentinel nor zero */
}

/* One call; delta: what rank 0 expects from rank 1 beyond what rank 1 sends. */
static int call(a2a_exchange ex, int delta, unsigned char* send, unsigned char* recv) {
  size_t *sc = malloc(sizeof(size_t) * procs), *sd = malloc(sizeof(size_t) * procs),
         *rc = malloc(sizeof(size_t) * procs), *rd = malloc(sizeof(size_t) * procs);
  for (int p = 0; p < procs; ++p) {
    sc[p] = B, sd[p] = (size_t)p * B;
    rc[p] = B, rd[p] = (size_t)p * SLOT;
    for (size_t i = 0; i < B; ++i)
      send[sd[p] + i] = data(rank, p, i);
  }
  if (rank == 0 && procs > 1) rc[1] = (size_t)(B + delta);
  memset(recv, 0x5A, (size_t)procs * SLOT);
  const int code = a2a_exchange_execute(ex, send, sc, sd, recv, rc, rd);
  free(sc), free(sd), free(rc), free(rd);
  return code;
}

/* Every block: the right data, else zero or the sentinel; nothing past its expected end. */
static int clean(const unsigned char* recv, int delta, int exact) {
  for (int p = 0; p < procs; ++p) {
    const size_t expected = rank == 0 && p == 1 ? (size_t)(B + delta) : B;
    for (size_t i = 0; i < SLOT; ++i) {
      const unsigned char got = recv[(size_t)p * SLOT + i];
      if (i >= expected) {
        if (got != 0x5A) return 0; /* written past the block */
      } else if (i < B && got == data(p, rank, i)) {
        continue;
      } else if (exact || (got != 0 && got != 0x5A)) {
        return 0;
      }
    }
  }
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  const char* mode = argc > 1 ? argv[1] : "unchecked";
  const int checked = strcmp(mode, "checked") == 0;
  const int cases = argc > 2 && strcmp(argv[2], "more") == 0 ? 1 : 2;
  unsigned char* send = malloc((size_t)procs * SLOT);
  unsigned char* recv = malloc((size_t)procs * SLOT);
  for (int a = 0; a < a2a_algorithm_count(); ++a) {
    const char* name = NULL;
    unsigned kinds = 0;
    a2a_algorithm_info(a, &name, &kinds, NULL, NULL, NULL);
    if (!(kinds & 2u)) continue;
    a2a_exchange ex = NULL;
    const int made = a2a_exchange_create(name, MPI_COMM_WORLD, &ex);
    if (made == A2A_ERR_UNSUPPORTED) continue; /* shared_window on several nodes, say */
    expect(made == 0, name, "exchange made");
    if (made != 0) continue;
    const int deltas[2] = {24, -24};
    for (int d = 0; d < cases; ++d) {
      const int code = call(ex, deltas[d], send, recv);
      char what[128];
      snprintf(what, sizeof what, "%s than sent", deltas[d] > 0 ? "expects more" : "expects less");
      if (checked) {
        int all = code == A2A_ERR_ARGUMENT;
        MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        expect(all, name, "checked: the error on every rank");
        int untouched = 1;
        for (int i = 0; i < procs * SLOT; ++i)
          untouched = untouched && recv[i] == 0x5A;
        expect(untouched, name, "checked: no data moved");
      } else {
        /* The MPI library's own Alltoallv cannot report a short message. */
        const char* ran = a2a_exchange_name(ex);
        const int blind = strcmp(name, "mpi") == 0 || strstr(ran, "->mpi") != NULL;
        if (rank == 0 && !blind) expect(code != 0, name, what);
        expect(code == 0 || code == A2A_ERR_ARGUMENT || code == A2A_ERR_MPI, name,
               "an argument or MPI error code");
        expect(clean(recv, deltas[d], 0), name, "only right data, zeros or the caller's bytes");
      }
      /* The exchange is whole again: a correct call gives the right data everywhere. */
      expect(call(ex, 0, send, recv) == 0 && clean(recv, 0, 1), name,
             "the next, correct call is right");
    }
    a2a_exchange_free(&ex);
  }
  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("mismatched_counts (%s): %d passed, %d failed\n", mode, totals[0] - totals[1],
           totals[1]);
  }
  free(send), free(recv);
  MPI_Finalize();
  return totals[1] != 0;
}
