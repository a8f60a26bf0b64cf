// The logic of a BoxFft plan as plain data (heFFTe's logic_plan3d): from every rank's input and
// output boxes, the grid and the kinds, the steps of the forward transform in order: reshapes
// (every rank's boxes after it) and 1D transforms along an axis every rank's box holds whole.
// No MPI and no FFTW: the tests check it directly, and the plan's setup turns each step into an
// object (a Redistribution, an FFTW plan). Backward runs the same steps in reverse.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "a2a/fft/box_fft.hpp"

namespace a2a::fft::logic {

using Grid = std::array<std::int64_t, 3>;

struct Step {
  enum Type { reshape, transform } type = reshape;
  // Every rank's boxes after this step (a reshape's destination; a transform leaves the boxes
  // where they are, but an r2c one changes the grid: its boxes are of the spectrum's grid).
  std::vector<Box> boxes;
  int axis = -1;  // transform: along this axis
  Kind kind = Kind::dft;
  bool r2c = false;   // transform: the real-to-complex one (axis 2)
  bool real = false;  // the data is real during this step (before r2c, or every axis r2r)
};

struct Logic {
  std::vector<Step> steps;
  Grid grid{}, spectrum{};  // the input's grid and the output's (r2c: n2/2 + 1 along axis 2)
};

// "" when `boxes` (one per rank) lie inside grid n and tile it exactly (no overlap, no hole;
// empty boxes allowed), else why not, naming `what` ("input", "output") and the ranks.
std::string tiling_problem(const std::vector<Box>& boxes, const Grid& n, const std::string& what);
// "" when the kinds suit the grid (DCT-I needs n >= 2; r2c needs a DFT along axis 2, and some
// axis to transform), else why not.
std::string kinds_problem(const Grid& n, const std::array<Kind, 3>& kinds, bool r2c);
// Whether box b holds every index of `axis` (an empty box holds nothing to transform: it does).
bool whole_along(const Box& b, int axis, const Grid& n);

// The forward steps for these boxes (checked: tiling_problem and kinds_problem are "").
Logic plan(const Grid& n, const std::vector<Box>& in, const std::vector<Box>& out,
           const std::array<Kind, 3>& kinds, bool r2c);

// The most bytes `rank` sends to another rank in any reshape of the plan, for one field whose
// points are real_bytes (real) or twice that (complex) each; 0 where the plan has no reshape.
// A batch's fields share those messages or not by their size (BoxFft).
std::size_t largest_message(const Logic& plan, const std::vector<Box>& in, int rank,
                            std::size_t real_bytes);

// FFTW's logical size of a transform of kind k on n points (the full scaling's factor).
double logical_size(Kind k, std::int64_t n);
// The kind backward runs for forward's k.
Kind inverse(Kind k);
const char* name(Kind k);

}  // namespace a2a::fft::logic
