/* The FFT library from a plain C program (built with the MPI C compiler, as a user builds it) on
 * its general path with the docs' own boxes: x-slabs in, x-pencils [x][y][z] out. c2c and r2c,
 * FFTW_ESTIMATE and FFTW_MEASURE, the scalings none/full, full/none and symmetric both ways;
 * grids whose x-pencils run in ColumnFfts' panels on every rank (32^3), on none (48x40x32), on
 * some ranks only (16x17x32 and 24x33x64 at P = 2: the scaling must still be applied once on
 * each element's way through the ranks), and with ranks whose boxes are empty (9x7x5 at P = 8).
 * At P = 1 the plan runs the tuned path (a 1 x 1 slab under estimate). Each spectrum and round
 * trip, twice per plan, against serial FFTW's 3D transform of the whole grid. Prints
 * "general_path: N passed, M failed". */
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fft_cases.h"

static double value(long i, long j, long k, int part) {
  return sin(0.3 * i + 0.7 * j + 1.1 * k + part) + 0.01 * (double)(i * j + k);
}

int main(int argc, char** argv) {
  int rank, procs;
  start(&argc, &argv, &rank, &procs);
  const long grids[][3] = {{32, 32, 32}, {48, 40, 32}, {16, 17, 32}, {24, 33, 64}, {9, 7, 5}};
  const int scalings[][2] = {{A2A_FFT_SCALE_NONE, A2A_FFT_SCALE_FULL},
                             {A2A_FFT_SCALE_FULL, A2A_FFT_SCALE_NONE},
                             {A2A_FFT_SCALE_SYMMETRIC, A2A_FFT_SCALE_SYMMETRIC}};
  for (size_t g = 0; g < sizeof grids / sizeof grids[0]; ++g)
    for (int r2c = 0; r2c < 2; ++r2c)
      for (int measure = 0; measure < 2; ++measure)
        for (int s = 0; s < 3; ++s) {
          const long nx = grids[g][0], ny = grids[g][1], nz = grids[g][2];
          const long nc = r2c ? nz / 2 + 1 : nz, total = nx * ny * nz;
          const int64_t n[3] = {nx, ny, nz}, spectrum_n[3] = {nx, ny, nc};
          a2a_fft_options o;
          a2a_fft_options_default(&o);
          memcpy(o.n, n, sizeof n);
          o.r2c = r2c;
          o.fftw_flags = measure ? FFTW_MEASURE : FFTW_ESTIMATE;
          a2a_fft_slab_box(n, procs, rank, &o.in);
          a2a_fft_pencil_box(spectrum_n, 0, procs, rank, &o.out);
          a2a_fft fft;
          if (!make_plan(&o, &fft, rank)) continue;
          /* The reference: serial FFTW over the whole grid, on every rank. */
          fftw_complex* whole = fftw_malloc(sizeof(fftw_complex) * (size_t)total);
          for (long i = 0; i < nx; ++i)
            for (long j = 0; j < ny; ++j)
              for (long k = 0; k < nz; ++k) {
                whole[(i * ny + j) * nz + k][0] = value(i, j, k, 0);
                whole[(i * ny + j) * nz + k][1] = r2c ? 0 : value(i, j, k, 1);
              }
          fftw_plan serial = fftw_plan_dft_3d((int)nx, (int)ny, (int)nz, whole, whole, FFTW_FORWARD,
                                              FFTW_ESTIMATE);
          fftw_execute(serial);
          fftw_destroy_plan(serial);
          const double factor[3] = {1, 1.0 / (double)total, 1.0 / sqrt((double)total)};
          const double forward = factor[scalings[s][0]],
                       round = forward * factor[scalings[s][1]] * (double)total;
          double peak = 0;
          for (long q = 0; q < total; ++q)
            peak = fmax(peak, hypot(whole[q][0], whole[q][1]));
          const long in_count = a2a_fft_input_elements(fft),
                     out_count = a2a_fft_output_elements(fft);
          const long reals = r2c ? in_count : 2 * in_count;
          double* in = malloc(sizeof(double) * (size_t)(reals + 1));
          double* back = malloc(sizeof(double) * (size_t)(reals + 1));
          double* out = malloc(sizeof(double) * 2 * (size_t)(out_count + 1));
          long c = 0;
          for (long i = o.in.lo[0]; i < o.in.hi[0]; ++i)
            for (long j = o.in.lo[1]; j < o.in.hi[1]; ++j)
              for (long k = o.in.lo[2]; k < o.in.hi[2]; ++k, ++c) {
                if (r2c) {
                  in[c] = value(i, j, k, 0);
                } else {
                  in[2 * c] = value(i, j, k, 0);
                  in[2 * c + 1] = value(i, j, k, 1);
                }
              }
          int ok = 1;
          for (int call = 0; call < 2; ++call) {
            if (a2a_fft_forward(fft, in, out, scalings[s][0], NULL) != 0 ||
                a2a_fft_backward(fft, out, back, scalings[s][1], NULL) != 0) {
              printf("[rank %d] %s\n", rank, a2a_last_error());
              ok = 0;
              break;
            }
            double error = 0, round_error = 0;
            c = 0;
            for (long i = o.out.lo[0]; i < o.out.hi[0]; ++i)
              for (long j = o.out.lo[1]; j < o.out.hi[1]; ++j)
                for (long k = o.out.lo[2]; k < o.out.hi[2]; ++k, ++c) {
                  const double* want = whole[(i * ny + j) * nz + k];
                  error = fmax(error, hypot(out[2 * c] - forward * want[0],
                                            out[2 * c + 1] - forward * want[1]));
                }
            for (long q = 0; q < reals; ++q)
              round_error = fmax(round_error, fabs(back[q] - round * in[q]));
            if (error > 1e-11 * forward * peak || round_error > 1e-11 * fmax(1, round)) {
              printf("[rank %d] %ldx%ldx%ld %s %s scalings %d/%d: spectrum %.1e, round trip %.1e\n",
                     rank, nx, ny, nz, r2c ? "r2c" : "c2c", measure ? "measure" : "estimate",
                     scalings[s][0], scalings[s][1], error, round_error);
              ok = 0;
            }
          }
          MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
          if (rank == 0) tally(ok);
          free(in);
          free(back);
          free(out);
          fftw_free(whole);
          a2a_fft_free(&fft);
        }
  return finish("general_path", rank);
}
