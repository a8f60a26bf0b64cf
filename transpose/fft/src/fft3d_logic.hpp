// The logic of an Fft3d plan as plain data (heFFTe's logic_plan3d, as box_plan.hpp is BoxFft's):
// from the options, P and this rank, which boxes the data passes through, which exchanges move
// it and which 1D transforms run beside them, how the local transforms at either end run, the
// spectrum's layout, and what may be fused. No MPI and no FFTW: test_fft3d_logic checks it
// directly; Fft3d's constructor turns it into communicators, Redistributions and FFTW plans.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "a2a/fft/fft3d.hpp"

namespace a2a::fft::logic {

// One transpose: from boxes[from] to boxes[to] (0: z-pencils, 1: y-pencils, 2: x-pencils), in
// chunks along axis `cut`; the transform of stage `before` runs on each chunk before it is sent
// (on the source), that of stage `after` once it has arrived (stage s: along axis 2 - s), in
// direction `sign` (FFTW's -1 forward, +1 backward).
struct StepShape {
  int from = 0, to = 0, cut = 0;
  std::optional<int> before, after;
  int sign = 0;
};

struct Fft3dPlan {
  std::array<Box, 3> boxes;       // this rank's z-, y- and x-pencils of the complex grid
  Box real_box;                   // r2c: this rank's real input (z extent n2)
  int row = 0, column = 0;        // this rank's place in the p1 x p2 process grid
  std::int64_t total = 1;         // points of the (real) grid: the backward scale's 1/N
  std::size_t work_elements = 1;  // each work array: the largest box
  int chunks = 1;
  std::string backend, backend2;  // z <-> y's, and y <-> x's (the first where not given)
  // One rank, where FFTW may time its plans (timed_plans): one 3D FFTW plan each way, FFTW's own
  // best. Its estimated 3D plans (no wisdom) are slower than the slab's planes and panels, so
  // under FFTW_ESTIMATE one rank runs as a 1 x 1 slab.
  bool whole_3d = false;
  // A slab (P x 1, unpipelined): stages 0 and 1 are one 2D transform of each x-plane.
  bool slab_2d = false;
  // One rank per column (p1 = 1): y- and x-pencils are one box, nothing exchanged between them;
  // the x transforms go from the one array to the other.
  bool x_local = false;
  // The x transforms run on each chunk of a pipelined y <-> x step (not on column panels).
  bool x_in_chunks = false;
  // The x-pencils stored [y][x][z] (FFTW-MPI's transposed layout): a slab's spectrum on P > 1
  // ranks, unpipelined, not returned in the input's layout. Its x transforms run plane by plane
  // over the y-planes; otherwise [x][y][z] and column panels.
  bool yxz = false;
  // The spectrum returned in the input's boxes (one more exchange each way): natural_spectrum
  // where that differs from the x-pencils (P > 1).
  bool natural = false;
  // The transposes, forward then backward: z <-> y only where p2 > 1.
  std::optional<StepShape> zy, yz;
  StepShape yx, xy;
  // c2c's first forward and last backward transforms (stage 0 and, where fused in, stage 1):
  //   whole_3d     all three axes, in place on a work array after a copy;
  //   slab_planes  each x-plane's 2D transform, plane at a time or whole (planes.hpp);
  //   z_lines      the z lines of the box, out of place (none backward where a pipelined y -> z
  //                step transforms each chunk as it arrives: exit_z false).
  enum class Ends { whole_3d, slab_planes, z_lines } ends = Ends::z_lines;
  bool exit_z = true;
  // The shape allows fusing a slab's transposes with its plane transforms (whether they fuse
  // depends on the backend: single-copy, and on timing).
  bool fusable = false;
};

// What is wrong with options o on `procs` ranks, or "".
std::string options_problem(const Options& o, int procs);
// "" where a grid of n points (each dimension at least 1), `batch` fields of `element_bytes`
// a point, fits in memory's addresses (its bytes at most 2^63 - 1, so every count and byte
// offset of a box inside it fits std::int64_t), else why not: beyond that the counts would
// wrap around, and the other checks would see nonsense.
std::string size_problem(const std::array<std::int64_t, 3>& n, std::int64_t batch,
                         std::size_t element_bytes);
// The backend of an exchange whose caller packs straight into its peers' memory (Fft3d's fused
// transposes, BoxFft's reshapes): `auto` becomes auto:single_copy=on, so that the selection
// table's single-copy rules apply (shared_window on one node: each byte moved once into its
// peer's memory); a chunked step (chunks > 1) has no such path. Any other spec as given.
std::string fused_auto(const std::string& backend, int chunks = 1);
// The plan of rank `rank` of `procs` (options checked: options_problem(o, procs) is "").
Fft3dPlan plan_fft3d(const Options& o, int procs, int rank);

}  // namespace a2a::fft::logic
