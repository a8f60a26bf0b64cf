/* The FFT library from a plain C program (built with the MPI C compiler, as a user builds it) on
 * the boxes FFTW-MPI users have: x-slabs in, the spectrum in y-slabs stored [y][x][z]
 * (FFTW_MPI_TRANSPOSED_OUT), which BoxFft runs on its tuned path (Fft3d; a2a_fft_describe says
 * so). c2c and r2c, in and out of place, odd sizes and ranks whose boxes are empty (P = 5 on
 * 3 x 4 x 6), each against serial FFTW's 3D transform of the whole grid and its round trip.
 * Under FFTW_MEASURE too, where a2a times its ways (fused or not, pulled or pushed) and runs
 * what won; 10 x 3 x 6 on P = 5 leaves two ranks x-planes but no y-planes. Each plan runs
 * forward and backward twice (the second pair skips the barriers the first pair made
 * redundant). Prints "tuned_slabs: N passed, M failed". */
#include <a2a/fft.h>
#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_cases.h"

static void run(const int64_t n[3], int r2c, int in_place, int measure, int rank, int procs) {
  a2a_fft_options o;
  a2a_fft_options_default(&o);
  if (measure) o.fftw_flags = FFTW_MEASURE;
  memcpy(o.n, n, sizeof o.n);
  o.r2c = r2c;
  int64_t sn[3] = {n[0], n[1], r2c ? n[2] / 2 + 1 : n[2]};
  a2a_fft_slab_box(n, procs, rank, &o.in);
  a2a_fft_slab_box_along(sn, 1, procs, rank, &o.out);
  o.out_order[0] = 1;
  o.out_order[1] = 0;
  o.out_order[2] = 2;
  a2a_fft fft;
  if (!make_plan(&o, &fft, rank)) return;
  int64_t ni = a2a_fft_input_elements(fft), no = a2a_fft_output_elements(fft);
  size_t bytes = 16 * (size_t)((ni > no ? ni : no) + 1);
  double complex* a = malloc(bytes);
  double complex* b = malloc(bytes);
  double* ar = (double*)a;
  /* global input, serial reference */
  int64_t N = n[0] * n[1] * n[2];
  fftw_complex* g = fftw_alloc_complex(N);
  double* gr = fftw_alloc_real(N);
  fftw_complex* G = fftw_alloc_complex(n[0] * n[1] * sn[2]);
  fftw_plan p = r2c ? fftw_plan_dft_r2c_3d(n[0], n[1], n[2], gr, G, FFTW_ESTIMATE)
                    : fftw_plan_dft_3d(n[0], n[1], n[2], g, G, FFTW_FORWARD, FFTW_ESTIMATE);
  for (int64_t i = 0; i < N; ++i) {
    gr[i] = sin(0.37 * i) + 0.1 * (i % 5);
    g[i] = gr[i] + I * cos(0.11 * i);
  }
  fftw_execute(p);
  double complex* out = in_place ? a : b;
  double err = 0, scale = 0, rt = 0;
  for (int pair = 0; pair < 2; ++pair) {
    int64_t k = 0;
    for (int64_t x = o.in.lo[0]; x < o.in.hi[0]; ++x)
      for (int64_t y = 0; y < n[1]; ++y)
        for (int64_t z = 0; z < n[2]; ++z, ++k) {
          int64_t i = (x * n[1] + y) * n[2] + z;
          if (r2c)
            ar[k] = gr[i];
          else
            a[k] = g[i];
        }
    if (a2a_fft_forward(fft, a, out, A2A_FFT_SCALE_NONE, NULL) != 0) {
      printf("forward: %s\n", a2a_last_error());
      failures++;
    }
    k = 0; /* [y][x][z] over this rank's y range */
    for (int64_t y = o.out.lo[1]; y < o.out.hi[1]; ++y)
      for (int64_t x = 0; x < n[0]; ++x)
        for (int64_t z = 0; z < sn[2]; ++z, ++k) {
          int64_t i = (x * n[1] + y) * sn[2] + z;
          err = fmax(err, cabs(out[k] - G[i]));
          scale = fmax(scale, cabs(G[i]));
        }
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &scale, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (a2a_fft_backward(fft, out, a, A2A_FFT_SCALE_FULL, NULL) != 0) {
      printf("backward: %s\n", a2a_last_error());
      failures++;
    }
    k = 0;
    for (int64_t x = o.in.lo[0]; x < o.in.hi[0]; ++x)
      for (int64_t y = 0; y < n[1]; ++y)
        for (int64_t z = 0; z < n[2]; ++z, ++k) {
          int64_t i = (x * n[1] + y) * n[2] + z;
          rt = fmax(rt, r2c ? fabs(ar[k] - gr[i]) : cabs(a[k] - g[i]));
        }
    MPI_Allreduce(MPI_IN_PLACE, &rt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  /* Fft3d's boxes and layout on P > 1 (on one rank its spectrum is [x][y][z]): the tuned path */
  const int tuned = strncmp(a2a_fft_describe(fft), "the tuned slab path", 19) == 0;
  int ok = err <= 1e-12 * scale && rt <= 1e-12 && (tuned || procs == 1);
  tally(ok);
  if (rank == 0)
    printf("%ldx%ldx%ld %s %s %s: %s; error %.1e of %.1e, round trip %.1e: %s\n", (long)n[0],
           (long)n[1], (long)n[2], r2c ? "r2c" : "c2c", in_place ? "in place" : "out of place",
           measure ? "measure" : "estimate", a2a_fft_describe(fft), err, scale, rt,
           ok ? "ok" : "FAILED");
  a2a_fft_free(&fft);
  free(a);
  free(b);
  fftw_free(g);
  fftw_free(gr);
  fftw_free(G);
  fftw_destroy_plan(p);
}
int main(int argc, char** argv) {
  int procs, rank;
  start(&argc, &argv, &rank, &procs);
  const int64_t grids[3][3] = {{16, 12, 10}, {5, 6, 7}, {3, 4, 6}};
  for (int g = 0; g < 3; ++g)
    for (int r2c = 0; r2c < 2; ++r2c)
      for (int ip = 0; ip < 2; ++ip)
        run(grids[g], r2c, ip, 0, rank, procs);
  const int64_t measured[2][3] = {{16, 12, 10}, {10, 3, 6}};
  for (int g = 0; g < 2; ++g)
    for (int r2c = 0; r2c < 2; ++r2c)
      for (int ip = 0; ip < 2; ++ip)
        run(measured[g], r2c, ip, 1, rank, procs);
  return finish("tuned_slabs", rank);
}
