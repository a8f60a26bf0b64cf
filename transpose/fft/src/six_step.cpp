#include "a2a/fft/six_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "a2a/error.hpp"
#include "a2a/fft/aligned.hpp"
#include "columns.hpp"
#include "timed.hpp"

namespace a2a::fft {
namespace {

std::pair<std::int64_t, std::int64_t> block(std::int64_t n, int parts, int index) {
  return {block_start(n, parts, index), block_start(n, parts, index + 1)};
}

// A 2D matrix as Redistribution's box: rows x cols, the third axis one element thick.
Box matrix(std::pair<std::int64_t, std::int64_t> rows, std::pair<std::int64_t, std::int64_t> cols) {
  return Box{{rows.first, cols.first, 0}, {rows.second, cols.second, 1}};
}

}  // namespace

SixStep::SixStep(MPI_Comm comm, std::int64_t n1, std::int64_t n2, const std::string& backend,
                 unsigned fftw_flags)
    : n1_(n1), n2_(n2) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  rows_[0] = block(n1, procs, rank);  // rows n1 of the N1 x N2 input
  rows_[1] = block(n2, procs, rank);  // rows n2 (later k2) of the N2 x N1 matrices
  rows_[2] = rows_[0];                // rows k1 of the N1 x N2 matrix after the second transpose
  const auto all = [](std::int64_t n) { return std::pair<std::int64_t, std::int64_t>{0, n}; };
  auto make = [&](const Box& in, const Box& out) {
    return std::make_unique<Redistribution>(comm, in, out, sizeof(Complex), backend);
  };
  // t1: the input's rows n1 -> the column block of columns n2 (N1 x w, row-major).
  t1_ = make(matrix(rows_[0], all(n2)), matrix(all(n1), rows_[1]));
  // t2: rows n2 of the twiddled N2 x N1 matrix -> its column block of columns k1 (N2 x h).
  t2_ = make(matrix(rows_[1], all(n1)), matrix(all(n2), rows_[2]));
  // t3: that column block, transformed along n2 -> k2 in place -> rows k2 (the output).
  t3_ = make(matrix(all(n2), rows_[2]), matrix(rows_[1], all(n1)));
  const std::int64_t w = rows_[1].second - rows_[1].first;  // columns n2 here after t1
  const std::int64_t h = rows_[2].second - rows_[2].first;  // columns k1 here after t2
  const std::int64_t most = std::max({n1 * w, n2 * h, std::int64_t{1}});
  // 2 MiB pages for the large blocks (aligned.hpp): the panels' copies visit every row.
  auto allocate = [](std::int64_t n) {
    return AlignedVector<Complex>(static_cast<std::size_t>(n));
  };
  a_ = allocate(most);
  // t2's send buffer, filled by step 3 in t2's packed layout (each peer's columns k1 of these
  // rows, row-major); t2 receives straight into a_ (the column block is its output order).
  send_ = allocate(
      std::max<std::int64_t>(static_cast<std::int64_t>(t2_->send_bytes() / sizeof(Complex)), 1));
  if (!t2_->receives_in_order()) {
    throw Error("six-step: the second transpose must receive in output order");
  }
  for (int q = 0; q < procs; ++q) {
    const Box& piece = t2_->send_box(q);
    if (!piece.empty()) {
      pieces_.push_back({piece.lo[1], piece.hi[1],
                         static_cast<std::int64_t>(t2_->send_offset(q) / sizeof(Complex))});
    }
  }
  // Twiddles for this rank's rows n2 of the N2 x N1 matrix: W_N^(n2 k1), (n2 k1) mod N exact.
  twiddle_ = allocate(std::max(n1 * w, std::int64_t{1}));
  const double n = static_cast<double>(n1 * n2);
  for (std::int64_t r = rows_[1].first, i = 0; r < rows_[1].second; ++r) {
    for (std::int64_t k1 = 0; k1 < n1; ++k1, ++i) {
      const double angle = -2 * std::numbers::pi * static_cast<double>((r * k1) % (n1 * n2)) / n;
      twiddle_[static_cast<std::size_t>(i)] = {std::cos(angle), std::sin(angle)};
    }
  }
  // Planned and timed on a_ and send_ (both hold n1 x w; step 5 runs in place on a_ only).
  // Their ways are kept with the wisdom (ways.hpp) under what the choice depends on.
  const std::string key = "six-step " + std::to_string(n1) + "x" + std::to_string(n2) + " on " +
                          std::to_string(procs) + " " + ways::planner_name(fftw_flags);
  fft_n1_ = remembered_columns<double>(key + ": step 2", n1, w, FFTW_FORWARD, fftw_flags, a_.data(),
                                       send_.data(), comm, ColumnFfts<double>::Candidates::panels);
  fft_n2_ = remembered_columns<double>(key + ": step 5", n2, h, FFTW_FORWARD, fftw_flags, a_.data(),
                                       a_.data(), comm);
  // Every rank learns whether every rank planned (FFTW_WISDOM_ONLY may fail on some only).
  int planned = fft_n1_->planned() && fft_n2_->planned();
  MPI_Allreduce(MPI_IN_PLACE, &planned, 1, MPI_INT, MPI_LAND, comm);
  if (!planned) {
    throw Error(
        (fftw_flags & FFTW_WISDOM_ONLY) != 0
            ? "a2a::fft six-step: FFTW_WISDOM_ONLY: the wisdom has no plan for its transforms"
            : "a2a::fft six-step: FFTW could not plan its transforms");
  }
}

SixStep::~SixStep() = default;

void SixStep::forward(const Complex* in, Complex* out) {
  Complex* a = a_.data();
  timed(transpose_seconds, [&] { t1_->execute(in, a); });  // 1: a = N1 x w column block
  // 2: along n1 -> k1; 3 while each panel is in cache: twiddled into t2's send buffer.
  timed(compute_seconds, [&] {
    fft_n1_->run_panels(a, [&](std::int64_t c0, std::int64_t m, const Complex* panel) {
      twiddle_panel_into_send(c0, m, panel);
    });
  });
  timed(transpose_seconds, [&] { t2_->exchange(send_.data(), a); });  // 4: a = N2 x h block
  timed(compute_seconds, [&] { fft_n2_->run(a, a); });                // 5: along n2 -> k2, in place
  timed(transpose_seconds, [&] { t3_->execute(a, out); });            // 6: rows k2 of N2 x N1
}

// Rows n2 = c0 .. c0 + m - 1 (this rank's numbering) of the N2 x N1 matrix, the columns of a
// transformed panel (k1 rows of m), times their twiddles, into t2's send buffer: columns k1 of
// peer q go to q's piece, rows n2 of it, row-major.
void SixStep::twiddle_panel_into_send(std::int64_t c0, std::int64_t m, const Complex* panel) {
  for (std::int64_t c = 0; c < m; ++c) {
    const std::int64_t n2 = c0 + c;
    const Complex* tw = twiddle_.data() + n2 * n1_;
    for (const Piece& q : pieces_) {
      Complex* to = send_.data() + q.offset + n2 * (q.last - q.first) - q.first;
      for (std::int64_t k = q.first; k < q.last; ++k) {
        const Complex x = panel[k * m + c];
        // Spelled out: std::complex's operator* adds C99 Annex G's NaN recovery.
        to[k] = {x.real() * tw[k].real() - x.imag() * tw[k].imag(),
                 x.real() * tw[k].imag() + x.imag() * tw[k].real()};
      }
    }
  }
}

std::string SixStep::backends() const {
  return t1_->plan().name() + (t1_->uniform() ? " (uniform)" : " (vector)");
}

std::string SixStep::local_transforms() const {
  return "step 2 " + fft_n1_->name() + ", step 5 " + fft_n2_->name();
}

}  // namespace a2a::fft
