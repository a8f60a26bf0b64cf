// The six-step 1D FFT of the configurable-alltoall paper's application (section VI): N =
// N1 N2 points in N1 x N2 row-major order, rows split over the P ranks.
//   1. transpose  (N1 x N2 -> N2 x N1)       4. transpose (N2 x N1 -> N1 x N2)
//   2. N2 FFTs of length N1                   5. N1 FFTs of length N2
//   3. twiddle: element (n2, k1) *= W_N^(n2 k1)   6. transpose (N1 x N2 -> N2 x N1)
// giving X[k1 + N1 k2] in natural order, contiguous blocks over the ranks. Each transpose is
// an a2a redistribution (row split -> column split, any backend) and a local transpose.
// With N = P^2 every pair exchanges 16 B per transpose, with N = 64 P^2 1 KiB (the paper's
// Fig. 13 sizes).
#pragma once

#include <fftw3.h>
#include <mpi.h>

#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "a2a/transpose.hpp"

namespace a2a::fft {

class SixStep {
 public:
  using Complex = std::complex<double>;
  SixStep(MPI_Comm comm, std::int64_t n1, std::int64_t n2, const std::string& backend,
          unsigned fftw_flags);
  ~SixStep();
  SixStep(const SixStep&) = delete;

  // This rank's input points [first, first + count) and output points likewise.
  std::int64_t input_first() const { return rows_[0].first * n2_; }
  std::int64_t input_count() const { return (rows_[0].second - rows_[0].first) * n2_; }
  std::int64_t output_first() const { return rows_[1].first * n1_; }
  std::int64_t output_count() const { return (rows_[1].second - rows_[1].first) * n1_; }
  void forward(const Complex* in, Complex* out);

  double transpose_seconds = 0, compute_seconds = 0;
  std::string backends() const;

 private:
  std::int64_t n1_, n2_;
  std::array<std::pair<std::int64_t, std::int64_t>, 3> rows_;  // of N1xN2 in, N2xN1 out, N1 rows
  std::unique_ptr<Transpose2d> t1_, t2_, t3_;
  std::vector<Complex> a_, b_, twiddle_;
  fftw_plan fft_n1_ = nullptr, fft_n2_ = nullptr;
};

}  // namespace a2a::fft
