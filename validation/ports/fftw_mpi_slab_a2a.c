/* An FFTW-MPI program as its users write it: a 3D complex FFT on slabs, the spectrum left
 * transposed (FFTW_MPI_TRANSPOSED_OUT: split along y, stored [y][x][z]), in place. It writes
 * its spectrum for the port check (validation/ports/compare_spectra.py). */
#include <a2a/fft.h>
#include <fftw3.h>
#include <math.h>
#include <stdio.h>

#include "spectrum_file.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int procs, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const ptrdiff_t n0 = 24, n1 = 20, n2 = 18;
  a2a_fft_options o; /* the boxes FFTW-MPI's local_size gave: x-slabs in, y-slabs [y][x][z] out */
  a2a_fft_options_default(&o);
  o.n[0] = n0, o.n[1] = n1, o.n[2] = n2, o.out_order[0] = 1, o.out_order[1] = 0;
  a2a_fft_slab_box(o.n, procs, rank, &o.in);
  a2a_fft_slab_box_along(o.n, 1, procs, rank, &o.out);
  const ptrdiff_t local_n0 = o.in.hi[0] - o.in.lo[0], local_0_start = o.in.lo[0];
  const ptrdiff_t local_n1 = o.out.hi[1] - o.out.lo[1], local_1_start = o.out.lo[1];
  const ptrdiff_t alloc = local_n0 * n1 > local_n1 * n0 ? local_n0 * n1 * n2 : local_n1 * n0 * n2;
  fftw_complex* data = fftw_alloc_complex(alloc);
  a2a_fft plan;
  a2a_fft_create(MPI_COMM_WORLD, &o, &plan);
  for (ptrdiff_t x = 0; x < local_n0; ++x)
    for (ptrdiff_t y = 0; y < n1; ++y)
      for (ptrdiff_t z = 0; z < n2; ++z) {
        const double g = (double)((x + local_0_start) * 10000 + y * 100 + z);
        data[(x * n1 + y) * n2 + z][0] = sin(0.37 * g) + cos(0.011 * g);
        data[(x * n1 + y) * n2 + z][1] = cos(0.23 * g);
      }
  a2a_fft_forward(plan, data, data, A2A_FFT_SCALE_NONE, NULL);
  /* The spectrum: local_n1 y-planes from local_1_start, each n0 x n2 ([y][x][z]). */
  write_spectrum(argv[1], local_1_start, local_n1, n0 * n2, (const double*)data);
  a2a_fft_free(&plan);
  fftw_free(data);
  MPI_Finalize();
  return 0;
}
