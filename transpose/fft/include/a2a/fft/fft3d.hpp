// A distributed 3D complex FFT on the a2a transpose layer (configurable-alltoall paper,
// section VI: FFTs as the application of the all-to-all). Pencil decomposition on a P1 x P2
// process grid: z-pencils (input) -> FFT along z -> y-pencils (transpose in the row
// communicator) -> FFT along y -> x-pencils (transpose in the column communicator) -> FFT
// along x (output). Slab decomposition is the P x 1 grid: the first transpose is local and
// skipped, and its x-pencils (the spectrum) are stored [y][x][z], FFTW-MPI's transposed layout
// (output_order()), so that its x transforms run plane by plane over y-planes that fit in
// cache. Local transforms are FFTW plans, made once: the z transform (a slab's z and y: 2D
// transforms of its x-planes, planes.hpp) from the caller's array forward and into it
// backward, y in place, and x on a slab's y-planes (planes.hpp) or a pencil's columns
// (columns.hpp), which also apply the backward 1/N. Where a2a has several ways to run a stage it
// times them at plan time under FFTW's MEASURE, every rank at once, and remembers the choice
// with the wisdom (ways.hpp). With one rank per column (P = 1, a 1 x P grid) the y- and
// x-pencils are one box: the x transforms go from the one array to the other, nothing
// exchanged. On one rank (unpipelined) the whole transform is one 3D FFTW plan each way, in
// place on the caller's output (after a copy, unless the caller's call is in place). Pipelined
// (Options::chunks > 1): each transpose goes in chunks along the axis both of its sides hold
// whole (x between z- and y-pencils, z between y- and x-pencils), and the 1D transforms beside
// it run on the same chunks, so that one chunk's exchange is in flight while the next is packed
// and the previous one unpacked and transformed (Plan::start/finish: the exchange progresses in
// between with `mpi` and `linear`); its x-pencils stay [x][y][z].
// Forward is unnormalized and backward normalized by 1/N, like FFTW's pair scaled.
#pragma once

#include <fftw3.h>
#include <mpi.h>

#include <array>
#include <complex>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "a2a/agree.hpp"
#include "a2a/fft/aligned.hpp"
#include "a2a/transpose.hpp"

namespace a2a::fft {

// The spectrum's global shape for grid n: n2/2 + 1 along the last axis for r2c (FFTW's
// Hermitian half), else n.
inline std::array<std::int64_t, 3> spectrum_shape(const std::array<std::int64_t, 3>& n, bool r2c) {
  return {n[0], n[1], r2c ? n[2] / 2 + 1 : n[2]};
}

struct Options {
  std::array<std::int64_t, 3> n{8, 8, 8};
  int p1 = 1, p2 = 1;            // process grid (slab: P x 1)
  std::string backend = "auto";  // z <-> y transpose
  std::string backend2 = "";     // y <-> x transpose ("" = the same)
  unsigned fftw_flags = FFTW_ESTIMATE;
  // Real-to-complex: the input is real, the spectrum has n2/2 + 1 points along z (FFTW's
  // r2c layout); backward is complex-to-real.
  bool r2c = false;
  // Pipeline every transpose in this many chunks (1: whole, one blocking exchange each).
  int chunks = 1;
  // The spectrum in the input's layout (z-pencils, FFTW-MPI's "natural" form): forward ends
  // with one more exchange among all ranks, from the x-pencils back to the input's boxes, and
  // backward starts with its inverse. Off: the spectrum stays transposed (x-pencils), one
  // exchange per direction fewer (FFTW_MPI_TRANSPOSED_OUT's form).
  bool natural_spectrum = false;
  // The tests: a slab's plane transforms run this way (planes.hpp: "whole", "per_plane",
  // "copy_then_in_place", "in_place_then_copy"; forward, whose source is the caller's, takes
  // copy_then_in_place for the last) instead of the fastest; "" chooses.
  std::string planes_way;
};

template <typename Real>
struct Fftw;
template <typename Real>
class ColumnFfts;
template <typename Real>
class PlaneFfts;
template <typename Real>
struct PlaneStage;
namespace logic {
struct StepShape;
struct Fft3dPlan;
}  // namespace logic

template <typename Real>
class Fft3d {
 public:
  using Complex = std::complex<Real>;
  Fft3d(MPI_Comm comm, const Options& options);
  ~Fft3d();
  Fft3d(const Fft3d&) = delete;

  const Box& input_box() const { return boxes_[0]; }
  // The spectrum's box: x-pencils, or the input's box with Options::natural_spectrum.
  const Box& output_box() const { return natural_ ? boxes_[0] : boxes_[2]; }
  // The order of the spectrum's axes in memory, slowest first: {0, 1, 2}, row-major over
  // output_box() ([x][y][z]), or {1, 0, 2}, [y][x][z]: a slab's transposed spectrum on P > 1
  // ranks (unpipelined), FFTW-MPI's FFTW_MPI_TRANSPOSED_OUT layout.
  std::array<int, 3> output_order() const {
    return yxz_ ? std::array<int, 3>{1, 0, 2} : std::array<int, 3>{0, 1, 2};
  }
  // The spectrum (output_order()) copied into row-major order over output_box().
  void to_box_order(const Complex* spectrum, Complex* row_major) const;
  // The real input box of an r2c transform (z extent n2; input_box() has n2/2 + 1).
  const Box& real_box() const { return real_box_; }
  // in: input_box() elements (read only); out: output_box() elements.
  // In place (in == out) too: the array then holds the larger of the two boxes. On one rank
  // that saves the copy before FFTW's in-place 3D plan (one pass over the grid).
  void forward(const Complex* in, Complex* out);
  // in: output_box() elements (read only); out: input_box() elements, scaled by 1/N.
  // In place (in == out) as forward.
  void backward(const Complex* in, Complex* out);
  // r2c: in real_box() reals; c2r: out real_box() reals, scaled by 1/N.
  void forward(const Real* in, Complex* out);
  void backward(const Complex* in, Real* out);

  double transpose_seconds = 0, compute_seconds = 0;  // accumulated, this rank
  std::string backends() const;
  // How the local transforms run where a2a chose at plan time (planes.hpp, columns.hpp), e.g.
  // "planes per_plane fused/in_place_then_copy fused, x y-planes copy_then_in_place/whole" (a
  // slab) or "x strided/panels of 64" (a pencil), forward/backward; "" where nothing was chosen.
  std::string local_transforms() const;
  // Bytes it holds on this rank besides the caller's arrays: work arrays and scratch, the
  // transposes' buffers and their backends' (Redistribution::held_bytes). Not FFTW's plans.
  std::size_t memory_bytes() const;

  // The transposes' three phases summed over every call since reset_phases(), this rank:
  // seconds, and the bytes packed (read from the array into the send buffer), sent, and
  // unpacked (from the receive buffer into the array); each phase is one pass over its bytes.
  // Where a transpose is fused with the plane transforms the pack or unpack is their pass
  // (local FFT time) and counts no bytes here.
  struct Phases {
    double pack_s = 0, exchange_s = 0, unpack_s = 0;
    double packed_bytes = 0, sent_bytes = 0, unpacked_bytes = 0;
    std::size_t largest_buffer = 0;  // the largest send or receive buffer, bytes
  };
  Phases phases() const;
  void reset_phases();

 private:
  // A transform in place on part of an array: an FFTW plan and where its data starts.
  struct Lines {
    void* plan = nullptr;
    std::size_t offset = 0;  // elements
  };
  // One transpose, whole or in chunks, with the transforms that run on each chunk before it is
  // sent (on the source array) and after it has arrived (on the destination array).
  struct Step {
    std::vector<Redistribution> parts;
    std::vector<Lines> before, after;  // one per part, or none
    bool local = false;                // one rank, the same box: no parts, nothing exchanged
  };
  Lines plan_lines(const Box& b, int axis, int cut, std::int64_t lo, std::int64_t hi, int sign,
                   Complex* data);
  // The constructor's parts, in the order it runs them, from the plan's logic (fft3d_logic.hpp);
  // each clears planned_ where FFTW made no plan.
  void make_steps(const logic::Fft3dPlan& plan);
  void make_step(Step& step, MPI_Comm comm, const logic::StepShape& shape, int chunks,
                 const std::string& backend);
  void plan_x_transforms(MPI_Comm comm, const logic::Fft3dPlan& plan);
  void plan_c2c_ends(MPI_Comm comm, const logic::Fft3dPlan& plan, bool fuse_forward,
                     bool fuse_backward);
  void plan_r2c_ends(const logic::Fft3dPlan& plan, std::int64_t real_z, bool fuse_forward,
                     bool fuse_backward);
  void agree_on_fusion(MPI_Comm comm, bool r2c);
  void share_exchange_buffers();  // once every exchange is made
  std::unique_ptr<PlaneFfts<Real>> planes_ffts(const PlaneStage<Real>& stage, MPI_Comm comm);
  void* plan_whole(const Box& b, int sign, Complex* in, Complex* out);
  bool planned_ = true;
  std::string ways_key_;           // what the remembered ways' keys start with (ways.hpp)
  std::string forced_planes_way_;  // Options::planes_way
  void run(const Lines& lines, Complex* array);
  // Returns where the output is: `out`, or with may_stay, the window it arrived in
  // (Redistribution::execute_in_window).
  const Complex* run_step(Step& step, Complex* in, Complex* out, bool may_stay = false);
  template <typename Transform>
  void run_out_of_place(const Transform& transform, const Complex* in, Complex* out,
                        Complex* planned_in, Complex* planned_out, std::size_t count_in,
                        std::size_t count_out);
  void run_plan_out_of_place(void* plan, const Complex* in, Complex* out, Complex* planned_in,
                             Complex* planned_out, std::size_t count);
  void run_in_place(void* plan, Complex* array, std::size_t count);
  void scaled_copy(const Complex* in, Complex* out, std::size_t count);
  void scale_in_place(Complex* array, std::size_t count, Real factor);
  void x_planes(const PlaneFfts<Real>& fft, const Complex* in, Complex* out);
  void columns(const ColumnFfts<Real>& fft, const Complex* in, Complex* out, Real scale);
  std::vector<const Redistribution*> transposes() const;
  void forward_from_z(Complex* out);  // work0_ holds the z-transformed z-pencils
  void exchange(Redistribution& r, const Complex* in, Complex* out);
  // The z-pencils after the transposes and, for c2c, the backward z transform.
  Complex* backward_to_z(const Complex* in);

  // row_ and col_ outlive the caller's communicator: calls check that it is alive.
  std::optional<CommunicatorWatch> watch_;
  MPI_Comm row_ = MPI_COMM_NULL, col_ = MPI_COMM_NULL;
  int col_rank_ = 0;
  std::array<Box, 3> boxes_;  // z-, y-, x-pencils
  Step zy_, yx_, xy_, yz_;    // zy_ and yz_ have no parts on a slab (local)
  unsigned flags_ = 0;        // FFTW planner flags
  AlignedVector<Complex> work0_, work1_;
  Box real_box_;
  AlignedVector<Real> real_work_;
  void* r2c_plan_ = nullptr;
  void* c2r_plan_ = nullptr;
  // Whole-box plans out of place: forward z (a slab's y and z) from work1_ into work0_, and
  // backward z from the array backward_to_z returns into the other, run on the caller's.
  void* entry_plan_ = nullptr;
  void* exit_plan_ = nullptr;
  // A slab's (c2c): its x-planes' 2D transforms instead, forward from the caller's array into
  // work0_ and backward from work1_ into the caller's.
  std::unique_ptr<PlaneFfts<Real>> entry_planes_, exit_planes_;
  // A slab's transposes fused with its plane transforms, where the backend is single-copy
  // (shared_window): each transformed plane's pieces go from its scratch straight into the
  // peers' memory (forward), and each plane is gathered from the peers' memory into the
  // scratch before its transform (backward). One pass over memory fewer each way than
  // transforming into a work array and packing or unpacking it; whether it is faster is timed
  // at plan time (choose_fusion) and remembered.
  struct Slice {
    int peer = 0;
    std::int64_t first_row = 0, rows = 0;  // rows (y) of a plane in the peer's piece
  };
  std::vector<Slice> fill_slices_, read_slices_;
  std::vector<std::byte*> fill_targets_;        // per call: where each slice goes
  std::vector<const std::byte*> read_sources_;  // per call: where each slice comes from
  bool fused_forward_ = false, fused_backward_ = false;
  // r2c: the one-plane plans of the fused runs, from the real planes into plane_scratch_ and
  // back.
  void* r2c_plane_ = nullptr;
  void* c2r_plane_ = nullptr;
  AlignedVector<Complex> plane_scratch_;
  void plan_fusion(bool forward_planes, bool backward_planes);
  void choose_fusion(const std::string& key, MPI_Comm comm, bool r2c);
  void release_unused_window(MPI_Comm comm);
  void share_windows();
  template <typename Scatter>
  // out_apart: the caller's input does not share memory with `out` (this rank's own pieces may
  // go straight into it while the input is still being read).
  void forward_fused(const Scatter& scatter, Complex* out, bool out_apart);
  template <typename Gather>
  void backward_fused(const Complex* in, const Gather& gather);
  // A slab's backward the other way round ([y][x][z]): each y-plane is transformed along x
  // in a scratch and its rows are pushed straight into the receivers' x-planes ([x][y][z] in
  // their windows; c2c: this rank's own rows into the caller's array), then each x-plane is
  // completed from the window and transformed in place (c2c) or c2r'd from the window into the
  // caller's array (r2c). Where pushable_ (every rank), chosen by timing against the pull and
  // the unfused runs (push_backward_).
  const Complex* push_rows(const Complex* in, Complex* own);
  // A fused run's `seconds` among the plane transforms: `copying` of them the copies into and
  // out of the peers' memory, which are the transpose's; the rest the local transforms'.
  void count_fused(double seconds, double copying) {
    transpose_seconds += copying;
    compute_seconds += seconds - copying;
  }
  void backward_pushed(const Complex* in, Complex* out);
  void backward_pushed(const Complex* in, Real* out);
  template <typename PlaneOf>
  void c2r_planes(Real* out, const PlaneOf& plane_of);
  bool pushable_ = false, push_backward_ = false;
  // Whether every rank has read what the last forward (backward) fill left in its window: a
  // fence of all these ranks came after (the other direction's exchange), so the next fill
  // need not wait for them (Redistribution::begin_fill(true)). The calls, alike on every rank,
  // keep them alike; an unfused exchange through the window clears them.
  bool forward_window_read_ = false, backward_window_read_ = false;
  bool column_window_shared_ = false;  // yx_ and xy_ receive into one window (share_windows)
  std::vector<Slice> push_slices_, pull_rows_;  // receivers' x ranges; sources' y ranges
  std::vector<std::byte*> push_targets_;
  // The x transforms on column panels (forward: none when the y <-> x step is pipelined).
  std::unique_ptr<ColumnFfts<Real>> x_forward_, x_backward_;
  // A slab's x-pencils in [y][x][z] (output_order): their x transforms plane by plane, and, where
  // the exchange delivers or takes [x][y][z] (unfused), plans that transform and transpose
  // between the two (work1_ to work0_).
  bool yxz_ = false;
  std::unique_ptr<PlaneFfts<Real>> x_planes_forward_, x_planes_backward_;
  void* x_to_yxz_ = nullptr;
  void* x_from_yxz_ = nullptr;
  std::vector<void*> step_plans_;  // every Lines plan, to destroy
  std::int64_t total_ = 1;
  bool slab_2d_ = false;   // stage 0 transforms y and z (2D plans); stage 1 has none
  bool whole_3d_ = false;  // one rank: stage 0 transforms all three axes (3D plans)
  bool natural_ = false;   // natural_spectrum where it differs from x-pencils (P > 1)
  std::unique_ptr<Redistribution> to_natural_, from_natural_;
  AlignedVector<Complex> natural_work_;  // the x-pencils, natural_spectrum only
};

}  // namespace a2a::fft
