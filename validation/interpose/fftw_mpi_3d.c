/* FFTW's own MPI 3D transform (fftw_mpi_plan_dft_3d) in a plain C program, as an unmodified
 * third-party MPI code: prints a hash of the whole forward transform (gathered in rank order),
 * the time of `repeats` forward+backward pairs, and which transpose FFTW planned (its
 * MPI_Alltoall one, or pairwise MPI_Sendrecv). Run with and without liba2a_interpose.so, the
 * hashes must be identical.
 *   fftw_mpi_3d N REPEATS estimate|measure|patient [WISDOM_FILE] */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ptrdiff_t local_n0, local_0_start, n;

static void fill(fftw_complex* data) {
  for (ptrdiff_t i = 0; i < local_n0; ++i) {
    for (ptrdiff_t j = 0; j < n; ++j) {
      for (ptrdiff_t k = 0; k < n; ++k) {
        const double x = (double)((local_0_start + i) * 131 + j * 31 + k * 7);
        const ptrdiff_t at = (i * n + j) * n + k;
        data[at][0] = sin(0.01 * x);
        data[at][1] = cos(0.02 * x);
      }
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  int rank = 0, procs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  n = argc > 1 ? atol(argv[1]) : 32;
  const int repeats = argc > 2 ? atoi(argv[2]) : 5;
  const char* rigour = argc > 3 ? argv[3] : "estimate";
  const unsigned flags = strcmp(rigour, "patient") == 0   ? FFTW_PATIENT
                         : strcmp(rigour, "measure") == 0 ? FFTW_MEASURE
                                                          : FFTW_ESTIMATE;
  const ptrdiff_t alloc =
      fftw_mpi_local_size_3d(n, n, n, MPI_COMM_WORLD, &local_n0, &local_0_start);
  /* FFTW_MEASURE chooses plans by timing, so two runs may round differently: with a wisdom
   * file every run uses the plan the first one chose, and results are comparable bit for bit. */
  const char* wisdom = argc > 4 ? argv[4] : NULL;
  if (wisdom != NULL) {
    if (rank == 0) fftw_import_wisdom_from_filename(wisdom);
    fftw_mpi_broadcast_wisdom(MPI_COMM_WORLD);
  }
  /* Out of place: FFTW's MPI_Alltoall transpose applies only there. */
  fftw_complex* data = fftw_alloc_complex((size_t)alloc);
  fftw_complex* out = fftw_alloc_complex((size_t)alloc);
  fftw_plan forward = fftw_mpi_plan_dft_3d(n, n, n, data, out, MPI_COMM_WORLD, FFTW_FORWARD,
                                           flags | FFTW_DESTROY_INPUT);
  fftw_plan backward = fftw_mpi_plan_dft_3d(n, n, n, out, data, MPI_COMM_WORLD, FFTW_BACKWARD,
                                            flags | FFTW_DESTROY_INPUT);
  if (wisdom != NULL) {
    fftw_mpi_gather_wisdom(MPI_COMM_WORLD);
    if (rank == 0) fftw_export_wisdom_to_filename(wisdom);
  }
  fill(data);
  fftw_execute(forward);
  /* FNV-1a over every rank's output bytes, in rank order. */
  uint64_t hash = 1469598103934665603ULL;
  const unsigned char* bytes = (const unsigned char*)out;
  for (size_t b = 0; b < (size_t)(local_n0 * n * n) * sizeof(fftw_complex); ++b) {
    hash = (hash ^ bytes[b]) * 1099511628211ULL;
  }
  uint64_t* hashes = malloc((size_t)procs * sizeof(uint64_t));
  MPI_Gather(&hash, 1, MPI_UINT64_T, hashes, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  fill(data);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int r = 0; r < repeats; ++r) {
    fftw_execute(forward);
    fftw_execute(backward);
  }
  double elapsed = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    uint64_t all = 0;
    for (int r = 0; r < procs; ++r)
      all = all * 31 + hashes[r];
    char* text = fftw_sprint_plan(forward);
    const int alltoall = text != NULL && strstr(text, "alltoall") != NULL;
    free(text);
    printf("fftw_mpi_3d: n=%td P=%d hash=%016llx time_per_pair_ms=%.3f transpose=%s\n", n, procs,
           (unsigned long long)all, 1e3 * elapsed / repeats, alltoall ? "alltoall" : "other");
  }
  free(hashes);
  fftw_destroy_plan(forward);
  fftw_destroy_plan(backward);
  fftw_free(data);
  fftw_free(out);
  fftw_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
