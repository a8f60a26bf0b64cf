/* A distributed 3D FFT from C with a2a/fft.h: a plane wave on a 32^3 grid held in slabs, its
 * spectrum wanted in x-pencils, forward and back, checked. */
#include <a2a/fft.h>
#include <complex.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call) \
  if ((call) != 0) fprintf(stderr, "%s\n", a2a_last_error()), MPI_Abort(MPI_COMM_WORLD, 1)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int procs, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  a2a_fft_options o;
  a2a_fft_options_default(&o); /* DFT along every axis, double, "auto" */
  o.n[0] = o.n[1] = o.n[2] = 32;
  CHECK(a2a_fft_slab_box(o.n, procs, rank, &o.in));       /* the box this rank holds */
  CHECK(a2a_fft_pencil_box(o.n, 0, procs, rank, &o.out)); /* the box it wants back */
  a2a_fft fft;
  CHECK(a2a_fft_create(MPI_COMM_WORLD, &o, &fft)); /* collective: plans once */
  const int64_t in_count = a2a_fft_input_elements(fft), out_count = a2a_fft_output_elements(fft);
  double complex* u = malloc(sizeof(double complex) * (in_count + 1));
  double complex* spectrum = malloc(sizeof(double complex) * (out_count + 1));
  double complex* back = malloc(sizeof(double complex) * (in_count + 1));
  int64_t i = 0; /* u is row-major over the box: [x][y][z], z fastest */
  for (int64_t x = o.in.lo[0]; x < o.in.hi[0]; ++x)
    for (int64_t y = o.in.lo[1]; y < o.in.hi[1]; ++y)
      for (int64_t z = o.in.lo[2]; z < o.in.hi[2]; ++z)
        u[i++] = cexp(2 * acos(-1.0) * I * (3 * x + 5 * y + 7 * z) / 32.0);
  CHECK(a2a_fft_forward(fft, u, spectrum, A2A_FFT_SCALE_NONE, NULL));
  CHECK(a2a_fft_backward(fft, spectrum, back, A2A_FFT_SCALE_FULL, NULL)); /* back == u */
  /* A plane wave's spectrum is N in one bin, 0 elsewhere: all its energy there. */
  double peak = 0, energy = 0, error = 0;
  for (int64_t k = 0; k < out_count; ++k) {
    peak = fmax(peak, cabs(spectrum[k]));
    energy += creal(spectrum[k] * conj(spectrum[k]));
  }
  for (int64_t k = 0; k < in_count; ++k)
    error = fmax(error, cabs(back[k] - u[k]));
  MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &energy, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double n = 32.0 * 32 * 32;
  const int ok = fabs(peak - n) < 1e-6 * n && fabs(energy - n * n) < 1e-6 * n * n && error < 1e-12;
  if (rank == 0)
    printf("%s: peak %.0f (N = %.0f), round trip error %.1e: %s\n", a2a_fft_describe(fft), peak, n,
           error, ok ? "passed" : "FAILED");
  a2a_fft_free(&fft);
  free(u);
  free(spectrum);
  free(back);
  if (!ok) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
  return 0;
}
