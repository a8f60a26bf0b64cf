/* Batches of fields and the general path's first and last transforms from a plain C program
 * (a2a/fft.h, built with the MPI C compiler as a user builds it), against serial FFTW of each
 * field of the whole grid. x-slabs in, x-pencils out for the c2c (the general path: BoxFft's
 * own reshapes and plans, not Fft3d's). Arrays from malloc, and one double past malloc's start (not
 * aligned as the plan's work arrays: its first transform, which reads the caller's input,
 * copies it first). Cases:
 *   c2c, 3 fields interleaved and contiguous, an odd grid and 16^3 (whole 64-byte fields at
 *   P = 1, 2, 4: contiguous fields run field by field);
 *   c2c, 3 fields on FFTW-MPI's boxes (x-slabs in, [y][x][z] y-slabs out) of 24 x 24 x 16:
 *   contiguous fields, whose messages are large there, run one at a time on the tuned path
 *   (checked on one node at P = 2..4; across nodes they share the exchanges);
 *   r2c along z alone (axes 0 and 1 of kind none), 2 fields contiguous, the spectrum in the
 *   same x-slabs: the backward's first transform is the c2r, from the caller's input, which
 *   FFTW lets overwrite its input.
 * Each: the forward against FFTW, the input left as it was, the backward's input (the spectrum)
 * left as it was, the round trip. Prints "batches: N passed, M failed". */
#include <a2a/fft.h>
#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_cases.h"

static double value(int64_t i, int field, int part) {
  return sin(0.37 * (double)i + 1.3 * field + 0.7 * part) + 0.1 * (double)(i % 5);
}

/* Where field f of point p (an index into the box) lies in a caller's array, in values. */
static int64_t at(int64_t p, int f, int64_t points, int batch, int contiguous) {
  return contiguous ? f * points + p : p * batch + f;
}

/* The box's points in the array's order, as global indices of the grid (spectrum grid s):
 * row-major [x][y][z], or [y][x][z] (FFTW_MPI_TRANSPOSED_OUT) where yxz. */
static int64_t global(const a2a_box* b, int64_t p, const int64_t s[3], int yxz) {
  const int64_t e0 = b->hi[0] - b->lo[0], e1 = b->hi[1] - b->lo[1], e2 = b->hi[2] - b->lo[2];
  const int64_t slow = p / (e2 * (yxz ? e0 : e1)), middle = p / e2 % (yxz ? e0 : e1);
  const int64_t x = b->lo[0] + (yxz ? middle : slow), y = b->lo[1] + (yxz ? slow : middle);
  return (x * s[1] + y) * s[2] + b->lo[2] + p % e2;
}

/* Whether every rank shares this node's memory (MPI_COMM_TYPE_SHARED). */
static int one_node(int procs) {
  MPI_Comm node;
  int size = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  int all = size == procs;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all;
}

static int64_t count(const a2a_box* b) {
  int64_t c = 1;
  for (int d = 0; d < 3; ++d)
    c *= b->hi[d] > b->lo[d] ? b->hi[d] - b->lo[d] : 0;
  return c;
}

static void run(const int64_t n[3], int r2c_alone, int transposed, int batch, int contiguous,
                int misaligned, int rank, int procs) {
  a2a_fft_options o;
  a2a_fft_options_default(&o);
  memcpy(o.n, n, sizeof o.n);
  const int64_t s[3] = {n[0], n[1], r2c_alone ? n[2] / 2 + 1 : n[2]}; /* the spectrum's grid */
  if (r2c_alone) {
    o.r2c = 1;
    o.kinds[0] = o.kinds[1] = A2A_FFT_NONE;
  }
  o.batch = batch;
  o.batch_contiguous = contiguous;
  a2a_fft_slab_box(n, procs, rank, &o.in);
  if (r2c_alone) { /* the spectrum in the same slabs: no reshape, the backward starts at c2r */
    a2a_fft_slab_box(s, procs, rank, &o.out);
  } else if (transposed) { /* FFTW-MPI's layout: y-slabs stored [y][x][z] */
    a2a_fft_slab_box_along(s, 1, procs, rank, &o.out);
    o.out_order[0] = 1;
    o.out_order[1] = 0;
  } else {
    a2a_fft_pencil_box(s, 0, procs, rank, &o.out);
  }
  a2a_fft fft;
  if (!make_plan(&o, &fft, rank)) return;
  const int64_t N = n[0] * n[1] * n[2], S = s[0] * s[1] * s[2];
  const int64_t in_points = count(&o.in), out_points = count(&o.out);
  const int in_parts = r2c_alone ? 1 : 2; /* doubles per input value */
  /* The caller's arrays, malloc'd, one double in where misaligned. */
  const size_t in_doubles = (size_t)(in_points * batch * in_parts);
  const size_t out_doubles = (size_t)(out_points * batch * 2);
  double* in_block = malloc((in_doubles + 1) * sizeof(double));
  double* out_block = malloc((out_doubles + 1) * sizeof(double));
  double* back_block = malloc((in_doubles + 1) * sizeof(double));
  double* in = in_block + misaligned;
  double* out = out_block + misaligned;
  double* back = back_block + misaligned;
  for (int64_t p = 0; p < in_points; ++p)
    for (int f = 0; f < batch; ++f)
      for (int c = 0; c < in_parts; ++c)
        in[at(p, f, in_points, batch, contiguous) * in_parts + c] =
            value(global(&o.in, p, n, 0), f, c);
  double* given = malloc(in_doubles * sizeof(double) + 1);
  memcpy(given, in, in_doubles * sizeof(double));

  /* The serial reference of each field over the whole grid. */
  fftw_complex* whole = fftw_alloc_complex((size_t)(S * batch));
  double* real = fftw_alloc_real((size_t)N);
  for (int f = 0; f < batch; ++f) {
    fftw_complex* g = whole + f * S;
    fftw_plan p;
    if (r2c_alone) {
      const int len = (int)n[2];
      p = fftw_plan_many_dft_r2c(1, &len, (int)(n[0] * n[1]), real, NULL, 1, len, g, NULL, 1,
                                 (int)s[2], FFTW_ESTIMATE);
      for (int64_t i = 0; i < N; ++i)
        real[i] = value(i, f, 0);
    } else {
      p = fftw_plan_dft_3d((int)n[0], (int)n[1], (int)n[2], g, g, FFTW_FORWARD, FFTW_ESTIMATE);
      for (int64_t i = 0; i < N; ++i)
        g[i] = value(i, f, 0) + I * value(i, f, 1);
    }
    fftw_execute(p);
    fftw_destroy_plan(p);
  }

  int rc = a2a_fft_forward(fft, in, out, A2A_FFT_SCALE_NONE, NULL);
  double err = 0, scale = 0;
  for (int64_t p = 0; p < out_points; ++p)
    for (int f = 0; f < batch; ++f) {
      const double* v = out + 2 * at(p, f, out_points, batch, contiguous);
      const double complex want = whole[f * S + global(&o.out, p, s, transposed)];
      const double e = cabs(v[0] + I * v[1] - want);
      err = isnan(e) ? INFINITY : fmax(err, e);
      scale = fmax(scale, cabs(want));
    }
  const int input_kept = memcmp(given, in, in_doubles * sizeof(double)) == 0;
  double* spectrum = malloc(out_doubles * sizeof(double) + 1);
  memcpy(spectrum, out, out_doubles * sizeof(double));
  rc |= a2a_fft_backward(fft, out, back, A2A_FFT_SCALE_FULL, NULL);
  const int spectrum_kept = memcmp(spectrum, out, out_doubles * sizeof(double)) == 0;
  double rt = 0;
  for (size_t i = 0; i < in_doubles; ++i)
    rt = isnan(back[i]) ? INFINITY : fmax(rt, fabs(back[i] - given[i]));
  double worst[4] = {err, rt, input_kept ? 0 : 1, spectrum_kept ? 0 : 1};
  MPI_Allreduce(MPI_IN_PLACE, worst, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &scale, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int all_rc = rc;
  MPI_Allreduce(MPI_IN_PLACE, &all_rc, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
  /* On FFTW-MPI's boxes at P = 2..4 on one node, a field sends a peer more than 4 KiB of the
   * 24 x 24 x 16 grid and runs the tuned path alone: contiguous fields then go in turn. */
  const char* plan = a2a_fft_describe(fft);
  const int in_turn = strncmp(plan, "each of the 3 fields in turn: the tuned slab path", 49) == 0;
  const int way_ok =
      !(transposed && contiguous && procs >= 2 && procs <= 4 && one_node(procs)) || in_turn;
  const int ok = all_rc == 0 && worst[0] <= 1e-12 * scale && worst[1] <= 1e-12 && worst[2] == 0 &&
                 worst[3] == 0 && way_ok;
  tally(ok);
  if (rank == 0)
    printf(
        "%ldx%ldx%ld %s%s batch %d %s%s: %s; error %.1e of %.1e, round trip %.1e, input %s, "
        "spectrum %s: %s\n",
        (long)n[0], (long)n[1], (long)n[2], r2c_alone ? "r2c along z" : "c2c",
        transposed ? " to [y][x][z] y-slabs" : "", batch, contiguous ? "contiguous" : "interleaved",
        misaligned ? ", misaligned" : "", plan, worst[0], scale, worst[1],
        worst[2] == 0 ? "kept" : "CHANGED", worst[3] == 0 ? "kept" : "CHANGED",
        ok ? "ok" : "FAILED");
  a2a_fft_free(&fft);
  free(in_block);
  free(out_block);
  free(back_block);
  free(given);
  free(spectrum);
  fftw_free(whole);
  fftw_free(real);
}

int main(int argc, char** argv) {
  int procs, rank;
  start(&argc, &argv, &rank, &procs);
  const int64_t odd[3] = {5, 6, 7}, even[3] = {16, 16, 16}, long_z[3] = {4, 3, 160};
  const int64_t slabs[3] = {24, 24, 16};
  for (int misaligned = 0; misaligned < 2; ++misaligned) {
    for (int contiguous = 0; contiguous < 2; ++contiguous) {
      run(odd, 0, 0, 3, contiguous, misaligned, rank, procs);
      run(even, 0, 0, 3, contiguous, misaligned, rank, procs);
      run(slabs, 0, 1, 3, contiguous, misaligned, rank, procs);
    }
    run(long_z, 1, 0, 2, 1, misaligned, rank, procs);
  }
  return finish("batches", rank);
}
