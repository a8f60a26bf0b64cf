// Fft3d's plan logic (transpose/fft/src/fft3d_logic.hpp) as plain data, without MPI: for grids
// with odd and prime sides, P = 1..8 on every process grid, c2c and r2c, whole and pipelined
// transposes, either spectrum layout: every stage's boxes tile the grid, each transpose's two
// sides agree on the axis it is chunked along, the forward and the backward transform each
// transform every axis exactly once, and the layout and fusion follow the decomposition (the
// slab's transposed spectrum in FFTW-MPI's [y][x][z]). Then the checks of options and of sizes.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "box_plan.hpp"
#include "fft3d_logic.hpp"
#include "serial_checks.hpp"

namespace {

using a2a::Box;
namespace logic = a2a::fft::logic;
using Plan = logic::Fft3dPlan;
using Grid = std::array<std::int64_t, 3>;

std::string describe(const a2a::fft::Options& o, int procs) {
  return std::to_string(o.n[0]) + "x" + std::to_string(o.n[1]) + "x" + std::to_string(o.n[2]) +
         " on " + std::to_string(o.p1) + "x" + std::to_string(o.p2) + (o.r2c ? " r2c" : " c2c") +
         " chunks " + std::to_string(o.chunks) + (o.natural_spectrum ? " natural" : "") +
         ((o.fftw_flags & FFTW_ESTIMATE) != 0 ? " estimate" : " measure") +
         " P=" + std::to_string(procs);
}

// How often each axis is transformed, forward or backward, by the plan of one rank: the ends'
// transforms, the ones beside each step's chunks (stage s: axis 2 - s), and the x transforms.
std::array<int, 3> axes_transformed(const Plan& p, bool r2c, bool forward) {
  std::array<int, 3> count{};
  auto stage = [&](const std::optional<int>& s) {
    if (s) ++count[static_cast<std::size_t>(2 - *s)];
  };
  // The ends: r2c's plans span what c2c's would (its z, a slab's y and z, one rank's grid).
  const bool ends_ran = r2c || forward || p.exit_z;
  if (ends_ran) {
    ++count[2];
    if (p.slab_2d || p.whole_3d) ++count[1];
    if (p.whole_3d) ++count[0];
  }
  if (forward) {
    if (p.zy) stage(p.zy->before), stage(p.zy->after);
    stage(p.yx.before);
    stage(p.yx.after);
    if (!p.whole_3d && !p.x_in_chunks) ++count[0];
  } else {
    if (p.yz) stage(p.yz->before), stage(p.yz->after);
    stage(p.xy.before);
    stage(p.xy.after);
    if (!p.whole_3d) ++count[0];
  }
  return count;
}

// Both sides of a transpose span the same range of the axis it is chunked along, so that every
// rank of its communicator cuts the same global chunks.
bool chunk_axis_agrees(const Plan& p, const logic::StepShape& s) {
  const Box& from = p.boxes[static_cast<std::size_t>(s.from)];
  const Box& to = p.boxes[static_cast<std::size_t>(s.to)];
  const auto c = static_cast<std::size_t>(s.cut);
  return from.empty() || to.empty() || (from.lo[c] == to.lo[c] && from.hi[c] == to.hi[c]);
}

void check_options(a2a::test::SerialChecks& check, const a2a::fft::Options& o, int procs) {
  const std::string what = describe(o, procs);
  std::array<std::vector<Box>, 3> boxes;
  std::vector<Box> real_boxes;
  const Grid spectrum = a2a::fft::spectrum_shape(o.n, o.r2c);
  for (int rank = 0; rank < procs; ++rank) {
    const Plan p = logic::plan_fft3d(o, procs, rank);
    for (std::size_t s = 0; s < 3; ++s) {
      boxes[s].push_back(p.boxes[s]);
      check(p.work_elements >= static_cast<std::size_t>(p.boxes[s].count()),
            what + ": the work arrays hold every box");
    }
    real_boxes.push_back(p.real_box);
    check(p.row * o.p2 + p.column == rank, what + ": the rank's place in the grid");
    const bool one_rank = procs == 1 && o.chunks == 1;
    const bool timed = (o.fftw_flags & FFTW_ESTIMATE) == 0;
    check(p.whole_3d == (one_rank && timed),
          what + ": one 3D plan on one rank only, where FFTW may time it");
    check(p.slab_2d == (o.p2 == 1 && o.chunks == 1), what + ": a slab's 2D planes");
    check(p.yxz == (p.slab_2d && o.p1 > 1 && !p.natural),
          what + ": [y][x][z] for a slab's transposed spectrum only");
    check(p.natural == (o.natural_spectrum && procs > 1), what + ": natural spectrum");
    check(p.zy.has_value() == (o.p2 > 1) && p.yz.has_value() == (o.p2 > 1),
          what + ": z <-> y only across a grid row");
    check(p.fusable == (p.slab_2d && o.p1 > 1), what + ": fusable where a slab exchanges");
    for (const bool forward : {true, false}) {
      check(axes_transformed(p, o.r2c, forward) == std::array<int, 3>{1, 1, 1},
            what + (forward ? ": forward" : ": backward") + " transforms every axis once");
    }
    for (const auto& step : {p.zy, p.yz, std::optional(p.yx), std::optional(p.xy)}) {
      if (step) check(chunk_axis_agrees(p, *step), what + ": a step's chunk axis agrees");
    }
  }
  for (std::size_t s = 0; s < 3; ++s) {
    const std::string problem = logic::tiling_problem(boxes[s], spectrum, "stage");
    check(problem.empty(), what + ": " + problem);
  }
  const std::string real = logic::tiling_problem(real_boxes, o.n, "real");
  check(!o.r2c || real.empty(), what + ": " + real);
}

}  // namespace

int main() {
  a2a::test::SerialChecks check("test_fft3d_logic");
  for (const Grid& n : {Grid{8, 8, 8}, Grid{17, 13, 11}, Grid{5, 3, 7}, Grid{2, 9, 4}}) {
    for (int procs = 1; procs <= 8; ++procs) {
      for (int p1 = 1; p1 <= procs; ++p1) {
        if (procs % p1 != 0) continue;
        for (const bool r2c : {false, true}) {
          for (const int chunks : {1, 3}) {
            for (const bool natural : {false, true}) {
              for (const unsigned flags : {FFTW_ESTIMATE, FFTW_MEASURE}) {
                a2a::fft::Options o;
                o.n = n;
                o.p1 = p1;
                o.p2 = procs / p1;
                o.r2c = r2c;
                o.chunks = chunks;
                o.natural_spectrum = natural;
                o.fftw_flags = flags;
                check(logic::options_problem(o, procs).empty(), describe(o, procs) + ": valid");
                check_options(check, o, procs);
              }
            }
          }
        }
      }
    }
  }
  // A slab of 8^3 on 4 ranks, rank 1: x-planes 2-3 in, y-planes 2-3 of the spectrum out,
  // [y][x][z], one exchange each way with no transform beside it (the 2D planes and the x
  // transforms run whole).
  a2a::fft::Options slab;
  slab.n = {8, 8, 8};
  slab.p1 = 4;
  const Plan s = logic::plan_fft3d(slab, 4, 1);
  check(s.boxes[0] == Box{{2, 0, 0}, {4, 8, 8}} && s.boxes[2] == Box{{0, 2, 0}, {8, 4, 8}},
        "slab rank 1: x-planes 2-3 in, y-planes 2-3 out");
  check(s.yxz && s.ends == Plan::Ends::slab_planes && !s.yx.before && !s.yx.after && !s.xy.after,
        "slab: [y][x][z], 2D planes, nothing beside the exchange");
  // A 2 x 2 pencil, r2c of 8^3: the spectrum's z has 5 points, split 2 + 3 over the grid's
  // columns; y after z -> y, y before y -> z backward.
  a2a::fft::Options pencil = slab;
  pencil.p1 = pencil.p2 = 2;
  pencil.r2c = true;
  const Plan q = logic::plan_fft3d(pencil, 4, 3);
  check(q.boxes[2] == Box{{0, 4, 2}, {8, 8, 5}} && q.real_box == Box{{4, 4, 0}, {8, 8, 8}},
        "pencil rank 3: x-pencil y 4-7 z 2-4, real z-pencil x 4-7 y 4-7");
  check(q.zy && q.zy->after == 1 && q.xy.after == 1 && !q.yxz && !q.fusable,
        "pencil: y beside the exchanges, [x][y][z], nothing fused");
  // The checks of options.
  a2a::fft::Options bad = slab;
  bad.p1 = 3;
  check(logic::options_problem(bad, 4) == "a2a::fft: process grid 3x1 does not have P=4 ranks",
        "a grid that is not P: " + logic::options_problem(bad, 4));
  bad = slab;
  bad.n = {8, 0, 8};
  check(logic::options_problem(bad, 4).find("every dimension must be at least 1") !=
            std::string::npos,
        "a zero dimension");
  bad = slab;
  bad.chunks = 0;
  check(logic::options_problem(bad, 4) == "a2a::fft: chunks must be at least 1", "no chunks");
  // Grids whose bytes pass 2^63 - 1, where the counts would wrap around: 2^31 x 2^31 x 2^31
  // points wrap to 0, INT64_MAX x 2 x 2 to -4, 3 x 2^62 x 4 to 0 (the "holes" BoxFft once
  // reported); the largest that fit, to the byte.
  constexpr std::int64_t two31 = std::int64_t{1} << 31, max = INT64_MAX;
  for (const std::array<std::int64_t, 3>& n :
       {std::array{two31, two31, two31}, std::array{max, std::int64_t{2}, std::int64_t{2}},
        std::array{std::int64_t{3}, std::int64_t{1} << 62, std::int64_t{4}},
        std::array{std::int64_t{1} << 59, std::int64_t{1}, std::int64_t{1}}}) {
    const std::string problem = logic::size_problem(n, 1, 16);
    check(problem.find("more than 2^63 - 1 bytes of 16-byte values") != std::string::npos,
          std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]) + ": " +
              problem);
  }
  check(logic::size_problem({std::int64_t{1} << 59, 1, 1}, 1, 8).empty() &&
            logic::size_problem({(std::int64_t{1} << 59) - 1, 1, 1}, 1, 16).empty(),
        "2^59 8-byte and 2^59 - 1 16-byte values fit");
  check(logic::size_problem({1024, 1024, 1024}, std::int64_t{1} << 29, 16).find("fields") !=
            std::string::npos,
        "a batch that passes the bound: " +
            logic::size_problem({1024, 1024, 1024}, std::int64_t{1} << 29, 16));
  check(logic::size_problem({1024, 1024, 1024}, 5, 16).empty(), "1024^3 x 5 fits");
  return check.finish();
}
