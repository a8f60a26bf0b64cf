/* a2a from C, as a user writes it against the installed headers (a2a/a2a.h, a2a/transpose.h):
 *   capi_test UNIFORM_SPEC VECTOR_SPEC
 * 1. a uniform plan through UNIFORM_SPEC against MPI_Alltoall (and its counters);
 * 2. a fixed-layout vector plan and a per-call exchange through VECTOR_SPEC against
 *    MPI_Alltoallv, the exchange with a different layout on every call;
 * 3. a pencil transpose of a 3D grid (z-pencils -> y-pencils in the row communicator of a
 *    P1 x P2 grid, and back) through VECTOR_SPEC, every element against its closed form;
 * 4. x-slabs -> y-slabs and back through both specs, with two arrays and in place (the same
 *    array as input and output);
 * 5. errors: a bad spec, a radix out of range, NULL arguments: the same code on every rank,
 *    no abort, no hang; the Fortran-handle entry points (MPI_Comm_c2f).
 * Prints "capi_test: N passed, M failed". */
#include <a2a/a2a.h>
#include <a2a/transpose.h>
#include <complex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks = 0, failures = 0, rank = 0, procs = 1;

static void expect(int ok, const char* what) {
  ++checks;
  if (!ok) {
    ++failures;
    fprintf(stderr, "[rank %d] FAILED: %s (%s)\n", rank, what, a2a_last_error());
  }
}

/* Byte k of the block from rank s to rank d. */
static unsigned char pattern(int s, int d, size_t k) {
  return (unsigned char)(s * 131 + d * 31 + (int)k * 7 + 1);
}

static void uniform(const char* spec) {
  const size_t block = 13, P = (size_t)procs;
  unsigned char* send = malloc(P * block);
  unsigned char* got = malloc(P * block);
  unsigned char* want = malloc(P * block);
  for (int d = 0; d < procs; ++d)
    for (size_t k = 0; k < block; ++k)
      send[(size_t)d * block + k] = pattern(rank, d, k);
  a2a_plan plan = NULL;
  expect(a2a_plan_create_uniform(spec, MPI_COMM_WORLD, block, &plan) == A2A_SUCCESS,
         "uniform plan created");
  memset(got, 0, P * block);
  expect(a2a_plan_execute(plan, send, got) == A2A_SUCCESS, "uniform execute");
  MPI_Alltoall(send, (int)block, MPI_BYTE, want, (int)block, MPI_BYTE, MPI_COMM_WORLD);
  expect(memcmp(got, want, P * block) == 0, "uniform plan equals MPI_Alltoall");
  int closed = 1;
  for (int s = 0; s < procs; ++s)
    for (size_t k = 0; k < block; ++k)
      closed &= got[(size_t)s * block + k] == pattern(s, rank, k);
  expect(closed, "uniform plan equals the closed form");
  a2a_counters c;
  expect(a2a_plan_counters(plan, &c) == A2A_SUCCESS, "counters");
  if (rank == 0)
    printf("uniform %s: %zu rounds, %zu messages\n", a2a_plan_name(plan), c.rounds,
           c.messages_sent);
  expect(a2a_plan_free(&plan) == A2A_SUCCESS && plan == NULL, "plan freed");
  free(send), free(got), free(want);
}

/* The split phase as a C code would use it: two exchanges in flight at once on one
 * communicator (the second on inverted bytes), work done between start and finish, each
 * result against MPI_Alltoall and the closed form; finish without start is an error. */
static void split_phase(const char* spec) {
  const size_t block = 1000, P = (size_t)procs;
  unsigned char* send = malloc(P * block);
  unsigned char* other = malloc(P * block);
  unsigned char* got = malloc(P * block);
  unsigned char* got_other = malloc(P * block);
  unsigned char* want = malloc(P * block);
  for (int d = 0; d < procs; ++d)
    for (size_t k = 0; k < block; ++k) {
      send[(size_t)d * block + k] = pattern(rank, d, k);
      other[(size_t)d * block + k] = (unsigned char)~pattern(rank, d, k);
    }
  a2a_plan first = NULL, second = NULL;
  expect(a2a_plan_create_uniform(spec, MPI_COMM_WORLD, block, &first) == A2A_SUCCESS &&
             a2a_plan_create_uniform(spec, MPI_COMM_WORLD, block, &second) == A2A_SUCCESS,
         "split phase: two plans created");
  expect(a2a_plan_overlaps(first) == 0 || a2a_plan_overlaps(first) == 1, "overlaps is 0 or 1");
  expect(a2a_plan_overlaps(NULL) == -1, "overlaps of a NULL plan is -1");
  memset(got, 0, P * block);
  memset(got_other, 0, P * block);
  expect(a2a_plan_start(first, send, got) == A2A_SUCCESS, "first started");
  expect(a2a_plan_start(second, other, got_other) == A2A_SUCCESS, "second started");
  double work = 0; /* what a code computes meanwhile */
  for (int i = 1; i <= 100000; ++i)
    work += 1.0 / i;
  expect(work > 1, "work between start and finish");
  expect(a2a_plan_finish(first) == A2A_SUCCESS, "first finished");
  expect(a2a_plan_finish(second) == A2A_SUCCESS, "second finished");
  MPI_Alltoall(send, (int)block, MPI_BYTE, want, (int)block, MPI_BYTE, MPI_COMM_WORLD);
  expect(memcmp(got, want, P * block) == 0, "split phase equals MPI_Alltoall (first)");
  int closed = 1;
  for (int s = 0; s < procs; ++s)
    for (size_t k = 0; k < block; ++k)
      closed &= got_other[(size_t)s * block + k] == (unsigned char)~pattern(s, rank, k);
  expect(closed, "split phase equals the closed form (second, in flight with the first)");
  expect(a2a_plan_finish(first) != A2A_SUCCESS &&
             strstr(a2a_last_error(), "no exchange was started") != NULL,
         "finish without start: an error that says so");
  a2a_plan_free(&first);
  a2a_plan_free(&second);
  expect(a2a_plan_start(NULL, send, got) == A2A_ERR_ARGUMENT, "start of a NULL plan");
  free(send), free(other), free(got), free(got_other), free(want);
}

/* Layout `variant`: rank s sends (s + d + variant) % 5 * 3 bytes to d, blocks 2 bytes apart. */
static void layout(int variant, size_t* sc, size_t* sd, size_t* rc, size_t* rd, size_t* send_total,
                   size_t* recv_total) {
  size_t so = 0, ro = 0;
  for (int p = 0; p < procs; ++p) {
    sc[p] = (size_t)((rank + p + variant) % 5) * 3;
    rc[p] = (size_t)((p + rank + variant) % 5) * 3;
    sd[p] = so;
    rd[p] = ro;
    so += sc[p] + 2;
    ro += rc[p] + 2;
  }
  *send_total = so;
  *recv_total = ro;
}

static void vector(const char* spec) {
  const size_t P = (size_t)procs;
  size_t *sc = malloc(P * sizeof(size_t)), *sd = malloc(P * sizeof(size_t)),
         *rc = malloc(P * sizeof(size_t)), *rd = malloc(P * sizeof(size_t));
  int *isc = malloc(P * sizeof(int)), *isd = malloc(P * sizeof(int)),
      *irc = malloc(P * sizeof(int)), *ird = malloc(P * sizeof(int));
  a2a_exchange ex = NULL;
  expect(a2a_exchange_create(spec, MPI_COMM_WORLD, &ex) == A2A_SUCCESS, "exchange created");
  size_t held = 0;
  for (int variant = 0; variant < 3; ++variant) {
    size_t send_total = 0, recv_total = 0;
    layout(variant, sc, sd, rc, rd, &send_total, &recv_total);
    unsigned char* send = malloc(send_total + 1);
    unsigned char* got = malloc(recv_total + 1);
    unsigned char* want = malloc(recv_total + 1);
    for (int d = 0; d < procs; ++d)
      for (size_t k = 0; k < sc[d]; ++k)
        send[sd[d] + k] = pattern(rank, d, k);
    for (size_t p = 0; p < P; ++p) {
      isc[p] = (int)sc[p], isd[p] = (int)sd[p], irc[p] = (int)rc[p], ird[p] = (int)rd[p];
    }
    memset(want, 0xEE, recv_total + 1);
    MPI_Alltoallv(send, isc, isd, MPI_BYTE, want, irc, ird, MPI_BYTE, MPI_COMM_WORLD);
    memset(got, 0xEE, recv_total + 1);
    expect(a2a_exchange_execute(ex, send, sc, sd, got, rc, rd) == A2A_SUCCESS, "exchange execute");
    expect(memcmp(got, want, recv_total + 1) == 0, "per-call exchange equals MPI_Alltoallv");
    /* Scratch is kept: never less than after the last call; a single-copy window holds what
     * this rank received. */
    const size_t scratch = a2a_exchange_scratch_bytes(ex);
    expect(scratch >= held, "the exchange's scratch is kept across calls");
    if (strncmp(a2a_exchange_name(ex), "shared_window", 13) == 0)
      expect(scratch >= recv_total, "a single-copy window holds the received bytes");
    held = scratch;
    a2a_plan plan = NULL;
    expect(a2a_plan_create_vector(spec, MPI_COMM_WORLD, sc, sd, rc, rd, &plan) == A2A_SUCCESS,
           "vector plan created");
    memset(got, 0xEE, recv_total + 1);
    expect(a2a_plan_execute(plan, send, got) == A2A_SUCCESS, "vector plan execute");
    expect(memcmp(got, want, recv_total + 1) == 0, "fixed vector plan equals MPI_Alltoallv");
    a2a_plan_free(&plan);
    free(send), free(got), free(want);
  }
  if (rank == 0) printf("vector %s: per call and fixed\n", a2a_exchange_name(ex));
  a2a_exchange_free(&ex);
  expect(ex == NULL && a2a_exchange_scratch_bytes(ex) == 0, "a freed exchange holds nothing");
  free(sc), free(sd), free(rc), free(rd), free(isc), free(isd), free(irc), free(ird);
}

static double complex value(int64_t i, int64_t j, int64_t k) {
  return (double)(i * 10000 + j * 100 + k) + I * (double)(i - j + 3 * k);
}

/* z-pencils -> y-pencils in the row communicator of a P1 x P2 grid, and back. */
static void pencils(const char* spec) {
  const int64_t n[3] = {12, 10, 8};
  int dims[2] = {0, 0};
  MPI_Dims_create(procs, 2, dims);
  const int p1 = dims[0], p2 = dims[1], r1 = rank / p2, r2 = rank % p2;
  MPI_Comm row;
  MPI_Comm_split(MPI_COMM_WORLD, r1, r2, &row);
  a2a_box z = {{a2a_block_start(n[0], p1, r1), a2a_block_start(n[1], p2, r2), 0},
               {a2a_block_start(n[0], p1, r1 + 1), a2a_block_start(n[1], p2, r2 + 1), n[2]}};
  a2a_box y = {{z.lo[0], 0, a2a_block_start(n[2], p2, r2)},
               {z.hi[0], n[1], a2a_block_start(n[2], p2, r2 + 1)}};
  const size_t zc = (size_t)((z.hi[0] - z.lo[0]) * (z.hi[1] - z.lo[1]) * (z.hi[2] - z.lo[2]));
  const size_t yc = (size_t)((y.hi[0] - y.lo[0]) * (y.hi[1] - y.lo[1]) * (y.hi[2] - y.lo[2]));
  double complex* zdata = malloc((zc + 1) * sizeof(double complex));
  double complex* ydata = malloc((yc + 1) * sizeof(double complex));
  double complex* back = malloc((zc + 1) * sizeof(double complex));
  size_t at = 0;
  for (int64_t i = z.lo[0]; i < z.hi[0]; ++i)
    for (int64_t j = z.lo[1]; j < z.hi[1]; ++j)
      for (int64_t k = z.lo[2]; k < z.hi[2]; ++k)
        zdata[at++] = value(i, j, k);
  a2a_redistribution to_y = NULL, to_z = NULL;
  /* The Fortran-handle entry point for one of them. */
  expect(a2a_redistribution_create_f(MPI_Comm_c2f(row), &z, &y, sizeof(double complex), spec,
                                     &to_y) == A2A_SUCCESS,
         "z -> y redistribution created (Fortran handle)");
  expect(a2a_redistribution_create(row, &y, &z, sizeof(double complex), spec, &to_z) == A2A_SUCCESS,
         "y -> z redistribution created");
  /* The way back runs after the way there: it shares its buffers (and window). What both hold
   * then lies between the larger one's and both apart. */
  a2a_redistribution pair[2] = {to_y, to_z};
  const size_t there = a2a_redistribution_memory_bytes(pair, 1),
               back_alone = a2a_redistribution_memory_bytes(pair + 1, 1);
  expect(a2a_redistribution_share(to_z, to_y) == A2A_SUCCESS, "y -> z shares z -> y's memory");
  const size_t shared = a2a_redistribution_memory_bytes(pair, 2);
  expect(shared <= there + back_alone && shared >= (there > back_alone ? there : back_alone),
         "shared memory held once");
  if (strncmp(a2a_redistribution_backend(to_y), "shared_window", 13) == 0)
    expect(shared < there + back_alone, "one window for both");
  expect(a2a_redistribution_execute(to_y, zdata, ydata) == A2A_SUCCESS, "z -> y executed");
  int closed = 1;
  at = 0;
  for (int64_t i = y.lo[0]; i < y.hi[0]; ++i)
    for (int64_t j = y.lo[1]; j < y.hi[1]; ++j)
      for (int64_t k = y.lo[2]; k < y.hi[2]; ++k)
        closed &= ydata[at++] == value(i, j, k);
  expect(closed, "y-pencils equal the closed form");
  expect(a2a_redistribution_execute(to_z, ydata, back) == A2A_SUCCESS, "y -> z executed");
  expect(memcmp(back, zdata, zc * sizeof(double complex)) == 0, "the way back restores the input");
  if (rank == 0) {
    printf("pencils %lldx%lldx%lld on %dx%d: %s (%s)\n", (long long)n[0], (long long)n[1],
           (long long)n[2], p1, p2, a2a_redistribution_backend(to_y),
           a2a_redistribution_uniform(to_y) ? "uniform" : "vector");
  }
  a2a_redistribution_free(&to_y);
  a2a_redistribution_free(&to_z);
  MPI_Comm_free(&row);
  free(zdata), free(ydata), free(back);
}

/* x-slabs -> y-slabs of a P x P x 5 grid on MPI_COMM_WORLD: one x-plane and one y-row per
 * rank, so each rank's blocks already lie in rank order on both sides and the library hands the
 * arrays to the exchange without copies. Once with two arrays, once in place (one malloc'd
 * array as input and output, as C codes do to save memory), every element against its closed
 * form, and back. */
static void slabs(const char* spec) {
  const int64_t nz = 5;
  const a2a_box x = {{rank, 0, 0}, {rank + 1, procs, nz}},
                y = {{0, rank, 0}, {procs, rank + 1, nz}};
  const size_t count = (size_t)procs * (size_t)nz; /* the same on both sides */
  double complex* input = malloc(count * sizeof(double complex));
  double complex* output = malloc(count * sizeof(double complex));
  double complex* both = malloc(count * sizeof(double complex));
  double complex* back = malloc(count * sizeof(double complex));
  for (int64_t j = 0; j < procs; ++j)
    for (int64_t k = 0; k < nz; ++k)
      input[j * nz + k] = value(rank, j, k);
  memcpy(both, input, count * sizeof(double complex));
  a2a_redistribution to_y = NULL, to_x = NULL;
  expect(a2a_redistribution_create(MPI_COMM_WORLD, &x, &y, sizeof(double complex), spec, &to_y) ==
             A2A_SUCCESS,
         "x -> y slabs created");
  expect(a2a_redistribution_create(MPI_COMM_WORLD, &y, &x, sizeof(double complex), spec, &to_x) ==
             A2A_SUCCESS,
         "y -> x slabs created");
  /* Two arrays, one array in place, and two arrays through start/finish. */
  for (int mode = 0; mode < 3; ++mode) {
    const int in_place = mode == 1;
    double complex* from = in_place ? both : input;
    double complex* to = in_place ? both : output;
    if (mode == 2) {
      memset(to, 0, count * sizeof(double complex));
      expect(a2a_redistribution_start(to_y, from, to) == A2A_SUCCESS &&
                 a2a_redistribution_finish(to_y) == A2A_SUCCESS,
             "x -> y slabs started and finished");
    } else {
      expect(a2a_redistribution_execute(to_y, from, to) == A2A_SUCCESS, "x -> y slabs executed");
    }
    int closed = 1;
    for (int64_t i = 0; i < procs; ++i)
      for (int64_t k = 0; k < nz; ++k)
        closed &= to[i * nz + k] == value(i, rank, k);
    expect(closed,
           in_place ? "y-slabs equal the closed form (in place)" : "y-slabs equal the closed form");
    double complex* again = in_place ? both : back;
    expect(a2a_redistribution_execute(to_x, to, again) == A2A_SUCCESS, "y -> x slabs executed");
    expect(memcmp(again, input, count * sizeof(double complex)) == 0,
           in_place ? "the way back restores the input (in place)"
                    : "the way back restores the input");
  }
  a2a_redistribution_free(&to_y);
  a2a_redistribution_free(&to_x);
  free(input), free(output), free(both), free(back);
}

static void errors(void) {
  a2a_plan plan = NULL;
  int code = a2a_plan_create_uniform("nosuch", MPI_COMM_WORLD, 8, &plan);
  expect(code == A2A_ERR_SPEC && plan == NULL, "unknown backend: A2A_ERR_SPEC");
  expect(strstr(a2a_last_error(), "unknown backend 'nosuch'") != NULL, "its message");
  int codes[2] = {code, -code};
  MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  expect(codes[0] == -codes[1], "every rank returned the same code");
  expect(a2a_plan_create_uniform("tra:r=999999", MPI_COMM_WORLD, 8, &plan) == A2A_ERR_SPEC,
         "radix out of range: A2A_ERR_SPEC");
  a2a_exchange ex = NULL;
  expect(a2a_exchange_create("tra", MPI_COMM_WORLD, &ex) == A2A_ERR_UNSUPPORTED,
         "a uniform-only backend for a per-call Alltoallv: A2A_ERR_UNSUPPORTED");
  /* NULL on one rank only: the same error everywhere, nobody waits. */
  expect(a2a_plan_create_uniform(rank == procs - 1 ? NULL : "mpi", MPI_COMM_WORLD, 8, &plan) ==
             A2A_ERR_ARGUMENT,
         "a NULL spec on one rank: A2A_ERR_ARGUMENT on every rank");
  /* Output boxes that overlap (rank 0 also takes rank 1's row; the last rank's is empty). */
  if (procs >= 3) {
    const int64_t y1 = rank == 0 ? 2 : (rank == procs - 1 ? rank : rank + 1);
    const a2a_box in = {{rank, 0, 0}, {rank + 1, procs, 1}}, out = {{0, rank, 0}, {procs, y1, 1}};
    a2a_redistribution r = NULL;
    expect(a2a_redistribution_create(MPI_COMM_WORLD, &in, &out, 8, "pairwise", &r) ==
                   A2A_ERR_ARGUMENT &&
               r == NULL,
           "overlapping boxes: A2A_ERR_ARGUMENT on every rank");
  }
  expect(a2a_plan_execute(NULL, NULL, NULL) == A2A_ERR_ARGUMENT, "a NULL plan");
  expect(a2a_plan_free(NULL) == A2A_SUCCESS, "freeing NULL is fine");
  int count = a2a_algorithm_count();
  const char* name = NULL;
  expect(count >= 16 && a2a_algorithm_info(0, &name, NULL, NULL, NULL, NULL) == A2A_SUCCESS &&
             strcmp(name, "mpi") == 0,
         "the registry");
  expect(a2a_algorithm_info(count, &name, NULL, NULL, NULL, NULL) == A2A_ERR_ARGUMENT,
         "an index past the registry");
  uint64_t w = 0, k = 0, d = 0;
  expect(a2a_model(16384, 128, &w, &k, &d) == A2A_SUCCESS && w == 2 && k == 254 && d == 32512,
         "the model: the paper's example (w 2, K 254, D 32512)");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  const char* uniform_spec = argc > 1 ? argv[1] : "tra:r=2";
  const char* vector_spec = argc > 2 ? argv[2] : "sloav";
  uniform(uniform_spec);
  vector(vector_spec);
  pencils(vector_spec);
  slabs(vector_spec);
  slabs(uniform_spec);
  split_phase(uniform_spec);
  split_phase("mpi");
  split_phase("linear");
  errors();
  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("capi_test: %d passed, %d failed\n", totals[0] - totals[1], totals[1]);
  MPI_Finalize();
  return totals[1] == 0 ? 0 : 1;
}
