// The six-step 1D FFT of the configurable-alltoall paper's application (section VI): N =
// N1 N2 points in N1 x N2 row-major order, rows split over the P ranks.
//   1. transpose  (N1 x N2 -> N2 x N1)       4. transpose (N2 x N1 -> N1 x N2)
//   2. N2 FFTs of length N1                   5. N1 FFTs of length N2
//   3. twiddle: element (n2, k1) *= W_N^(n2 k1)   6. transpose (N1 x N2 -> N2 x N1)
// giving X[k1 + N1 k2] in natural order, contiguous blocks over the ranks. With N = P^2 every
// pair exchanges 16 B per transpose, with N = 64 P^2 1 KiB (the paper's Fig. 13 sizes).
//
// Each transpose is an a2a redistribution (row split <-> column split, any backend); the local
// reordering that a textbook six-step does after each exchange is folded into the FFTs: they
// run on panels of a few columns copied into a cache-resident scratch (columns.hpp), so no pass
// over the data only reorders it:
//   t1: pack, exchange into the column block (N1 x N2/P, row-major)
//   2:  per panel: copy in, FFTs, twiddle while writing the rows of N2/P x N1
//   t2: pack, exchange into the column block (N2 x N1/P)
//   5:  the block's columns in place (panels, or FFTW's strided plan where it times faster)
//   t3: exchange straight from that block (each peer's rows are contiguous), unpack
// Three passes over memory beside the exchanges' and the transforms' own (pack, pack, unpack),
// against seven with a twiddle pass and three explicit local transposes (docs/fft.md).
// Under MEASURE the panel widths (and step 5's strided plan) are timed at plan time, as the 3D
// FFT's x transforms are.
#pragma once

#include <fftw3.h>
#include <mpi.h>

#include <array>
#include <complex>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "a2a/fft/aligned.hpp"
#include "a2a/transpose.hpp"

namespace a2a::fft {

template <typename Real>
class ColumnFfts;

class SixStep {
 public:
  using Complex = std::complex<double>;
  SixStep(MPI_Comm comm, std::int64_t n1, std::int64_t n2, const std::string& backend,
          unsigned fftw_flags);
  ~SixStep();
  SixStep(const SixStep&) = delete;
  SixStep& operator=(const SixStep&) = delete;

  // This rank's input points [first, first + count) and output points likewise.
  std::int64_t input_first() const { return rows_[0].first * n2_; }
  std::int64_t input_count() const { return (rows_[0].second - rows_[0].first) * n2_; }
  std::int64_t output_first() const { return rows_[1].first * n1_; }
  std::int64_t output_count() const { return (rows_[1].second - rows_[1].first) * n1_; }
  void forward(const Complex* in, Complex* out);

  double transpose_seconds = 0, compute_seconds = 0;
  std::string backends() const;
  // The column ways of steps 2 and 5 (columns.hpp), e.g. "step 2 panels of 64, step 5 strided".
  std::string local_transforms() const;

 private:
  void twiddle_panel_into_send(std::int64_t c0, std::int64_t m, const Complex* panel);

  std::int64_t n1_, n2_;
  std::array<std::pair<std::int64_t, std::int64_t>, 3> rows_;  // of N1xN2 in, N2xN1 out, N1 rows
  std::unique_ptr<Redistribution> t1_, t2_, t3_;
  AlignedVector<Complex> a_, send_, twiddle_;  // aligned.hpp: FFTW's SIMD, 2 MiB pages
  struct Piece {
    std::int64_t first, last, offset;  // a peer's columns k1 of t2 and where they go in send_
  };
  std::vector<Piece> pieces_;
  // Step 2 (the N1 x N2/P block's columns, panels only) and step 5 (the N2 x N1/P block's).
  std::unique_ptr<ColumnFfts<double>> fft_n1_, fft_n2_;
};

}  // namespace a2a::fft
