// BoxFft's plan logic (transpose/fft/src/box_plan.hpp) as plain data, without MPI: which
// reshapes and transforms, in which order, on which boxes, for the layouts FFT codes use (a
// slab FFT with the transposed spectrum does one reshape; a pencil FFT with the natural one
// three; r2c reshapes real data to z-pencils first), and the checks of boxes and kinds.
#include <string>
#include <vector>

#include "box_plan.hpp"
#include "serial_checks.hpp"

namespace {

using a2a::Box;
using a2a::fft::Kind;
namespace logic = a2a::fft::logic;

std::vector<Box> every(int procs, auto box_of) {
  std::vector<Box> boxes;
  for (int r = 0; r < procs; ++r)
    boxes.push_back(box_of(r));
  return boxes;
}

// The steps as text: R (reshape), T<axis> (transform), C (r2c).
std::string shape(const logic::Logic& l) {
  std::string s;
  for (const auto& step : l.steps) {
    if (step.type == logic::Step::reshape) {
      s += 'R';
    } else if (step.r2c) {
      s += 'C';
    } else {
      s += 'T';
      s += std::to_string(step.axis);
    }
    s += ' ';
  }
  return s;
}

}  // namespace

int main() {
  a2a::test::SerialChecks check("test_box_plan");
  const logic::Grid n{8, 6, 10};
  const std::array<Kind, 3> dft{Kind::dft, Kind::dft, Kind::dft};
  const int P = 4;
  const auto slabs = every(P, [&](int r) { return a2a::fft::slab_box(n, P, r); });
  const auto z_pencils = every(P, [&](int r) { return a2a::fft::pencil_box(n, 2, P, r); });
  const auto x_pencils = every(P, [&](int r) { return a2a::fft::pencil_box(n, 0, P, r); });

  // A slab FFT, spectrum in x-pencils (FFTW-MPI's transposed form): z and y where they lie,
  // one reshape straight into the output boxes, then x.
  auto slab = logic::plan(n, slabs, x_pencils, dft, false);
  check(shape(slab) == "T2 T1 R T0 ", "slab to x-pencils: " + shape(slab));
  check(slab.steps[2].boxes == x_pencils, "the one reshape lands in the output boxes");
  // A pencil FFT with the natural spectrum: z, then y and x each after a reshape, then back.
  auto pencil = logic::plan(n, z_pencils, z_pencils, dft, false);
  check(shape(pencil) == "T2 R T1 R T0 R ", "pencil, natural spectrum: " + shape(pencil));
  check(pencil.steps.back().boxes == z_pencils, "back in the input's boxes");
  // Output boxes that are z-pencils: x before z, so that the last reshape lands in them.
  auto to_z = logic::plan(n, x_pencils, z_pencils, dft, false);
  check(shape(to_z) == "T0 R T1 R T2 ", "x-pencils to z-pencils: " + shape(to_z));
  // r2c from x-pencils: the real data reshaped into z-pencils first; spectrum grid after.
  const logic::Grid half{8, 6, 6};
  const auto half_x = every(P, [&](int r) { return a2a::fft::pencil_box(half, 0, P, r); });
  auto r2c = logic::plan(n, x_pencils, half_x, dft, true);
  check(shape(r2c) == "R C R T1 R T0 ", "r2c from x-pencils: " + shape(r2c));
  check(r2c.steps[0].real && !r2c.steps[2].real, "real before r2c, complex after");
  check(r2c.spectrum == half && r2c.steps[1].boxes[0].hi[2] == 6,
        "r2c's boxes are of the spectrum's grid");
  // A kind of none: that axis is never made whole for a transform.
  auto none = logic::plan(n, slabs, slabs, {Kind::none, Kind::dct2, Kind::dst1}, false);
  check(shape(none) == "T2 T1 ", "x left alone, y and z in the slabs: " + shape(none));
  check(none.steps[0].real, "every axis real: real data");
  // The largest message of one field a rank sends: slabs to y-slabs of an 8x8x10 grid over 4
  // ranks send 2 x 2 x 10 points to each peer (complex: 16 bytes; DCTs: real, 8).
  const logic::Grid g{8, 8, 10};
  const auto g_slabs = every(P, [&](int r) { return a2a::fft::slab_box(g, P, r); });
  const auto g_y_slabs = every(P, [&](int r) { return a2a::fft::slab_box(g, P, r, 1); });
  const auto to_y = logic::plan(g, g_slabs, g_y_slabs, dft, false);
  for (int r = 0; r < P; ++r)
    check(logic::largest_message(to_y, g_slabs, r, 8) == 2 * 2 * 10 * 16,
          "slabs to y-slabs: 640 bytes to each peer");
  const std::array<Kind, 3> dcts{Kind::dct2, Kind::dct2, Kind::dct2};
  check(logic::largest_message(logic::plan(g, g_slabs, g_y_slabs, dcts, false), g_slabs, 1, 8) ==
            2 * 2 * 10 * 8,
        "real data: 320 bytes");
  const std::array<Kind, 3> y_and_z{Kind::none, Kind::dft, Kind::dft};
  check(
      logic::largest_message(logic::plan(g, g_slabs, g_slabs, y_and_z, false), g_slabs, 0, 8) == 0,
      "no reshape (y and z within the slabs): no message");
  const std::vector<Box> whole{Box{{0, 0, 0}, {8, 8, 10}}};
  check(logic::largest_message(logic::plan(g, whole, whole, dft, false), whole, 0, 8) == 0,
        "one rank: no message");
  // Nothing to transform: one reshape (or none).
  const std::array<Kind, 3> nothing{Kind::none, Kind::none, Kind::none};
  check(shape(logic::plan(n, slabs, x_pencils, nothing, false)) == "R ", "only a reshape");
  check(logic::plan(n, slabs, slabs, nothing, false).steps.empty(), "nothing at all");

  // Boxes: tiling, overlaps, holes, outside; empty boxes are fine.
  check(logic::tiling_problem(slabs, n, "input").empty(), "slabs tile");
  auto with_empty = every(6, [&](int r) { return a2a::fft::slab_box({3, 6, 10}, 6, r); });
  check(logic::tiling_problem(with_empty, {3, 6, 10}, "input").empty(),
        "slabs with empty ranks tile");
  check(logic::whole_along(with_empty[0], 0, {3, 6, 10}), "an empty box is whole along any axis");
  auto overlap = slabs;
  overlap[1] = overlap[0];
  check(logic::tiling_problem(overlap, n, "input").find("overlap") != std::string::npos,
        "overlap: " + logic::tiling_problem(overlap, n, "input"));
  auto hole = slabs;
  hole[3].hi[2] = 9;
  check(logic::tiling_problem(hole, n, "output").find("leave holes") != std::string::npos,
        "hole: " + logic::tiling_problem(hole, n, "output"));
  auto outside = slabs;
  outside[3].hi[0] = 9;
  check(logic::tiling_problem(outside, n, "input").find("not a box inside") != std::string::npos,
        "outside: " + logic::tiling_problem(outside, n, "input"));
  auto inverted = slabs;
  std::swap(inverted[2].lo[1], inverted[2].hi[1]);
  check(!logic::tiling_problem(inverted, n, "input").empty(), "lo > hi is refused");

  // Kinds: DCT-I needs two points; r2c needs a DFT along axis 2; sizes at least 1.
  check(!logic::kinds_problem({4, 4, 1}, {Kind::dft, Kind::dft, Kind::dct1}, false).empty(),
        "DCT-I of length 1");
  check(logic::kinds_problem({4, 4, 2}, {Kind::dft, Kind::dft, Kind::dct1}, false).empty(),
        "DCT-I of length 2");
  check(!logic::kinds_problem(n, {Kind::dft, Kind::dft, Kind::dst2}, true).empty(),
        "r2c along a DST");
  check(!logic::kinds_problem({0, 4, 4}, dft, false).empty(), "a grid dimension of 0");
  // FFTW's logical sizes and the inverse kinds.
  check(logic::logical_size(Kind::dct1, 5) == 8 && logic::logical_size(Kind::dst1, 5) == 12 &&
            logic::logical_size(Kind::dct2, 5) == 10 && logic::logical_size(Kind::dft, 5) == 5,
        "logical sizes");
  check(logic::inverse(Kind::dct2) == Kind::dct3 && logic::inverse(Kind::dst3) == Kind::dst2 &&
            logic::inverse(Kind::dct4) == Kind::dct4 && logic::inverse(Kind::dst1) == Kind::dst1,
        "inverse kinds");
  // The process grid: the most square.
  check(a2a::fft::process_grid(12) == std::array<int, 2>{3, 4} &&
            a2a::fft::process_grid(7) == std::array<int, 2>{1, 7},
        "process grids");
  return check.finish();
}
