// A heFFTe-style program on a2a: each rank names the box it holds and the box it wants back, in
// heFFTe's memory order (its first index fastest), and transforms. Here a 4 x 4 x 4 grid split
// along its third index between two ranks, each holding 0, 1, 2, ... 31; the forward spectrum
// is checked against its closed form (rank 1's first value is -512, every other one 0), and the
// backward transform, unscaled as heFFTe's by default and then divided by 64, against the input.
//
// The port of such a program: heffte::box3d {low, high} (inclusive corners) becomes a2a::Box
// {low, high + 1} (half-open) with in_order = out_order = {2, 1, 0} (index 0 fastest in memory);
// heffte::fft3d<backend>(inbox, outbox, comm) becomes BoxOptions plus BoxFft<double>(comm, o);
// size_inbox()/size_outbox() become input_elements()/output_elements(); forward() and backward()
// keep their arguments (backward with Scaling::none, heFFTe's default).
#include <mpi.h>

#include <a2a/fft.hpp>
#include <algorithm>
#include <complex>
#include <cstdio>
#include <numeric>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, ranks = 1, failures = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks != 2) {
    if (me == 0) std::printf("heffte_style_a2a runs on 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  const a2a::Box low_half{{0, 0, 0}, {4, 4, 2}}, high_half{{0, 0, 2}, {4, 4, 4}};
  a2a::fft::BoxOptions o;
  o.n = {4, 4, 4};
  o.in = o.out = me == 0 ? low_half : high_half;
  o.in_order = o.out_order = {2, 1, 0};
  a2a::fft::BoxFft<double> fft(MPI_COMM_WORLD, o);
  std::vector<std::complex<double>> input(fft.input_elements()), output(fft.output_elements());
  std::iota(input.begin(), input.end(), 0.0);
  fft.forward(input.data(), output.data());
  if (me == 1) {  // the third index's frequency 2: the two halves' sums, 120 - 376, twice
    for (std::size_t i = 0; i < output.size(); ++i) {
      const std::complex<double> want = i == 0 ? -512.0 : 0.0;
      failures += std::abs(output[i] - want) > 1e-12;
    }
  }
  std::fill(input.begin(), input.end(), 0.0);
  fft.backward(output.data(), input.data(), a2a::fft::Scaling::none);
  double error = 0;
  for (std::size_t i = 0; i < input.size(); ++i)
    error = std::max(error, std::abs(input[i] / 64.0 - static_cast<double>(i)));
  failures += error > 1e-13;
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) {
    std::printf("heffte_style_a2a: %s; ports: %d passed, %d failed\n", fft.describe().c_str(),
                failures == 0, failures != 0);
  }
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
