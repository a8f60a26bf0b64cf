#include "fft3d_logic.hpp"

#include <algorithm>
#include <initializer_list>

#include "a2a/spec.hpp"
#include "a2a/transpose.hpp"
#include "fftw.hpp"

namespace a2a::fft::logic {

std::string fused_auto(const std::string& backend, int chunks) {
  Spec spec = Spec::parse(backend);
  if (spec.name != "auto" || chunks > 1 || spec.find("single_copy") != nullptr) return backend;
  spec.params.emplace_back("single_copy", "on");
  return spec.str();
}

namespace {

// "8x8x8", "2x1": extents joined by x.
std::string grid(std::initializer_list<std::int64_t> extents) {
  std::string text;
  for (std::int64_t e : extents) {
    if (!text.empty()) text += 'x';
    text += std::to_string(e);
  }
  return text;
}

}  // namespace

std::string options_problem(const Options& o, int procs) {
  if (std::any_of(o.n.begin(), o.n.end(), [](std::int64_t n) { return n < 1; })) {
    return "a2a::fft: grid " + grid({o.n[0], o.n[1], o.n[2]}) +
           ": every dimension must be at least 1";
  }
  if (o.p1 < 1 || o.p2 < 1 || static_cast<long long>(o.p1) * o.p2 != procs) {
    return "a2a::fft: process grid " + grid({o.p1, o.p2}) +
           " does not have P=" + std::to_string(procs) + " ranks";
  }
  if (o.chunks < 1) return "a2a::fft: chunks must be at least 1";
  return "";
}

std::string size_problem(const std::array<std::int64_t, 3>& n, std::int64_t batch,
                         std::size_t element_bytes) {
  std::int64_t bytes = static_cast<std::int64_t>(element_bytes);
  bool wraps = false;
  for (const std::int64_t factor : {n[0], n[1], n[2], batch})
    wraps = wraps || __builtin_mul_overflow(bytes, factor, &bytes);
  if (!wraps) return "";
  return "a2a::fft: grid " + grid({n[0], n[1], n[2]}) +
         (batch > 1 ? " of " + std::to_string(batch) + " fields" : "") +
         ": more than 2^63 - 1 bytes of " + std::to_string(element_bytes) +
         "-byte values (its point count overflows)";
}

namespace {

// The boxes: z-pencils split x over p1 and y over p2; y-pencils x over p1 and z over p2;
// x-pencils y over p1 and z over p2 (so y <-> x exchanges within a column of the grid, z <-> y
// within a row).
void place_boxes(Fft3dPlan& p, const Options& o) {
  const std::array<std::int64_t, 3> n = spectrum_shape(o.n, o.r2c);
  auto part = [](std::int64_t len, int parts, int i) {
    return std::pair{block_start(len, parts, i), block_start(len, parts, i + 1)};
  };
  const auto [x0, x1] = part(n[0], o.p1, p.row);
  const auto [y0, y1] = part(n[1], o.p2, p.column);
  const auto [z0, z1] = part(n[2], o.p2, p.column);
  const auto [yy0, yy1] = part(n[1], o.p1, p.row);
  p.boxes[0] = Box{{x0, y0, 0}, {x1, y1, n[2]}};
  p.real_box = Box{{x0, y0, 0}, {x1, y1, o.n[2]}};
  p.boxes[1] = Box{{x0, 0, z0}, {x1, n[1], z1}};
  p.boxes[2] = Box{{0, yy0, z0}, {n[0], yy1, z1}};
  p.work_elements = 0;
  for (const Box& b : p.boxes)
    p.work_elements = std::max(p.work_elements, static_cast<std::size_t>(b.count()));
}

// z <-> y in chunks along x (where p2 > 1), y <-> x in chunks along z, and the 1D transforms
// that run on each chunk: stage 1 (y) after z -> y, a slab's y before y -> x unless its 2D
// transform did it, x after y -> x when that step is pipelined; backward the same in reverse,
// z on each chunk of a pipelined c2c y -> z.
void place_steps(Fft3dPlan& p, const Options& o) {
  constexpr int forward = -1, backward = +1;  // FFTW_FORWARD, FFTW_BACKWARD
  if (o.p2 > 1) {
    p.zy = StepShape{.from = 0, .to = 1, .cut = 0, .before = {}, .after = 1, .sign = forward};
    p.yz = StepShape{.from = 1, .to = 0, .cut = 0, .before = {}, .after = {}, .sign = backward};
    if (!o.r2c && o.chunks > 1) p.yz->after = 0;
  }
  const bool slab_y = o.p2 == 1 && !p.slab_2d;  // a slab's y transform, beside y <-> x
  p.yx = StepShape{.from = 1, .to = 2, .cut = 2, .before = {}, .after = {}, .sign = forward};
  if (slab_y) p.yx.before = 1;
  if (p.x_in_chunks) p.yx.after = 2;
  p.xy = StepShape{.from = 2, .to = 1, .cut = 2, .before = {}, .after = {}, .sign = backward};
  if (!p.slab_2d) p.xy.after = 1;
}

}  // namespace

Fft3dPlan plan_fft3d(const Options& o, int procs, int rank) {
  Fft3dPlan p;
  for (std::int64_t n : o.n)
    p.total *= n;
  p.row = rank / o.p2;
  p.column = rank % o.p2;
  p.chunks = o.chunks;
  p.backend = o.backend;
  p.backend2 = o.backend2.empty() ? o.backend : o.backend2;
  place_boxes(p, o);
  p.whole_3d = procs == 1 && o.chunks == 1 && timed_plans(o.fftw_flags);
  p.slab_2d = o.p2 == 1 && o.chunks == 1;
  p.x_local = o.p1 == 1;
  p.x_in_chunks = o.chunks > 1 && !p.x_local;
  p.natural = o.natural_spectrum && procs > 1;
  p.yxz = p.slab_2d && !p.x_local && !p.natural;
  place_steps(p, o);
  p.ends = p.whole_3d  ? Fft3dPlan::Ends::whole_3d
           : p.slab_2d ? Fft3dPlan::Ends::slab_planes
                       : Fft3dPlan::Ends::z_lines;
  p.exit_z = !(p.yz && p.yz->after);
  p.fusable = p.slab_2d && !p.x_local;
  return p;
}

}  // namespace a2a::fft::logic
