#include "fft1d.hpp"

#include <cmath>
#include <numbers>

#include "a2a/error.hpp"

namespace a2a::fft {
namespace {

std::pair<std::int64_t, std::int64_t> block(std::int64_t n, int parts, int index) {
  return {block_start(n, parts, index), block_start(n, parts, index + 1)};
}

}  // namespace

SixStep::SixStep(MPI_Comm comm, std::int64_t n1, std::int64_t n2, const std::string& backend,
                 unsigned fftw_flags)
    : n1_(n1), n2_(n2) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  rows_[0] = block(n1, procs, rank);  // rows of the N1 x N2 input
  rows_[1] = block(n2, procs, rank);  // rows of the N2 x N1 matrices
  rows_[2] = rows_[0];                // rows of the N1 x N2 matrix after the second transpose
  auto make = [&](std::int64_t rows, std::int64_t cols) {
    return std::make_unique<Transpose2d>(comm, rows, cols, sizeof(Complex), backend);
  };
  t1_ = make(n1, n2);  // N1 x N2 -> N2 x N1
  t2_ = make(n2, n1);  // N2 x N1 -> N1 x N2
  t3_ = make(n1, n2);  // N1 x N2 -> N2 x N1
  const std::int64_t most =
      std::max(rows_[0].second - rows_[0].first, rows_[1].second - rows_[1].first) *
      std::max(n1, n2);
  a_.resize(static_cast<std::size_t>(most));
  b_.resize(static_cast<std::size_t>(most));
  // Twiddles for this rank's rows n2 of the N2 x N1 matrix: W_N^(n2 k1).
  const double n = static_cast<double>(n1 * n2);
  for (std::int64_t r = rows_[1].first; r < rows_[1].second; ++r) {
    for (std::int64_t k1 = 0; k1 < n1; ++k1) {
      const double angle = -2 * std::numbers::pi * static_cast<double>((r * k1) % (n1 * n2)) / n;
      twiddle_.emplace_back(std::cos(angle), std::sin(angle));
    }
  }
  auto* a = reinterpret_cast<fftw_complex*>(a_.data());
  const int len1 = static_cast<int>(n1), len2 = static_cast<int>(n2);
  const int rows1 = static_cast<int>(rows_[1].second - rows_[1].first);
  const int rows2 = static_cast<int>(rows_[2].second - rows_[2].first);
  if (rows1 > 0) {
    fft_n1_ = fftw_plan_many_dft(1, &len1, rows1, a, nullptr, 1, len1, a, nullptr, 1, len1,
                                 FFTW_FORWARD, fftw_flags);
  }
  if (rows2 > 0) {
    fft_n2_ = fftw_plan_many_dft(1, &len2, rows2, a, nullptr, 1, len2, a, nullptr, 1, len2,
                                 FFTW_FORWARD, fftw_flags);
  }
  // Every rank learns whether every rank planned (FFTW_WISDOM_ONLY may fail on some only).
  int planned = !((rows1 > 0 && fft_n1_ == nullptr) || (rows2 > 0 && fft_n2_ == nullptr));
  MPI_Allreduce(MPI_IN_PLACE, &planned, 1, MPI_INT, MPI_LAND, comm);
  if (!planned) {
    throw Error((fftw_flags & FFTW_WISDOM_ONLY) != 0
                    ? "--fftw-plan wisdom-only: the wisdom has no plan for the six-step transforms"
                    : "FFTW could not plan the six-step transforms");
  }
}

SixStep::~SixStep() {
  if (fft_n1_ != nullptr) fftw_destroy_plan(fft_n1_);
  if (fft_n2_ != nullptr) fftw_destroy_plan(fft_n2_);
}

void SixStep::forward(const Complex* in, Complex* out) {
  auto timed = [&](fftw_plan p, Complex* data) {
    if (p == nullptr) return;
    const double t0 = MPI_Wtime();
    fftw_execute_dft(p, reinterpret_cast<fftw_complex*>(data),
                     reinterpret_cast<fftw_complex*>(data));
    compute_seconds += MPI_Wtime() - t0;
  };
  auto transpose = [&](Transpose2d& t, const Complex* from, Complex* to) {
    const double t0 = MPI_Wtime();
    t.execute(from, to);
    transpose_seconds += MPI_Wtime() - t0;
  };
  transpose(*t1_, in, a_.data());  // 1: N2 x N1, rows n2
  timed(fft_n1_, a_.data());       // 2: FFTs over n1
  const double t0 = MPI_Wtime();
  for (std::size_t i = 0; i < twiddle_.size(); ++i)
    a_[i] *= twiddle_[i];  // 3: twiddle
  compute_seconds += MPI_Wtime() - t0;
  transpose(*t2_, a_.data(), b_.data());  // 4: N1 x N2, rows k1
  timed(fft_n2_, b_.data());              // 5: FFTs over n2
  transpose(*t3_, b_.data(), out);        // 6: N2 x N1, rows k2
}

std::string SixStep::backends() const {
  const Redistribution& r = t1_->redistribution();
  return r.plan().name() + (r.uniform() ? " (uniform)" : " (vector)");
}

}  // namespace a2a::fft
