/* The FFT library's real-to-real kinds from a plain C program (a2a/fft.h, built with the MPI C
 * compiler as a user builds it): x-slabs in, x-pencils out, a kind per axis, each against serial
 * FFTW's own fftw_plan_r2r_3d of the whole grid and its round trip. Odd and even sizes (types
 * II/III paired along either side, types I through their lines' extensions, type IV of even length
 * through half-length DFTs, odd type IV on FFTW's r2r), ranks with empty boxes at P = 5, double
 * and float; then batches of two fields whose field 0 is all NaN (types II, IV, I: a real batch
 * keeps FFTW's r2r where lines would pair): field 1 must come out as FFTW gives it, field 0 NaN.
 * Prints "r2r_kinds: N passed, M failed". */
#include <a2a/fft.h>
#include <fftw3.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_cases.h"

static fftw_r2r_kind fftw_kind(int k) {
  static const fftw_r2r_kind kinds[] = {FFTW_R2HC,    FFTW_REDFT00, FFTW_REDFT10,
                                        FFTW_REDFT01, FFTW_REDFT11, FFTW_RODFT00,
                                        FFTW_RODFT10, FFTW_RODFT01, FFTW_RODFT11};
  return kinds[k];
}

static double value(int64_t i, int field) {
  return sin(0.37 * (double)i + field) + 0.1 * (double)(i % 5);
}

/* One case: kinds per axis, batch fields (field 0 NaN where nan_field0), precision. */
static void run(const int64_t n[3], const int kinds[3], int batch, int nan_field0, int single,
                int rank, int procs) {
  a2a_fft_options o;
  a2a_fft_options_default(&o);
  memcpy(o.n, n, sizeof o.n);
  memcpy(o.kinds, kinds, sizeof o.kinds);
  o.batch = batch;
  o.single_precision = single;
  a2a_fft_slab_box(n, procs, rank, &o.in);
  a2a_fft_pencil_box(n, 0, procs, rank, &o.out);
  a2a_fft fft;
  if (!make_plan(&o, &fft, rank)) return;
  const int64_t N = n[0] * n[1] * n[2];
  const int64_t ni = a2a_fft_input_elements(fft), no = a2a_fft_output_elements(fft);
  const size_t most = (size_t)(ni > no ? ni : no) + 1;
  double* in = malloc(most * sizeof(double));
  double* out = malloc(most * sizeof(double));
  float* in_f = malloc(most * sizeof(float));
  float* out_f = malloc(most * sizeof(float));
  /* The serial reference of each field: FFTW's r2r of the whole grid. */
  double* whole = fftw_alloc_real((size_t)(N * batch));
  for (int f = 0; f < batch; ++f) {
    double* g = whole + f * N;
    fftw_plan p = fftw_plan_r2r_3d((int)n[0], (int)n[1], (int)n[2], g, g, fftw_kind(kinds[0]),
                                   fftw_kind(kinds[1]), fftw_kind(kinds[2]), FFTW_ESTIMATE);
    for (int64_t i = 0; i < N; ++i)
      g[i] = nan_field0 && f == 0 ? NAN : value(i, f);
    fftw_execute(p);
    fftw_destroy_plan(p);
  }
  int64_t k = 0; /* the input slab, the batch interleaved */
  for (int64_t x = o.in.lo[0]; x < o.in.hi[0]; ++x)
    for (int64_t y = 0; y < n[1]; ++y)
      for (int64_t z = 0; z < n[2]; ++z)
        for (int f = 0; f < batch; ++f, ++k) {
          in[k] = nan_field0 && f == 0 ? NAN : value((x * n[1] + y) * n[2] + z, f);
          in_f[k] = (float)in[k];
        }
  int rc = single ? a2a_fft_forward(fft, in_f, out_f, A2A_FFT_SCALE_NONE, NULL)
                  : a2a_fft_forward(fft, in, out, A2A_FFT_SCALE_NONE, NULL);
  double err = 0, scale = 0;
  int nan_kept = 1;
  k = 0; /* the output pencil, [x][y][z] over its box */
  for (int64_t x = o.out.lo[0]; x < o.out.hi[0]; ++x)
    for (int64_t y = o.out.lo[1]; y < o.out.hi[1]; ++y)
      for (int64_t z = o.out.lo[2]; z < o.out.hi[2]; ++z)
        for (int f = 0; f < batch; ++f, ++k) {
          const double got = single ? out_f[k] : out[k];
          const double want = whole[f * N + (x * n[1] + y) * n[2] + z];
          if (nan_field0 && f == 0) {
            nan_kept = nan_kept && isnan(got);
            continue;
          }
          err = fmax(err, fabs(got - want));
          if (isnan(got)) err = INFINITY;
          scale = fmax(scale, fabs(want));
        }
  double worst[2] = {err, nan_kept ? 0 : 1};
  MPI_Allreduce(MPI_IN_PLACE, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &scale, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  /* The round trip, scaled by 1/N, back to the input (finite fields only). */
  rc |= single ? a2a_fft_backward(fft, out_f, in_f, A2A_FFT_SCALE_FULL, NULL)
               : a2a_fft_backward(fft, out, in, A2A_FFT_SCALE_FULL, NULL);
  double rt = 0;
  k = 0;
  for (int64_t x = o.in.lo[0]; x < o.in.hi[0]; ++x)
    for (int64_t y = 0; y < n[1]; ++y)
      for (int64_t z = 0; z < n[2]; ++z)
        for (int f = 0; f < batch; ++f, ++k) {
          if (nan_field0 && f == 0) continue;
          const double got = single ? in_f[k] : in[k];
          rt = fmax(rt, isnan(got) ? INFINITY : fabs(got - value((x * n[1] + y) * n[2] + z, f)));
        }
  MPI_Allreduce(MPI_IN_PLACE, &rt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double tolerance = single ? 1e-5 : 1e-12;
  const int ok = rc == 0 && worst[0] <= tolerance * scale && worst[1] == 0 && rt <= tolerance * 10;
  tally(ok);
  if (rank == 0)
    printf(
        "%ldx%ldx%ld kinds %d %d %d batch %d%s %s: %s; error %.1e of %.1e, round trip %.1e: %s\n",
        (long)n[0], (long)n[1], (long)n[2], kinds[0], kinds[1], kinds[2], batch,
        nan_field0 ? " (field 0 NaN)" : "", single ? "float" : "double", a2a_fft_describe(fft),
        worst[0], scale, rt, ok ? "ok" : "FAILED");
  a2a_fft_free(&fft);
  free(in);
  free(out);
  free(in_f);
  free(out_f);
  fftw_free(whole);
}

int main(int argc, char** argv) {
  int procs, rank;
  start(&argc, &argv, &rank, &procs);
  const int64_t odd[3] = {3, 7, 5}, even[3] = {8, 6, 10};
  const int dct2[3] = {A2A_FFT_DCT2, A2A_FFT_DCT2, A2A_FFT_DCT2};
  const int mixed[3] = {A2A_FFT_DST3, A2A_FFT_DCT3, A2A_FFT_DST2};
  const int fours[3] = {A2A_FFT_DCT4, A2A_FFT_DST4, A2A_FFT_DCT4};
  const int ones[3] = {A2A_FFT_DCT1, A2A_FFT_DST1, A2A_FFT_DCT2};
  const int64_t* grids[2] = {odd, even};
  for (int g = 0; g < 2; ++g) {
    run(grids[g], dct2, 1, 0, 0, rank, procs);
    run(grids[g], mixed, 1, 0, 0, rank, procs);
    run(grids[g], fours, 1, 0, 0, rank, procs);
    run(grids[g], ones, 1, 0, 0, rank, procs);
    run(grids[g], mixed, 1, 0, 1, rank, procs); /* float */
    run(grids[g], ones, 1, 0, 1, rank, procs);
    run(grids[g], dct2, 2, 1, 0, rank, procs); /* a NaN field beside a finite one */
    run(grids[g], fours, 2, 1, 0, rank, procs);
    run(grids[g], ones, 2, 1, 0, rank, procs);
  }
  return finish("r2r_kinds", rank);
}
