/* placement SPEC@EXPECT... : what each backend does on the placement it is launched on, through
 * the C API as a user's program calls it. EXPECT is `ok` (the plan is made and its Alltoall and
 * Alltoallv give MPI's own results), `refused` (a clear error: the same code and message on
 * every rank, no hang) or `any` (either, but never wrong data). For every spec rank 0 prints
 *   SPEC: uniform NAME | refused CODE MESSAGE; vector NAME | refused CODE MESSAGE
 * and the program ends with "N passed, M failed". Ranks gather the codes and messages to
 * compare them, so a rank that disagrees is a failure too. */
#include <a2a/a2a.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, procs, failed, passed;

/* Every rank's (code, message) equal to rank 0's? */
static int agreed(int code, const char* message) {
  char mine[512] = {0}, root[512] = {0};
  snprintf(mine, sizeof mine, "%d %s", code, message);
  memcpy(root, mine, sizeof root);
  MPI_Bcast(root, sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = strcmp(root, mine) == 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return same;
}

static unsigned char pattern(int from, int to, size_t i) {
  return (unsigned char)(from * 31 + to * 7 + (int)i * 13 + 1);
}

/* The kinds the registry gives the spec's algorithm: bit 1 uniform, bit 2 vector. */
static unsigned kinds_of(const char* spec) {
  size_t length = strcspn(spec, ":");
  for (int i = 0; i < a2a_algorithm_count(); ++i) {
    const char* name = NULL;
    unsigned kinds = 0;
    a2a_algorithm_info(i, &name, &kinds, NULL, NULL, NULL);
    if (strlen(name) == length && strncmp(name, spec, length) == 0) return kinds;
  }
  return 3;
}

/* The uniform and per-call vector forms of one spec (those its algorithm has). */
static void try_spec(const char* spec, const char* expect) {
  enum { B = 100 };
  unsigned char *send = malloc((size_t)procs * B), *recv = malloc((size_t)procs * B),
                *ref = malloc((size_t)procs * B);
  size_t *sc = malloc(sizeof(size_t) * procs), *sd = malloc(sizeof(size_t) * procs),
         *rc = malloc(sizeof(size_t) * procs), *rd = malloc(sizeof(size_t) * procs);
  int *isc = malloc(sizeof(int) * procs), *isd = malloc(sizeof(int) * procs),
      *irc = malloc(sizeof(int) * procs), *ird = malloc(sizeof(int) * procs);
  char line[2048];
  int ok = 1;
  snprintf(line, sizeof line, "%s:", spec);
  const unsigned kinds = kinds_of(spec);
  for (int form = 0; form < 2; ++form) {
    if (!(kinds & (form == 0 ? 1u : 2u))) continue;
    /* uniform: B bytes per peer; vector: (from + to) % 5 * 20 bytes per peer */
    size_t at = 0, rat = 0;
    for (int p = 0; p < procs; ++p) {
      sc[p] = form == 0 ? B : (size_t)((rank + p) % 5) * 20;
      rc[p] = form == 0 ? B : (size_t)((p + rank) % 5) * 20;
      sd[p] = at;
      rd[p] = rat;
      at += sc[p];
      rat += rc[p];
      isc[p] = (int)sc[p], isd[p] = (int)sd[p], irc[p] = (int)rc[p], ird[p] = (int)rd[p];
      for (size_t i = 0; i < sc[p]; ++i)
        send[sd[p] + i] = pattern(rank, p, i);
    }
    memset(recv, 0xA5, (size_t)procs * B);
    memset(ref, 0x5A, (size_t)procs * B);
    MPI_Alltoallv(send, isc, isd, MPI_BYTE, ref, irc, ird, MPI_BYTE, MPI_COMM_WORLD);
    int code = 0;
    const char* name = "";
    a2a_plan plan = NULL;
    a2a_exchange ex = NULL;
    if (form == 0) {
      code = a2a_plan_create_uniform(spec, MPI_COMM_WORLD, B, &plan);
      if (code == A2A_SUCCESS) {
        name = a2a_plan_name(plan);
        code = a2a_plan_execute(plan, send, recv);
      }
    } else {
      code = a2a_exchange_create(spec, MPI_COMM_WORLD, &ex);
      if (code == A2A_SUCCESS) code = a2a_exchange_execute(ex, send, sc, sd, recv, rc, rd);
      if (code == A2A_SUCCESS) name = a2a_exchange_name(ex);
    }
    const char* form_name = form == 0 ? "uniform" : "vector";
    if (!agreed(code, code == A2A_SUCCESS ? "" : a2a_last_error())) {
      ok = 0;
      snprintf(line + strlen(line), sizeof line - strlen(line), " %s: RANKS DISAGREE (%d: %s);",
               form_name, code, a2a_last_error());
    } else if (code == A2A_SUCCESS) {
      int wrong = memcmp(recv, ref, rat) != 0;
      MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
      if (wrong || strcmp(expect, "refused") == 0) ok = 0;
      snprintf(line + strlen(line), sizeof line - strlen(line), " %s %s%s;", form_name, name,
               wrong ? " WRONG DATA" : "");
    } else {
      if (strcmp(expect, "ok") == 0) ok = 0;
      snprintf(line + strlen(line), sizeof line - strlen(line), " %s refused %d %s;", form_name,
               code, a2a_last_error());
    }
    a2a_plan_free(&plan);
    a2a_exchange_free(&ex);
  }
  if (rank == 0) printf("%s %s\n", line, ok ? "(as expected)" : "FAILED");
  if (ok)
    ++passed;
  else
    ++failed;
  free(send), free(recv), free(ref), free(sc), free(sd), free(rc), free(rd);
  free(isc), free(isd), free(irc), free(ird);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  for (int i = 1; i < argc; ++i) {
    char spec[256];
    snprintf(spec, sizeof spec, "%s", argv[i]);
    char* at = strrchr(spec, '@');
    const char* expect = at ? at + 1 : "ok";
    if (at) *at = '\0';
    try_spec(spec, expect);
  }
  if (rank == 0) printf("%d passed, %d failed\n", passed, failed);
  MPI_Finalize();
  return failed != 0;
}
