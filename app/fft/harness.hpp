// Pieces the FFT commands share (a2a fft and the fft experiments of a2a run): grid parsing,
// the deterministic input, gathering a distributed result on rank 0, the serial FFTW reference
// and FFTW's own MPI transform as the baseline.
#pragma once

#ifdef A2A_WITH_FFTW_MPI
#include <fftw3-mpi.h>
#endif
#include <fftw3.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "a2a/error.hpp"
#include "a2a/transpose.hpp"
#include "fft/compare.hpp"
#include "fft/wisdom.hpp"

namespace a2a::fft {

// "AxBxC": three positive integers, each at most 2^31-1 (FFTW's int), their product too
// (the points count) fits 63 bits.
inline std::array<std::int64_t, 3> parse_dims(const std::string& text, const char* option,
                                              const std::string& shown = "") {
  const std::string& as_written = shown.empty() ? text : shown;
  std::array<std::int64_t, 3> n{};
  std::size_t start = 0;
  for (int d = 0; d < 3; ++d) {
    const std::size_t x = d < 2 ? text.find('x', start) : text.size();
    if (x == std::string::npos) {
      throw Error(std::string(option) + " " + as_written + ": expected NXxNYxNZ");
    }
    auto& value = n[static_cast<std::size_t>(d)];
    const auto [end, ec] = std::from_chars(text.data() + start, text.data() + x, value);
    if (ec == std::errc::result_out_of_range ||
        (ec == std::errc() && end == text.data() + x && value > INT_MAX)) {
      throw Error(std::string(option) + " " + as_written + ": " + text.substr(start, x - start) +
                  " is too large (each extent at most 2147483647)");
    }
    if (ec != std::errc() || end != text.data() + x || value < 1) {
      throw Error(std::string(option) + " " + as_written +
                  (shown.empty() ? ": expected NXxNYxNZ with positive integers"
                                 : ": expected P1xP2 with positive integers"));
    }
    start = x + 1;
  }
  std::int64_t total = 0;
  if (__builtin_mul_overflow(n[0], n[1], &total) || __builtin_mul_overflow(total, n[2], &total)) {
    throw Error(std::string(option) + " " + as_written + ": more than 2^63 points");
  }
  return n;
}

inline std::array<std::int64_t, 3> parse_grid(const std::string& text) {
  return parse_dims(text, "--grid");
}

// The most square P1 x P2 = P with P1 >= P2.
inline std::pair<int, int> square_grid(int procs) {
  int p2 = 1;
  for (int f = 1; f * f <= procs; ++f) {
    if (procs % f == 0) p2 = f;
  }
  return {procs / p2, p2};
}

// --decomp auto: a slab (P x 1) when every rank gets at least one plane in both slab layouts
// (P <= n0 and P <= n1), else a pencil. The model: a slab moves the data once per direction (one
// transpose among all P ranks), a pencil twice (two transposes among P1 and P2 ranks), and on
// one node there is no network latency for the smaller pencil exchanges to save; measured
// (docs/fft.md), 128^3 at P = 4: slab 1.02-1.04x FFTW-MPI's time, pencil 2x2 1.34-1.35x.
inline std::string resolve_decomp(const std::string& decomp, const std::array<std::int64_t, 3>& n,
                                  int procs) {
  if (decomp != "auto") return decomp;
  return procs <= n[0] && procs <= n[1] ? "slab" : "pencil";
}

// The P1 x P2 process grid of a decomposition (after resolve_decomp): slab is P x 1; pencil
// takes `proc_grid` ("P1xP2", which must have P ranks) or, when empty, the most square
// factorisation.
inline std::pair<int, int> process_grid(const std::string& decomp, const std::string& proc_grid,
                                        int procs) {
  if (decomp == "slab") {
    if (!proc_grid.empty()) throw Error("--proc-grid applies to --decomp pencil only");
    return {procs, 1};
  }
  if (proc_grid.empty()) return square_grid(procs);
  const auto n = parse_dims(proc_grid + "x1", "--proc-grid", proc_grid);
  if (n[0] * n[1] != procs) {
    throw Error("--proc-grid " + proc_grid + " has " + std::to_string(n[0] * n[1]) +
                " ranks: it does not have P=" + std::to_string(procs) + " ranks");
  }
  return {static_cast<int>(n[0]), static_cast<int>(n[1])};
}

// Estimated bytes per rank of a distributed 3D FFT run (the largest rank: rank 0 also
// gathers the whole grid for a serial check): per rank about 14 boxes of complex values
// (input, spectrum, the inverse, two work arrays, the four redistributions' send and receive
// buffers, the plans' scratch), and with a serial check 3 whole grids on rank 0 (gathered
// input and spectrum, the reference).
inline std::uint64_t fft_memory(const std::array<std::int64_t, 3>& n, int procs, bool serial_check,
                                std::size_t complex_bytes) {
  const double points =
      static_cast<double>(n[0]) * static_cast<double>(n[1]) * static_cast<double>(n[2]);
  double bytes = 14 * points / procs * static_cast<double>(complex_bytes) + (1 << 20);
  if (serial_check) bytes += 3 * points * static_cast<double>(complex_bytes);
  return bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes);
}

// The same for the six-step 1D FFT of N points: about 12 blocks of N/P complex doubles per
// rank (input, output, the transposes' buffers, twiddles), 3 N on rank 0 for a serial check.
inline std::uint64_t fft1d_memory(std::int64_t points, int procs, bool serial_check) {
  double bytes = 12 * static_cast<double>(points) / procs * 16 + (1 << 20);
  if (serial_check) bytes += 3 * static_cast<double>(points) * 16;
  return bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes);
}

// The six-step FFT's default N1: the largest divisor of N not above sqrt N.
inline std::int64_t default_n1(std::int64_t points) {
  std::int64_t n1 = 1;
  for (std::int64_t f = 1; f * f <= points; ++f) {
    if (points % f == 0) n1 = f;
  }
  return n1;
}

template <typename Real>
std::complex<Real> input_value(const std::array<std::int64_t, 3>& n, bool planewave, std::int64_t i,
                               std::int64_t j, std::int64_t k) {
  if (planewave) {
    // exp(2 pi i (kx x/nx + ky y/ny + kz z/nz)) with (kx, ky, kz) = (1, 2, 3) mod n.
    const double phase = 2 * std::numbers::pi *
                         (static_cast<double>((1 % n[0]) * i) / static_cast<double>(n[0]) +
                          static_cast<double>((2 % n[1]) * j) / static_cast<double>(n[1]) +
                          static_cast<double>((3 % n[2]) * k) / static_cast<double>(n[2]));
    return {static_cast<Real>(std::cos(phase)), static_cast<Real>(std::sin(phase))};
  }
  const double x = static_cast<double>(i * 7919 + j * 104729 + k * 1299709);
  return {static_cast<Real>(std::sin(0.001 * x)), static_cast<Real>(std::cos(0.0007 * x))};
}

// The input's values on box b, in a std::vector or any vector type V (AlignedVector).
template <typename Real, typename V = std::vector<std::complex<Real>>>
V fill(const Box& b, const std::array<std::int64_t, 3>& n, bool planewave) {
  V v(static_cast<std::size_t>(b.count()));
  std::size_t at = 0;
  for (auto i = b.lo[0]; i < b.hi[0]; ++i)
    for (auto j = b.lo[1]; j < b.hi[1]; ++j)
      for (auto k = b.lo[2]; k < b.hi[2]; ++k)
        v[at++] = input_value<Real>(n, planewave, i, j, k);
  return v;
}

// Gathers every rank's elements on rank 0 in rank order, counted in elements of T (an MPI
// type of sizeof(T) bytes), so that more than 2 GiB per rank still fits MPI's int counts.
// V: a std::vector or any vector type (AlignedVector).
template <typename V, typename T = typename V::value_type>
std::vector<T> gather_elements(MPI_Comm comm, const V& mine) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  if (mine.size() > static_cast<std::size_t>(INT_MAX)) {
    throw Error("gather: more than 2^31-1 elements on one rank");
  }
  MPI_Datatype element = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &element);
  MPI_Type_commit(&element);
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(procs)), displs(counts.size());
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::int64_t total = 0;
  for (int c : counts)
    total += c;
  // Displacements are int too: past 2^31-1 elements in all, one message per rank instead.
  int one_by_one = rank == 0 && total > INT_MAX;
  MPI_Bcast(&one_by_one, 1, MPI_INT, 0, comm);
  std::vector<T> all(rank == 0 ? static_cast<std::size_t>(total) : 0);
  if (one_by_one) {
    if (rank != 0) {
      MPI_Send(mine.data(), count, element, 0, 77, comm);
    } else {
      std::copy(mine.begin(), mine.end(), all.begin());
      std::size_t at = mine.size();
      for (int p = 1; p < procs; ++p) {
        MPI_Recv(all.data() + at, counts[static_cast<std::size_t>(p)], element, p, 77, comm,
                 MPI_STATUS_IGNORE);
        at += static_cast<std::size_t>(counts[static_cast<std::size_t>(p)]);
      }
    }
  } else {
    for (std::size_t p = 1; p < counts.size(); ++p)
      displs[p] = displs[p - 1] + counts[p - 1];
    MPI_Gatherv(mine.data(), count, element, all.data(), counts.data(), displs.data(), element, 0,
                comm);
  }
  MPI_Type_free(&element);
  return all;
}

// Gathers every rank's box of `local` into the whole row-major grid on rank 0.
template <typename V, typename Complex = typename V::value_type>
std::vector<Complex> gather(MPI_Comm comm, const Box& b, const V& local,
                            const std::array<std::int64_t, 3>& n) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  const std::int64_t mine[6] = {b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]};
  std::vector<std::int64_t> boxes(6 * static_cast<std::size_t>(procs));
  MPI_Gather(mine, 6, MPI_INT64_T, boxes.data(), 6, MPI_INT64_T, 0, comm);
  const std::vector<Complex> all = gather_elements(comm, local);
  std::vector<Complex> grid;
  if (rank != 0) return grid;
  grid.resize(static_cast<std::size_t>(n[0] * n[1] * n[2]));
  const Complex* src = all.data();
  for (std::size_t p = 0; p < static_cast<std::size_t>(procs); ++p) {
    const std::int64_t* q = &boxes[6 * p];
    for (auto i = q[0]; i < q[3]; ++i)
      for (auto j = q[1]; j < q[4]; ++j)
        for (auto k = q[2]; k < q[5]; ++k)
          grid[static_cast<std::size_t>((i * n[1] + j) * n[2] + k)] = *src++;
  }
  return grid;
}

// --fftw-plan: estimate, measure, patient, or wisdom-only (measure-quality plans taken only
// from --wisdom: an error, on every rank, where the wisdom lacks one, instead of planning).
inline unsigned fftw_flags_of(const std::string& plan) {
  if (plan == "measure") return FFTW_MEASURE;
  if (plan == "patient") return FFTW_PATIENT;
  if (plan == "wisdom-only") return FFTW_MEASURE | FFTW_WISDOM_ONLY;
  return FFTW_ESTIMATE;
}

// The FFTW-MPI baseline needs libfftw3-mpi built for this MPI (Debian: Open MPI only); the
// MPICH and SimGrid builds have serial FFTW for the local transforms and no baseline.
inline constexpr const char* kNoFftwMpi =
    "this build has no FFTW-MPI (A2A_WITH_FFTW_MPI=OFF: Debian builds it for Open MPI only), "
    "so --baseline fftw-mpi cannot run";

// The deterministic 1D input: point i of N (the six-step FFT's and the baseline's).
inline std::complex<double> point(std::int64_t i);

// FFTW's own MPI 1D transform (its own distribution, in place) on the natural points: the
// six-step FFT's baseline. Throws a2a::Error, on every rank, where FFTW-MPI cannot plan N on P
// ranks (it needs N divisible by P, ideally by P^2) or the build has no FFTW-MPI.
class FftwMpi1d {
 public:
  FftwMpi1d(MPI_Comm comm, std::int64_t points, unsigned flags) {
#ifdef A2A_WITH_FFTW_MPI
    fftw_mpi_init();
    ptrdiff_t ni = 0, i0 = 0, o0 = 0;
    const ptrdiff_t alloc =
        fftw_mpi_local_size_1d(points, comm, FFTW_FORWARD, flags, &ni, &i0, &outputs_, &o0);
    data_ = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
    plan_ = fftw_mpi_plan_dft_1d(points, data_, data_, comm, FFTW_FORWARD, flags);
    int planned = plan_ != nullptr;
    MPI_Allreduce(MPI_IN_PLACE, &planned, 1, MPI_INT, MPI_LAND, comm);
    if (!planned && (flags & FFTW_WISDOM_ONLY) != 0) {
      release();
      throw Error("--fftw-plan wisdom-only: the wisdom has no plan for FFTW-MPI's 1D transform");
    }
    if (!planned) {
      int procs = 1;
      MPI_Comm_size(comm, &procs);
      release();
      throw Error("FFTW-MPI cannot plan a 1D transform of " + std::to_string(points) +
                  " points on " + std::to_string(procs) +
                  " ranks (it needs N divisible by P, ideally by P^2)");
    }
    for (ptrdiff_t i = 0; i < ni; ++i) {
      const auto v = point(i0 + i);
      data_[i][0] = v.real();
      data_[i][1] = v.imag();
    }
#else
    (void)comm;
    (void)points;
    (void)flags;
    throw Error(kNoFftwMpi);
#endif
  }
  FftwMpi1d(const FftwMpi1d&) = delete;
  FftwMpi1d& operator=(const FftwMpi1d&) = delete;
  ~FftwMpi1d() {
    release();
  }
  void forward() {
    fftw_execute(plan_);
  }
  // This rank's block of the spectrum (after forward()).
  std::vector<std::complex<double>> output() const {
    const auto* first = reinterpret_cast<const std::complex<double>*>(data_);
    return {first, first + outputs_};
  }

 private:
  void release() {
    if (plan_ != nullptr) fftw_destroy_plan(plan_);
    if (data_ != nullptr) fftw_free(data_);
    plan_ = nullptr;
    data_ = nullptr;
  }
  fftw_plan plan_ = nullptr;
  fftw_complex* data_ = nullptr;
  ptrdiff_t outputs_ = 0;
};

// FFTW's own MPI 3D transform (x-slabs of FFTW's choosing) on the same input: the baseline.
// c2c, or r2c/c2r in place with FFTW's padded real layout (rows of 2 (n2/2 + 1) reals). Two
// forms (FFTW's manual, "Transposed distributions"): natural, whose spectrum is x-slabs like
// its input (FFTW-MPI transposes back at the end of the forward and again at the start of the
// backward), and transposed (FFTW_MPI_TRANSPOSED_OUT / _IN: the spectrum stays y-slabs,
// [y][x][z] locally, one global transpose per direction fewer). a2a's forward also leaves its
// spectrum transposed, so the transposed form is the like-for-like comparison.
class FftwMpi {
 public:
  FftwMpi(MPI_Comm comm, const std::array<std::int64_t, 3>& n, bool r2c, unsigned flags,
          bool transposed)
      : n_(n), r2c_(r2c), transposed_(transposed), nc_(r2c ? n[2] / 2 + 1 : n[2]) {
#ifdef A2A_WITH_FFTW_MPI
    fftw_mpi_init();
    const ptrdiff_t alloc =
        transposed ? fftw_mpi_local_size_3d_transposed(n[0], n[1], nc_, comm, &local_n0_, &start_,
                                                       &local_n1_, &start1_)
                   : fftw_mpi_local_size_3d(n[0], n[1], nc_, comm, &local_n0_, &start_);
    data_ = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
    auto* real = reinterpret_cast<double*>(data_);
    const unsigned out = transposed ? flags | FFTW_MPI_TRANSPOSED_OUT : flags;
    const unsigned in = transposed ? flags | FFTW_MPI_TRANSPOSED_IN : flags;
    if (r2c) {
      forward_ = fftw_mpi_plan_dft_r2c_3d(n[0], n[1], n[2], real, data_, comm, out);
      backward_ = fftw_mpi_plan_dft_c2r_3d(n[0], n[1], n[2], data_, real, comm, in);
    } else {
      forward_ = fftw_mpi_plan_dft_3d(n[0], n[1], n[2], data_, data_, comm, FFTW_FORWARD, out);
      backward_ = fftw_mpi_plan_dft_3d(n[0], n[1], n[2], data_, data_, comm, FFTW_BACKWARD, in);
    }
    if (forward_ == nullptr || backward_ == nullptr) {
      throw Error((flags & FFTW_WISDOM_ONLY) != 0
                      ? "--fftw-plan wisdom-only: the wisdom has no plan for " + name() +
                            "'s transform"
                      : name() + " could not plan");
    }
#else
    (void)comm;
    (void)flags;
    throw Error(kNoFftwMpi);
#endif
  }
  ~FftwMpi() {
    fftw_destroy_plan(forward_);
    fftw_destroy_plan(backward_);
    fftw_free(data_);
  }
  FftwMpi(const FftwMpi&) = delete;
  FftwMpi& operator=(const FftwMpi&) = delete;

  std::string name() const {
    return transposed_ ? "fftw-mpi-transposed" : "fftw-mpi";
  }
  // The spectrum's box (n2/2 + 1 along z for r2c): x-slabs, or y-slabs when transposed.
  Box box() const {
    if (transposed_) return Box{{0, start1_, 0}, {n_[0], start1_ + local_n1_, nc_}};
    return Box{{start_, 0, 0}, {start_ + local_n0_, n_[1], nc_}};
  }
  // The input's box (x-slabs in both forms).
  Box real_box() const {
    return Box{{start_, 0, 0}, {start_ + local_n0_, n_[1], n_[2]}};
  }
  // This rank's spectrum in box() order, [x][y][z] (the transposed form holds it [y][x][z]).
  std::vector<std::complex<double>> spectrum() const {
    const auto* at = reinterpret_cast<const std::complex<double>*>(data_);
    const Box b = box();
    std::vector<std::complex<double>> out(static_cast<std::size_t>(b.count()));
    if (!transposed_) {
      std::copy_n(at, out.size(), out.begin());
      return out;
    }
    for (std::int64_t y = 0; y < local_n1_; ++y)
      for (std::int64_t x = 0; x < n_[0]; ++x)
        std::copy_n(at + (y * n_[0] + x) * nc_, nc_, out.begin() + (x * local_n1_ + y) * nc_);
    return out;
  }
  // Copies the input (x-slabs, as fill() makes them; for r2c its real parts) into FFTW's
  // layout (padded real rows for r2c).
  void load(const std::vector<std::complex<double>>& in) {
    if (r2c_) {
      auto* real = reinterpret_cast<double*>(data_);
      const std::int64_t rows = local_n0_ * n_[1];
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t z = 0; z < n_[2]; ++z)
          real[r * 2 * nc_ + z] = in[static_cast<std::size_t>(r * n_[2] + z)].real();
    } else {
      std::copy(in.begin(), in.end(), reinterpret_cast<std::complex<double>*>(data_));
    }
  }
  void forward() {
    fftw_execute(forward_);
  }
  // Back to the input's layout (x-slabs in both forms), scaled by 1/N.
  void backward_normalized() {
    fftw_execute(backward_);
    const double scale = 1.0 / static_cast<double>(n_[0] * n_[1] * n_[2]);
    auto* real = reinterpret_cast<double*>(data_);
    const std::int64_t values = local_n0_ * n_[1] * 2 * nc_;
    for (std::int64_t i = 0; i < values; ++i)
      real[i] *= scale;
  }

 private:
  std::array<std::int64_t, 3> n_;
  bool r2c_, transposed_;
  std::int64_t nc_;
  ptrdiff_t local_n0_ = 0, start_ = 0, local_n1_ = 0, start1_ = 0;
  fftw_complex* data_ = nullptr;
  fftw_plan forward_ = nullptr, backward_ = nullptr;
};

// Both FFTW-MPI forms, the transposed (like for like, the headline) first.
inline std::vector<std::unique_ptr<FftwMpi>> fftw_mpi_baselines(
    MPI_Comm comm, const std::array<std::int64_t, 3>& n, bool r2c, unsigned flags) {
  std::vector<std::unique_ptr<FftwMpi>> out;
  out.push_back(std::make_unique<FftwMpi>(comm, n, r2c, flags, true));
  out.push_back(std::make_unique<FftwMpi>(comm, n, r2c, flags, false));
  return out;
}

template <typename V, typename Real = typename V::value_type::value_type,
          typename Out = std::vector<Real>>
Out real_parts(const V& v) {
  Out out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    out[i] = v[i].real();
  return out;
}

// The serial reference spectrum of the whole input `full` (rank 0): FFTW's 3D c2c or r2c.
template <typename Real>
std::vector<std::complex<Real>> serial_reference(const std::array<std::int64_t, 3>& n, bool r2c,
                                                 const std::vector<std::complex<Real>>& full) {
  const std::int64_t nc = r2c ? n[2] / 2 + 1 : n[2];
  std::vector<std::complex<Real>> out(static_cast<std::size_t>(n[0] * n[1] * nc));
  const int n0 = static_cast<int>(n[0]), n1 = static_cast<int>(n[1]), n2 = static_cast<int>(n[2]);
  if constexpr (std::is_same_v<Real, double>) {
    auto* o = reinterpret_cast<fftw_complex*>(out.data());
    if (r2c) {
      auto in = real_parts(full);
      fftw_plan p = fftw_plan_dft_r2c_3d(n0, n1, n2, in.data(), o, FFTW_ESTIMATE);
      fftw_execute(p);
      fftw_destroy_plan(p);
    } else {
      auto in = full;
      fftw_plan p = fftw_plan_dft_3d(n0, n1, n2, reinterpret_cast<fftw_complex*>(in.data()), o,
                                     FFTW_FORWARD, FFTW_ESTIMATE);
      fftw_execute(p);
      fftw_destroy_plan(p);
    }
  } else {
    auto* o = reinterpret_cast<fftwf_complex*>(out.data());
    if (r2c) {
      auto in = real_parts(full);
      fftwf_plan p = fftwf_plan_dft_r2c_3d(n0, n1, n2, in.data(), o, FFTW_ESTIMATE);
      fftwf_execute(p);
      fftwf_destroy_plan(p);
    } else {
      auto in = full;
      fftwf_plan p = fftwf_plan_dft_3d(n0, n1, n2, reinterpret_cast<fftwf_complex*>(in.data()), o,
                                       FFTW_FORWARD, FFTW_ESTIMATE);
      fftwf_execute(p);
      fftwf_destroy_plan(p);
    }
  }
  return out;
}

// The spectrum of fill()'s plane wave: N at the wave vector (1, 2, 3) mod n, 0 elsewhere.
template <typename Real>
std::vector<std::complex<Real>> planewave_spectrum(const std::array<std::int64_t, 3>& n) {
  const std::int64_t total = n[0] * n[1] * n[2];
  std::vector<std::complex<Real>> spectrum(static_cast<std::size_t>(total));
  const std::int64_t k = ((1 % n[0]) * n[1] + (2 % n[1])) * n[2] + (3 % n[2]);
  spectrum[static_cast<std::size_t>(k)] = static_cast<Real>(total);
  return spectrum;
}

// relative_error over a distributed array (a NaN or Inf on any rank makes it infinite).
template <typename A, typename B>
double max_relative(MPI_Comm comm, const A& got, const B& want) {
  ErrorAccumulator e;
  for (std::size_t i = 0; i < got.size(); ++i)
    e.add(got[i], want[i]);
  double local[3] = {e.diff, e.scale, e.finite ? 0.0 : 1.0};
  MPI_Allreduce(MPI_IN_PLACE, local, 3, MPI_DOUBLE, MPI_MAX, comm);
  if (local[2] > 0) return std::numeric_limits<double>::infinity();
  return local[1] > 0 ? local[0] / local[1] : local[0];
}

// The six-step FFT's input: point i of the global sequence.
inline std::complex<double> point(std::int64_t i) {
  const double x = static_cast<double>(i);
  return {std::sin(0.0137 * x), std::cos(0.0071 * x * x / 1000.0)};
}

// Concatenates every rank's block on rank 0, in rank order.
inline std::vector<std::complex<double>> gather_blocks(
    MPI_Comm comm, const std::vector<std::complex<double>>& mine) {
  return gather_elements(comm, mine);
}

// FFTW's serial 1D transform of the six-step FFT's input points: the fft1d reference.
inline std::vector<std::complex<double>> serial_1d_reference(std::int64_t points) {
  std::vector<std::complex<double>> x(static_cast<std::size_t>(points));
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = point(static_cast<std::int64_t>(i));
  auto* d = reinterpret_cast<fftw_complex*>(x.data());
  // The 64-bit interface: N may pass 2^31.
  const fftw_iodim64 dim{points, 1, 1};
  fftw_plan p = fftw_plan_guru64_dft(1, &dim, 0, nullptr, d, d, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  return x;
}

}  // namespace a2a::fft
