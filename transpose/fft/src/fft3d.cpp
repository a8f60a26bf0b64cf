#include "a2a/fft/fft3d.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>

#include "a2a/agree.hpp"
#include "a2a/error.hpp"
#include "a2a/fft/ways.hpp"
#include "columns.hpp"
#include "fft3d_logic.hpp"
#include "fftw.hpp"
#include "planes.hpp"
#include "timed.hpp"
#include "trial.hpp"

namespace a2a::fft {

namespace {
// The slab's x transforms on its y-planes, by the names their ways are remembered under.
constexpr const char* x_forward_stage = "x forward, y-planes";
constexpr const char* x_backward_stage = "x backward, y-planes";

// FFTW's guru dimensions of the 1D transforms along `axis` of every line of box b's row-major
// array that lies in [lo, hi) of axis `cut` (relative to the box; cut -1: every line), and the
// offset in elements of the first of them.
template <typename Real>
std::size_t line_dims(const Box& b, int axis, int cut, std::int64_t lo, std::int64_t hi,
                      std::vector<Iodim<Real>>& dims, std::vector<Iodim<Real>>& how) {
  const std::array<std::int64_t, 3> stride{b.extent(1) * b.extent(2), b.extent(2), 1};
  for (int d = 0; d < 3; ++d) {
    const int length = static_cast<int>(d == cut ? hi - lo : b.extent(d));
    const int step = static_cast<int>(stride[static_cast<std::size_t>(d)]);
    (d == axis ? dims : how).push_back({length, step, step});
  }
  return cut < 0 ? 0 : static_cast<std::size_t>(lo * stride[static_cast<std::size_t>(cut)]);
}

// What a choice of local ways depends on, as a key of the remembered ways (ways.hpp): the
// precision, the transform, the grid, the process grid, the pipeline and FFTW's planner.
template <typename Real>
std::string ways_key(const Options& o) {
  return std::string(sizeof(Real) == sizeof(double) ? "double" : "float") +
         (o.r2c ? " r2c " : " c2c ") + std::to_string(o.n[0]) + "x" + std::to_string(o.n[1]) + "x" +
         std::to_string(o.n[2]) + " on " + std::to_string(o.p1) + "x" + std::to_string(o.p2) +
         " chunks " + std::to_string(o.chunks) + " " + ways::planner_name(o.fftw_flags);
}

}  // namespace

namespace {

// Options as text, to compare every rank's with rank 0's.
std::string options_text(const Options& o) {
  return std::to_string(o.n[0]) + " " + std::to_string(o.n[1]) + " " + std::to_string(o.n[2]) +
         " " + std::to_string(o.p1) + " " + std::to_string(o.p2) + " " + o.backend + " " +
         o.backend2 + " " + std::to_string(o.fftw_flags) + " " + std::to_string(o.r2c) + " " +
         std::to_string(o.chunks) + " " + std::to_string(o.natural_spectrum) + " " + o.planes_way;
}

}  // namespace

template <typename Real>
Fft3d<Real>::Fft3d(MPI_Comm comm, const Options& o) : flags_(o.fftw_flags) {
  require_intracommunicator(comm, "a2a::fft::Fft3d");
  watch_.emplace(comm);
  int procs = 1, rank = 0;
  MPI_Comm_size(comm, &procs);
  MPI_Comm_rank(comm, &rank);
  // Every rank throws the same error, or none does: a bad option on one rank hangs no other.
  const bool as_root = root_value(comm, options_text(o)) == options_text(o);  // every rank calls it
  std::string problem = logic::options_problem(o, procs);
  if (problem.empty()) problem = logic::size_problem(o.n, 1, sizeof(Complex));
  if (problem.empty() && !as_root) {
    problem = "a2a::fft: rank " + std::to_string(rank) + "'s options differ from rank 0's";
  }
  if (const std::string agreed = agree_on_error(comm, problem); !agreed.empty()) {
    throw Error(agreed);
  }
  const logic::Fft3dPlan plan = logic::plan_fft3d(o, procs, rank);
  total_ = plan.total;
  boxes_ = plan.boxes;
  real_box_ = plan.real_box;
  slab_2d_ = plan.slab_2d;
  whole_3d_ = plan.whole_3d;
  yxz_ = plan.yxz;
  work0_.resize(plan.work_elements);
  work1_.resize(plan.work_elements);
  MPI_Comm_split(comm, plan.row, plan.column, &row_);
  MPI_Comm_split(comm, plan.column, plan.row, &col_);
  MPI_Comm_rank(col_, &col_rank_);
  make_steps(plan);
  // The way back may read its pieces from the peers' input windows (backward_to_z, the fused
  // runs): made here, collectively, where the backend can.
  if (!xy_.local) {
    for (Redistribution& r : xy_.parts)
      if (r.pulls()) r.prepare_pull();
  }
  // The local ways timed at plan time are remembered with the wisdom (ways.hpp), by this key.
  ways_key_ = ways_key<Real>(o);
  forced_planes_way_ = o.planes_way;
  plan_x_transforms(comm, plan);
  // Whether a slab's transposes can be fused with its plane transforms (plan_fusion): the
  // shape allows it and the backend is single-copy (its planes ways are chosen for that).
  const bool fuse_forward = plan.fusable && yx_.parts[0].direct();
  const bool fuse_backward = plan.fusable && xy_.parts[0].pulls();
  if (!o.r2c) plan_c2c_ends(comm, plan, fuse_forward, fuse_backward);
  if (o.r2c && !real_box_.empty()) plan_r2c_ends(plan, o.n[2], fuse_forward, fuse_backward);
  if (plan.fusable) agree_on_fusion(comm, o.r2c);
  // The spectrum in the input's layout: one exchange among all ranks between the x-pencils
  // and the z-pencils, with the second transpose's backend (on one rank the two are one box).
  if (plan.natural) {
    natural_ = true;
    natural_work_.resize(static_cast<std::size_t>(boxes_[2].count()));
    to_natural_ = std::make_unique<Redistribution>(comm, boxes_[2], boxes_[0], sizeof(Complex),
                                                   plan.backend2);
    from_natural_ = std::make_unique<Redistribution>(comm, boxes_[0], boxes_[2], sizeof(Complex),
                                                     plan.backend2);
  }
  share_exchange_buffers();
  // Every rank learns whether every rank planned (FFTW_WISDOM_ONLY may fail on some only).
  int all_planned = planned_;
  MPI_Allreduce(MPI_IN_PLACE, &all_planned, 1, MPI_INT, MPI_LAND, comm);
  if (!all_planned) {
    throw Error(
        (o.fftw_flags & FFTW_WISDOM_ONLY) != 0
            ? "a2a::fft: FFTW_WISDOM_ONLY: the wisdom has no plan for this grid's transforms"
            : "a2a::fft: FFTW could not plan the local transforms");
  }
  // Fused or not: the fusion saves a pass over memory but runs the planes through a scratch
  // plane and writes the peers' memory row by row; which is faster is the machine's.
  const bool measuring = (flags_ & (FFTW_ESTIMATE | FFTW_WISDOM_ONLY)) == 0;
  share_windows();  // before the timing: the fused ways are timed as they will run
  if (measuring && o.planes_way.empty()) choose_fusion(ways_key_, comm, o.r2c);
  release_unused_window(comm);
}

// Exchanges on the same ranks that run one after another receive into one window: a pencil's
// row steps (z <-> y), the column steps (y <-> x), and the two to and from the input's layout.
// Not chunks, which are in flight at once. Where the column steps share one, a fused run may
// no longer skip its opening fence after the other direction pushed into that window
// (forward_window_read_, backward_window_read_); a way back that pulls leaves it
// (release_unused_window: pull_only), and skips as before.
template <typename Real>
void Fft3d<Real>::share_windows() {
  auto pair = [](Step& a, Step& b) {
    return !a.local && !b.local && a.parts.size() == 1 && b.parts.size() == 1 &&
           b.parts[0].share_window(a.parts[0]);
  };
  pair(zy_, yz_);
  column_window_shared_ = pair(yx_, xy_);
  if (to_natural_ && from_natural_) from_natural_->share_window(*to_natural_);
}

// The way back either pulls (backward_to_z, backward_fused: nothing writes into its receive
// window) or, chosen pushed (backward_pushed), never reads its input window: the unused one is
// freed, on every rank or none.
template <typename Real>
void Fft3d<Real>::release_unused_window(MPI_Comm comm) {
  if (xy_.local || xy_.parts.size() != 1 || !xy_.parts[0].pulls()) return;  // alike everywhere
  int ways[2] = {xy_.before.empty() && !push_backward_, push_backward_};    // pulled, pushed
  MPI_Allreduce(MPI_IN_PLACE, ways, 2, MPI_INT, MPI_LAND, comm);
  if (ways[0] != 0) {
    // Its receive window (shared with yx_'s) goes; its input window moves into yx_'s receive
    // window: the forward's reads of it end before the backward writes there, the backward's
    // peers read it between fences, and the forward's peers write there after them.
    xy_.parts[0].pull_only();
    xy_.parts[0].share_pull_area(yx_.parts[0]);
    column_window_shared_ = false;  // nothing pushes into it in the backward
  }
  if (ways[1] != 0) xy_.parts[0].release_pull();
}

// The plan's transposes as Redistributions, with the 1D transforms beside each chunk.
template <typename Real>
void Fft3d<Real>::make_steps(const logic::Fft3dPlan& plan) {
  if (plan.zy) make_step(zy_, row_, *plan.zy, plan.chunks, plan.backend);
  if (plan.yz) make_step(yz_, row_, *plan.yz, plan.chunks, plan.backend);
  yx_.local = xy_.local = plan.x_local;
  make_step(yx_, col_, plan.yx, plan.chunks, plan.backend2);
  make_step(xy_, col_, plan.xy, plan.chunks, plan.backend2);
}

// The steps run one after another, and a step's chunks at once: the chunks of one index share
// one pair of buffers across every step, and the natural layout's exchanges the first chunks'.
template <typename Real>
void Fft3d<Real>::share_exchange_buffers() {
  std::vector<std::shared_ptr<ExchangeBuffers>> shared;
  auto share = [&](Redistribution& r, std::size_t chunk) {
    while (shared.size() <= chunk)
      shared.push_back(std::make_shared<ExchangeBuffers>());
    r.share_buffers(shared[chunk]);
  };
  for (Step* step : {&zy_, &yz_, &yx_, &xy_})
    for (std::size_t c = 0; c < step->parts.size(); ++c)
      share(step->parts[c], c);
  if (to_natural_) share(*to_natural_, 0);
  if (from_natural_) share(*from_natural_, 0);
}

template <typename Real>
std::unique_ptr<PlaneFfts<Real>> Fft3d<Real>::planes_ffts(const PlaneStage<Real>& stage,
                                                          MPI_Comm comm) {
  auto fft = remembered_planes<Real>(ways_key_ + ": " + stage.name, stage, flags_, comm,
                                     !forced_planes_way_.empty());
  planned_ = planned_ && fft->planned();
  return fft;
}

// The x transforms: a slab's [y][x][z] x-pencils plane by plane over its y-planes (and plans
// that transform and transpose between [x][y][z] and [y][x][z] where the exchange is not
// fused), else column panels or FFTW's strided plan (columns.hpp); none on one rank (the 3D
// plans) and none forward where a pipelined y -> x step transforms each chunk.
template <typename Real>
void Fft3d<Real>::plan_x_transforms(MPI_Comm comm, const logic::Fft3dPlan& plan) {
  const Box& x_box = boxes_[2];
  if (plan.yxz) {
    const int nx = static_cast<int>(x_box.extent(0)), nz = static_cast<int>(x_box.extent(2));
    const int ny = static_cast<int>(x_box.extent(1));
    const auto plane = PlaneFfts<Real>::Plane::columns(nx, nz);
    const Real scale = Real(1) / static_cast<Real>(total_);
    x_planes_forward_ = planes_ffts({.name = x_forward_stage,
                                     .shape = plane,
                                     .count = ny,
                                     .sign = FFTW_FORWARD,
                                     .candidates = {},
                                     .src = work0_.data(),
                                     .dst = work1_.data()},
                                    comm);
    x_planes_backward_ = planes_ffts({.name = x_backward_stage,
                                      .shape = plane,
                                      .count = ny,
                                      .sign = FFTW_BACKWARD,
                                      .candidates = {},
                                      .src = work0_.data(),
                                      .dst = work1_.data(),
                                      .scale = scale},
                                     comm);
    if (ny == 0) return;
    using F = Fftw<Real>;
    auto* from = reinterpret_cast<typename F::complex*>(work1_.data());
    auto* to = reinterpret_cast<typename F::complex*>(work0_.data());
    const Iodim<Real> to_yxz{nx, ny * nz, nz}, from_yxz{nx, nz, ny * nz};
    const Iodim<Real> to_how[2] = {{ny, nz, nx * nz}, {nz, 1, 1}};
    const Iodim<Real> from_how[2] = {{ny, nx * nz, nz}, {nz, 1, 1}};
    x_to_yxz_ =
        reinterpret_cast<void*>(F::guru(1, &to_yxz, 2, to_how, from, to, FFTW_FORWARD, flags_));
    x_from_yxz_ = reinterpret_cast<void*>(
        F::guru(1, &from_yxz, 2, from_how, from, to, FFTW_BACKWARD, flags_));
    step_plans_.push_back(x_to_yxz_);
    step_plans_.push_back(x_from_yxz_);
    planned_ = planned_ && x_to_yxz_ != nullptr && x_from_yxz_ != nullptr;
    return;
  }
  if (plan.whole_3d) return;
  const std::int64_t x_columns = x_box.extent(1) * x_box.extent(2);
  auto x_ffts = [&](int sign) {
    const std::string stage = ways_key_ + (sign == FFTW_FORWARD ? ": x forward" : ": x backward");
    auto fft = remembered_columns<Real>(stage, x_box.extent(0), x_columns, sign, flags_,
                                        work0_.data(), work1_.data(), comm);
    planned_ = planned_ && fft->planned();
    return fft;
  };
  if (!plan.x_in_chunks) x_forward_ = x_ffts(FFTW_FORWARD);
  x_backward_ = x_ffts(FFTW_BACKWARD);
}

// Box b's transform out of place, whole: all three axes (one rank), a slab's y and z (one 2D
// transform per x-plane), or the z lines; null for an empty box.
template <typename Real>
void* Fft3d<Real>::plan_whole(const Box& b, int sign, Complex* in, Complex* out) {
  if (b.empty()) return nullptr;
  std::vector<Iodim<Real>> dims, how;
  if (whole_3d_) {
    line_dims<Real>(b, -1, -1, 0, 0, how, dims);
  } else if (slab_2d_) {
    line_dims<Real>(b, 0, -1, 0, 0, how, dims);
  } else {
    line_dims<Real>(b, 2, -1, 0, 0, dims, how);
  }
  using F = Fftw<Real>;
  void* p = reinterpret_cast<void*>(
      F::guru(static_cast<int>(dims.size()), dims.data(), static_cast<int>(how.size()), how.data(),
              reinterpret_cast<typename F::complex*>(in),
              reinterpret_cast<typename F::complex*>(out), sign, flags_));
  if (p == nullptr) planned_ = false;
  return p;
}

// c2c's first forward and last backward transforms (logic::Fft3dPlan::Ends).
template <typename Real>
void Fft3d<Real>::plan_c2c_ends(MPI_Comm comm, const logic::Fft3dPlan& plan, bool fuse_forward,
                                bool fuse_backward) {
  Complex* data = work0_.data();
  Complex* other = work1_.data();
  using Ends = logic::Fft3dPlan::Ends;
  if (plan.ends == Ends::whole_3d) {
    // In place on the caller's array after a copy: FFTW's out-of-place 3D plans are slower than
    // its in-place ones by more than the copy costs (docs/records/2026-11-23-fft-series.md).
    entry_plan_ = plan_whole(boxes_[0], FFTW_FORWARD, data, data);
    exit_plan_ = plan_whole(boxes_[0], FFTW_BACKWARD, data, data);
    return;
  }
  if (plan.ends == Ends::z_lines) {
    entry_plan_ = plan_whole(boxes_[0], FFTW_FORWARD, other, data);
    // The backward z transform's input: work1_ on a slab, work0_ after y -> z (the array
    // backward_to_z returns).
    if (plan.exit_z) {
      exit_plan_ = plan.yz ? plan_whole(boxes_[0], FFTW_BACKWARD, data, other)
                           : plan_whole(boxes_[0], FFTW_BACKWARD, other, data);
    }
    return;
  }
  // A slab's 2D transforms of its x-planes, the fastest of four ways (planes.hpp): forward
  // from the caller's array (kept) into work0_, backward from work1_ (scratch) into the
  // caller's. Where the transposes can be fused with the planes (plan_fusion), the
  // plane-at-a-time ways do the same work as the others less a pass over memory, which the
  // trials would not see: they are the candidates (first, where the wisdom decides).
  using Planes = PlaneFfts<Real>;
  using Way = typename Planes::Way;
  std::vector<Way> entry_way, exit_way;
  const bool wisdom_only = (flags_ & FFTW_WISDOM_ONLY) != 0;
  if (!forced_planes_way_.empty()) {
    exit_way = {Planes::named(forced_planes_way_)};
    entry_way = {exit_way[0] == Way::in_place_then_copy ? Way::copy_then_in_place : exit_way[0]};
  } else if ((flags_ & FFTW_ESTIMATE) == 0) {
    const std::vector<Way> rest = wisdom_only ? std::vector<Way>{Way::whole} : std::vector<Way>{};
    if (fuse_forward) {
      entry_way = {Way::copy_then_in_place, Way::per_plane};
      entry_way.insert(entry_way.end(), rest.begin(), rest.end());
    }
    if (fuse_backward) {
      exit_way = {Way::in_place_then_copy, Way::copy_then_in_place, Way::per_plane};
      exit_way.insert(exit_way.end(), rest.begin(), rest.end());
    }
  }
  const auto shape = Planes::Plane::dft(
      {static_cast<int>(boxes_[0].extent(1)), static_cast<int>(boxes_[0].extent(2))});
  const std::int64_t planes = boxes_[0].extent(0);
  entry_planes_ = planes_ffts({.name = fuse_forward ? "planes forward fused" : "planes forward",
                               .shape = shape,
                               .count = planes,
                               .sign = FFTW_FORWARD,
                               .candidates = entry_way,
                               .src = other,
                               .dst = data,
                               .use = fuse_forward ? Planes::Use::scatter : Planes::Use::run},
                              comm);
  exit_planes_ = planes_ffts({.name = fuse_backward ? "planes backward fused" : "planes backward",
                              .shape = shape,
                              .count = planes,
                              .sign = FFTW_BACKWARD,
                              .candidates = exit_way,
                              .src = other,
                              .dst = data,
                              .src_is_scratch = true,
                              .use = fuse_backward ? Planes::Use::gather : Planes::Use::run},
                             comm);
  plan_fusion(entry_planes_->fusable(), exit_planes_->fusable());
}

// r2c's stage 0 between the real z-pencils and the complex ones (FFTW's r2c/c2r layouts): the
// z lines, a slab's 2D transform per x-plane, or the whole grid on one rank; and where a slab's
// transposes can be fused, one-plane plans that run plane by plane through a scratch plane.
template <typename Real>
void Fft3d<Real>::plan_r2c_ends(const logic::Fft3dPlan& plan, std::int64_t real_z,
                                bool fuse_forward, bool fuse_backward) {
  using F = Fftw<Real>;
  auto* data = reinterpret_cast<typename F::complex*>(work0_.data());
  real_work_.resize(static_cast<std::size_t>(real_box_.count()));
  // Strides in reals on the real side, in complex numbers on the other.
  const int planes = static_cast<int>(real_box_.extent(0));
  const int ny = static_cast<int>(boxes_[1].extent(1));
  const int rows = static_cast<int>(real_box_.extent(0) * real_box_.extent(1));
  const int nr = static_cast<int>(real_z), nc = static_cast<int>(boxes_[0].extent(2));
  std::vector<Iodim<Real>> r2c_dims{{nr, 1, 1}}, c2r_dims{{nr, 1, 1}};
  Iodim<Real> r2c_how{rows, nr, nc}, c2r_how{rows, nc, nr};
  if (plan.whole_3d) {
    const int nx = static_cast<int>(boxes_[0].extent(0));
    r2c_dims = {{nx, ny * nr, ny * nc}, {ny, nr, nc}, {nr, 1, 1}};
    c2r_dims = {{nx, ny * nc, ny * nr}, {ny, nc, nr}, {nr, 1, 1}};
    r2c_how = {1, 0, 0};
    c2r_how = {1, 0, 0};
  } else if (plan.slab_2d) {
    r2c_dims = {{ny, nr, nc}, {nr, 1, 1}};
    c2r_dims = {{ny, nc, nr}, {nr, 1, 1}};
    r2c_how = {planes, ny * nr, ny * nc};
    c2r_how = {planes, ny * nc, ny * nr};
  }
  const int dims_rank = static_cast<int>(r2c_dims.size());
  r2c_plan_ = reinterpret_cast<void*>(
      F::r2c(dims_rank, r2c_dims.data(), 1, &r2c_how, real_work_.data(), data, flags_));
  c2r_plan_ = reinterpret_cast<void*>(
      F::c2r(dims_rank, c2r_dims.data(), 1, &c2r_how, data, real_work_.data(), flags_));
  if (r2c_plan_ == nullptr || c2r_plan_ == nullptr) planned_ = false;
  // Where every real plane has the first one's alignment.
  const bool planes_align =
      (static_cast<std::size_t>(ny) * static_cast<std::size_t>(nr) * sizeof(Real)) % 16 == 0;
  if (!(fuse_forward || fuse_backward) || !planes_align) return;
  plane_scratch_.resize(static_cast<std::size_t>(ny) * static_cast<std::size_t>(nc));
  auto* scratch = reinterpret_cast<typename F::complex*>(plane_scratch_.data());
  const Iodim<Real> one{1, 0, 0};
  if (fuse_forward) {
    r2c_plane_ = reinterpret_cast<void*>(
        F::r2c(2, r2c_dims.data(), 1, &one, real_work_.data(), scratch, flags_));
  }
  if (fuse_backward) {
    c2r_plane_ = reinterpret_cast<void*>(
        F::c2r(2, c2r_dims.data(), 1, &one, scratch, real_work_.data(), flags_));
  }
  plan_fusion(r2c_plane_ != nullptr, c2r_plane_ != nullptr);
}

// Fused on every rank or on none: a fused rank writes its pieces in its peers' layout of the
// x-pencils ([y][x][z]), which an unfused peer would read as exchanged ([x][y][z]). (An r2c
// rank without x-planes has no plane plans.) And the push (backward_pushed): [y][x][z], a
// single-copy y <-> x step, the planes' in-place plan (r2c: the one-plane c2r) and a scratch
// for the x transforms.
template <typename Real>
void Fft3d<Real>::agree_on_fusion(MPI_Comm comm, bool r2c) {
  int fused[3] = {fused_forward_, fused_backward_, 0};
  const bool exit_plans = r2c ? c2r_plane_ != nullptr : exit_planes_ && exit_planes_->fills();
  if (yxz_ && exit_plans && xy_.parts.size() == 1 && xy_.parts[0].direct() &&
      (flags_ & FFTW_ESTIMATE) == 0) {
    fused[2] = x_planes_backward_->prepare_scatter();
  }
  MPI_Allreduce(MPI_IN_PLACE, fused, 3, MPI_INT, MPI_LAND, comm);
  fused_forward_ = fused[0] != 0;
  fused_backward_ = fused[1] != 0;
  pushable_ = fused[2] != 0;
  if (!pushable_) return;
  int col_size = 1;
  MPI_Comm_size(col_, &col_size);
  const Redistribution& r = xy_.parts[0];
  for (int q = 0; q < col_size; ++q) {
    if (const Box& b = r.send_box(q); !b.empty()) push_slices_.push_back({q, b.lo[0], b.extent(0)});
    if (const Box& b = r.recv_box(q); !b.empty()) pull_rows_.push_back({q, b.lo[1], b.extent(1)});
  }
  push_targets_.resize(push_slices_.size());
}

// Times the whole forward (backward) transform fused and not, where both are possible (the
// same on every rank: fused_forward_ and fused_backward_ are agreed), keeps the faster and
// remembers it (ways.hpp); a remembered choice is taken untimed. The x transforms' ways on a
// slab's y-planes, timed alone when planned, run only inside a fused transform: where they
// were timed, each fused way is timed with each of them, and the pair that wins is kept.
template <typename Real>
void Fft3d<Real>::choose_fusion(const std::string& key, MPI_Comm comm, bool r2c) {
  if (!fused_forward_ && !fused_backward_ && !pushable_) return;
  const auto in_count = static_cast<std::size_t>(r2c ? real_box_.count() : boxes_[0].count());
  const auto out_count = static_cast<std::size_t>(output_box().count());
  AlignedVector<Complex> input(r2c ? 0 : std::max<std::size_t>(in_count, 1));
  AlignedVector<Real> real_input(r2c ? std::max<std::size_t>(in_count, 1) : 0);
  AlignedVector<Complex> spectrum(std::max<std::size_t>(out_count, 1));
  auto run = [&](bool forward) {
    if (forward && r2c) this->forward(real_input.data(), spectrum.data());
    if (forward && !r2c) this->forward(input.data(), spectrum.data());
    if (!forward && r2c) backward(spectrum.data(), real_input.data());
    if (!forward && !r2c) backward(spectrum.data(), input.data());
  };
  using Way = typename PlaneFfts<Real>::Way;
  struct Candidate {
    std::string fusion;  // yes, no, push
    std::optional<Way> x;
  };
  for (const bool forward : {true, false}) {
    bool& fused = forward ? fused_forward_ : fused_backward_;
    PlaneFfts<Real>* x_planes = (forward ? x_planes_forward_ : x_planes_backward_).get();
    // A fused forward fills the caller's y-planes and transforms them in place (run_filled)
    // whatever the way; a push runs them through its scratch: copy_then_in_place's way or
    // per_plane's (out of place into it).
    std::vector<Way> x_ways;
    if (x_planes && !(forward && x_planes->fills())) x_ways = x_planes->candidates();
    // The same candidates on every rank (fills() is a rank's own: an empty one always fills).
    int counts[2] = {static_cast<int>(x_ways.size()), -static_cast<int>(x_ways.size())};
    MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT, MPI_MIN, comm);
    if (counts[0] != -counts[1] || x_ways.size() < 2) x_ways.clear();
    // Unfused, the x way does not run: the one timed alone stays. A push runs two ways only.
    std::vector<Way> alone, scattered;
    if (!x_ways.empty()) alone = {x_planes->way()};
    std::copy_if(x_ways.begin(), x_ways.end(), std::back_inserter(scattered),
                 [](Way w) { return w == Way::per_plane || w == Way::copy_then_in_place; });
    std::vector<Candidate> ways;
    auto add = [&](const std::string& fusion, const std::vector<Way>& xs) {
      if (xs.empty()) ways.push_back({fusion, std::nullopt});
      for (Way w : xs)
        ways.push_back({fusion, w});
    };
    if (fused) add("yes", x_ways);
    add("no", alone);
    if (!forward && pushable_) add("push", scattered);
    const auto take = [&](const Candidate& c) {
      fused = c.fusion == "yes";
      if (!forward) push_backward_ = c.fusion == "push";
      if (c.x) x_planes->use(*c.x);
    };
    if (ways.size() == 1) continue;
    const std::string stage = key + (forward ? ": fused forward" : ": fused backward");
    if (const auto way = ways::recall(stage);
        way && std::any_of(ways.begin(), ways.end(),
                           [&](const Candidate& c) { return c.fusion == *way; })) {
      take({*way, std::nullopt});
      continue;
    }
    // A backward way is timed with the forward (chosen first) before it, as a pair runs in use.
    const Candidate chosen = ways[fastest_way(comm, ways.size(), [&](std::size_t way) {
      take(ways[way]);
      if (!forward) run(true);
      run(forward);
    })];
    take(chosen);
    ways::remember(stage, chosen.fusion);
    if (chosen.x) {
      ways::remember(key + ": " + (forward ? x_forward_stage : x_backward_stage),
                     PlaneFfts<Real>::name(*chosen.x));
    }
  }
  transpose_seconds = compute_seconds = 0;
  reset_phases();
}

// The 1D transforms along `axis` of every line of box b's array that lies in [lo, hi) of axis
// `cut` (relative to the box), in place; planned on `data`, run on any array of its alignment.
template <typename Real>
typename Fft3d<Real>::Lines Fft3d<Real>::plan_lines(const Box& b, int axis, int cut,
                                                    std::int64_t lo, std::int64_t hi, int sign,
                                                    Complex* data) {
  Lines lines;
  std::vector<Iodim<Real>> dims, how;
  lines.offset = line_dims<Real>(b, axis, cut, lo, hi, dims, how);
  if (b.empty() || hi <= lo) return lines;
  using F = Fftw<Real>;
  auto* at = reinterpret_cast<typename F::complex*>(data + lines.offset);
  auto p = F::guru(1, dims.data(), static_cast<int>(how.size()), how.data(), at, at, sign, flags_);
  if (p == nullptr) planned_ = false;
  lines.plan = reinterpret_cast<void*>(p);
  step_plans_.push_back(lines.plan);
  return lines;
}

// The transpose from boxes_[from] to boxes_[to] in `chunks` parts along axis `cut`, each with
// the transform of stage `before_stage` (on the source) and `after_stage` (on the destination)
// on its lines (-1: none). One chunk is the whole transpose.
template <typename Real>
void Fft3d<Real>::make_step(Step& step, MPI_Comm comm, const logic::StepShape& shape, int chunks,
                            const std::string& backend) {
  const Box& source = boxes_[static_cast<std::size_t>(shape.from)];
  const Box& target = boxes_[static_cast<std::size_t>(shape.to)];
  const int cut = shape.cut, sign = shape.sign;
  // Both boxes span the same range of `cut` (its ranks share it), so every rank of comm cuts
  // the same global chunks.
  const std::int64_t length = source.extent(cut);
  const std::string spec = logic::fused_auto(backend, chunks);
  step.parts.reserve(static_cast<std::size_t>(chunks));
  for (int c = 0; c < chunks; ++c) {
    const std::int64_t lo = block_start(length, chunks, c), hi = block_start(length, chunks, c + 1);
    Box within = Box::everything();
    within.lo[static_cast<std::size_t>(cut)] = source.lo[static_cast<std::size_t>(cut)] + lo;
    within.hi[static_cast<std::size_t>(cut)] = source.lo[static_cast<std::size_t>(cut)] + hi;
    if (!step.local) step.parts.emplace_back(comm, source, target, within, sizeof(Complex), spec);
    // The transform of stage s runs along axis 2 - s.
    if (shape.before) {
      step.before.push_back(
          plan_lines(source, 2 - *shape.before, cut, lo, hi, sign, work0_.data()));
    }
    if (shape.after) {
      step.after.push_back(plan_lines(target, 2 - *shape.after, cut, lo, hi, sign, work0_.data()));
    }
  }
}
template <typename Real>
Fft3d<Real>::~Fft3d() {
  std::vector<void*> plans = step_plans_;
  plans.push_back(entry_plan_);
  plans.push_back(exit_plan_);
  plans.push_back(r2c_plan_);
  plans.push_back(c2r_plan_);
  plans.push_back(r2c_plane_);
  plans.push_back(c2r_plane_);
  for (void* p : plans) {
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
void Fft3d<Real>::run(const Lines& lines, Complex* array) {
  if (lines.plan == nullptr) return;
  const double t0 = MPI_Wtime();
  auto* d = reinterpret_cast<typename Fftw<Real>::complex*>(array + lines.offset);
  Fftw<Real>::execute(reinterpret_cast<typename Fftw<Real>::plan>(lines.plan), d, d);
  compute_seconds += MPI_Wtime() - t0;
}

// One step: whole, a blocking exchange between its transforms; in chunks, a pipeline that
// starts chunk c's exchange before it completes chunk c - 1's, so that two are in flight. A
// local step (source and destination the same box on one rank) exchanges nothing: its
// caller's transforms have already moved the data from in to out.
template <typename Real>
const typename Fft3d<Real>::Complex* Fft3d<Real>::run_step(Step& step, Complex* in, Complex* out,
                                                           bool may_stay) {
  if (step.local) {
    for (const Lines& lines : step.before)
      run(lines, in);
    for (const Lines& lines : step.after)
      run(lines, out);
    return out;
  }
  const std::size_t chunks = step.parts.size();
  if (chunks == 1) {
    if (!step.before.empty()) run(step.before[0], in);
    if (may_stay && step.after.empty()) {
      const void* arrived = nullptr;
      timed(transpose_seconds, [&] { arrived = step.parts[0].execute_in_window(in, out); });
      return static_cast<const Complex*>(arrived);
    }
    timed(transpose_seconds, [&] { step.parts[0].execute(in, out); });
    if (!step.after.empty()) run(step.after[0], out);
    return out;
  }
  for (std::size_t c = 0; c <= chunks; ++c) {
    if (c < chunks) {
      if (!step.before.empty()) run(step.before[c], in);
      timed(transpose_seconds, [&] { step.parts[c].start(in, out); });
    }
    if (c > 0) {
      timed(transpose_seconds, [&] { step.parts[c - 1].finish(); });
      if (!step.after.empty()) run(step.after[c - 1], out);
    }
  }
  return out;
}

// FFTW may run a plan on other arrays than it was made for only when their alignment is the
// same (fftw_execute_dft's new-array rule).
template <typename Real>
bool same_alignment(const void* a, const void* b) {
  return Fftw<Real>::alignment_of(a) == Fftw<Real>::alignment_of(b);
}

// An out-of-place whole-box transform made from `planned_in` to `planned_out` (transform(in,
// out) runs it), run from `in` to `out`; through the planned arrays (a copy) where the
// alignments differ from theirs.
template <typename Real>
template <typename Transform>
void Fft3d<Real>::run_out_of_place(const Transform& transform, const Complex* in, Complex* out,
                                   Complex* planned_in, Complex* planned_out, std::size_t count_in,
                                   std::size_t count_out) {
  const bool copy_in = !same_alignment<Real>(in, planned_in);
  const bool copy_out = !same_alignment<Real>(out, planned_out);
  if (copy_in) in = std::copy_n(in, count_in, planned_in) - count_in;
  const double t0 = MPI_Wtime();
  transform(in, copy_out ? planned_out : out);
  compute_seconds += MPI_Wtime() - t0;
  if (copy_out) std::copy_n(planned_out, count_out, out);
}

// run_out_of_place with one FFTW plan.
template <typename Real>
void Fft3d<Real>::run_plan_out_of_place(void* plan, const Complex* in, Complex* out,
                                        Complex* planned_in, Complex* planned_out,
                                        std::size_t count) {
  if (plan == nullptr) return;
  using F = Fftw<Real>;
  auto execute = [plan](const Complex* i, Complex* o) {
    F::execute(reinterpret_cast<typename F::plan>(plan),
               reinterpret_cast<typename F::complex*>(const_cast<Complex*>(i)),
               reinterpret_cast<typename F::complex*>(o));
  };
  run_out_of_place(execute, in, out, planned_in, planned_out, count, count);
}

// A whole-box plan made in place on work0_, run in place on `array` (through work0_ where the
// alignments differ).
template <typename Real>
void Fft3d<Real>::run_in_place(void* plan, Complex* array, std::size_t count) {
  const bool copy = !same_alignment<Real>(array, work0_.data());
  if (copy) std::copy_n(array, count, work0_.data());
  Complex* at = copy ? work0_.data() : array;
  run(Lines{plan, 0}, at);
  if (copy) std::copy_n(work0_.data(), count, array);
}

// out = in / N, timed with the transforms (it stands in for the x transforms' scaling).
template <typename Real>
void Fft3d<Real>::scaled_copy(const Complex* in, Complex* out, std::size_t count) {
  const double t0 = MPI_Wtime();
  a2a::fft::scaled_copy(reinterpret_cast<const Real*>(in), reinterpret_cast<Real*>(out), 2 * count,
                        Real(1) / static_cast<Real>(total_));
  compute_seconds += MPI_Wtime() - t0;
}

// array *= scale, timed with the transforms (the 1/N where a plan cannot apply it in cache).
template <typename Real>
void Fft3d<Real>::scale_in_place(Complex* array, std::size_t count, Real factor) {
  const double t0 = MPI_Wtime();
  scale(array, static_cast<std::int64_t>(count), factor);
  compute_seconds += MPI_Wtime() - t0;
}

// A slab's x transforms on its y-planes of [y][x][z] (planes.hpp), from `in` to `out`.
template <typename Real>
void Fft3d<Real>::x_planes(const PlaneFfts<Real>& fft, const Complex* in, Complex* out) {
  auto run_planes = [&fft](const Complex* i, Complex* o) { fft.run(i, o); };
  const auto count = static_cast<std::size_t>(boxes_[2].count());
  run_out_of_place(run_planes, in, out, work0_.data(), work1_.data(), count, count);
}

template <typename Real>
void Fft3d<Real>::columns(const ColumnFfts<Real>& fft, const Complex* in, Complex* out,
                          Real scale) {
  const double t0 = MPI_Wtime();
  fft.run(in, out, scale);
  compute_seconds += MPI_Wtime() - t0;
}

// One exchange outside the steps (natural_spectrum's), timed with the transposes.
template <typename Real>
void Fft3d<Real>::exchange(Redistribution& r, const Complex* in, Complex* out) {
  const double t0 = MPI_Wtime();
  r.execute(in, out);
  transpose_seconds += MPI_Wtime() - t0;
}

// Ends in `out`: x-pencils, or with natural_spectrum the input's boxes (the x-pencils made in
// natural_work_ first).
template <typename Real>
void Fft3d<Real>::forward_from_z(Complex* final_out) {
  forward_window_read_ = false;  // the exchange below reads its window after its own fences
  Complex* out = natural_ ? natural_work_.data() : final_out;
  Complex* y = work0_.data();
  if (!zy_.parts.empty()) {
    run_step(zy_, work0_.data(), work1_.data());
    y = work1_.data();
  }
  if (yxz_) {  // [x][y][z] as exchanged (in the window, or work1_), transformed into [y][x][z]
    const Complex* x = run_step(yx_, y, work1_.data(), true);
    run_plan_out_of_place(x_to_yxz_, x, out, work1_.data(), work0_.data(),
                          static_cast<std::size_t>(boxes_[2].count()));
    return;
  }
  // With a single-copy backend the x-pencils may stay in the window they arrived in: the x
  // panels read them from there (no unpack pass).
  const Complex* x = run_step(yx_, y, out, x_forward_ != nullptr);
  if (x_forward_) columns(*x_forward_, yx_.local ? y : x, out, 1);
  if (natural_) exchange(*to_natural_, natural_work_.data(), final_out);
}

template <typename Real>
void Fft3d<Real>::forward(const Complex* in, Complex* out) {
  watch_->require_alive("a2a::fft::Fft3d::forward");
  const auto count = static_cast<std::size_t>(boxes_[0].count());
  if (whole_3d_) {
    if (in != out) std::copy_n(in, count, out);
    run_in_place(entry_plan_, out, count);
    return;
  }
  if (fused_forward_ && entry_planes_) {
    forward_fused([&](const auto& sink) { entry_planes_->run_scatter(in, sink); }, out,
                  !overlap(in, boxes_[0].count(), out, boxes_[2].count()));
    return;
  }
  if (entry_planes_) {
    auto planes = [this](const Complex* i, Complex* o) { entry_planes_->run(i, o); };
    run_out_of_place(planes, in, work0_.data(), work1_.data(), work0_.data(), count, count);
  } else {
    run_plan_out_of_place(entry_plan_, in, work0_.data(), work1_.data(), work0_.data(), count);
  }
  forward_from_z(out);
}

template <typename Real>
void Fft3d<Real>::forward(const Real* in, Complex* out) {
  watch_->require_alive("a2a::fft::Fft3d::forward");
  if (fused_forward_ && r2c_plane_ != nullptr) {
    const Real* from = in;  // the plane plan reads planes of the caller's where FFTW allows
    if (!same_alignment<Real>(in, real_work_.data())) {
      std::copy(in, in + real_box_.count(), real_work_.data());
      from = real_work_.data();
    }
    const std::int64_t plane = real_box_.extent(1) * real_box_.extent(2);
    auto* scratch = reinterpret_cast<typename Fftw<Real>::complex*>(plane_scratch_.data());
    auto* p = reinterpret_cast<typename Fftw<Real>::plan>(r2c_plane_);
    forward_fused(
        [&](const auto& sink) {
          for (std::int64_t i = 0; i < real_box_.extent(0); ++i) {
            Fftw<Real>::execute_r2c(p, const_cast<Real*>(from + i * plane), scratch);
            sink(i, plane_scratch_.data());
          }
        },
        out, !overlap(in, real_box_.count(), out, boxes_[2].count()));
    return;
  }
  if (r2c_plan_ != nullptr) {
    // The r2c plan is out of place and keeps its input: it reads the caller's array when FFTW
    // allows it (same alignment), else a copy.
    const Real* from = in;
    if (!same_alignment<Real>(in, real_work_.data())) {
      std::copy(in, in + real_box_.count(), real_work_.data());
      from = real_work_.data();
    }
    // The whole grid's spectrum goes straight into the caller's array where FFTW allows it:
    // its alignment, and no overlap with the input read (an out-of-place plan's arrays must
    // be apart).
    const bool direct = whole_3d_ && same_alignment<Real>(out, work0_.data()) &&
                        !overlap(from, real_box_.count(), out, boxes_[0].count());
    const double t0 = MPI_Wtime();
    Fftw<Real>::execute_r2c(
        reinterpret_cast<typename Fftw<Real>::plan>(r2c_plan_), const_cast<Real*>(from),
        reinterpret_cast<typename Fftw<Real>::complex*>(direct ? out : work0_.data()));
    compute_seconds += MPI_Wtime() - t0;
    if (direct) return;
  }
  if (whole_3d_) {
    std::copy_n(work0_.data(), boxes_[0].count(), out);
    return;
  }
  forward_from_z(out);
}

// From the spectrum (x-pencils; with natural_spectrum first moved there from the input's
// boxes): the x transforms (normalized: the 1/N of the whole backward transform is applied here,
// while each panel is in cache) and the transposes back to z-pencils; returns the array that holds
// them, transformed along z too where a step did that (pipelined pencils), else not yet.
template <typename Real>
typename Fft3d<Real>::Complex* Fft3d<Real>::backward_to_z(const Complex* in) {
  backward_window_read_ = false;  // as forward_from_z's
  if (natural_) {                 // the spectrum in the input's boxes: to x-pencils first
    exchange(*from_natural_, in, natural_work_.data());
    in = natural_work_.data();
  }
  const Real scale = Real(1) / static_cast<Real>(total_);
  Complex* x = xy_.local ? work1_.data() : work0_.data();
  // With a single-copy backend the x transforms write into the transpose's input window, and
  // every rank reads its pieces from the peers' (no pack pass).
  Redistribution* pull =
      !xy_.local && xy_.parts.size() == 1 && xy_.before.empty() ? &xy_.parts[0] : nullptr;
  const bool pulling = pull != nullptr && pull->pulls();                // alike on every rank
  if (!pulling && column_window_shared_) forward_window_read_ = false;  // received into it
  if (pulling && pull->input_window() != nullptr) x = static_cast<Complex*>(pull->input_window());
  if (yxz_) {  // from [y][x][z] into [x][y][z], as the exchange takes it
    const auto count = static_cast<std::size_t>(boxes_[2].count());
    run_plan_out_of_place(x_from_yxz_, in, x, work1_.data(), work0_.data(), count);
    scale_in_place(x, count, scale);
  } else if (x_backward_) {
    columns(*x_backward_, in, x, scale);
  } else {  // one 3D plan does every axis: only the 1/N here
    scaled_copy(in, x, static_cast<std::size_t>(boxes_[2].count()));
  }
  if (pulling) {
    const double t0 = MPI_Wtime();
    pull->execute_from_window(work1_.data());
    transpose_seconds += MPI_Wtime() - t0;
    if (!xy_.after.empty()) run(xy_.after[0], work1_.data());
  } else {
    run_step(xy_, work0_.data(), work1_.data());
  }
  if (yz_.parts.empty()) return work1_.data();  // a slab
  run_step(yz_, work1_.data(), work0_.data());
  return work0_.data();
}

template <typename Real>
void Fft3d<Real>::backward(const Complex* in, Complex* out) {
  watch_->require_alive("a2a::fft::Fft3d::backward");
  const auto count = static_cast<std::size_t>(boxes_[0].count());
  if (whole_3d_) {
    scaled_copy(in, out, count);
    run_in_place(exit_plan_, out, count);
    return;
  }
  if (push_backward_) {
    backward_pushed(in, out);
    return;
  }
  if (fused_backward_ && exit_planes_) {
    backward_fused(in, [&](const auto& source) { exit_planes_->run_gather(source, out); });
    return;
  }
  Complex* z = backward_to_z(in);
  if (exit_planes_) {  // a slab: z is work1_, scratch
    auto planes = [this](const Complex* i, Complex* o) { exit_planes_->run(i, o); };
    run_out_of_place(planes, z, out, work1_.data(), work0_.data(), count, count);
    return;
  }
  if (exit_plan_ == nullptr) {  // transformed along z already (or nothing to do here)
    std::copy_n(z, count, out);
    return;
  }
  // Planned from z's work array into the other one.
  Complex* other = z == work1_.data() ? work0_.data() : work1_.data();
  run_plan_out_of_place(exit_plan_, z, out, z, other, count);
}

template <typename Real>
void Fft3d<Real>::backward(const Complex* in, Real* out) {
  watch_->require_alive("a2a::fft::Fft3d::backward");
  if (push_backward_) {
    backward_pushed(in, out);
    return;
  }
  if (fused_backward_ && c2r_plane_ != nullptr) {
    backward_fused(in, [&](const auto& source) {
      c2r_planes(out, [&](std::int64_t i) {
        source(i, plane_scratch_.data());
        return plane_scratch_.data();
      });
    });
    return;
  }
  Complex* z = backward_to_z(in);
  if (c2r_plan_ == nullptr) return;
  const bool copy_out = !same_alignment<Real>(out, real_work_.data());
  const double t0 = MPI_Wtime();
  Fftw<Real>::execute_c2r(reinterpret_cast<typename Fftw<Real>::plan>(c2r_plan_),
                          reinterpret_cast<typename Fftw<Real>::complex*>(z),
                          copy_out ? real_work_.data() : out);
  compute_seconds += MPI_Wtime() - t0;
  if (copy_out) std::copy_n(real_work_.data(), real_box_.count(), out);
}

template <typename Real>
void Fft3d<Real>::to_box_order(const Complex* spectrum, Complex* row_major) const {
  const Box& b = output_box();
  const auto count = static_cast<std::size_t>(b.count());
  if (!yxz_) {
    std::copy_n(spectrum, count, row_major);
    return;
  }
  const std::int64_t nx = b.extent(0), ny = b.extent(1), nz = b.extent(2);
  for (std::int64_t y = 0; y < ny; ++y) {
    for (std::int64_t x = 0; x < nx; ++x)
      std::copy_n(spectrum + (y * nx + x) * nz, nz, row_major + (x * ny + y) * nz);
  }
}

template <typename Real>
std::string Fft3d<Real>::backends() const {
  auto name = [](const Redistribution& r) {
    return r.plan().name() + (r.uniform() ? " (uniform)" : " (vector)");
  };
  auto first = [&](const Step& step) {
    return step.parts.empty() ? std::string("local") : name(step.parts.front());
  };
  std::string s = first(zy_) + ", " + first(yx_);
  if (yx_.parts.size() > 1) s += ", in " + std::to_string(yx_.parts.size()) + " chunks";
  if (natural_) s += "; to the input's layout " + name(*to_natural_);
  return s;
}

// Whether a slab's transposes can be fused with its plane transforms (fused_forward_,
// fused_backward_), and each peer's rows of a plane. Per rank: the fused and the unfused runs
// make the same collective calls (Plan::begin_direct/end_direct, begin_pull/end_pull).
template <typename Real>
void Fft3d<Real>::plan_fusion(bool forward_planes, bool backward_planes) {
  const Box& planes = boxes_[1];  // a slab's y-pencils: its x-planes, whole in y and z
  // Each peer's piece must be whole planes' row blocks: [all x here][some y][all z].
  auto slices = [&](auto box_of, int peers, std::vector<Slice>& out) {
    for (int q = 0; q < peers; ++q) {
      const Box& b = box_of(q);
      if (b.empty()) continue;
      if (b.lo[0] != planes.lo[0] || b.hi[0] != planes.hi[0] || b.lo[2] != planes.lo[2] ||
          b.hi[2] != planes.hi[2]) {
        return false;
      }
      out.push_back({q, b.lo[1] - planes.lo[1], b.extent(1)});
    }
    return true;
  };
  int peers = 1;
  MPI_Comm_size(col_, &peers);
  // [y][x][z] is laid out over a peer's whole x-pencil, which the exchange must hold in one
  // run in rank order (each piece's place in it follows from the x ranges).
  if (!yx_.local && yx_.parts.size() == 1 && (x_forward_ || x_planes_forward_) && forward_planes &&
      yx_.parts[0].direct() && (!yxz_ || yx_.parts[0].receives_in_order())) {
    const Redistribution& r = yx_.parts[0];
    fused_forward_ =
        slices([&](int q) -> const Box& { return r.send_box(q); }, peers, fill_slices_);
    fill_targets_.resize(fill_slices_.size());
  }
  if (!xy_.local && xy_.parts.size() == 1 && xy_.before.empty() && xy_.after.empty() &&
      backward_planes && xy_.parts[0].pulls()) {
    const Redistribution& r = xy_.parts[0];
    fused_backward_ =
        slices([&](int s) -> const Box& { return r.recv_box(s); }, peers, read_slices_);
    read_sources_.resize(read_slices_.size());
  }
}

// scatter(sink): transforms every plane into a scratch and calls sink(i, plane) for each.
template <typename Real>
template <typename Scatter>
void Fft3d<Real>::forward_fused(const Scatter& scatter, Complex* final_out, bool out_apart) {
  Redistribution& r = yx_.parts[0];
  const std::int64_t row = boxes_[1].extent(2);
  double t0 = MPI_Wtime();
  r.begin_fill(forward_window_read_);
  forward_window_read_ = false;
  std::vector<std::byte*>& targets = fill_targets_;  // sized once: no allocation per call
  for (std::size_t k = 0; k < fill_slices_.size(); ++k)
    targets[k] = r.fill_target(fill_slices_[k].peer);
  double t1 = MPI_Wtime();
  // Where a plane's row y of peer k's rows goes: [x][y][z], the piece's rows one run per plane;
  // [y][x][z], row y of every plane in one run (the peer's y-plane y), this plane's place in it.
  // This rank's own rows go straight into the caller's array where the x transforms can run
  // there in place (its alignment the plans'); only the peers' pass through the window.
  const std::int64_t x0 = boxes_[1].lo[0], nx = boxes_[2].extent(0);
  Complex* out = natural_ ? natural_work_.data() : final_out;
  const bool own_in_out = yxz_ && out_apart && x_planes_forward_->fills() &&
                          Fftw<Real>::alignment_of(out) == x_planes_forward_->dst_alignment();
  double copying = 0;  // the rows' copies, timed apart (count_fused)
  scatter([&](std::int64_t i, const Complex* plane) {
    timed(copying, [&] {
      for (std::size_t k = 0; k < fill_slices_.size(); ++k) {
        const Slice& s = fill_slices_[k];
        if (yxz_) {
          Complex* peer = own_in_out && s.peer == col_rank_
                              ? out
                              : reinterpret_cast<Complex*>(targets[k]) - x0 * s.rows * row;
          for (std::int64_t y = 0; y < s.rows; ++y) {
            std::memcpy(peer + (y * nx + x0 + i) * row, plane + (s.first_row + y) * row,
                        static_cast<std::size_t>(row) * sizeof(Complex));
          }
          continue;
        }
        const auto count = static_cast<std::size_t>(s.rows * row);
        std::memcpy(targets[k] + static_cast<std::size_t>(i) * count * sizeof(Complex),
                    plane + s.first_row * row, count * sizeof(Complex));
      }
    });
  });
  double t2 = MPI_Wtime();
  const auto* x = static_cast<const Complex*>(r.end_fill(out));
  // Each rank read its backward window in the backward, before this fence; not so where that
  // is this window, which it reads after it.
  backward_window_read_ = !column_window_shared_;
  transpose_seconds += (t1 - t0) + (MPI_Wtime() - t2);
  count_fused(t2 - t1, copying);
  if (own_in_out) {  // each y-plane: the peers' x ranges from the window, then transformed
    const double t3 = MPI_Wtime();
    const std::int64_t plane = nx * row, mine = boxes_[1].extent(0) * row;
    copying = 0;
    x_planes_forward_->run_filled(out, [&](std::int64_t y, Complex* to) {
      timed(copying, [&] {
        const Complex* from = x + y * plane;
        std::memcpy(to, from, static_cast<std::size_t>(x0 * row) * sizeof(Complex));
        const std::int64_t after = x0 * row + mine;
        std::memcpy(to + after, from + after,
                    static_cast<std::size_t>(plane - after) * sizeof(Complex));
      });
    });
    count_fused(MPI_Wtime() - t3, copying);
  } else if (yxz_) {
    x_planes(*x_planes_forward_, x, out);
  } else {
    columns(*x_forward_, x, out, 1);
  }
  if (natural_) exchange(*to_natural_, natural_work_.data(), final_out);
}

// gather(source): for every plane, has source(i, plane) fill a scratch and transforms it on.
template <typename Real>
template <typename Gather>
void Fft3d<Real>::backward_fused(const Complex* in, const Gather& gather) {
  if (natural_) {
    exchange(*from_natural_, in, natural_work_.data());
    in = natural_work_.data();
  }
  Redistribution& r = xy_.parts[0];
  const std::int64_t row = boxes_[1].extent(2);
  auto* window = static_cast<Complex*>(r.input_window());
  Complex* x = window != nullptr ? window : work0_.data();
  if (yxz_) {
    x_planes(*x_planes_backward_, in, x);
  } else {
    columns(*x_backward_, in, x, Real(1) / static_cast<Real>(total_));
  }
  double t0 = MPI_Wtime();
  r.begin_read();
  std::vector<const std::byte*>& sources = read_sources_;  // sized once
  for (std::size_t k = 0; k < read_slices_.size(); ++k)
    sources[k] = r.read_source(read_slices_[k].peer);
  double t1 = MPI_Wtime();
  const std::int64_t x0 = boxes_[1].lo[0], nx = boxes_[2].extent(0);  // as forward_fused's
  double copying = 0;                                                 // as forward_fused's
  gather([&](std::int64_t i, Complex* plane) {
    timed(copying, [&] {
      for (std::size_t k = 0; k < read_slices_.size(); ++k) {
        const Slice& s = read_slices_[k];
        if (yxz_) {
          const Complex* peer = reinterpret_cast<const Complex*>(sources[k]) - x0 * s.rows * row;
          for (std::int64_t y = 0; y < s.rows; ++y) {
            std::memcpy(plane + (s.first_row + y) * row, peer + (y * nx + x0 + i) * row,
                        static_cast<std::size_t>(row) * sizeof(Complex));
          }
          continue;
        }
        const auto count = static_cast<std::size_t>(s.rows * row);
        std::memcpy(plane + s.first_row * row,
                    sources[k] + static_cast<std::size_t>(i) * count * sizeof(Complex),
                    count * sizeof(Complex));
      }
    });
  });
  double t2 = MPI_Wtime();
  r.end_read();
  forward_window_read_ = true;
  transpose_seconds += (t1 - t0) + (MPI_Wtime() - t2);
  count_fused(t2 - t1, copying);
}

// Each y-plane of the spectrum transformed along x into a scratch and its rows pushed into the
// receivers' x-planes: into `own` for this rank's rows where it is not null, else (and the
// peers' always) into the windows. Returns this rank's window, complete.
template <typename Real>
const typename Fft3d<Real>::Complex* Fft3d<Real>::push_rows(const Complex* in, Complex* own) {
  Redistribution& r = xy_.parts[0];
  const std::int64_t nz = boxes_[1].extent(2), ny = boxes_[1].extent(1);
  const std::int64_t y0 = boxes_[2].lo[1];  // this rank's y-planes of the spectrum
  double t0 = MPI_Wtime();
  r.begin_fill(backward_window_read_);
  backward_window_read_ = false;
  for (std::size_t k = 0; k < push_slices_.size(); ++k)
    push_targets_[k] = r.fill_target(push_slices_[k].peer);
  double t1 = MPI_Wtime();
  // Receiver q's window holds its x-planes [x][y][z] whole; this rank's piece starts at its
  // rows of the first plane (the pieces lie in rank order: every rank before it has the
  // y-planes before its own).
  double copying = 0;  // as forward_fused's
  x_planes_backward_->run_scatter(in, [&](std::int64_t y, const Complex* plane) {
    timed(copying, [&] {
      for (std::size_t k = 0; k < push_slices_.size(); ++k) {
        const Slice& s = push_slices_[k];
        Complex* x_planes = own != nullptr && s.peer == col_rank_
                                ? own
                                : reinterpret_cast<Complex*>(push_targets_[k]) - s.rows * y0 * nz;
        for (std::int64_t x = 0; x < s.rows; ++x) {
          std::memcpy(x_planes + (x * ny + y0 + y) * nz, plane + (s.first_row + x) * nz,
                      static_cast<std::size_t>(nz) * sizeof(Complex));
        }
      }
    });
  });
  double t2 = MPI_Wtime();
  const auto* window = static_cast<const Complex*>(r.end_fill(nullptr));
  forward_window_read_ = !column_window_shared_;  // as forward_fused's backward_window_read_
  double t3 = MPI_Wtime();
  transpose_seconds += (t1 - t0) + (t3 - t2);
  count_fused(t2 - t1, copying);
  return window;
}

template <typename Real>
void Fft3d<Real>::backward_pushed(const Complex* in, Complex* out) {
  const std::int64_t nz = boxes_[1].extent(2), ny = boxes_[1].extent(1);
  // This rank's own rows straight into the caller's array where its x-planes can be
  // transformed there in place; else through its own window with the peers'.
  const bool own_in_out = !overlap(in, boxes_[2].count(), out, boxes_[0].count()) &&
                          Fftw<Real>::alignment_of(out) == exit_planes_->dst_alignment();
  const Complex* window = push_rows(in, own_in_out ? out : nullptr);
  const double t0 = MPI_Wtime();
  const std::int64_t plane = ny * nz;
  if (own_in_out) {      // each x-plane: the peers' rows from the window, then transformed
    double copying = 0;  // as forward_fused's
    exit_planes_->run_filled(out, [&](std::int64_t i, Complex* to) {
      timed(copying, [&] {
        for (const Slice& s : pull_rows_) {
          if (s.peer == col_rank_) continue;
          std::memcpy(to + s.first_row * nz, window + i * plane + s.first_row * nz,
                      static_cast<std::size_t>(s.rows * nz) * sizeof(Complex));
        }
      });
    });
    count_fused(MPI_Wtime() - t0, copying);
  } else {  // the window holds the whole x-planes: from there into the caller's array
    auto planes = [this](const Complex* i, Complex* o) { exit_planes_->run(i, o); };
    const auto count = static_cast<std::size_t>(boxes_[0].count());
    run_out_of_place(planes, window, out, work1_.data(), work0_.data(), count, count);
  }
}

// c2r: every row through the windows (the real output has no room for complex x-planes), then
// each x-plane's c2r straight from the window into the caller's array (FFTW's c2r overwrites
// its input: the window is scratch until the next call fills it).
template <typename Real>
void Fft3d<Real>::backward_pushed(const Complex* in, Real* out) {
  const Complex* window = push_rows(in, nullptr);
  const double t0 = MPI_Wtime();
  const bool from_window = same_alignment<Real>(window, plane_scratch_.data());
  const std::int64_t plane = boxes_[1].extent(1) * boxes_[1].extent(2);
  c2r_planes(out, [&](std::int64_t i) {
    auto* from = const_cast<Complex*>(window + i * plane);
    if (from_window) return from;
    std::copy_n(from, plane, plane_scratch_.data());
    return plane_scratch_.data();
  });
  compute_seconds += MPI_Wtime() - t0;
}

// The one-plane c2r of each x-plane, from plane_of(i) (of the scratch plane's alignment) into
// the caller's array, through real_work_ where the caller's has another alignment.
template <typename Real>
template <typename PlaneOf>
void Fft3d<Real>::c2r_planes(Real* out, const PlaneOf& plane_of) {
  const bool copy_out = !same_alignment<Real>(out, real_work_.data());
  Real* to = copy_out ? real_work_.data() : out;
  const std::int64_t real_plane = real_box_.extent(1) * real_box_.extent(2);
  auto* p = reinterpret_cast<typename Fftw<Real>::plan>(c2r_plane_);
  for (std::int64_t i = 0; i < real_box_.extent(0); ++i) {
    Fftw<Real>::execute_c2r(p, reinterpret_cast<typename Fftw<Real>::complex*>(plane_of(i)),
                            to + i * real_plane);
  }
  if (copy_out) std::copy_n(real_work_.data(), real_box_.count(), out);
}

template <typename Real>
std::size_t Fft3d<Real>::memory_bytes() const {
  std::size_t bytes = held_bytes(work0_) + held_bytes(work1_) + held_bytes(plane_scratch_) +
                      held_bytes(natural_work_) + held_bytes(real_work_);
  for (const auto* columns : {x_forward_.get(), x_backward_.get()})
    if (columns != nullptr) bytes += columns->scratch_bytes();
  for (const auto* planes :
       {entry_planes_.get(), exit_planes_.get(), x_planes_forward_.get(), x_planes_backward_.get()})
    if (planes != nullptr) bytes += planes->scratch_bytes();
  return bytes + Redistribution::held_bytes(transposes());
}

template <typename Real>
std::string Fft3d<Real>::local_transforms() const {
  std::string s;
  const char* backward = push_backward_ ? " pushed" : fused_backward_ ? " fused" : "";
  if (r2c_plane_ != nullptr || c2r_plane_ != nullptr) {
    s = std::string("planes r2c") + (fused_forward_ ? " fused" : "") + "/c2r" + backward;
  }
  // What runs where the caller's arrays have the planned alignment and do not overlap: a fused
  // forward's x transforms and a pushed c2c backward's planes run in place on planes filled
  // where they lie ("filled"), whatever way was timed alone (which runs for other arrays).
  auto way = [](const PlaneFfts<Real>& planes, bool filled) {
    return filled && planes.fills() ? std::string("filled") : PlaneFfts<Real>::name(planes.way());
  };
  if (entry_planes_ && exit_planes_) {
    s = "planes " + way(*entry_planes_, false) + (fused_forward_ ? " fused" : "") + "/" +
        way(*exit_planes_, push_backward_) + backward;
  }
  if (x_planes_forward_ && x_planes_backward_) {
    if (!s.empty()) s += ", ";
    s += "x y-planes " + way(*x_planes_forward_, fused_forward_) + "/" +
         way(*x_planes_backward_, false);
  }
  if (x_backward_) {
    if (!s.empty()) s += ", ";
    s += "x ";
    if (x_forward_) s += x_forward_->name() + "/";
    s += x_backward_->name();
  }
  return s;
}

template <typename Real>
std::vector<const Redistribution*> Fft3d<Real>::transposes() const {
  std::vector<const Redistribution*> all;
  for (const Step* step : {&zy_, &yx_, &xy_, &yz_}) {
    if (step->local) continue;  // nothing exchanged
    for (const Redistribution& r : step->parts)
      all.push_back(&r);
  }
  for (const auto* r : {to_natural_.get(), from_natural_.get()}) {
    if (r != nullptr) all.push_back(r);
  }
  return all;
}

template <typename Real>
typename Fft3d<Real>::Phases Fft3d<Real>::phases() const {
  Phases p;
  for (const Redistribution* r : transposes()) {
    const Redistribution::PhaseTimes& t = r->phase_times();
    p.pack_s += t.pack_s;
    p.exchange_s += t.exchange_s;
    p.unpack_s += t.unpack_s;
    p.sent_bytes += static_cast<double>(t.calls) * static_cast<double>(r->send_bytes());
    // A side done in place is no pass at all (Redistribution::execute).
    if (!r->packs_in_place()) {
      p.packed_bytes +=
          static_cast<double>(t.calls - t.packs_skipped) * static_cast<double>(r->send_bytes());
    }
    if (!r->unpacks_in_place()) {
      p.unpacked_bytes +=
          static_cast<double>(t.calls - t.unpacks_skipped) * static_cast<double>(r->recv_bytes());
    }
    p.largest_buffer = std::max<std::size_t>({p.largest_buffer, r->send_bytes(), r->recv_bytes()});
  }
  return p;
}

template <typename Real>
void Fft3d<Real>::reset_phases() {
  for (Step* step : {&zy_, &yx_, &xy_, &yz_}) {
    for (Redistribution& r : step->parts)
      r.reset_phase_times();
  }
  for (auto* r : {to_natural_.get(), from_natural_.get()}) {
    if (r != nullptr) r->reset_phase_times();
  }
}

template class Fft3d<double>;
template class Fft3d<float>;

}  // namespace a2a::fft
