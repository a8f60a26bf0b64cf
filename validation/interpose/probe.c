/* A plain C MPI program (built with mpicc, no a2a headers) that calls MPI_Alltoall and
 * MPI_Alltoallv the ways applications do and compares every result, byte for byte, with the
 * MPI library's own PMPI_ call on the same arguments. Run with liba2a_interpose.so preloaded
 * (and without: then both sides are the library's). Cases: counts 0, 1, 3, 1000; MPI_IN_PLACE;
 * equal signatures through different types (a contiguous derived type against plain ints, a
 * permuted struct on some ranks only); types whose data is not plain bytes in order (a struct
 * {int at 4, int at 0}, an indexed type shifted by 4 bytes in a resized extent, a strided
 * vector, a struct with padding); Alltoallv with gaps, zero counts, in place, negative
 * displacements; a split communicator; Ialltoall and Alltoallw (passed through, counted);
 * 1000 communicators created, used and freed. Prints "probe.c: N passed, M failed". */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks = 0, failures = 0;

static void expect(int ok, const char* what, int rank) {
  ++checks;
  if (!ok) {
    ++failures;
    fprintf(stderr, "[rank %d] FAILED: %s\n", rank, what);
  }
}

static void ramp(int* v, size_t n, int rank) {
  for (size_t i = 0; i < n; ++i)
    v[i] = rank * 100000 + (int)i;
}

/* MPI_Alltoall and PMPI_Alltoall on the same arguments; recv buffers of `bytes`. */
static void alltoall_case(MPI_Comm comm, const char* what, const void* send, int sc,
                          MPI_Datatype st, int rc, MPI_Datatype rt, size_t bytes) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  unsigned char* got = malloc(bytes + 1);
  unsigned char* want = malloc(bytes + 1);
  memset(got, 0x5A, bytes + 1);
  memset(want, 0x5A, bytes + 1);
  MPI_Alltoall(send, sc, st, got, rc, rt, comm);
  PMPI_Alltoall(send, sc, st, want, rc, rt, comm);
  expect(memcmp(got, want, bytes + 1) == 0, what, rank);
  free(got);
  free(want);
}

static void uniform_cases(MPI_Comm comm, const char* where) {
  int rank = 0, procs = 1;
  char what[256];
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  const size_t P = (size_t)procs;
  int counts[] = {0, 1, 3, 1000};
  for (int c = 0; c < 4; ++c) {
    int* send = malloc(P * 1000 * sizeof(int) + 1);
    ramp(send, P * (size_t)counts[c], rank);
    snprintf(what, sizeof what, "%s: Alltoall MPI_INT x %d", where, counts[c]);
    alltoall_case(comm, what, send, counts[c], MPI_INT, counts[c], MPI_INT,
                  P * (size_t)counts[c] * sizeof(int));
    free(send);
  }
  { /* MPI_IN_PLACE */
    int* got = malloc(P * 2 * sizeof(int));
    int* want = malloc(P * 2 * sizeof(int));
    ramp(got, P * 2, rank);
    ramp(want, P * 2, rank);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, 2, MPI_INT, comm);
    PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, want, 2, MPI_INT, comm);
    snprintf(what, sizeof what, "%s: Alltoall MPI_IN_PLACE", where);
    expect(memcmp(got, want, P * 2 * sizeof(int)) == 0, what, rank);
    free(got);
    free(want);
  }
  { /* One contiguous(4 int) sent, 4 MPI_INT received: equal signatures. */
    MPI_Datatype quad;
    MPI_Type_contiguous(4, MPI_INT, &quad);
    MPI_Type_commit(&quad);
    int* send = malloc(P * 4 * sizeof(int));
    ramp(send, P * 4, rank);
    snprintf(what, sizeof what, "%s: contiguous derived type against MPI_INT", where);
    alltoall_case(comm, what, send, 1, quad, 4, MPI_INT, P * 4 * sizeof(int));
    free(send);
    MPI_Type_free(&quad);
  }
  { /* struct {int at 4, int at 0}: size = extent = 8, but the members are swapped. */
    MPI_Datatype swapped;
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {4, 0};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Type_create_struct(2, lengths, displs, types, &swapped);
    MPI_Type_commit(&swapped);
    int* send = malloc(P * 2 * sizeof(int));
    ramp(send, P * 2, rank);
    snprintf(what, sizeof what, "%s: permuted struct {int@4, int@0} sent", where);
    alltoall_case(comm, what, send, 1, swapped, 2, MPI_INT, P * 2 * sizeof(int));
    snprintf(what, sizeof what, "%s: permuted struct received", where);
    alltoall_case(comm, what, send, 2, MPI_INT, 1, swapped, P * 2 * sizeof(int));
    /* Some ranks the struct, others plain ints: the same signature, different paths. */
    snprintf(what, sizeof what, "%s: permuted struct on odd ranks, MPI_INT on even", where);
    if (rank % 2) {
      alltoall_case(comm, what, send, 1, swapped, 1, swapped, P * 2 * sizeof(int));
    } else {
      alltoall_case(comm, what, send, 2, MPI_INT, 2, MPI_INT, P * 2 * sizeof(int));
    }
    free(send);
    MPI_Type_free(&swapped);
  }
  { /* One int at byte 4 of a 4-byte extent: lb 0, size = extent, but the data is shifted. */
    MPI_Datatype shifted, resized;
    int length = 1, displacement = 1;
    MPI_Type_indexed(1, &length, &displacement, MPI_INT, &shifted);
    MPI_Type_create_resized(shifted, 0, sizeof(int), &resized);
    MPI_Type_commit(&resized);
    int* send = malloc((P + 1) * sizeof(int));
    ramp(send, P + 1, rank);
    snprintf(what, sizeof what, "%s: indexed type shifted by 4 bytes in a resized extent", where);
    alltoall_case(comm, what, send, 1, resized, 1, MPI_INT, P * sizeof(int));
    /* received through it too (the receive buffer needs the extra int) */
    snprintf(what, sizeof what, "%s: shifted indexed type received", where);
    alltoall_case(comm, what, send, 1, MPI_INT, 1, resized, (P + 1) * sizeof(int));
    free(send);
    MPI_Type_free(&shifted);
    MPI_Type_free(&resized);
  }
  { /* A strided vector (every other int) and a struct with padding: not plain bytes. */
    MPI_Datatype strided, resized, padded;
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, 4 * sizeof(int), &resized);
    MPI_Type_commit(&resized);
    int* send = malloc(P * 4 * sizeof(int));
    ramp(send, P * 4, rank);
    snprintf(what, sizeof what, "%s: strided vector type", where);
    alltoall_case(comm, what, send, 1, resized, 2, MPI_INT, P * 2 * sizeof(int));
    struct pair {
      char c;
      double d;
    };
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {offsetof(struct pair, c), offsetof(struct pair, d)};
    MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE};
    MPI_Type_create_struct(2, lengths, displs, types, &padded);
    MPI_Type_commit(&padded);
    struct pair* pairs = calloc(P * 3, sizeof(struct pair));
    for (size_t i = 0; i < P * 3; ++i) {
      pairs[i].c = (char)('a' + i % 26);
      pairs[i].d = rank + 0.5 * (double)i;
    }
    snprintf(what, sizeof what, "%s: struct {char, double} with padding", where);
    alltoall_case(comm, what, pairs, 3, padded, 3, padded, P * 3 * sizeof(struct pair));
    free(pairs);
    free(send);
    MPI_Type_free(&strided);
    MPI_Type_free(&resized);
    MPI_Type_free(&padded);
  }
}

static void vector_cases(MPI_Comm comm, const char* where) {
  int rank = 0, procs = 1;
  char what[256];
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  const size_t P = (size_t)procs;
  /* Rank s sends (s + d) % 3 ints to rank d, blocks 2 ints apart (gaps), some zero. */
  int* sc = malloc(P * sizeof(int));
  int* sd = malloc(P * sizeof(int));
  int* rc = malloc(P * sizeof(int));
  int* rd = malloc(P * sizeof(int));
  int ssum = 0, rsum = 0;
  for (int p = 0; p < procs; ++p) {
    sc[p] = (rank + p) % 3;
    rc[p] = (p + rank) % 3;
    sd[p] = ssum;
    rd[p] = rsum;
    ssum += sc[p] + 2;
    rsum += rc[p] + 2;
  }
  int* send = malloc((size_t)ssum * sizeof(int) + 1);
  ramp(send, (size_t)ssum, rank);
  int* got = malloc((size_t)rsum * sizeof(int));
  int* want = malloc((size_t)rsum * sizeof(int));
  memset(got, 0x5A, (size_t)rsum * sizeof(int));
  memset(want, 0x5A, (size_t)rsum * sizeof(int));
  MPI_Alltoallv(send, sc, sd, MPI_INT, got, rc, rd, MPI_INT, comm);
  PMPI_Alltoallv(send, sc, sd, MPI_INT, want, rc, rd, MPI_INT, comm);
  snprintf(what, sizeof what, "%s: Alltoallv with gaps and zero counts", where);
  expect(memcmp(got, want, (size_t)rsum * sizeof(int)) == 0, what, rank);

  /* In place: the receive buffer is also the send buffer (counts must then be symmetric). */
  ramp(got, (size_t)rsum, rank);
  ramp(want, (size_t)rsum, rank);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, got, rc, rd, MPI_INT, comm);
  PMPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, want, rc, rd, MPI_INT, comm);
  snprintf(what, sizeof what, "%s: Alltoallv MPI_IN_PLACE", where);
  expect(memcmp(got, want, (size_t)rsum * sizeof(int)) == 0, what, rank);

  /* Negative displacements: the buffer argument points past the data. */
  int* nd = malloc(P * sizeof(int));
  for (int p = 0; p < procs; ++p)
    nd[p] = sd[p] - ssum;
  memset(got, 0x5A, (size_t)rsum * sizeof(int));
  memset(want, 0x5A, (size_t)rsum * sizeof(int));
  MPI_Alltoallv(send + ssum, sc, nd, MPI_INT, got, rc, rd, MPI_INT, comm);
  PMPI_Alltoallv(send + ssum, sc, nd, MPI_INT, want, rc, rd, MPI_INT, comm);
  snprintf(what, sizeof what, "%s: Alltoallv with negative displacements", where);
  expect(memcmp(got, want, (size_t)rsum * sizeof(int)) == 0, what, rank);

  /* Pairs of ints as a permuted struct on the send side, plain ints received. */
  MPI_Datatype swapped;
  int lengths[2] = {1, 1};
  MPI_Aint displs[2] = {4, 0};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  MPI_Type_create_struct(2, lengths, displs, types, &swapped);
  MPI_Type_commit(&swapped);
  int* sc2 = malloc(P * sizeof(int));
  int* sd2 = malloc(P * sizeof(int));
  int* rc2 = malloc(P * sizeof(int));
  int* rd2 = malloc(P * sizeof(int));
  for (int p = 0; p < procs; ++p) {
    sc2[p] = sc[p]; /* pairs */
    sd2[p] = sd[p]; /* in pairs */
    rc2[p] = 2 * rc[p];
    rd2[p] = 2 * rd[p];
  }
  int* send2 = malloc((size_t)ssum * 2 * sizeof(int));
  ramp(send2, (size_t)ssum * 2, rank);
  int* got2 = malloc((size_t)rsum * 2 * sizeof(int));
  int* want2 = malloc((size_t)rsum * 2 * sizeof(int));
  memset(got2, 0x5A, (size_t)rsum * 2 * sizeof(int));
  memset(want2, 0x5A, (size_t)rsum * 2 * sizeof(int));
  MPI_Alltoallv(send2, sc2, sd2, swapped, got2, rc2, rd2, MPI_INT, comm);
  PMPI_Alltoallv(send2, sc2, sd2, swapped, want2, rc2, rd2, MPI_INT, comm);
  snprintf(what, sizeof what, "%s: Alltoallv permuted struct sent, MPI_INT received", where);
  expect(memcmp(got2, want2, (size_t)rsum * 2 * sizeof(int)) == 0, what, rank);
  MPI_Type_free(&swapped);
  free(sc2), free(sd2), free(rc2), free(rd2), free(send2), free(got2), free(want2), free(nd);
  free(sc), free(sd), free(rc), free(rd), free(send), free(got), free(want);
}

/* Not replaced, only counted by the interposer: results must be the library's. */
static void passthrough_cases(MPI_Comm comm) {
  int rank = 0, procs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  const size_t P = (size_t)procs;
  int* send = malloc(P * sizeof(int));
  int* got = malloc(P * sizeof(int));
  int* want = malloc(P * sizeof(int));
  ramp(send, P, rank);
  MPI_Request request;
  MPI_Ialltoall(send, 1, MPI_INT, got, 1, MPI_INT, comm, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  PMPI_Alltoall(send, 1, MPI_INT, want, 1, MPI_INT, comm);
  expect(memcmp(got, want, P * sizeof(int)) == 0, "Ialltoall", rank);
  int* ones = malloc(P * sizeof(int));
  int* displs = malloc(P * sizeof(int));
  MPI_Datatype* types = malloc(P * sizeof(MPI_Datatype));
  for (int p = 0; p < procs; ++p) {
    ones[p] = 1;
    displs[p] = p * (int)sizeof(int);
    types[p] = MPI_INT;
  }
  memset(got, 0, P * sizeof(int));
  MPI_Alltoallw(send, ones, displs, types, got, ones, displs, types, comm);
  expect(memcmp(got, want, P * sizeof(int)) == 0, "Alltoallw", rank);
  free(ones), free(displs), free(types), free(send), free(got), free(want);
}

static long resident_kb(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  while (f && fgets(line, sizeof line, f)) {
    if (strncmp(line, "VmRSS:", 6) == 0) kb = atol(line + 6);
  }
  if (f) fclose(f);
  return kb;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, procs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  for (int repeat = 0; repeat < 2; ++repeat) { /* the second time from the plan caches */
    uniform_cases(MPI_COMM_WORLD, "world");
    vector_cases(MPI_COMM_WORLD, "world");
  }
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, procs - rank, &half);
  uniform_cases(half, "split");
  vector_cases(half, "split");
  MPI_Comm_free(&half);
  passthrough_cases(MPI_COMM_WORLD);
  /* Communicators made, used and freed: the interposer's per-communicator state goes too. */
  long before = 0;
  for (int i = 0; i < 1000; ++i) {
    if (i == 100) before = resident_kb();
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int* buf = calloc((size_t)procs * 16, sizeof(int));
    int* out = calloc((size_t)procs * 16, sizeof(int));
    MPI_Alltoall(buf, 16, MPI_INT, out, 16, MPI_INT, dup);
    free(buf), free(out);
    MPI_Comm_free(&dup);
  }
  const long grown = resident_kb() - before;
  expect(grown < 8 * 1024, "1000 communicators: resident memory grew by less than 8 MiB", rank);
  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf(
        "probe.c (P=%d): %d passed, %d failed (resident memory after 900 communicators: %+ld "
        "KiB)\n",
        procs, totals[0] - totals[1], totals[1], grown);
  }
  MPI_Finalize();
  return totals[1] == 0 ? 0 : 1;
}
