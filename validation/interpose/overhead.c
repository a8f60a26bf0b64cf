/* The interposer's cost per call: MPI_Alltoall and MPI_Alltoallv (through liba2a_interpose.so
 * with A2A_ALLTOALL=mpi A2A_ALLTOALLV=mpi, so the exchange itself is the library's) against
 * PMPI_Alltoall and PMPI_Alltoallv called directly, interleaved in one run (A B A B ...), at
 * 8 B, 1 KiB and 64 KiB per peer. Per iteration: barrier, the timed call, the slowest rank's
 * time; the table gives medians and the ratio. Every interposed result is also compared with
 * the direct one (the exit code says whether they all matched).
 *   mpirun -np 4 -x LD_PRELOAD=liba2a_interpose.so -x A2A_ALLTOALL=mpi -x A2A_ALLTOALLV=mpi \
 *       ./interpose_overhead [ITERATIONS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, int n) {
  qsort(v, (size_t)n, sizeof(double), compare_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double slowest(double t, MPI_Comm comm) {
  double out = 0;
  MPI_Allreduce(&t, &out, 1, MPI_DOUBLE, MPI_MAX, comm);
  return out;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, procs = 1, wrong = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  const int iters = argc > 1 ? atoi(argv[1]) : 2000;
  const size_t sizes[3] = {8, 1024, 65536};
  double* a = malloc((size_t)iters * sizeof(double));
  double* b = malloc((size_t)iters * sizeof(double));
  int* counts = malloc((size_t)procs * sizeof(int));
  int* displs = malloc((size_t)procs * sizeof(int));
  if (rank == 0) {
    printf("interposer overhead, P=%d, %d iterations each, median of the slowest rank (us)\n",
           procs, iters);
    printf("%-10s %8s %12s %12s %8s\n", "call", "bytes", "interposed", "PMPI", "ratio");
  }
  for (int kind = 0; kind < 2; ++kind) {
    for (int s = 0; s < 3; ++s) {
      const size_t bytes = sizes[s];
      char* send = malloc(bytes * (size_t)procs);
      char* got = malloc(bytes * (size_t)procs);
      char* want = malloc(bytes * (size_t)procs);
      for (size_t i = 0; i < bytes * (size_t)procs; ++i)
        send[i] = (char)(rank * 7 + i);
      for (int p = 0; p < procs; ++p) {
        counts[p] = (int)bytes;
        displs[p] = p * (int)bytes;
      }
      for (int it = -50; it < iters; ++it) { /* 50 warm-up rounds */
        double t0, t1;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        if (kind == 0) {
          MPI_Alltoall(send, (int)bytes, MPI_BYTE, got, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
        } else {
          MPI_Alltoallv(send, counts, displs, MPI_BYTE, got, counts, displs, MPI_BYTE,
                        MPI_COMM_WORLD);
        }
        t1 = MPI_Wtime() - t0;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        if (kind == 0) {
          PMPI_Alltoall(send, (int)bytes, MPI_BYTE, want, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
        } else {
          PMPI_Alltoallv(send, counts, displs, MPI_BYTE, want, counts, displs, MPI_BYTE,
                         MPI_COMM_WORLD);
        }
        const double t2 = MPI_Wtime() - t0;
        t1 = slowest(t1, MPI_COMM_WORLD);
        const double t3 = slowest(t2, MPI_COMM_WORLD);
        if (it >= 0) {
          a[it] = t1 * 1e6;
          b[it] = t3 * 1e6;
        }
        wrong += memcmp(got, want, bytes * (size_t)procs) != 0;
      }
      if (rank == 0) {
        const double ma = median(a, iters), mb = median(b, iters);
        printf("%-10s %8zu %12.2f %12.2f %8.3f\n", kind == 0 ? "Alltoall" : "Alltoallv", bytes, ma,
               mb, ma / mb);
      }
      free(send), free(got), free(want);
    }
  }
  int total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("interpose_overhead: %s\n", total == 0 ? "1 passed, 0 failed" : "0 passed, 1 failed");
  free(a), free(b), free(counts), free(displs);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
