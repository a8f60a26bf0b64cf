/* What the FFT library's plain C test programs (fft_*.c) share: MPI's start, a plan made or its
 * case counted as failed (the library's error printed), each case's verdict, and the last line,
 * which CTest matches: "NAME: N passed, M failed". */
#ifndef A2A_VALIDATION_FFT_CASES_H
#define A2A_VALIDATION_FFT_CASES_H

#include <a2a/fft.h>
#include <mpi.h>
#include <stdio.h>

static int passed = 0, failures = 0;

static void start(int* argc, char*** argv, int* rank, int* procs) {
  MPI_Init(argc, argv);
  MPI_Comm_size(MPI_COMM_WORLD, procs);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
}

/* 1 with the plan in *fft; else 0, the case failed (a2a_fft_create fails on every rank alike). */
static int make_plan(const a2a_fft_options* o, a2a_fft* fft, int rank) {
  if (a2a_fft_create(MPI_COMM_WORLD, o, fft) == 0) return 1;
  if (rank == 0) printf("create: %s\n", a2a_last_error());
  failures++;
  return 0;
}

static void tally(int ok) {
  if (ok)
    passed++;
  else
    failures++;
}

/* The last line on rank 0, then MPI_Finalize; the exit code. */
static int finish(const char* name, int rank) {
  if (rank == 0) printf("%s: %d passed, %d failed\n", name, passed, failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}

#endif
