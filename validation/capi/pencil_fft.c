/* A distributed 3D FFT in C on the a2a transpose layer (a2a/transpose.h), with FFTW for the
 * local transforms, checked against FFTW's serial 3D transform of the whole grid:
 *   mpirun --oversubscribe -np 4 pencil_fft [BACKEND]
 * On a P1 x P2 process grid: z-pencils, FFT along z; redistribution to y-pencils in the row
 * communicator, FFT along y; to x-pencils in the column communicator, FFT along x. Arrays are
 * row-major over their box (x slowest, z fastest). The local transforms are FFTW's fast way:
 * planned once with FFTW_MEASURE, before the data is in the arrays (measuring overwrites them),
 * from and into a wisdom file, so later runs skip the measuring. Prints "pencil_fft.c: N passed,
 * M failed". */
#include <a2a/transpose.h>
#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { NX = 12, NY = 10, NZ = 8 };

static double complex input(int64_t x, int64_t y, int64_t z) {
  return sin(0.1 * x + 0.2 * y) + I * cos(0.3 * z + 0.05 * x);
}

static int64_t extent(const a2a_box* b, int axis) {
  return b->hi[axis] - b->lo[axis];
}

/* The forward 1D transforms along `axis` of an array over box b, in place, as one FFTW plan
 * (NULL for an empty box). FFTW_MEASURE: plan before the data is there. */
static fftw_plan plan_along(double complex* a, const a2a_box* b, int axis) {
  const int64_t size[3] = {extent(b, 0), extent(b, 1), extent(b, 2)};
  const int64_t stride[3] = {size[1] * size[2], size[2], 1};
  if (size[0] * size[1] * size[2] == 0) return NULL;
  fftw_iodim64 line = {size[axis], stride[axis], stride[axis]}, batch[2];
  for (int d = 0, k = 0; d < 3; ++d)
    if (d != axis) batch[k++] = (fftw_iodim64){size[d], stride[d], stride[d]};
  return fftw_plan_guru64_dft(1, &line, 2, batch, (fftw_complex*)a, (fftw_complex*)a, FFTW_FORWARD,
                              FFTW_MEASURE);
}

static void run(fftw_plan p) {
  if (p) fftw_execute(p);
}

static double complex* allocate(const a2a_box* b) { /* + 1: an empty box is not NULL */
  return malloc(sizeof(double complex) * (size_t)(extent(b, 0) * extent(b, 1) * extent(b, 2)) + 1);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, procs, dims[2] = {0, 0}, checks = 0, failures = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  const char* backend = argc > 1 ? argv[1] : "auto";
  MPI_Dims_create(procs, 2, dims);
  const int p1 = dims[0], p2 = dims[1], r1 = rank / p2, r2 = rank % p2;
  MPI_Comm row, col;
  MPI_Comm_split(MPI_COMM_WORLD, r1, r2, &row);
  MPI_Comm_split(MPI_COMM_WORLD, r2, r1, &col);

  /* The three pencils: half-open boxes of global indices (x, y, z). */
  const a2a_box z = {{a2a_block_start(NX, p1, r1), a2a_block_start(NY, p2, r2), 0},
                     {a2a_block_start(NX, p1, r1 + 1), a2a_block_start(NY, p2, r2 + 1), NZ}};
  const a2a_box y = {{z.lo[0], 0, a2a_block_start(NZ, p2, r2)},
                     {z.hi[0], NY, a2a_block_start(NZ, p2, r2 + 1)}};
  const a2a_box x = {{0, a2a_block_start(NY, p1, r1), y.lo[2]},
                     {NX, a2a_block_start(NY, p1, r1 + 1), y.hi[2]}};

  /* Plan the two transposes once (collective; an error is the same code on every rank). */
  a2a_redistribution z_to_y, y_to_x;
  if (a2a_redistribution_create(row, &z, &y, sizeof(double complex), backend, &z_to_y) ||
      a2a_redistribution_create(col, &y, &x, sizeof(double complex), backend, &y_to_x)) {
    if (rank == 0) fprintf(stderr, "pencil_fft.c: %s\n", a2a_last_error());
    MPI_Finalize();
    return 2;
  }
  /* They run one after another: one set of buffers (and of window, where single-copy on the
   * same ranks) serves both. */
  const a2a_redistribution steps[2] = {z_to_y, y_to_x};
  const size_t apart =
      a2a_redistribution_memory_bytes(steps, 1) + a2a_redistribution_memory_bytes(steps + 1, 1);
  checks++, failures += a2a_redistribution_share(y_to_x, z_to_y) != A2A_SUCCESS;
  checks++, failures += a2a_redistribution_memory_bytes(steps, 2) > apart;

  double complex *zp = allocate(&z), *yp = allocate(&y), *xp = allocate(&x);
  /* The local plans, once: from the wisdom of earlier runs where it has them. */
  const char* wisdom = "pencil_fft.wisdom";
  fftw_import_wisdom_from_filename(wisdom); /* 0 on the first run: nothing to import */
  fftw_plan along_z = plan_along(zp, &z, 2), along_y = plan_along(yp, &y, 1),
            along_x = plan_along(xp, &x, 0);
  if (rank == 0) fftw_export_wisdom_to_filename(wisdom);
  size_t e = 0;
  for (int64_t i = z.lo[0]; i < z.hi[0]; ++i)
    for (int64_t j = z.lo[1]; j < z.hi[1]; ++j)
      for (int64_t k = z.lo[2]; k < z.hi[2]; ++k)
        zp[e++] = input(i, j, k);

  run(along_z);
  checks++, failures += a2a_redistribution_execute(z_to_y, zp, yp) != A2A_SUCCESS;
  run(along_y);
  checks++, failures += a2a_redistribution_execute(y_to_x, yp, xp) != A2A_SUCCESS;
  run(along_x);

  /* The serial reference: FFTW's 3D transform of the whole grid, on every rank. */
  double complex* whole = malloc(sizeof(double complex) * NX * NY * NZ);
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j)
      for (int k = 0; k < NZ; ++k)
        whole[(i * NY + j) * NZ + k] = input(i, j, k);
  fftw_plan serial = fftw_plan_dft_3d(NX, NY, NZ, (fftw_complex*)whole, (fftw_complex*)whole,
                                      FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(serial);
  fftw_destroy_plan(serial);
  double scale = 0, error = 0;
  for (int i = 0; i < NX * NY * NZ; ++i)
    scale = fmax(scale, cabs(whole[i]));
  e = 0;
  for (int64_t i = x.lo[0]; i < x.hi[0]; ++i)
    for (int64_t j = x.lo[1]; j < x.hi[1]; ++j)
      for (int64_t k = x.lo[2]; k < x.hi[2]; ++k)
        error = fmax(error, cabs(xp[e++] - whole[(i * NY + j) * NZ + k]) / scale);
  MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  checks++, failures += !(error < 1e-12);

  /* A bad backend is an error code on every rank, not an abort. */
  a2a_redistribution bad = NULL;
  checks++, failures += a2a_redistribution_create(row, &z, &y, sizeof(double complex), "nosuch",
                                                  &bad) != A2A_ERR_SPEC;

  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("pencil_fft.c %dx%dx%d on %dx%d (%s): relative max error %.3e\n", NX, NY, NZ, p1, p2,
           a2a_redistribution_backend(z_to_y), error);
    printf("pencil_fft.c: %d passed, %d failed\n", totals[0] - totals[1], totals[1]);
  }
  a2a_redistribution_free(&z_to_y);
  a2a_redistribution_free(&y_to_x);
  for (int i = 0; i < 3; ++i) {
    fftw_plan p = i == 0 ? along_z : i == 1 ? along_y : along_x;
    if (p) fftw_destroy_plan(p);
  }
  free(zp), free(yp), free(xp), free(whole);
  MPI_Comm_free(&row);
  MPI_Comm_free(&col);
  MPI_Finalize();
  return totals[1] != 0;
}
