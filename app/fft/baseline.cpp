// FFTW-MPI's transforms as the FFT experiments' baselines (see baseline.hpp).
#include "fft/baseline.hpp"

#ifdef A2A_WITH_FFTW_MPI
#include <fftw3-mpi.h>
#endif

#include <algorithm>
#include <new>

#include "a2a/error.hpp"
#include "fft/reference.hpp"

namespace a2a::fft {

FftwMpi1d::FftwMpi1d(MPI_Comm comm, std::int64_t points, unsigned flags, bool scrambled)
    : points_(points), scrambled_(scrambled) {
#ifdef A2A_WITH_FFTW_MPI
  fftw_mpi_init();
  ptrdiff_t o0 = 0;
  const unsigned out = scrambled ? flags | FFTW_MPI_SCRAMBLED_OUT : flags;
  ptrdiff_t alloc = fftw_mpi_local_size_1d(points, comm, FFTW_FORWARD, out, &inputs_, &first_input_,
                                           &outputs_, &o0);
  if (scrambled) {  // the backward's distribution: its input is the forward's output
    ptrdiff_t ni = 0, i0 = 0, no = 0, b0 = 0;
    alloc =
        std::max(alloc, fftw_mpi_local_size_1d(points, comm, FFTW_BACKWARD,
                                               flags | FFTW_MPI_SCRAMBLED_IN, &ni, &i0, &no, &b0));
  }
  storage_.resize(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
  data_ = reinterpret_cast<fftw_complex*>(storage_.data());
  plan_ = fftw_mpi_plan_dft_1d(points, data_, data_, comm, FFTW_FORWARD, out);
  if (scrambled) {
    backward_ = fftw_mpi_plan_dft_1d(points, data_, data_, comm, FFTW_BACKWARD,
                                     flags | FFTW_MPI_SCRAMBLED_IN);
  }
  int planned = plan_ != nullptr && (!scrambled || backward_ != nullptr);
  MPI_Allreduce(MPI_IN_PLACE, &planned, 1, MPI_INT, MPI_LAND, comm);
  if (!planned && (flags & FFTW_WISDOM_ONLY) != 0) {
    release();
    throw Error("--fftw-plan wisdom-only: the wisdom has no plan for " + name() +
                "'s 1D transform");
  }
  if (!planned) {
    int procs = 1;
    MPI_Comm_size(comm, &procs);
    release();
    throw Error("FFTW-MPI cannot plan a 1D transform of " + std::to_string(points) + " points on " +
                std::to_string(procs) + " ranks (it needs N divisible by P, ideally by P^2)");
  }
  for (ptrdiff_t i = 0; i < inputs_; ++i) {
    const auto v = point(first_input_ + i);
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

FftwMpi1d::~FftwMpi1d() {
  release();
}

std::string FftwMpi1d::name() const {
  return scrambled_ ? "fftw-mpi-scrambled" : "fftw-mpi";
}

void FftwMpi1d::forward() {
  fftw_execute(plan_);
}

std::vector<std::complex<double>> FftwMpi1d::output() const {
  const auto* first = reinterpret_cast<const std::complex<double>*>(data_);
  return {first, first + outputs_};
}

double FftwMpi1d::roundtrip_error(MPI_Comm comm) {
  fftw_execute(backward_);
  const auto* back = reinterpret_cast<const std::complex<double>*>(data_);
  const double n = static_cast<double>(points_);
  std::vector<std::complex<double>> got(static_cast<std::size_t>(inputs_)), want(got.size());
  for (ptrdiff_t i = 0; i < inputs_; ++i) {
    got[static_cast<std::size_t>(i)] = back[i] / n;
    want[static_cast<std::size_t>(i)] = point(first_input_ + i);
  }
  return max_relative(comm, got, want);
}

void FftwMpi1d::release() {
  if (plan_ != nullptr) fftw_destroy_plan(plan_);
  if (backward_ != nullptr) fftw_destroy_plan(backward_);
  plan_ = backward_ = nullptr;
  AlignedVector<std::complex<double>>().swap(storage_);
  data_ = nullptr;
}

LocalFloor::LocalFloor(MPI_Comm comm, const std::array<std::int64_t, 3>& n, bool r2c,
                       unsigned flags) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  const auto share = [&](std::int64_t len) {
    return static_cast<int>(block_start(len, procs, rank + 1) - block_start(len, procs, rank));
  };
  const int n0 = static_cast<int>(n[0]), n1 = static_cast<int>(n[1]), n2 = static_cast<int>(n[2]);
  const int nc = r2c ? n2 / 2 + 1 : n2, x_planes = share(n[0]), y_planes = share(n[1]);
  const auto count = [](std::int64_t a, std::int64_t b, std::int64_t c) {
    return static_cast<std::size_t>(std::max<std::int64_t>(a * b * c, 1));
  };
  planes_.resize(count(x_planes, n1, nc));
  lines_.resize(count(y_planes, n0, nc));
  auto* planes = reinterpret_cast<fftw_complex*>(planes_.data());
  auto* x_lines = reinterpret_cast<fftw_complex*>(lines_.data());
  // 2D over (y, z) per x-plane; 1D along x per (y, z) of [y][x][z].
  const fftw_iodim yz_c[2] = {{n1, nc, nc}, {nc, 1, 1}};
  const fftw_iodim x_planes_how{x_planes, n1 * nc, n1 * nc};
  const fftw_iodim x_line{n0, nc, nc};
  const fftw_iodim x_how[2] = {{y_planes, n0 * nc, n0 * nc}, {nc, 1, 1}};
  bool planned = true;  // false where FFTW made no plan (wisdom-only without it)
  auto keep = [&](fftw_plan p) {
    if (p == nullptr) planned = false;
    if (p != nullptr) plans_.push_back(p);
  };
  auto lines = [&](int sign) {
    if (y_planes > 0) keep(fftw_plan_guru_dft(1, &x_line, 2, x_how, x_lines, x_lines, sign, flags));
  };
  if (x_planes > 0 && r2c) {
    real_.resize(count(x_planes, n1, n2));
    double* real = real_.data();
    const fftw_iodim yz_r2c[2] = {{n1, n2, nc}, {n2, 1, 1}}, yz_c2r[2] = {{n1, nc, n2}, {n2, 1, 1}};
    const fftw_iodim how_r2c{x_planes, n1 * n2, n1 * nc}, how_c2r{x_planes, n1 * nc, n1 * n2};
    keep(fftw_plan_guru_dft_r2c(2, yz_r2c, 1, &how_r2c, real, planes, flags));
    lines(FFTW_FORWARD);
    lines(FFTW_BACKWARD);
    keep(fftw_plan_guru_dft_c2r(2, yz_c2r, 1, &how_c2r, planes, real, flags));
  } else {
    if (x_planes > 0) {
      keep(fftw_plan_guru_dft(2, yz_c, 1, &x_planes_how, planes, planes, FFTW_FORWARD, flags));
    }
    lines(FFTW_FORWARD);
    lines(FFTW_BACKWARD);
    if (x_planes > 0) {
      keep(fftw_plan_guru_dft(2, yz_c, 1, &x_planes_how, planes, planes, FFTW_BACKWARD, flags));
    }
  }
  // Timed by every rank or by none.
  int everywhere = planned;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_LAND, comm);
  available_ = everywhere != 0;
  // Zeros, not what planning left (denormals are slow); the values do not matter otherwise.
  std::fill(planes_.begin(), planes_.end(), std::complex<double>(0));
  std::fill(lines_.begin(), lines_.end(), std::complex<double>(0));
  std::fill(real_.begin(), real_.end(), 0.0);
}

LocalFloor::~LocalFloor() {
  for (fftw_plan p : plans_)
    fftw_destroy_plan(p);
}

void LocalFloor::forward_backward() {
  for (fftw_plan p : plans_)
    fftw_execute(p);
}

std::vector<std::unique_ptr<FftwMpi1d>> fftw_mpi_1d_baselines(MPI_Comm comm, std::int64_t points,
                                                              unsigned flags) {
  std::vector<std::unique_ptr<FftwMpi1d>> out;
  out.push_back(std::make_unique<FftwMpi1d>(comm, points, flags, false));
  out.push_back(std::make_unique<FftwMpi1d>(comm, points, flags, true));
  return out;
}

FftwMpi::FftwMpi(MPI_Comm comm, const std::array<std::int64_t, 3>& n, bool r2c, unsigned flags,
                 bool transposed)
    : n_(n), r2c_(r2c), transposed_(transposed), nc_(r2c ? n[2] / 2 + 1 : n[2]) {
#ifdef A2A_WITH_FFTW_MPI
  fftw_mpi_init();
  const ptrdiff_t alloc = transposed
                              ? fftw_mpi_local_size_3d_transposed(n[0], n[1], nc_, comm, &local_n0_,
                                                                  &start_, &local_n1_, &start1_)
                              : fftw_mpi_local_size_3d(n[0], n[1], nc_, comm, &local_n0_, &start_);
  storage_.resize(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
  data_ = reinterpret_cast<fftw_complex*>(storage_.data());
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

FftwMpi::~FftwMpi() {
  if (forward_ != nullptr) fftw_destroy_plan(forward_);
  if (backward_ != nullptr) fftw_destroy_plan(backward_);
}

std::string FftwMpi::name() const {
  return transposed_ ? "fftw-mpi-transposed" : "fftw-mpi";
}

Box FftwMpi::box() const {
  if (transposed_) return Box{{0, start1_, 0}, {n_[0], start1_ + local_n1_, nc_}};
  return Box{{start_, 0, 0}, {start_ + local_n0_, n_[1], nc_}};
}

Box FftwMpi::real_box() const {
  return Box{{start_, 0, 0}, {start_ + local_n0_, n_[1], n_[2]}};
}

std::vector<std::complex<double>> FftwMpi::spectrum() const {
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

void FftwMpi::load(const std::vector<std::complex<double>>& in) {
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

void FftwMpi::forward() {
  fftw_execute(forward_);
}

void FftwMpi::backward_normalized() {
  fftw_execute(backward_);
  const double scale = 1.0 / static_cast<double>(n_[0] * n_[1] * n_[2]);
  auto* real = reinterpret_cast<double*>(data_);
  const std::int64_t values = local_n0_ * n_[1] * 2 * nc_;
  for (std::int64_t i = 0; i < values; ++i)
    real[i] *= scale;
}

std::vector<std::unique_ptr<FftwMpi>> fftw_mpi_baselines(MPI_Comm comm,
                                                         const std::array<std::int64_t, 3>& n,
                                                         bool r2c, unsigned flags) {
  std::vector<std::unique_ptr<FftwMpi>> out;
  out.push_back(std::make_unique<FftwMpi>(comm, n, r2c, flags, true));
  out.push_back(std::make_unique<FftwMpi>(comm, n, r2c, flags, false));
  return out;
}

}  // namespace a2a::fft
