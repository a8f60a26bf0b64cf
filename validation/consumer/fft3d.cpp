// A distributed 3D FFT with a2a::fft: a plane wave on a 64^3 grid, forward and back, checked.
#include <mpi.h>

#include <a2a/fft.hpp>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int procs = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  {
    a2a::fft::Options o;
    o.n = {64, 64, 64};
    o.p1 = procs;  // slabs: a P x 1 process grid; P1 x P2 for pencils
    a2a::fft::Fft3d<double> fft(MPI_COMM_WORLD, o);  // collective: plans once
    const a2a::Box in = fft.input_box(), out = fft.output_box();
    a2a::fft::AlignedVector<std::complex<double>> u(in.count()), spectrum(out.count()),
        back(in.count());
    std::size_t i = 0;  // u is row-major over this rank's box: [x][y][z], z fastest
    for (auto x = in.lo[0]; x < in.hi[0]; ++x)
      for (auto y = in.lo[1]; y < in.hi[1]; ++y)
        for (auto z = in.lo[2]; z < in.hi[2]; ++z)
          u[i++] = std::polar(1.0, 2 * std::numbers::pi * (3 * x + 5 * y + 7 * z) / 64.0);
    fft.forward(u.data(), spectrum.data());      // unnormalized, like FFTW
    fft.backward(spectrum.data(), back.data());  // scaled by 1/N: back == u
    // A plane wave's spectrum is N = 64^3 in one bin, 0 elsewhere: all its energy there.
    double peak = 0, energy = 0, error = 0;
    for (const auto& s : spectrum)
      peak = std::max(peak, std::abs(s)), energy += std::norm(s);
    for (std::size_t k = 0; k < u.size(); ++k)
      error = std::max(error, std::abs(back[k] - u[k]));
    MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &energy, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const double n = 64.0 * 64 * 64;
    const bool ok =
        std::abs(peak - n) < 1e-6 * n && std::abs(energy - n * n) < 1e-6 * n * n && error < 1e-12;
    if (rank == 0)
      std::printf("peak %.0f (N = %.0f), round trip error %.1e: %s\n", peak, n, error,
                  ok ? "passed" : "FAILED");
    if (!ok) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
}
