#include "a2a/fft/six_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>

#include "a2a/error.hpp"
#include "a2a/fft/aligned.hpp"

namespace a2a::fft {
namespace {

std::pair<std::int64_t, std::int64_t> block(std::int64_t n, int parts, int index) {
  return {block_start(n, parts, index), block_start(n, parts, index + 1)};
}

// A 2D matrix as Redistribution's box: rows x cols, the third axis one element thick.
Box matrix(std::pair<std::int64_t, std::int64_t> rows, std::pair<std::int64_t, std::int64_t> cols) {
  return Box{{rows.first, cols.first, 0}, {rows.second, cols.second, 1}};
}

// Columns per panel: a panel of len rows stays within about 1 MiB (L2), up to 32 columns (the
// gather reads 512 B of each row per visit), and at least four columns make each gathered run
// one 64-byte cache line (32-column panels within L2 timed faster than 16-column panels within
// a quarter of it at the large sizes, and no slower at the others).
std::int64_t panel_width(std::int64_t len, std::int64_t cols) {
  const std::int64_t fit = std::int64_t{65536} / std::max<std::int64_t>(len, 1);
  return std::clamp<std::int64_t>(std::min(fit, cols), std::min<std::int64_t>(4, cols), 32);
}

// The scratch's row stride: four elements (64 B) past len, so that the rows of a panel, written
// one column at a time, do not all map to the same cache set when len is a power of two.
std::int64_t panel_stride(std::int64_t len) {
  return len + 4;
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
  const std::int64_t panel =
      std::max(panel_width(n1, w) * panel_stride(n1), panel_width(n2, h) * panel_stride(n2));
  // 2 MiB pages for the large blocks (aligned.hpp): the panels' gathers visit every row.
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
  panel_ = allocate(std::max(panel, std::int64_t{1}));
  // Twiddles for this rank's rows n2 of the N2 x N1 matrix: W_N^(n2 k1), (n2 k1) mod N exact.
  twiddle_ = allocate(std::max(n1 * w, std::int64_t{1}));
  const double n = static_cast<double>(n1 * n2);
  for (std::int64_t r = rows_[1].first, i = 0; r < rows_[1].second; ++r) {
    for (std::int64_t k1 = 0; k1 < n1; ++k1, ++i) {
      const double angle = -2 * std::numbers::pi * static_cast<double>((r * k1) % (n1 * n2)) / n;
      twiddle_[static_cast<std::size_t>(i)] = {std::cos(angle), std::sin(angle)};
    }
  }
  fft_n1_ = plan_panels(n1, w, fftw_flags);  // step 2: the N1 x w block's columns
  fft_n2_ = plan_panels(n2, h, fftw_flags);  // step 5: the N2 x h block's columns
  // Every rank learns whether every rank planned (FFTW_WISDOM_ONLY may fail on some only).
  int planned = fft_n1_.planned() && fft_n2_.planned();
  MPI_Allreduce(MPI_IN_PLACE, &planned, 1, MPI_INT, MPI_LAND, comm);
  if (!planned) {
    throw Error(
        (fftw_flags & FFTW_WISDOM_ONLY) != 0
            ? "a2a::fft six-step: FFTW_WISDOM_ONLY: the wisdom has no plan for its transforms"
            : "a2a::fft six-step: FFTW could not plan its transforms");
  }
}

SixStep::Panels SixStep::plan_panels(std::int64_t len, std::int64_t cols, unsigned flags) {
  Panels p{len, cols, panel_width(len, cols), panel_stride(len)};
  if (cols == 0) return p;
  auto* scratch = reinterpret_cast<fftw_complex*>(panel_.data());
  const int n = static_cast<int>(len);
  auto rows = [&](std::int64_t howmany) {
    const int ld = static_cast<int>(p.ld);
    return fftw_plan_many_dft(1, &n, static_cast<int>(howmany), scratch, nullptr, 1, ld, scratch,
                              nullptr, 1, ld, FFTW_FORWARD, flags);
  };
  p.full = rows(p.width);
  if (cols % p.width != 0) p.tail = rows(cols % p.width);
  return p;
}

bool SixStep::Panels::planned() const {
  return cols == 0 || (full != nullptr && (cols % width == 0 || tail != nullptr));
}

// For each panel of columns [c0, c0 + m): gathers them from `block` as m rows of len in the
// scratch (row stride ld), transforms those rows in place, and calls store(c0, m, ld, rows).
template <typename Store>
void SixStep::transform_columns(const Panels& p, const Complex* block, Store&& store) {
  Complex* scratch = panel_.data();
  for (std::int64_t c0 = 0; c0 < p.cols; c0 += p.width) {
    const std::int64_t m = std::min(p.width, p.cols - c0);
    for (std::int64_t r = 0; r < p.len; ++r) {
      const Complex* row = block + r * p.cols + c0;
      for (std::int64_t c = 0; c < m; ++c)
        scratch[c * p.ld + r] = row[c];
    }
    auto* data = reinterpret_cast<fftw_complex*>(scratch);
    fftw_execute_dft(m == p.width ? p.full : p.tail, data, data);
    store(c0, m, p.ld, static_cast<const Complex*>(scratch));
  }
}

SixStep::~SixStep() {
  for (fftw_plan plan : {fft_n1_.full, fft_n1_.tail, fft_n2_.full, fft_n2_.tail}) {
    if (plan != nullptr) fftw_destroy_plan(plan);
  }
}

void SixStep::forward(const Complex* in, Complex* out) {
  auto timed = [](double& total, auto&& body) {
    const double t0 = MPI_Wtime();
    body();
    total += MPI_Wtime() - t0;
  };
  Complex* a = a_.data();
  timed(transpose_seconds, [&] { t1_->execute(in, a); });  // 1: a = N1 x w column block
  // 2: along n1 -> k1; 3 while the rows are in cache: twiddled into t2's send buffer.
  timed(compute_seconds, [&] {
    transform_columns(fft_n1_, a,
                      [&](std::int64_t c0, std::int64_t m, std::int64_t ld, const Complex* rows) {
                        for (std::int64_t c = 0; c < m; ++c)
                          twiddle_into_send(c0 + c, rows + c * ld);
                      });
  });
  timed(transpose_seconds, [&] { t2_->exchange(send_.data(), a); });  // 4: a = N2 x h block
  // 5: along n2 -> k2, back into the same columns.
  timed(compute_seconds, [&] {
    const std::int64_t h = fft_n2_.cols;
    transform_columns(fft_n2_, a,
                      [&](std::int64_t c0, std::int64_t m, std::int64_t ld, const Complex* rows) {
                        for (std::int64_t r = 0; r < n2_; ++r) {
                          for (std::int64_t c = 0; c < m; ++c)
                            a[r * h + c0 + c] = rows[c * ld + r];
                        }
                      });
  });
  timed(transpose_seconds, [&] { t3_->execute(a, out); });  // 6: rows k2 of N2 x N1
}

// Row n2 (this rank's numbering) of the N2 x N1 matrix, times its twiddles, into t2's send
// buffer: columns k1 of peer q go to q's piece, rows n2 of it, row-major.
void SixStep::twiddle_into_send(std::int64_t n2, const Complex* row) {
  const Complex* tw = twiddle_.data() + n2 * n1_;
  for (const Piece& q : pieces_) {
    Complex* to = send_.data() + q.offset + n2 * (q.last - q.first) - q.first;
    for (std::int64_t k = q.first; k < q.last; ++k) {
      // Spelled out: std::complex's operator* adds C99 Annex G's NaN recovery.
      to[k] = {row[k].real() * tw[k].real() - row[k].imag() * tw[k].imag(),
               row[k].real() * tw[k].imag() + row[k].imag() * tw[k].real()};
    }
  }
}

std::string SixStep::backends() const {
  return t1_->plan().name() + (t1_->uniform() ? " (uniform)" : " (vector)");
}

}  // namespace a2a::fft
