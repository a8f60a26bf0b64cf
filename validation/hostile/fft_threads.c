/* fft_threads ITERATIONS: four threads of every rank (MPI_THREAD_MULTIPLE), each making FFT
 * plans through a2a/fft.h on its own duplicate of MPI_COMM_WORLD, running them and freeing them,
 * in a loop, all at once. Planned with FFTW_MEASURE, so that the threads spend most of their
 * time in FFTW's planner, which is not thread-safe: unguarded, they crashed inside it (a double
 * free, a division by zero in fftw_mkapiplan) in every launch at P = 1. Each plan transforms a
 * plane wave, whose spectrum is known in closed form (the grid's point count at the wave's
 * frequency, 0 elsewhere), and back. Prints "fft_threads: N passed, M failed". */
#include <a2a/fft.h>
#include <complex.h>
#include <math.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "fft_plans.h"

enum { THREADS = 4 };
static int rank, procs, iterations;

struct worker {
  MPI_Comm comm;
  int id;
  long checks, failures;
};

static void check(struct worker* w, int ok, int i, const char* what, double error) {
  ++w->checks;
  if (!ok && w->failures++ < 5)
    fprintf(stderr, "[rank %d thread %d] FAILED at iteration %d: %s (%g; %s)\n", rank, w->id, i,
            what, error, a2a_last_error());
}

/* The global index of element k of an array laid out row-major over box b. */
static void global_index(const a2a_box* b, int64_t k, int64_t g[3]) {
  const int64_t e1 = b->hi[1] - b->lo[1], e2 = b->hi[2] - b->lo[2];
  g[0] = b->lo[0] + k / (e1 * e2);
  g[1] = b->lo[1] + k / e2 % e1;
  g[2] = b->lo[2] + k % e2;
}

static void* run(void* arg) {
  struct worker* w = arg;
  const double pi = acos(-1.0);
  for (int i = 0; i < iterations; ++i) {
    a2a_fft_options o;
    /* Shapes that change from plan to plan and thread to thread. */
    slabs_to_pencils(&o, 8 + (i + w->id) % 5, 6 + i % 3, 4 + 2 * (w->id % 3), procs, rank);
    o.fftw_flags = 0; /* FFTW_MEASURE */
    a2a_fft fft = NULL;
    const int created = a2a_fft_create(w->comm, &o, &fft);
    check(w, created == 0, i, "create", 0);
    if (created != 0) continue;
    const int64_t n_in = a2a_fft_input_elements(fft), n_out = a2a_fft_output_elements(fft);
    double complex* in = malloc(sizeof(double complex) * (size_t)(n_in + 1));
    double complex* back = malloc(sizeof(double complex) * (size_t)(n_in + 1));
    double complex* out = malloc(sizeof(double complex) * (size_t)(n_out + 1));
    const int64_t wave[3] = {(i + 1) % o.n[0], w->id % o.n[1], (i + w->id) % o.n[2]};
    for (int64_t k = 0; k < n_in; ++k) {
      int64_t g[3];
      global_index(&o.in, k, g);
      double phase = 0;
      for (int d = 0; d < 3; ++d)
        phase += 2 * pi * (double)(wave[d] * g[d] % o.n[d]) / (double)o.n[d];
      in[k] = cexp(I * phase);
    }
    int code = a2a_fft_forward(fft, in, out, A2A_FFT_SCALE_NONE, NULL);
    check(w, code == 0, i, "forward", 0);
    const double points = (double)(o.n[0] * o.n[1] * o.n[2]);
    double error = 0;
    for (int64_t k = 0; k < n_out && code == 0; ++k) {
      int64_t g[3];
      global_index(&o.out, k, g);
      const int at = g[0] == wave[0] && g[1] == wave[1] && g[2] == wave[2];
      error = fmax(error, cabs(out[k] - (at ? points : 0)) / points);
    }
    check(w, code == 0 && error < 1e-12, i, "spectrum of the plane wave", error);
    if (code == 0) code = a2a_fft_backward(fft, out, back, A2A_FFT_SCALE_FULL, NULL);
    error = 0;
    for (int64_t k = 0; k < n_in && code == 0; ++k)
      error = fmax(error, cabs(back[k] - in[k]));
    check(w, code == 0 && error < 1e-12, i, "round trip", error);
    free(in);
    free(back);
    free(out);
    check(w, a2a_fft_free(&fft) == 0 && fft == NULL, i, "free", 0);
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) printf("fft_threads: this MPI has no MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 1;
  }
  iterations = argc > 1 ? atoi(argv[1]) : 50;
  struct worker w[THREADS];
  pthread_t threads[THREADS];
  for (int k = 0; k < THREADS; ++k) {
    w[k].id = k;
    w[k].checks = w[k].failures = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &w[k].comm);
  }
  for (int k = 0; k < THREADS; ++k)
    pthread_create(&threads[k], NULL, run, &w[k]);
  long checks = 0, failures = 0;
  for (int k = 0; k < THREADS; ++k) {
    pthread_join(threads[k], NULL);
    checks += w[k].checks;
    failures += w[k].failures;
    MPI_Comm_free(&w[k].comm);
  }
  MPI_Allreduce(MPI_IN_PLACE, &checks, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("fft_threads: %ld passed, %ld failed\n", checks - failures, failures);
  MPI_Finalize();
  return failures != 0;
}
