/* a2a/fft.h from a plain C program, misused on one rank only: a NULL options pointer, a kind
 * out of range, the other precision (the plans' exchanges then disagree on element sizes, which
 * the transpose layer agrees on), boxes that overlap. Each create must return the same
 * error code on every rank (none left waiting in the plan's collectives), leave the handle
 * NULL, and a correct create afterwards must still work. Then a grid whose point count passes
 * 2^63 on every rank. Prints "N passed, M failed". */
#include <a2a/fft.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "fft_plans.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int odd = procs - 1; /* the rank that misbehaves */
  for (int mistake = 0; mistake < 4; ++mistake) {
    a2a_fft_options o;
    slabs_to_pencils(&o, 6, 5, 4, procs, rank);
    const a2a_fft_options* given = &o;
    if (rank == odd) {
      if (mistake == 0) given = NULL;
      if (mistake == 1) o.kinds[1] = 42;
      if (mistake == 2) o.single_precision = 1;
      if (mistake == 3) a2a_fft_slab_box(o.n, procs, 0, &o.in);
    }
    a2a_fft fft = (a2a_fft)&o; /* not NULL: the create must clear it */
    const int code = a2a_fft_create(MPI_COMM_WORLD, given, &fft);
    int low = code, high = code;
    MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    /* With one rank, overlapping itself is no mistake and the precision is its own. */
    const int should_fail = procs > 1 || mistake < 2;
    char what[64];
    snprintf(what, sizeof what, "mistake %d: the same code everywhere", mistake);
    expect(low == high && (code != 0) == should_fail, what);
    snprintf(what, sizeof what, "mistake %d: handle NULL", mistake);
    expect(code == 0 || fft == NULL, what);
    if (code == 0) a2a_fft_free(&fft);
  }
  /* On every rank, a grid whose point count passes 2^63 (2^31 cubed wraps to 0, where the
   * boxes' check once reported "holes"): a clear error, the same code everywhere. */
  a2a_fft_options o;
  slabs_to_pencils(&o, INT64_C(1) << 31, INT64_C(1) << 31, INT64_C(1) << 31, procs, rank);
  a2a_fft huge = NULL;
  const int code = a2a_fft_create(MPI_COMM_WORLD, &o, &huge);
  int low = code, high = code;
  MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  expect(code != 0 && low == high && huge == NULL &&
             strstr(a2a_last_error(), "more than 2^63 - 1 bytes") != NULL,
         "a grid of 2^93 points");
  a2a_fft_options_default(&o);
  o.n[0] = 6, o.n[1] = 5, o.n[2] = 4;
  a2a_fft_slab_box(o.n, procs, rank, &o.in);
  o.out = o.in;
  a2a_fft fft = NULL;
  expect(a2a_fft_create(MPI_COMM_WORLD, &o, &fft) == 0 && fft != NULL, "a correct create after");
  a2a_fft_free(&fft);
  int totals[2] = {checks - failures, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("fft_misuse: %d passed, %d failed\n", totals[0], totals[1]);
  MPI_Finalize();
  return totals[1] == 0 ? 0 : 1;
}
