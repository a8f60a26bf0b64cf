/* fft_calls: the FFT library's C API given what a user's program gets wrong.
 *   - One rank's bad argument to forward or backward (a scaling out of range, a NULL input or
 *     output array, no workspace or a misaligned one where the plan takes the caller's), on
 *     every path: A2A_ERR_ARGUMENT naming that rank on every rank, nothing written on any rank,
 *     never a hang (the other ranks once went on into the exchanges and waited there, and a
 *     NULL array crashed); a correct call afterwards right. A rank whose box is empty may pass
 *     NULL.
 *   - Plans of every path used after the communicator they were made on is freed, with a new
 *     communicator in its place: forward and backward fail with A2A_ERR_ARGUMENT naming the
 *     freed communicator, on every rank, and write nothing; the handle frees cleanly, and the
 *     same plan made on the new communicator runs. The tuned slab and pencil paths run on
 *     communicators split from the caller's, which outlive it: they once kept running.
 *   - a2a_fft_create on an inter-communicator (default handler and MPI_ERRORS_RETURN), on
 *     MPI_COMM_NULL and after MPI_Finalize, and a2a_fft_create_f (the Fortran module's entry)
 *     on an inter-communicator's and a finalized MPI_COMM_WORLD's handles: A2A_ERR_ARGUMENT
 *     naming the problem on every rank, the handle left NULL, never an abort or a hang.
 * Each plan's round trip is checked against its input. Prints "fft_calls: N passed, M failed"
 * (the last line, after MPI_Finalize, on rank 0). */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include <a2a/a2a.h>
#include <a2a/fft.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "fft_plans.h"

enum { kPaths = 6 };
static const char* path_name[kPaths] = {"c2c, FFTW-MPI's slab layout (tuned slab)",
                                        "r2c, FFTW-MPI's slab layout (tuned slab)",
                                        "c2c, z-pencils to x-pencils",
                                        "dct2 x dst3 x dct1, slabs to pencils",
                                        "c2c, 2 contiguous fields of 32^3",
                                        "c2c, 3 interleaved fields, slabs to pencils"};

static void options_for(int path, int world_procs, int world_rank, a2a_fft_options* o) {
  if (path == 4) {
    slabs_to_pencils(o, 32, 32, 32, world_procs, world_rank);
  } else {
    slabs_to_pencils(o, 12, 10, 9, world_procs, world_rank);
  }
  if (path <= 1) {
    o->r2c = path == 1;
    const int64_t spectrum[3] = {o->n[0], o->n[1], o->r2c ? o->n[2] / 2 + 1 : o->n[2]};
    a2a_fft_slab_box_along(spectrum, 1, world_procs, world_rank, &o->out);
    o->out_order[0] = 1, o->out_order[1] = 0;
  }
  if (path == 2) a2a_fft_pencil_box(o->n, 2, world_procs, world_rank, &o->in);
  if (path == 3) o->kinds[0] = A2A_FFT_DCT2, o->kinds[1] = A2A_FFT_DST3, o->kinds[2] = A2A_FFT_DCT1;
  if (path == 4) o->batch = 2, o->batch_contiguous = 1, o->out = o->in;
  if (path == 5) o->batch = 3;
}

/* Forward then backward scaled: the input back. */
static int round_trip(a2a_fft fft) {
  const size_t n_in = reals(fft, 1), n_out = reals(fft, 0);
  double* x = malloc((n_in + 1) * sizeof(double));
  double* y = malloc((n_out + 1) * sizeof(double));
  double* back = malloc((n_in + 1) * sizeof(double));
  for (size_t i = 0; i < n_in; ++i)
    x[i] = sin(0.37 * (double)i + rank);
  int ok = a2a_fft_forward(fft, x, y, A2A_FFT_SCALE_NONE, NULL) == 0 &&
           a2a_fft_backward(fft, y, back, A2A_FFT_SCALE_FULL, NULL) == 0;
  for (size_t i = 0; ok && i < n_in; ++i)
    ok = fabs(back[i] - x[i]) < 1e-12;
  free(x), free(y), free(back);
  return ok;
}

static void after_free(int path) {
  char what[160];
  a2a_fft_options o;
  options_for(path, procs, rank, &o);
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  a2a_fft fft = NULL;
  snprintf(what, sizeof what, "%s: made and run on a live communicator", path_name[path]);
  const int made = a2a_fft_create(c, &o, &fft) == 0;
  expect(made && round_trip(fft), what);
  if (!made) return;
  const size_t n_in = reals(fft, 1), n_out = reals(fft, 0);
  double* in = calloc(n_in + 1, sizeof(double));
  double* out = malloc((n_out + 1) * sizeof(double));
  double* back = malloc((n_in + 1) * sizeof(double));
  for (size_t i = 0; i <= n_out; ++i)
    out[i] = 7.0;
  for (size_t i = 0; i <= n_in; ++i)
    back[i] = 7.0;
  MPI_Comm_free(&c);
  /* A new communicator where the old one was (MPI may hand out the freed handle again). */
  MPI_Comm other;
  MPI_Comm_split(MPI_COMM_WORLD, 0, procs - 1 - rank, &other);
  snprintf(what, sizeof what, "%s: forward after MPI_Comm_free", path_name[path]);
  expect_everywhere(a2a_fft_forward(fft, in, out, A2A_FFT_SCALE_NONE, NULL), A2A_ERR_ARGUMENT,
                    "freed", what);
  snprintf(what, sizeof what, "%s: backward after MPI_Comm_free", path_name[path]);
  expect_everywhere(a2a_fft_backward(fft, out, back, A2A_FFT_SCALE_FULL, NULL), A2A_ERR_ARGUMENT,
                    "freed", what);
  int untouched = 1;
  for (size_t i = 0; i <= n_out; ++i)
    untouched = untouched && out[i] == 7.0;
  for (size_t i = 0; i <= n_in; ++i)
    untouched = untouched && back[i] == 7.0;
  snprintf(what, sizeof what, "%s: nothing written by the refused calls", path_name[path]);
  expect(untouched, what);
  snprintf(what, sizeof what, "%s: frees cleanly after its communicator", path_name[path]);
  expect(a2a_fft_free(&fft) == 0 && fft == NULL, what);
  /* The new communicator (ranks in reverse order) works with a plan of its own. */
  int new_rank = 0;
  MPI_Comm_rank(other, &new_rank);
  options_for(path, procs, new_rank, &o);
  snprintf(what, sizeof what, "%s: the same plan on the new communicator", path_name[path]);
  expect(a2a_fft_create(other, &o, &fft) == 0 && round_trip(fft), what);
  a2a_fft_free(&fft);
  MPI_Comm_free(&other);
  free(in), free(out), free(back);
}

/* A plan of `path` made on MPI_COMM_WORLD with options o (a check of its own), or NULL. */
static a2a_fft made(const a2a_fft_options* o, int path, const char* variant) {
  char what[200];
  snprintf(what, sizeof what, "%s, %s: made", path_name[path], variant);
  a2a_fft fft = NULL;
  expect(a2a_fft_create(MPI_COMM_WORLD, o, &fft) == 0, what);
  return fft;
}

/* One rank (the last) gives forward or backward a bad argument; every rank must return the same
 * code, with the message naming that rank, and none may write its output. The plan takes the
 * caller's workspace, so that a missing or misaligned one is a mistake too. */
static void one_rank_mistakes(int path) {
  static const char* mistake_name[] = {"scaling 7",
                                       "a NULL input array",
                                       "a NULL output array",
                                       "no workspace",
                                       "a workspace 8 bytes off FFTW's alignment",
                                       "an output array 16 bytes short (the _sized calls)"};
  char what[200], words[32];
  a2a_fft_options o;
  options_for(path, procs, rank, &o);
  o.external_workspace = 1;
  a2a_fft fft = made(&o, path, "the caller's workspace");
  if (fft == NULL) return;
  const size_t n_in = reals(fft, 1), n_out = reals(fft, 0);
  double* x = malloc((n_in + 1) * sizeof(double));
  double* y = malloc((n_out + 1) * sizeof(double));
  double* back = malloc((n_in + 1) * sizeof(double));
  /* Aligned as fftw_malloc's arrays (64 bytes covers every SIMD width); 8 bytes on is not. */
  void* workspace = NULL;
  if (a2a_fft_workspace_bytes(fft) > 0 &&
      posix_memalign(&workspace, 64, a2a_fft_workspace_bytes(fft) + 64) != 0)
    workspace = NULL;
  for (size_t i = 0; i < n_in; ++i)
    x[i] = cos(0.29 * (double)i - rank);
  const int bad = rank == procs - 1;
  snprintf(words, sizeof words, "(rank %d)", procs - 1);
  for (int direction = 0; direction < 2; ++direction) {
    for (int mistake = 0; mistake < 6; ++mistake) {
      if ((mistake == 3 || mistake == 4) && workspace == NULL) continue; /* it takes none */
      for (size_t i = 0; i <= n_out; ++i)
        y[i] = 7.0;
      for (size_t i = 0; i <= n_in; ++i)
        back[i] = 7.0;
      const int scaling = bad && mistake == 0 ? 7 : A2A_FFT_SCALE_NONE;
      void* ws = bad && mistake == 3   ? NULL
                 : bad && mistake == 4 ? (char*)workspace + 8
                                       : workspace;
      int code;
      if (mistake == 5) { /* every rank gives its sizes; the last rank's output 16 bytes short */
        const size_t in_bytes = (direction == 0 ? n_in : n_out) * sizeof(double);
        const size_t out_bytes = (direction == 0 ? n_out : n_in) * sizeof(double) - (bad ? 16 : 0);
        code =
            direction == 0
                ? a2a_fft_forward_sized(fft, x, in_bytes, y, out_bytes, A2A_FFT_SCALE_NONE, ws)
                : a2a_fft_backward_sized(fft, y, in_bytes, back, out_bytes, A2A_FFT_SCALE_NONE, ws);
      } else if (direction == 0) {
        code = a2a_fft_forward(fft, bad && mistake == 1 ? NULL : x, bad && mistake == 2 ? NULL : y,
                               scaling, ws);
      } else {
        code = a2a_fft_backward(fft, bad && mistake == 1 ? NULL : y,
                                bad && mistake == 2 ? NULL : back, scaling, ws);
      }
      snprintf(what, sizeof what, "%s: %s on rank %d only, %s", path_name[path],
               mistake_name[mistake], procs - 1, direction == 0 ? "forward" : "backward");
      expect_everywhere(code, A2A_ERR_ARGUMENT, words, what);
      int untouched = 1;
      for (size_t i = 0; i <= n_out && direction == 0; ++i)
        untouched = untouched && y[i] == 7.0;
      for (size_t i = 0; i <= n_in && direction == 1; ++i)
        untouched = untouched && back[i] == 7.0;
      snprintf(what, sizeof what, "%s: %s on rank %d only, %s: nothing written", path_name[path],
               mistake_name[mistake], procs - 1, direction == 0 ? "forward" : "backward");
      expect(untouched, what);
    }
  }
  /* Correct calls after them, the forward with its arrays' exact sizes (each rank calls both:
   * they are collective). */
  const int forward = a2a_fft_forward_sized(fft, x, n_in * sizeof(double), y,
                                            n_out * sizeof(double), A2A_FFT_SCALE_NONE, workspace);
  const int backward = a2a_fft_backward(fft, y, back, A2A_FFT_SCALE_FULL, workspace);
  int ok = forward == 0 && backward == 0;
  for (size_t i = 0; ok && i < n_in; ++i)
    ok = fabs(back[i] - x[i]) < 1e-12;
  snprintf(what, sizeof what, "%s: a correct round trip after the mistakes", path_name[path]);
  expect(ok, what);
  a2a_fft_free(&fft);
  free(x), free(y), free(back), free(workspace);
}

/* A rank whose boxes are empty holds no elements: NULL arrays are no mistake there. */
static void empty_box_null(void) {
  a2a_fft_options o;
  a2a_fft_options_default(&o);
  o.n[0] = procs - 1, o.n[1] = 2 * procs, o.n[2] = 6; /* one rank's x-slab is empty */
  a2a_fft_slab_box(o.n, procs, rank, &o.in);
  o.out = o.in; /* empty on that rank both ways */
  a2a_fft fft = NULL;
  int ok = a2a_fft_create(MPI_COMM_WORLD, &o, &fft) == 0;
  const int empty = ok && a2a_fft_input_elements(fft) == 0;
  int empties = empty;
  MPI_Allreduce(MPI_IN_PLACE, &empties, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const size_t n = ok ? reals(fft, 1) : 0;
  double* x = empty ? NULL : malloc(n * sizeof(double));
  double* y = empty ? NULL : malloc(n * sizeof(double));
  double* back = empty ? NULL : malloc(n * sizeof(double));
  for (size_t i = 0; i < n; ++i)
    x[i] = sin(0.41 * (double)i + rank);
  /* Every rank calls (collective), whatever its own outcome so far. */
  const int forward = a2a_fft_forward(fft, x, y, A2A_FFT_SCALE_NONE, NULL);
  const int backward = a2a_fft_backward(fft, y, back, A2A_FFT_SCALE_FULL, NULL);
  ok = ok && empties == 1 && forward == 0 && backward == 0;
  for (size_t i = 0; ok && i < n; ++i)
    ok = fabs(back[i] - x[i]) < 1e-12;
  expect(ok, "NULL arrays on the rank whose boxes are empty");
  a2a_fft_free(&fft);
  free(x), free(y), free(back);
}

/* local_call_checks = 1: each rank checks its own arguments, without the allreduce. A mistake
 * on every rank is every rank's error; a correct call runs; the option set on one rank only is
 * refused at the create on every rank (the ranks would otherwise disagree on the allreduce). */
static void local_checks(int path) {
  char what[200];
  a2a_fft_options o;
  options_for(path, procs, rank, &o);
  o.local_call_checks = 1;
  a2a_fft fft = made(&o, path, "local call checks");
  if (fft == NULL) return;
  /* The scaling is checked before the arrays, which are not read. */
  double unread[2];
  snprintf(what, sizeof what, "%s, local call checks: scaling 7 on every rank", path_name[path]);
  expect_everywhere(a2a_fft_forward(fft, unread, unread + 1, 7, NULL), A2A_ERR_ARGUMENT,
                    "scaling 7", what);
  snprintf(what, sizeof what, "%s, local call checks: a correct round trip", path_name[path]);
  expect(round_trip(fft), what);
  a2a_fft_free(&fft);
  if (procs < 2) return;
  options_for(path, procs, rank, &o);
  o.local_call_checks = rank == procs - 1;
  fft = (a2a_fft)&o; /* not NULL: the create must clear it */
  snprintf(what, sizeof what, "%s, local call checks on one rank only: refused", path_name[path]);
  expect_everywhere(a2a_fft_create(MPI_COMM_WORLD, &o, &fft), A2A_ERR_ARGUMENT, "differ", what);
  expect(fft == NULL, what);
}

/* A create that must be refused on every rank with `words`, the handle cleared. */
static void refused_create(MPI_Comm comm, const char* words, const char* what) {
  a2a_fft_options o;
  options_for(0, procs, rank, &o);
  a2a_fft fft = (a2a_fft)&o; /* not NULL: the create must clear it */
  expect_refused(a2a_fft_create(comm, &o, &fft), &fft, words, what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  for (int path = 0; path < kPaths; ++path) {
    one_rank_mistakes(path);
    after_free(path);
    local_checks(path);
  }
  if (procs >= 2) empty_box_null();

  refused_create(MPI_COMM_NULL, "MPI_COMM_NULL", "a2a_fft_create on MPI_COMM_NULL");
  if (procs >= 2) { /* even and odd ranks, joined by an inter-communicator */
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 7, &inter);
    refused_create(inter, "inter-communicator", "a2a_fft_create on an inter-communicator");
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    refused_create(inter, "inter-communicator",
                   "a2a_fft_create on an inter-communicator, MPI_ERRORS_RETURN");
    a2a_fft_options o;
    options_for(0, procs, rank, &o);
    a2a_fft fft = NULL;
    expect(a2a_fft_create_f(MPI_Comm_c2f(inter), &o, &fft) == A2A_ERR_ARGUMENT && fft == NULL &&
               strstr(a2a_last_error(), "inter-communicator") != NULL,
           "a2a_fft_create_f (Fortran's handle) on an inter-communicator");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  }
  const MPI_Fint world_fortran = MPI_Comm_c2f(MPI_COMM_WORLD);
  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();

  /* After MPI_Finalize: refused without any MPI call that MPI forbids now (Open MPI aborts the
   * job in MPI_Comm_f2c). */
  checks = failures = 0;
  refused_create(MPI_COMM_WORLD, "finalized", "a2a_fft_create after MPI_Finalize");
  a2a_fft_options o;
  options_for(0, procs, rank, &o);
  a2a_fft late = NULL;
  expect(a2a_fft_create_f(world_fortran, &o, &late) == A2A_ERR_ARGUMENT && late == NULL &&
             strstr(a2a_last_error(), "finalized") != NULL,
         "a2a_fft_create_f (Fortran's handle) after MPI_Finalize");
  if (rank == 0) {
    printf("fft_calls: %d passed, %d failed\n", totals[0] + checks - totals[1] - failures,
           totals[1] + failures);
  }
  return totals[1] + failures == 0 ? 0 : 1;
}
