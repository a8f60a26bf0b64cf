// Transforms of a stack of contiguous planes from one array into another, the way that is
// fastest here: a slab rank's x-planes (a 2D FFT over y and z each, Plane::dft) and its
// spectrum's y-planes of [y][x][z] (the 1D FFTs along x, z the unit-stride vector,
// Plane::columns). FFTW's one guru plan over the whole stack is what its planner picks among
// its own algorithms, but an out-of-place pass over a plane reads it from memory and writes the
// destination to memory, where an in-place pass works on a plane that stays in cache. So there
// are four ways, and under MEASURE (PATIENT, EXHAUSTIVE) each is timed at plan time on the
// transform's own work arrays, the whole stack as it will run (trial.hpp), and the fastest kept:
//   whole               the one guru plan over all planes, out of place;
//   per_plane           a one-plane plan out of place, run plane by plane;
//   copy_then_in_place  each plane copied into the destination, then transformed there in
//                       place while it is in cache (the source stays as it was);
//   in_place_then_copy  each plane transformed in place in the source, then copied out (only
//                       where the source is scratch: the backward transform's work array).
// ESTIMATE, which times nothing, takes copy_then_in_place where the planes align, else `whole`:
// a plane transformed in place while it is in cache beat FFTW's one out-of-place plan over the
// stack on every CPU measured (docs/fft.md), and it is a way the transposes fuse with;
// WISDOM_ONLY takes the first way whose plans the wisdom has. The plane-at-a-time ways can also run
// through a scratch plane whose pieces the caller sends or receives itself (run_scatter,
// run_gather), or on planes the caller assembles in the destination (run_filled): Fft3d fuses a
// slab's single-copy transposes with them that way, lets only them compete, and has them timed the
// way they will run (Use). A scale (the backward 1/N) is applied while each plane is in cache.
// Cost: the planes' 5 N log2 N flops either way; the ways differ in memory passes (whole and
// per_plane: read source, write destination; the copy ways: the same plus a copy in cache). Run
// `a2a_local_ffts N P` to see them on a machine.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "a2a/fft/aligned.hpp"
#include "a2a/fft/ways.hpp"
#include "fftw.hpp"
#include "trial.hpp"

namespace a2a::fft {

template <typename Real>
class PlaneFfts {
 public:
  using Complex = std::complex<Real>;
  using F = Fftw<Real>;
  enum class Way { whole, per_plane, copy_then_in_place, in_place_then_copy };

  // What is transformed in each plane, in FFTW's guru terms: the transform's dimensions and
  // the vector of transforms inside the plane (empty: one transform), strides in elements of
  // the plane, which holds `size` elements.
  struct Plane {
    std::vector<Iodim<Real>> dims, inner;
    std::int64_t size = 0;
    // The multidimensional DFT of a row-major plane of `shape` (rank 1-3): a slab's y and z.
    static Plane dft(const std::vector<int>& shape) {
      Plane p;
      p.size = 1;
      for (int n : shape)
        p.size *= n;
      std::int64_t stride = p.size;
      for (int n : shape) {
        stride /= n;
        p.dims.push_back({n, static_cast<int>(stride), static_cast<int>(stride)});
      }
      return p;
    }
    // The 1D DFTs along the rows' axis of a rows x cols row-major plane, one per column: the
    // x transforms of a y-plane of [y][x][z] (FFTW-MPI's transposed layout).
    static Plane columns(int rows, int cols) {
      return Plane{{{rows, cols, cols}}, {{cols, 1, 1}}, std::int64_t{rows} * cols};
    }
  };

  // `count` planes of `shape` (row-major, rank 1-3), one after the other in src and in dst.
  // src and dst: the work arrays the plans are made on (and timed on, contents overwritten);
  // run() takes arrays of their alignments. src_is_scratch: run() may overwrite its source.
  // The ways are timed in step on every rank of comm (trial.hpp; every rank constructs its
  // PlaneFfts at the same point, with the same shape, its count zero or not). `only`: these
  // ways rather than every one that applies (one: that way, untimed; the tests use it).
  PlaneFfts(const std::vector<int>& shape, std::int64_t count, int sign, unsigned flags,
            Complex* src, Complex* dst, bool src_is_scratch, MPI_Comm comm,
            const std::vector<Way>& only = {})
      : PlaneFfts(Plane::dft(shape), count, sign, flags, src, dst, src_is_scratch, comm, only) {}
  // How the caller will run the planes, which is how the trials time them: run(), or through
  // the scratch plane (run_scatter, run_gather; the pieces copied to and from dst and src here).
  enum class Use { run, scatter, gather };
  // Any plane transform (Plane), with a scale that run() applies while a plane is in cache.
  PlaneFfts(const Plane& shape, std::int64_t count, int sign, unsigned flags, Complex* src,
            Complex* dst, bool src_is_scratch, MPI_Comm comm, const std::vector<Way>& only = {},
            Real scale = 1, Use use = Use::run)
      : count_(count), plane_(shape.size), scale_(scale) {
    const bool empty = count == 0 || plane_ == 0;
    const std::vector<Iodim<Real>>& dims = shape.dims;
    const int rank = static_cast<int>(dims.size());
    // The whole stack: the planes as the outer vector around each plane's own.
    std::vector<Iodim<Real>> all{
        {static_cast<int>(count), static_cast<int>(plane_), static_cast<int>(plane_)}};
    all.insert(all.end(), shape.inner.begin(), shape.inner.end());
    std::vector<Iodim<Real>> one = shape.inner;
    if (one.empty()) one = {{1, 0, 0}};
    auto* s = reinterpret_cast<typename F::complex*>(src);
    auto* d = reinterpret_cast<typename F::complex*>(dst);
    const int how_all = static_cast<int>(all.size()), how_one = static_cast<int>(one.size());
    // Plane by plane needs every plane at the alignment its plan was made for.
    const bool planes_align = (plane_ * sizeof(Complex)) % 16 == 0;
    const bool wisdom_only = (flags & FFTW_WISDOM_ONLY) != 0;
    const bool measure = !wisdom_only && (flags & FFTW_ESTIMATE) == 0;
    std::vector<Way> ways{Way::whole};
    if ((measure || wisdom_only) && planes_align) {
      ways.insert(ways.end(), {Way::per_plane, Way::copy_then_in_place});
      if (src_is_scratch) ways.push_back(Way::in_place_then_copy);
    } else if (planes_align) {  // ESTIMATE: the rule, untimed
      ways = {Way::copy_then_in_place};
    }
    if (!only.empty()) ways = only;
    auto plan = [&](Way w) -> typename F::plan& {
      if (w == Way::whole) {
        if (whole_ == nullptr)
          whole_ = F::guru(rank, dims.data(), how_all, all.data(), s, d, sign, flags);
        return whole_;
      }
      if (w == Way::per_plane) {
        if (plane_out_ == nullptr)
          plane_out_ = F::guru(rank, dims.data(), how_one, one.data(), s, d, sign, flags);
        return plane_out_;
      }
      // In place on the destination's first plane or the source's: one plan serves both ways
      // (both arrays have the alignment the caller promises).
      if (plane_in_ == nullptr)
        plane_in_ = F::guru(rank, dims.data(), how_one, one.data(), d, d, sign, flags);
      return plane_in_;
    };
    src_alignment_ = F::alignment_of(src);
    dst_alignment_ = F::alignment_of(dst);
    // The in-place one-plane plan whatever way wins: run_filled's, and the fused runs' on
    // arrays of another alignment (none where the wisdom lacks it).
    if (!empty && planes_align) plan(Way::copy_then_in_place);
    const bool timed = measure && ways.size() > 1;
    if (!timed) {  // the first that plans (every rank: no collective calls)
      for (Way w : ways) {
        if (empty || plan(w) != nullptr) {
          way_ = w;
          break;
        }
      }
    } else {
      for (Way w : ways)
        if (!empty) plan(w);
      scratch_.resize(use == Use::run || empty ? 0 : static_cast<std::size_t>(plane_));
      // Zeros: what FFTW's planning left in the arrays could hold denormals, which are slow.
      if (!empty) std::fill_n(src, static_cast<std::size_t>(count * plane_), Complex(0));
      // Every way runs every plane, out of cache as they run (trial.hpp), as the caller will.
      const auto bytes = static_cast<std::size_t>(plane_) * sizeof(Complex);
      way_ = ways[fastest_way(comm, ways.size(), [&](std::size_t i) {
        way_ = ways[i];
        if (use == Use::run || empty) {
          run(src, dst, count);
        } else if (use == Use::scatter) {
          run_scatter(src, [&](std::int64_t j, const Complex* plane) {
            std::memcpy(dst + j * plane_, plane, bytes);
          });
        } else {
          run_gather(
              [&](std::int64_t j, Complex* plane) { std::memcpy(plane, src + j * plane_, bytes); },
              dst);
        }
      })];
    }
    candidates_ = timed ? ways : std::vector<Way>{way_};
    planned_ = empty || plan(way_) != nullptr;
    // A plane at a time won: the fused runs below use its plans on a scratch plane (its
    // alignment is the arrays': FFTW's allocator), per_plane's out-of-place one where the
    // caller's array has the alignment it was made for, else the in-place one.
    if (planned_ && !empty && fusable()) {
      scratch_.resize(static_cast<std::size_t>(plane_));
      if (way_ == Way::per_plane) planned_ = plane_in_ != nullptr;
    } else {
      AlignedVector<Complex>().swap(scratch_);
    }
  }
  ~PlaneFfts() {
    for (auto p : {whole_, plane_out_, plane_in_})
      if (p != nullptr) F::destroy(p);
  }
  PlaneFfts(const PlaneFfts&) = delete;
  bool planned() const { return planned_; }
  Way way() const { return way_; }
  // The ways timed here, every one planned, which a trial of the whole transform (where these
  // planes run beside an exchange) may choose among again with use(); just way() where
  // nothing was timed (a remembered or forced way, ESTIMATE).
  const std::vector<Way>& candidates() const { return candidates_; }
  void use(Way w) {
    way_ = w;
    if (fusable() && count_ != 0 && plane_ != 0) scratch_.resize(static_cast<std::size_t>(plane_));
  }
  static Way named(const std::string& name) {
    for (Way w : {Way::whole, Way::per_plane, Way::copy_then_in_place, Way::in_place_then_copy})
      if (PlaneFfts::name(w) == name) return w;
    throw std::invalid_argument("no plane transform way '" + name + "'");
  }
  static std::string name(Way w) {
    switch (w) {
      case Way::whole:
        return "whole";
      case Way::per_plane:
        return "per_plane";
      case Way::copy_then_in_place:
        return "copy_then_in_place";
      case Way::in_place_then_copy:
        return "in_place_then_copy";
    }
    return "?";
  }

  std::size_t scratch_bytes() const { return held_bytes(scratch_); }
  // Whether the chosen way runs a plane at a time, so that run_scatter and run_gather do the
  // same work less one pass over memory.
  bool fusable() const {
    return way_ == Way::per_plane || way_ == Way::copy_then_in_place ||
           way_ == Way::in_place_then_copy;
  }
  // For callers that send or receive each plane in pieces (a fused single-copy exchange):
  // run_scatter transforms src's plane i into a scratch plane (per_plane: out of place into it;
  // else copied into it and transformed there) and hands it to sink(i, plane), which copies it
  // on (to the peers); run_gather has source(i, plane) fill the scratch and transforms it into
  // dst's plane i (per_plane: out of place; else in place, then copied). fusable() only.
  template <typename Sink>
  void run_scatter(const Complex* src, Sink&& sink) const {
    auto* p = reinterpret_cast<typename F::complex*>(scratch_.data());
    const auto bytes = static_cast<std::size_t>(plane_) * sizeof(Complex);
    for (std::int64_t i = 0; i < count_; ++i) {
      if (way_ == Way::per_plane && F::alignment_of(src) == src_alignment_) {
        F::execute(plane_out_,
                   const_cast<typename F::complex*>(
                       reinterpret_cast<const typename F::complex*>(src + i * plane_)),
                   p);
      } else {  // (per_plane on an array of another alignment than its plan's: this way)
        std::memcpy(scratch_.data(), src + i * plane_, bytes);
        F::execute(plane_in_, p, p);
      }
      scale(scratch_.data(), plane_, scale_);
      sink(i, static_cast<const Complex*>(scratch_.data()));
    }
  }
  // run_scatter whatever way won (its scratch made here; any way but per_plane runs it
  // through the in-place plan): false where that plan is missing.
  bool prepare_scatter() {
    if (count_ == 0 || plane_ == 0) return true;
    if (plane_in_ == nullptr) return false;
    scratch_.resize(static_cast<std::size_t>(plane_));
    return true;
  }
  template <typename Source>
  void run_gather(Source&& source, Complex* dst) const {
    auto* p = reinterpret_cast<typename F::complex*>(scratch_.data());
    const auto bytes = static_cast<std::size_t>(plane_) * sizeof(Complex);
    for (std::int64_t i = 0; i < count_; ++i) {
      source(i, scratch_.data());
      if (way_ == Way::per_plane && F::alignment_of(dst) == dst_alignment_) {
        F::execute(plane_out_, p, reinterpret_cast<typename F::complex*>(dst + i * plane_));
        continue;
      }
      F::execute(plane_in_, p, p);
      std::memcpy(dst + i * plane_, scratch_.data(), bytes);
    }
  }

  // For callers that assemble each plane in dst themselves: fill(i, plane) writes dst's plane
  // i, which is then transformed in place while it is in cache (and scaled). Where fills():
  // dst of the alignment of the dst the plans were made on.
  bool fills() const { return plane_in_ != nullptr || count_ == 0 || plane_ == 0; }
  template <typename Fill>
  void run_filled(Complex* dst, Fill&& fill) const {
    for (std::int64_t i = 0; i < count_; ++i) {
      Complex* plane = dst + i * plane_;
      fill(i, plane);
      auto* p = reinterpret_cast<typename F::complex*>(plane);
      F::execute(plane_in_, p, p);
      scale(plane, plane_, scale_);
    }
  }
  int dst_alignment() const { return dst_alignment_; }

  // dst = FFT(src), plane by plane; src is overwritten only where it was declared scratch.
  void run(const Complex* src, Complex* dst) const { run(src, dst, count_); }

 private:
  // The first `planes` planes.
  void run(const Complex* src, Complex* dst, std::int64_t planes) const {
    if (planes == 0 || plane_ == 0) return;
    auto* s = reinterpret_cast<typename F::complex*>(const_cast<Complex*>(src));
    auto* d = reinterpret_cast<typename F::complex*>(dst);
    const auto bytes = static_cast<std::size_t>(plane_) * sizeof(Complex);
    auto scaled = [this](Complex* plane, std::int64_t size) { scale(plane, size, scale_); };
    switch (way_) {
      case Way::whole:  // every plane, then the scale in a pass of its own
        F::execute(whole_, s, d);
        scaled(dst, planes * plane_);
        return;
      case Way::per_plane:
        for (std::int64_t i = 0; i < planes; ++i) {
          F::execute(plane_out_, s + i * plane_, d + i * plane_);
          scaled(dst + i * plane_, plane_);
        }
        return;
      case Way::copy_then_in_place:
        for (std::int64_t i = 0; i < planes; ++i) {
          std::memcpy(d + i * plane_, s + i * plane_, bytes);
          F::execute(plane_in_, d + i * plane_, d + i * plane_);
          scaled(dst + i * plane_, plane_);
        }
        return;
      case Way::in_place_then_copy:
        for (std::int64_t i = 0; i < planes; ++i) {
          F::execute(plane_in_, s + i * plane_, s + i * plane_);
          Complex* from = const_cast<Complex*>(src) + i * plane_;
          scaled(from, plane_);
          std::memcpy(d + i * plane_, s + i * plane_, bytes);
        }
        return;
    }
  }

  std::int64_t count_ = 0, plane_ = 0;
  Real scale_ = 1;
  int src_alignment_ = 0, dst_alignment_ = 0;  // of the arrays the plans were made on
  Way way_ = Way::whole;
  std::vector<Way> candidates_;
  mutable AlignedVector<Complex> scratch_;  // one plane, fusable() only (the fused runs')
  bool planned_ = false;
  typename F::plan whole_ = nullptr, plane_out_ = nullptr, plane_in_ = nullptr;
};

// One stage of plane transforms, the constructor's arguments by name (Fft3d's stages).
template <typename Real>
struct PlaneStage {
  std::string name;  // the stage, in the remembered ways' key
  typename PlaneFfts<Real>::Plane shape;
  std::int64_t count = 0;
  int sign = 0;
  std::vector<typename PlaneFfts<Real>::Way> candidates;  // empty: every way that applies
  std::complex<Real>*src = nullptr, *dst = nullptr;
  bool src_is_scratch = false;
  Real scale = 1;
  typename PlaneFfts<Real>::Use use = PlaneFfts<Real>::Use::run;
};

// A PlaneFfts whose way is kept with the wisdom under `key` (ways.hpp): timed among the stage's
// candidates where FFTW measures, unless a way among them is remembered (then taken untimed); a
// timed way is remembered. `forced`: the candidates are the caller's, untimed and not
// remembered (the tests). Collective over comm, as the constructor.
template <typename Real>
std::unique_ptr<PlaneFfts<Real>> remembered_planes(const std::string& key,
                                                   const PlaneStage<Real>& stage, unsigned flags,
                                                   MPI_Comm comm, bool forced = false) {
  using Planes = PlaneFfts<Real>;
  const bool measuring = (flags & (FFTW_ESTIMATE | FFTW_WISDOM_ONLY)) == 0;
  std::vector<typename Planes::Way> candidates = stage.candidates;
  const bool timed = measuring && !forced && candidates.size() != 1;
  bool recalled = false;
  if (const auto text = ways::recall(key); timed && text) {
    try {
      const auto way = Planes::named(*text);
      recalled = candidates.empty() ||
                 std::find(candidates.begin(), candidates.end(), way) != candidates.end();
      if (recalled) candidates = {way};
    } catch (const std::invalid_argument&) {  // not a way: time them
    }
  }
  auto fft =
      std::make_unique<Planes>(stage.shape, stage.count, stage.sign, flags, stage.src, stage.dst,
                               stage.src_is_scratch, comm, candidates, stage.scale, stage.use);
  if (timed && !recalled) ways::remember(key, Planes::name(fft->way()));
  return fft;
}

}  // namespace a2a::fft
