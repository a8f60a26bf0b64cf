/* a2a/fft.h called with input and output arrays that overlap without being the same array
 * (the output 16 to 64 bytes before or after the input), for plans of every path: a DFT and an
 * r2c from slabs to pencils and to FFTW-MPI's slab layout (the tuned slab path), z-pencils to
 * x-pencils (the tuned pencil path on a square P), DCTs of real data,
 * and batches of two contiguous fields (one rank: each field in turn, where field f's output
 * reaches into field f + 1's input; 32^3 fields go in turn on every P, overlapping on rank 0 only,
 * where a rank that ordered its fields by its own arrays mixed them with the other ranks'). Each
 * result must equal the same plan's on arrays apart, which the other suites check against NumPy and
 * SciPy, and the backward transform must give the input back: no value of the input may be read
 * after the output has overwritten it. Prints "fft_overlap: N passed, M failed". */
#include <a2a/fft.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_plans.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int procs, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int passed = 0, failed = 0;
  for (int plan = 0; plan < 10; ++plan) {
    a2a_fft_options o;
    slabs_to_pencils(&o, 9, 10, 7, procs, rank);
    const char* name = "dft, slabs to pencils";
    if (plan == 1) { /* FFTW-MPI's TRANSPOSED_OUT: [y][x][z] over y-slabs */
      name = "dft, FFTW-MPI's slab layout";
      a2a_fft_slab_box_along(o.n, 1, procs, rank, &o.out);
      o.out_order[0] = 1, o.out_order[1] = 0;
    }
    if (plan == 2 || plan == 3) {
      name = plan == 2 ? "dct2 x dct1 x dst2, real" : "dct2 x none x dct3, real";
      o.kinds[0] = A2A_FFT_DCT2;
      o.kinds[1] = plan == 2 ? A2A_FFT_DCT1 : A2A_FFT_NONE;
      o.kinds[2] = plan == 2 ? A2A_FFT_DST2 : A2A_FFT_DCT3;
    }
    if (plan == 8) { /* z-pencils to x-pencils: the tuned pencil path on a square P */
      name = "dft, z-pencils to x-pencils";
      a2a_fft_pencil_box(o.n, 2, procs, rank, &o.in);
    }
    if (plan == 6 || plan == 7) { /* r2c, to pencils and to FFTW-MPI's slab layout */
      name = plan == 6 ? "r2c, slabs to pencils" : "r2c, FFTW-MPI's slab layout";
      o.r2c = 1;
      const int64_t spectrum[3] = {o.n[0], o.n[1], o.n[2] / 2 + 1};
      if (plan == 6) {
        a2a_fft_pencil_box(spectrum, 0, procs, rank, &o.out);
      } else {
        a2a_fft_slab_box_along(spectrum, 1, procs, rank, &o.out);
        o.out_order[0] = 1, o.out_order[1] = 0;
      }
    }
    if (plan == 9) { /* fields large enough to go in turn on every P (messages past 4 KiB) */
      o.n[0] = o.n[1] = o.n[2] = 32;
      a2a_fft_slab_box(o.n, procs, rank, &o.in);
    }
    if (plan == 4 || plan == 5 || plan == 9) {
      name = plan == 4   ? "dft, 2 contiguous fields"
             : plan == 5 ? "dct2, 2 contiguous fields"
                         : "dft, 2 contiguous fields of 32^3, overlapping on rank 0 only";
      o.batch = 2, o.batch_contiguous = 1;
      o.out = o.in; /* slabs both ways: every rank's field as many bytes in as out */
      if (plan == 5) o.kinds[0] = o.kinds[1] = o.kinds[2] = A2A_FFT_DCT2;
    }
    /* Plan 9: the other ranks' arrays apart, so that a rank may not order its fields' exchanges
     * by its own arrays alone. */
    const int overlaps_here = plan != 9 || rank == 0;
    a2a_fft apart = NULL, overlapping = NULL;
    if (a2a_fft_create(MPI_COMM_WORLD, &o, &apart) != 0 ||
        a2a_fft_create(MPI_COMM_WORLD, &o, &overlapping) != 0) {
      fprintf(stderr, "[rank %d] FAILED: create %s: %s\n", rank, name, a2a_last_error());
      ++failed;
      break;
    }
    const size_t n_in = reals(apart, 1), n_out = reals(apart, 0);
    double* in = malloc(sizeof(double) * (n_in + 1));
    double* expected = malloc(sizeof(double) * (n_out + 1));
    double* both = malloc(sizeof(double) * (n_in + n_out + 20));
    for (size_t k = 0; k < n_in; ++k)
      in[k] = sin(0.37 * (double)k + rank) + cos(0.011 * (double)(k * k));
    int code = a2a_fft_forward(apart, in, expected, A2A_FFT_SCALE_NONE, NULL);
    double largest = 0;
    for (size_t k = 0; k < n_out; ++k)
      largest = fmax(largest, fabs(expected[k]));
    for (int run = 0; run < 18; ++run) {
      const int shift = run % 9 - 4, forward = run < 9;
      if (shift == 0) continue; /* in place: another contract, checked elsewhere */
      /* Forward from `in`, or backward from the spectrum, which must give `in` back. */
      const double* from = forward ? in : expected;
      const double* to = forward ? expected : in;
      const size_t n_from = forward ? n_in : n_out, n_to = forward ? n_out : n_in;
      double* src = both + 8;
      /* 16 bytes a step: FFTW's alignment kept */
      double* dst = overlaps_here ? src + 2 * shift : both + n_in + 12;
      memcpy(src, from, sizeof(double) * n_from);
      const int call = forward ? a2a_fft_forward(overlapping, src, dst, A2A_FFT_SCALE_NONE, NULL)
                               : a2a_fft_backward(overlapping, src, dst, A2A_FFT_SCALE_FULL, NULL);
      double error = 0;
      for (size_t k = 0; k < n_to; ++k)
        error = fmax(error, fabs(dst[k] - to[k]));
      int ok = code == 0 && call == 0 && error <= (forward ? 1e-13 * (1 + largest) : 1e-12);
      MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      if (ok) {
        ++passed;
      } else {
        ++failed;
        if (rank == 0)
          fprintf(stderr, "FAILED: %s, %s, the output %+d bytes from the input: off by %g\n", name,
                  forward ? "forward" : "backward", 16 * shift, error);
      }
    }
    free(in);
    free(expected);
    free(both);
    a2a_fft_free(&apart);
    a2a_fft_free(&overlapping);
  }
  if (rank == 0) printf("fft_overlap: %d passed, %d failed\n", passed, failed);
  MPI_Finalize();
  return failed != 0;
}
