#include "box_plan.hpp"

#include "a2a/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace a2a::fft {

std::array<int, 2> process_grid(int procs) {
  int p1 = static_cast<int>(std::sqrt(static_cast<double>(procs)));
  while (p1 > 1 && procs % p1 != 0)
    --p1;
  p1 = std::max(p1, 1);
  return {p1, procs / p1};
}

std::array<std::int64_t, 3> r2c_grid(const std::array<std::int64_t, 3>& n) {
  return {n[0], n[1], n[2] / 2 + 1};
}

Box slab_box(const std::array<std::int64_t, 3>& n, int procs, int rank, int axis) {
  if (axis < 0 || axis > 2)
    throw Error("a2a::fft::slab_box: axis " + std::to_string(axis) + " is not 0, 1 or 2");
  const auto a = static_cast<std::size_t>(axis);
  Box b{{0, 0, 0}, n};
  b.lo[a] = block_start(n[a], procs, rank);
  b.hi[a] = block_start(n[a], procs, rank + 1);
  return b;
}
Box pencil_box(const std::array<std::int64_t, 3>& n, int axis, int procs, int rank) {
  const auto [p1, p2] = process_grid(procs);
  const int lower = axis == 0 ? 1 : 0, upper = axis == 2 ? 1 : 2;
  const auto a = static_cast<std::size_t>(axis), l = static_cast<std::size_t>(lower),
             u = static_cast<std::size_t>(upper);
  const int r1 = rank / p2, r2 = rank % p2;
  Box b;
  b.lo[a] = 0;
  b.hi[a] = n[a];
  b.lo[l] = block_start(n[l], p1, r1);
  b.hi[l] = block_start(n[l], p1, r1 + 1);
  b.lo[u] = block_start(n[u], p2, r2);
  b.hi[u] = block_start(n[u], p2, r2 + 1);
  return b;
}

namespace logic {

namespace {

std::string text(const Box& b) {
  std::string s = "[";
  for (std::size_t d = 0; d < 3; ++d) {
    s += std::to_string(b.lo[d]) + ":" + std::to_string(b.hi[d]);
    s += d < 2 ? "," : "]";
  }
  return s;
}

std::string text(const Grid& n) {
  return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

// Every rank's pencil whole along `axis` of grid n.
std::vector<Box> pencils(const Grid& n, int axis, std::size_t procs) {
  std::vector<Box> out;
  for (std::size_t r = 0; r < procs; ++r)
    out.push_back(pencil_box(n, axis, static_cast<int>(procs), static_cast<int>(r)));
  return out;
}

// How many pairs of distinct ranks exchange data in a reshape from `from` to `to`.
std::size_t exchanging_pairs(const std::vector<Box>& from, const std::vector<Box>& to) {
  std::size_t pairs = 0;
  for (std::size_t r = 0; r < from.size(); ++r)
    for (std::size_t q = 0; q < to.size(); ++q)
      pairs += r != q && !from[r].intersect(to[q]).empty();
  return pairs;
}

bool all_whole(const std::vector<Box>& boxes, int axis, const Grid& n) {
  return std::all_of(boxes.begin(), boxes.end(),
                     [&](const Box& b) { return whole_along(b, axis, n); });
}

// The spectrum-grid box of a box whole along axis 2 of the real grid (r2c: n2/2 + 1 points).
Box to_spectrum(const Box& b, const Grid& spectrum) {
  Box c = b;
  if (!b.empty()) c.hi[2] = spectrum[2];
  return c;
}

}  // namespace

bool whole_along(const Box& b, int axis, const Grid& n) {
  const auto a = static_cast<std::size_t>(axis);
  return b.empty() || (b.lo[a] == 0 && b.hi[a] == n[a]);
}

std::string tiling_problem(const std::vector<Box>& boxes, const Grid& n, const std::string& what) {
  std::int64_t total = 0;
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    const Box& b = boxes[r];
    for (std::size_t d = 0; d < 3; ++d) {
      if (b.lo[d] > b.hi[d] || (!b.empty() && (b.lo[d] < 0 || b.hi[d] > n[d]))) {
        return "a2a::fft: rank " + std::to_string(r) + "'s " + what + " box " + text(b) +
               " is not a box inside the " + text(n) + " grid";
      }
    }
    total += b.count();
  }
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    for (std::size_t q = r + 1; q < boxes.size(); ++q) {
      if (!boxes[r].intersect(boxes[q]).empty()) {
        return "a2a::fft: the " + what + " boxes of ranks " + std::to_string(r) + " " +
               text(boxes[r]) + " and " + std::to_string(q) + " " + text(boxes[q]) + " overlap";
      }
    }
  }
  if (total != n[0] * n[1] * n[2]) {
    return "a2a::fft: the " + what + " boxes hold " + std::to_string(total) + " of the " +
           std::to_string(n[0] * n[1] * n[2]) + " points of the " + text(n) +
           " grid: they leave holes";
  }
  return "";
}

std::string kinds_problem(const Grid& n, const std::array<Kind, 3>& kinds, bool r2c) {
  if (std::any_of(n.begin(), n.end(), [](std::int64_t e) { return e < 1; })) {
    return "a2a::fft: grid " + text(n) + ": every dimension must be at least 1";
  }
  for (std::size_t d = 0; d < 3; ++d) {
    if (kinds[d] == Kind::dct1 && n[d] < 2) {
      return "a2a::fft: axis " + std::to_string(d) + ": a DCT-I needs at least 2 points, not " +
             std::to_string(n[d]);
    }
  }
  if (r2c && kinds[2] != Kind::dft) {
    return std::string(
               "a2a::fft: r2c transforms axis 2 real-to-complex: its kind must be dft, "
               "not ") +
           name(kinds[2]);
  }
  return "";
}

Logic plan(const Grid& n, const std::vector<Box>& in, const std::vector<Box>& out,
           const std::array<Kind, 3>& kinds, bool r2c) {
  Logic logic;
  logic.grid = n;
  logic.spectrum = r2c ? r2c_grid(n) : n;
  const bool any_dft =
      std::any_of(kinds.begin(), kinds.end(), [](Kind k) { return k == Kind::dft; });
  bool real = r2c || !any_dft;
  std::vector<Box> current = in;
  Grid grid = n;
  auto reshape = [&](std::vector<Box> to) {
    logic.steps.push_back({Step::reshape, to, -1, Kind::none, false, real});
    current = std::move(to);
  };
  auto transform = [&](int axis) {
    logic.steps.push_back(
        {Step::transform, current, axis, kinds[static_cast<std::size_t>(axis)], false, real});
  };
  if (r2c) {
    if (!all_whole(current, 2, grid)) reshape(pencils(grid, 2, in.size()));
    for (Box& b : current)
      b = to_spectrum(b, logic.spectrum);
    logic.steps.push_back({Step::transform, current, 2, Kind::dft, true, true});
    real = false;
    grid = logic.spectrum;
  }
  std::vector<int> remaining;
  for (int a = 0; a < 3; ++a) {
    if (kinds[static_cast<std::size_t>(a)] != Kind::none && !(r2c && a == 2)) {
      remaining.push_back(a);
    }
  }
  while (!remaining.empty()) {
    // An axis the boxes hold whole now: transformed where it lies, the fastest first (axis 2's
    // lines are unit-stride: the first transform reads the caller's input straight).
    auto here = remaining.end();
    for (auto a = remaining.begin(); a != remaining.end(); ++a)
      if (all_whole(current, *a, grid)) here = a;
    if (here == remaining.end()) {
      // Else the next axis: keeping for last one the output boxes hold whole (then the last
      // reshape lands in the output boxes themselves), and among the others the one whose
      // pencils the data reaches with the fewest pairs of ranks exchanging (a pencil FFT's
      // z -> y within rows rather than z -> x among all).
      const bool last = remaining.size() == 1;
      std::size_t fewest = SIZE_MAX;
      for (auto a = remaining.begin(); a != remaining.end(); ++a) {
        if (!last && all_whole(out, *a, grid) &&
            std::any_of(remaining.begin(), remaining.end(),
                        [&](int b) { return !all_whole(out, b, grid); })) {
          continue;
        }
        const std::size_t pairs = exchanging_pairs(current, pencils(grid, *a, in.size()));
        if (pairs < fewest) {
          fewest = pairs;
          here = a;
        }
      }
      reshape(last && all_whole(out, *here, grid) ? out : pencils(grid, *here, in.size()));
    }
    transform(*here);
    remaining.erase(here);
  }
  if (current != out) reshape(out);
  return logic;
}

std::size_t largest_message(const Logic& plan, const std::vector<Box>& in, int rank,
                            std::size_t real_bytes) {
  std::size_t most = 0;
  const std::vector<Box>* from = &in;
  const auto me = static_cast<std::size_t>(rank);
  for (const Step& step : plan.steps) {
    if (step.type == Step::reshape) {
      const std::size_t point = step.real ? real_bytes : 2 * real_bytes;
      for (std::size_t peer = 0; peer < step.boxes.size(); ++peer) {
        if (peer != me) {
          const auto points =
              static_cast<std::size_t>((*from)[me].intersect(step.boxes[peer]).count());
          most = std::max(most, points * point);
        }
      }
    }
    from = &step.boxes;
  }
  return most;
}

double logical_size(Kind k, std::int64_t n) {
  const auto e = static_cast<double>(n);
  switch (k) {
    case Kind::dft:
      return e;
    case Kind::dct1:
      return 2 * (e - 1);
    case Kind::dst1:
      return 2 * (e + 1);
    case Kind::none:
      return 1;
    default:
      return 2 * e;
  }
}

Kind inverse(Kind k) {
  switch (k) {
    case Kind::dct2:
      return Kind::dct3;
    case Kind::dct3:
      return Kind::dct2;
    case Kind::dst2:
      return Kind::dst3;
    case Kind::dst3:
      return Kind::dst2;
    default:
      return k;
  }
}

const char* name(Kind k) {
  static const char* names[] = {"dft",  "dct1", "dct2", "dct3", "dct4",
                                "dst1", "dst2", "dst3", "dst4", "none"};
  return names[static_cast<int>(k)];
}

}  // namespace logic
}  // namespace a2a::fft
