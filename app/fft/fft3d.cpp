#include "fft3d.hpp"

#include <algorithm>
#include <cstring>

#include "a2a/error.hpp"

namespace a2a::fft {

template <>
struct Fftw<double> {
  using plan = fftw_plan;
  using complex = fftw_complex;
  static plan guru(int rank, const fftw_iodim* dims, int howmany, const fftw_iodim* how,
                   complex* in, complex* out, int sign, unsigned flags) {
    return fftw_plan_guru_dft(rank, dims, howmany, how, in, out, sign, flags);
  }
  static void execute(plan p, complex* in, complex* out) { fftw_execute_dft(p, in, out); }
  static void destroy(plan p) { fftw_destroy_plan(p); }
  static plan r2c(int rank, const fftw_iodim* dims, int howmany, const fftw_iodim* how, double* in,
                  complex* out, unsigned flags) {
    return fftw_plan_guru_dft_r2c(rank, dims, howmany, how, in, out, flags);
  }
  static plan c2r(int rank, const fftw_iodim* dims, int howmany, const fftw_iodim* how, complex* in,
                  double* out, unsigned flags) {
    return fftw_plan_guru_dft_c2r(rank, dims, howmany, how, in, out, flags);
  }
  static void execute_r2c(plan p, double* in, complex* out) { fftw_execute_dft_r2c(p, in, out); }
  static void execute_c2r(plan p, complex* in, double* out) { fftw_execute_dft_c2r(p, in, out); }
  static int alignment_of(const void* p) {
    return fftw_alignment_of(static_cast<double*>(const_cast<void*>(p)));
  }
};

template <>
struct Fftw<float> {
  using plan = fftwf_plan;
  using complex = fftwf_complex;
  static plan guru(int rank, const fftwf_iodim* dims, int howmany, const fftwf_iodim* how,
                   complex* in, complex* out, int sign, unsigned flags) {
    return fftwf_plan_guru_dft(rank, dims, howmany, how, in, out, sign, flags);
  }
  static void execute(plan p, complex* in, complex* out) { fftwf_execute_dft(p, in, out); }
  static void destroy(plan p) { fftwf_destroy_plan(p); }
  static plan r2c(int rank, const fftwf_iodim* dims, int howmany, const fftwf_iodim* how, float* in,
                  complex* out, unsigned flags) {
    return fftwf_plan_guru_dft_r2c(rank, dims, howmany, how, in, out, flags);
  }
  static plan c2r(int rank, const fftwf_iodim* dims, int howmany, const fftwf_iodim* how,
                  complex* in, float* out, unsigned flags) {
    return fftwf_plan_guru_dft_c2r(rank, dims, howmany, how, in, out, flags);
  }
  static void execute_r2c(plan p, float* in, complex* out) { fftwf_execute_dft_r2c(p, in, out); }
  static void execute_c2r(plan p, complex* in, float* out) { fftwf_execute_dft_c2r(p, in, out); }
  static int alignment_of(const void* p) {
    return fftwf_alignment_of(static_cast<float*>(const_cast<void*>(p)));
  }
};

template <typename Real>
Fft3d<Real>::Fft3d(MPI_Comm comm, const Options& o) {
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  for (auto n : o.n) {
    if (n < 1) throw Error("--grid: every dimension must be at least 1");
    total_ *= n;
  }
  if (o.p1 * o.p2 != procs || o.p1 < 1 || o.p2 < 1) {
    throw Error("--proc-grid " + std::to_string(o.p1) + "x" + std::to_string(o.p2) +
                " does not have P=" + std::to_string(procs) + " ranks");
  }
  const int r1 = rank / o.p2, r2 = rank % o.p2;
  // The complex grid: with r2c, n2/2 + 1 points along z.
  const std::array<std::int64_t, 3> n{o.n[0], o.n[1], o.r2c ? o.n[2] / 2 + 1 : o.n[2]};
  auto part = [](std::int64_t len, int parts, int i) {
    return std::pair{block_start(len, parts, i), block_start(len, parts, i + 1)};
  };
  const auto [x0, x1] = part(n[0], o.p1, r1);
  const auto [y0, y1] = part(n[1], o.p2, r2);
  const auto [z0, z1] = part(n[2], o.p2, r2);
  const auto [yy0, yy1] = part(n[1], o.p1, r1);
  boxes_[0] = Box{{x0, y0, 0}, {x1, y1, n[2]}};  // z-pencils
  real_box_ = Box{{x0, y0, 0}, {x1, y1, o.n[2]}};
  boxes_[1] = Box{{x0, 0, z0}, {x1, n[1], z1}};    // y-pencils
  boxes_[2] = Box{{0, yy0, z0}, {n[0], yy1, z1}};  // x-pencils
  MPI_Comm_split(comm, r1, r2, &row_);
  MPI_Comm_split(comm, r2, r1, &col_);
  // A slab (P x 1) has all of y and z on every rank: stages 0 and 1 are one 2D transform.
  slab_2d_ = o.p2 == 1;
  const std::size_t bytes = sizeof(Complex);
  const std::string second = o.backend2.empty() ? o.backend : o.backend2;
  if (o.p2 > 1) {
    zy_ = std::make_unique<Redistribution>(row_, boxes_[0], boxes_[1], bytes, o.backend);
    yz_ = std::make_unique<Redistribution>(row_, boxes_[1], boxes_[0], bytes, o.backend);
  }
  yx_ = std::make_unique<Redistribution>(col_, boxes_[1], boxes_[2], bytes, second);
  xy_ = std::make_unique<Redistribution>(col_, boxes_[2], boxes_[1], bytes, second);
  std::size_t most = 0;
  for (const Box& b : boxes_)
    most = std::max(most, static_cast<std::size_t>(b.count()));
  work0_.resize(most);
  work1_.resize(most);

  // FFTW guru plans, one per (stage, direction), in place on the stage's box.
  bool planned = true;
  using F = Fftw<Real>;
  using iodim = std::conditional_t<std::is_same_v<Real, double>, fftw_iodim, fftwf_iodim>;
  for (int stage = 0; stage < 3; ++stage) {
    const Box& b = boxes_[static_cast<std::size_t>(stage)];
    const int axis = 2 - stage;  // z, then y, then x
    const int e0 = static_cast<int>(b.extent(0)), e1 = static_cast<int>(b.extent(1)),
              e2 = static_cast<int>(b.extent(2));
    std::vector<iodim> how, dims;
    if (axis == 2 && slab_2d_) {  // y and z at once: one 2D transform per x-plane
      dims = {{e1, e2, e2}, {e2, 1, 1}};
      how = {{e0, e1 * e2, e1 * e2}};
    } else if (axis == 2) {
      dims = {{e2, 1, 1}};
      how = {{e0 * e1, e2, e2}};
    } else if (axis == 1) {
      dims = {{e1, e2, e2}};
      how = {{e0, e1 * e2, e1 * e2}, {e2, 1, 1}};
    } else {
      dims = {{e0, e1 * e2, e1 * e2}};
      how = {{e1 * e2, 1, 1}};
    }
    const int dims_rank = static_cast<int>(dims.size());
    for (int sign : {FFTW_FORWARD, FFTW_BACKWARD}) {
      // r2c: stage 0 is the r2c/c2r pair below; a slab's stage 1 is part of stage 0.
      if (b.empty() || (stage == 0 && o.r2c) || (stage == 1 && slab_2d_)) {
        plans_.push_back(nullptr);
        continue;
      }
      auto* data = reinterpret_cast<typename F::complex*>(work0_.data());
      auto p = F::guru(dims_rank, dims.data(), static_cast<int>(how.size()), how.data(), data, data,
                       sign, o.fftw_flags);
      if (p == nullptr) planned = false;
      plans_.push_back(reinterpret_cast<void*>(p));
      // The transforms that read the caller's array (forward z, backward x) also get an
      // out-of-place plan into work0_, so that the input is not first copied. Optional: a
      // wisdom file without them falls back to the copy.
      const bool reads_caller =
          (stage == 0 && sign == FFTW_FORWARD) || (stage == 2 && sign == FFTW_BACKWARD);
      if (!reads_caller) continue;
      auto* from = reinterpret_cast<typename F::complex*>(work1_.data());
      entry_plans_[sign == FFTW_FORWARD ? 0 : 1] =
          reinterpret_cast<void*>(F::guru(dims_rank, dims.data(), static_cast<int>(how.size()),
                                          how.data(), from, data, sign, o.fftw_flags));
    }
  }
  if (o.r2c && !real_box_.empty()) {
    // Stage 0 between the real z-pencils and the complex ones (FFTW's r2c/c2r layouts).
    real_work_.resize(static_cast<std::size_t>(real_box_.count()));
    // Strides in reals on the real side, in complex numbers on the other; a slab transforms
    // y and z at once (FFTW's 2D r2c per x-plane).
    const int planes = static_cast<int>(real_box_.extent(0)), ny = static_cast<int>(n[1]);
    const int rows = static_cast<int>(real_box_.extent(0) * real_box_.extent(1));
    const int nr = static_cast<int>(o.n[2]), nc = static_cast<int>(n[2]);
    std::vector<iodim> r2c_dims{{nr, 1, 1}}, c2r_dims{{nr, 1, 1}};
    iodim r2c_how{rows, nr, nc}, c2r_how{rows, nc, nr};
    if (slab_2d_) {
      r2c_dims = {{ny, nr, nc}, {nr, 1, 1}};
      c2r_dims = {{ny, nc, nr}, {nr, 1, 1}};
      r2c_how = {planes, ny * nr, ny * nc};
      c2r_how = {planes, ny * nc, ny * nr};
    }
    const int dims_rank = static_cast<int>(r2c_dims.size());
    auto* c = reinterpret_cast<typename F::complex*>(work0_.data());
    r2c_plan_ = reinterpret_cast<void*>(
        F::r2c(dims_rank, r2c_dims.data(), 1, &r2c_how, real_work_.data(), c, o.fftw_flags));
    c2r_plan_ = reinterpret_cast<void*>(
        F::c2r(dims_rank, c2r_dims.data(), 1, &c2r_how, c, real_work_.data(), o.fftw_flags));
    if (r2c_plan_ == nullptr || c2r_plan_ == nullptr) planned = false;
  }
  // Every rank learns whether every rank planned (FFTW_WISDOM_ONLY may fail on some only).
  int all_planned = planned;
  MPI_Allreduce(MPI_IN_PLACE, &all_planned, 1, MPI_INT, MPI_LAND, comm);
  if (!all_planned) {
    throw Error((o.fftw_flags & FFTW_WISDOM_ONLY) != 0
                    ? "--fftw-plan wisdom-only: the wisdom has no plan for this grid's transforms"
                    : "FFTW could not plan the local transforms");
  }
}

template <typename Real>
Fft3d<Real>::~Fft3d() {
  plans_.push_back(r2c_plan_);
  plans_.push_back(c2r_plan_);
  plans_.push_back(entry_plans_[0]);
  plans_.push_back(entry_plans_[1]);
  for (void* p : plans_) {
    if (p != nullptr) Fftw<Real>::destroy(reinterpret_cast<typename Fftw<Real>::plan>(p));
  }
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    MPI_Comm_free(&row_);
    MPI_Comm_free(&col_);
  }
}

template <typename Real>
void Fft3d<Real>::transform(int stage, Complex* data, int sign) {
  void* p = plans_[static_cast<std::size_t>(2 * stage + (sign == FFTW_FORWARD ? 0 : 1))];
  if (p == nullptr) return;
  const double t0 = MPI_Wtime();
  auto* d = reinterpret_cast<typename Fftw<Real>::complex*>(data);
  Fftw<Real>::execute(reinterpret_cast<typename Fftw<Real>::plan>(p), d, d);
  compute_seconds += MPI_Wtime() - t0;
}

// FFTW may run a plan on other arrays than it was made for only when their alignment is the
// same (fftw_execute_dft's new-array rule).
template <typename Real>
bool same_alignment(const void* a, const void* b) {
  return Fftw<Real>::alignment_of(a) == Fftw<Real>::alignment_of(b);
}

// Stage `stage`'s transform from the caller's array into work0_ (out of place, the input kept:
// FFTW_PRESERVE_INPUT is the default for c2c), or copy and transform in place.
template <typename Real>
void Fft3d<Real>::enter(int stage, const Complex* in, int sign) {
  void* p = entry_plans_[sign == FFTW_FORWARD ? 0 : 1];
  const auto count = static_cast<std::size_t>(boxes_[static_cast<std::size_t>(stage)].count());
  if (p == nullptr || !same_alignment<Real>(in, work1_.data())) {
    std::copy(in, in + count, work0_.data());
    transform(stage, work0_.data(), sign);
    return;
  }
  const double t0 = MPI_Wtime();
  using F = Fftw<Real>;
  F::execute(reinterpret_cast<typename F::plan>(p),
             reinterpret_cast<typename F::complex*>(const_cast<Complex*>(in)),
             reinterpret_cast<typename F::complex*>(work0_.data()));
  compute_seconds += MPI_Wtime() - t0;
}

template <typename Real>
void Fft3d<Real>::forward_from_z(Complex* out) {
  const double t0 = MPI_Wtime();
  Complex* y = work0_.data();
  if (zy_) {
    zy_->execute(work0_.data(), work1_.data());
    y = work1_.data();
  }
  transpose_seconds += MPI_Wtime() - t0;
  transform(1, y, FFTW_FORWARD);
  const double t1 = MPI_Wtime();
  yx_->execute(y, out);
  transpose_seconds += MPI_Wtime() - t1;
  transform(2, out, FFTW_FORWARD);
}

template <typename Real>
void Fft3d<Real>::forward(const Complex* in, Complex* out) {
  enter(0, in, FFTW_FORWARD);
  forward_from_z(out);
}

template <typename Real>
void Fft3d<Real>::forward(const Real* in, Complex* out) {
  if (r2c_plan_ != nullptr) {
    // The r2c plan is out of place and keeps its input: it reads the caller's array when FFTW
    // allows it (same alignment), else a copy.
    const Real* from = in;
    if (!same_alignment<Real>(in, real_work_.data())) {
      std::copy(in, in + real_box_.count(), real_work_.data());
      from = real_work_.data();
    }
    const double t0 = MPI_Wtime();
    Fftw<Real>::execute_r2c(reinterpret_cast<typename Fftw<Real>::plan>(r2c_plan_),
                            const_cast<Real*>(from),
                            reinterpret_cast<typename Fftw<Real>::complex*>(work0_.data()));
    compute_seconds += MPI_Wtime() - t0;
  }
  forward_from_z(out);
}

template <typename Real>
typename Fft3d<Real>::Complex* Fft3d<Real>::backward_to_z(const Complex* in) {
  enter(2, in, FFTW_BACKWARD);
  const double t0 = MPI_Wtime();
  xy_->execute(work0_.data(), work1_.data());
  transpose_seconds += MPI_Wtime() - t0;
  transform(1, work1_.data(), FFTW_BACKWARD);
  Complex* z = work1_.data();
  const double t1 = MPI_Wtime();
  if (yz_) {
    yz_->execute(work1_.data(), work0_.data());
    z = work0_.data();
  }
  transpose_seconds += MPI_Wtime() - t1;
  return z;
}

template <typename Real>
void Fft3d<Real>::backward(const Complex* in, Complex* out) {
  Complex* z = backward_to_z(in);
  transform(0, z, FFTW_BACKWARD);
  const Real scale = Real(1) / static_cast<Real>(total_);
  for (std::int64_t i = 0; i < boxes_[0].count(); ++i)
    out[i] = z[i] * scale;
}

template <typename Real>
void Fft3d<Real>::backward(const Complex* in, Real* out) {
  Complex* z = backward_to_z(in);
  if (c2r_plan_ == nullptr) return;
  const double t0 = MPI_Wtime();
  Fftw<Real>::execute_c2r(reinterpret_cast<typename Fftw<Real>::plan>(c2r_plan_),
                          reinterpret_cast<typename Fftw<Real>::complex*>(z), out);
  compute_seconds += MPI_Wtime() - t0;
  const Real scale = Real(1) / static_cast<Real>(total_);
  for (std::int64_t i = 0; i < real_box_.count(); ++i)
    out[i] *= scale;
}

template <typename Real>
std::string Fft3d<Real>::backends() const {
  std::string s = zy_ ? zy_->plan().name() + (zy_->uniform() ? " (uniform)" : " (vector)") + ", "
                      : std::string("local, ");
  return s + yx_->plan().name() + (yx_->uniform() ? " (uniform)" : " (vector)");
}

template <typename Real>
typename Fft3d<Real>::Phases Fft3d<Real>::phases() const {
  Phases p;
  for (const Redistribution* r : transposes()) {
    if (r == nullptr) continue;
    const Redistribution::PhaseTimes& t = r->phase_times();
    p.pack_s += t.pack_s;
    p.exchange_s += t.exchange_s;
    p.unpack_s += t.unpack_s;
    // A side done in place is no pass at all (Redistribution::execute).
    if (!r->packs_in_place())
      p.packed_bytes += static_cast<double>(t.calls) * static_cast<double>(r->send_bytes());
    if (!r->unpacks_in_place())
      p.unpacked_bytes += static_cast<double>(t.calls) * static_cast<double>(r->recv_bytes());
    p.largest_buffer = std::max<std::size_t>({p.largest_buffer, r->send_bytes(), r->recv_bytes()});
  }
  return p;
}

template <typename Real>
void Fft3d<Real>::reset_phases() {
  for (Redistribution* r : transposes()) {
    if (r != nullptr) r->reset_phase_times();
  }
}

template class Fft3d<double>;
template class Fft3d<float>;

}  // namespace a2a::fft
