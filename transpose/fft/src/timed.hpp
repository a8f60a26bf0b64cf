// Runs body() and adds the seconds it took (MPI_Wtime) to `total`: how the FFT classes split
// their time between transposes and local transforms.
#pragma once

#include <mpi.h>

namespace a2a::fft {

template <typename Body>
void timed(double& total, Body&& body) {
  const double t0 = MPI_Wtime();
  body();
  total += MPI_Wtime() - t0;
}

}  // namespace a2a::fft
