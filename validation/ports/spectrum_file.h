/* What the port check's programs write: per rank, FILE.RANK holding the first plane's global
 * index and the number of planes (int64 each), then the planes (complex doubles). */
#ifndef A2A_PORTS_SPECTRUM_FILE_H
#define A2A_PORTS_SPECTRUM_FILE_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

static void write_spectrum(const char* prefix, int64_t first, int64_t planes, int64_t plane,
                           const double* data) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char path[4096];
  snprintf(path, sizeof path, "%s.%d", prefix, rank);
  FILE* f = fopen(path, "wb");
  const int64_t header[2] = {first, planes};
  if (f == NULL || fwrite(header, sizeof header, 1, f) != 1 ||
      fwrite(data, 2 * sizeof(double), (size_t)(planes * plane), f) != (size_t)(planes * plane) ||
      fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

#endif
