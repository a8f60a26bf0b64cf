/* An FFTW-MPI program as its users write it: a 3D complex FFT on slabs, the spectrum left
 * transposed (FFTW_MPI_TRANSPOSED_OUT: split along y, stored [y][x][z]), in place. It writes
 * its spectrum for the port check (validation/ports/compare_spectra.py). */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdio.h>

#include "spectrum_file.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  const ptrdiff_t n0 = 24, n1 = 20, n2 = 18;
  ptrdiff_t local_n0, local_0_start, local_n1, local_1_start;
  const ptrdiff_t alloc = fftw_mpi_local_size_3d_transposed(
      n0, n1, n2, MPI_COMM_WORLD, &local_n0, &local_0_start, &local_n1, &local_1_start);
  fftw_complex* data = fftw_alloc_complex(alloc);
  fftw_plan plan = fftw_mpi_plan_dft_3d(n0, n1, n2, data, data, MPI_COMM_WORLD, FFTW_FORWARD,
                                        FFTW_ESTIMATE | FFTW_MPI_TRANSPOSED_OUT);
  for (ptrdiff_t x = 0; x < local_n0; ++x)
    for (ptrdiff_t y = 0; y < n1; ++y)
      for (ptrdiff_t z = 0; z < n2; ++z) {
        const double g = (double)((x + local_0_start) * 10000 + y * 100 + z);
        data[(x * n1 + y) * n2 + z][0] = sin(0.37 * g) + cos(0.011 * g);
        data[(x * n1 + y) * n2 + z][1] = cos(0.23 * g);
      }
  fftw_execute(plan);
  /* The spectrum: local_n1 y-planes from local_1_start, each n0 x n2 ([y][x][z]). */
  write_spectrum(argv[1], local_1_start, local_n1, n0 * n2, (const double*)data);
  fftw_destroy_plan(plan);
  fftw_free(data);
  fftw_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
