// a2a::fft::Fft3d called the way a library user would: the caller's arrays at whatever
// alignment they have. The first transform of each direction reads the caller's array through
// an out-of-place FFTW plan only when FFTW allows it (same alignment as the planned arrays), and
// copies otherwise; both paths, c2c and r2c, slab and pencil, must equal serial FFTW's 3D
// transform of the whole grid (an independent plan on one rank's copy of everything), and c2c
// in place (one array for input and output) too. The ways the local transforms may run in
// (planes.hpp, columns.hpp), each forced, must equal the DFT's definition.
#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>
#include <vector>

#include "a2a/fft.hpp"
#include "columns.hpp"
#include "harness.hpp"
#include "planes.hpp"

namespace {

using a2a::Box;
using Complex = std::complex<double>;

double input_at(std::int64_t i, std::int64_t j, std::int64_t k, int part) {
  return std::sin(0.3 * static_cast<double>(i) + 0.7 * static_cast<double>(j * (part + 1)) +
                  1.1 * static_cast<double>(k));
}

// The box's elements, row-major, from a full row-major grid with extents n; y_major: in
// [y][x][z] order instead (FFTW-MPI's transposed layout).
template <typename T>
std::vector<T> cut(const std::vector<T>& full, const std::array<std::int64_t, 3>& n, const Box& b,
                   bool y_major = false) {
  std::vector<T> v;
  const int outer = y_major ? 1 : 0, middle = y_major ? 0 : 1;
  for (auto a = b.lo[outer]; a < b.hi[outer]; ++a)
    for (auto m = b.lo[middle]; m < b.hi[middle]; ++m)
      for (auto k = b.lo[2]; k < b.hi[2]; ++k) {
        const auto i = y_major ? m : a, j = y_major ? a : m;
        v.push_back(full[static_cast<std::size_t>((i * n[1] + j) * n[2] + k)]);
      }
  return v;
}

template <typename A, typename B>
double max_difference(const A& a, const B& b, std::size_t count) {
  double worst = 0;
  for (std::size_t i = 0; i < count; ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

// A copy of `v` placed `offset` bytes past a 64-byte boundary (offset a multiple of alignof(T)).
template <typename T>
struct Placed {
  Placed(const std::vector<T>& v, std::size_t offset)
      : storage(v.size() * sizeof(T) + 64 + offset),
        data(reinterpret_cast<T*>(
            storage.data() + (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) % 64 +
            offset)) {
    std::memcpy(static_cast<void*>(data), v.data(), v.size() * sizeof(T));
  }
  std::vector<std::byte> storage;
  T* data;
};

// The key a measured slab's ways are remembered under (FILE.ways, docs/fft.md), for `stage`.
std::string slab_ways_key(const std::array<std::int64_t, 3>& n, int P, bool r2c,
                          const std::string& stage) {
  return std::string("double ") + (r2c ? "r2c " : "c2c ") + std::to_string(n[0]) + "x" +
         std::to_string(n[1]) + "x" + std::to_string(n[2]) + " on " + std::to_string(P) +
         "x1 chunks 1 measure: " + stage;
}

void check(a2a::test::Harness& h, const std::array<std::int64_t, 3>& n, int p1, bool r2c,
           std::size_t offset, const std::string& backend, unsigned flags = FFTW_ESTIMATE,
           const std::string& planes_way = "", int fused_r2c = -1, bool pushed = false) {
  const int P = h.procs();
  a2a::fft::Options o;
  o.fftw_flags = flags;
  o.planes_way = planes_way;
  o.n = n;
  o.p1 = p1;
  o.p2 = P / p1;
  o.r2c = r2c;
  o.backend = backend;
  a2a::fft::Fft3d<double> fft(h.comm(), o);
  const std::string what = std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" +
                           std::to_string(n[2]) + (r2c ? " r2c" : " c2c") + " grid " +
                           std::to_string(o.p1) + "x" + std::to_string(o.p2) + ", input at +" +
                           std::to_string(offset) + " B, " + backend +
                           (flags == FFTW_MEASURE ? ", MEASURE" : "") +
                           (planes_way.empty() ? "" : ", planes " + planes_way);
  // An r2c rank without x-planes has no plane plans: then none fuses or pushes.
  const bool every_rank_planes = n[0] >= P;
  if (pushed && (!r2c || every_rank_planes)) {
    h.expect(fft.local_transforms().find("pushed") != std::string::npos,
             what + ": backward pushed, as remembered (" + fft.local_transforms() + ")");
  }
  // Measured on a slab: the x transforms' way on the y-planes that runs is the one remembered
  // (chosen alone, or with the fusion on the whole transform, docs/fft.md).
  if (P > 1 && p1 == P && flags == FFTW_MEASURE && planes_way.empty()) {
    const std::string key = slab_ways_key(n, P, r2c, "x backward, y-planes");
    const std::string ways = fft.local_transforms();
    const auto remembered = a2a::fft::ways::recall(key);
    h.expect(remembered && ways.ends_with("/" + *remembered),
             what + ": the x way that runs is remembered (" + ways + ")");
  }
  // r2c fused or not where the test remembered which (every grid here has even planes).
  const bool r2c_fused = r2c && fused_r2c == 1 && every_rank_planes;
  if (P > 1 && p1 == P && backend == "shared_window" && r2c && fused_r2c == 0) {
    h.expect(fft.local_transforms().find("fused") == std::string::npos,
             what + ": not fused, as remembered (" + fft.local_transforms() + ")");
  }
  if (P > 1 && p1 == P && backend == "shared_window" &&
      (planes_way == "copy_then_in_place" || planes_way == "in_place_then_copy" || r2c_fused)) {
    h.expect(fft.local_transforms().find("fused") != std::string::npos,
             what + ": the transposes are fused with the planes (" + fft.local_transforms() + ")");
  }
  const std::size_t total = static_cast<std::size_t>(n[0] * n[1] * n[2]);
  const std::int64_t nc = r2c ? n[2] / 2 + 1 : n[2];
  const std::array<std::int64_t, 3> spectrum_n{n[0], n[1], nc};
  // The reference: serial FFTW over the whole grid.
  std::vector<Complex> spectrum(static_cast<std::size_t>(n[0] * n[1] * nc));
  std::vector<double> real_grid(total);
  std::vector<Complex> complex_grid(total);
  for (std::int64_t i = 0; i < n[0]; ++i)
    for (std::int64_t j = 0; j < n[1]; ++j)
      for (std::int64_t k = 0; k < n[2]; ++k) {
        const auto at = static_cast<std::size_t>((i * n[1] + j) * n[2] + k);
        real_grid[at] = input_at(i, j, k, 0);
        complex_grid[at] = {input_at(i, j, k, 0), input_at(i, j, k, 1)};
      }
  const int d0 = static_cast<int>(n[0]), d1 = static_cast<int>(n[1]), d2 = static_cast<int>(n[2]);
  auto* s = reinterpret_cast<fftw_complex*>(spectrum.data());
  fftw_plan plan =
      r2c ? fftw_plan_dft_r2c_3d(d0, d1, d2, real_grid.data(), s, FFTW_ESTIMATE)
          : fftw_plan_dft_3d(d0, d1, d2, reinterpret_cast<fftw_complex*>(complex_grid.data()), s,
                             FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  double scale = 0;
  for (const Complex& c : spectrum)
    scale = std::max(scale, std::abs(c));

  // A slab's spectrum on P > 1 ranks is [y][x][z], as FFTW-MPI's FFTW_MPI_TRANSPOSED_OUT.
  const bool y_major = p1 == P && P > 1;
  h.expect(
      fft.output_order() == (y_major ? std::array<int, 3>{1, 0, 2} : std::array<int, 3>{0, 1, 2}),
      what + ": the spectrum's order in memory");
  const auto expected = cut(spectrum, spectrum_n, fft.output_box(), y_major);
  std::vector<Complex> out(expected.size());
  // Forward from the caller's array placed at `offset`, then backward from a copy of the
  // spectrum placed the same way: real or complex input alike.
  auto round_trip = [&](const auto& mine) {
    using T = typename std::decay_t<decltype(mine)>::value_type;
    Placed<T> in(mine, offset);
    fft.forward(in.data, out.data());
    h.expect(max_difference(out, expected, out.size()) <= 1e-12 * scale,
             what + ": forward equals serial FFTW");
    h.expect(std::memcmp(in.data, mine.data(), mine.size() * sizeof(T)) == 0,
             what + ": forward keeps its input");
    Placed<Complex> spec(out, offset);
    std::vector<T> back(mine.size());
    fft.backward(spec.data, back.data());
    h.expect(max_difference(back, mine, mine.size()) <= 1e-12, what + ": backward restores");
    h.expect(std::memcmp(spec.data, out.data(), out.size() * sizeof(Complex)) == 0,
             what + ": backward keeps its input");
    if constexpr (std::is_same_v<T, Complex>) {
      // In place: one array, as large as the larger box, holds the input, then the spectrum,
      // then the input again.
      std::vector<Complex> both(std::max(mine.size(), out.size()));
      std::copy(mine.begin(), mine.end(), both.begin());
      Placed<Complex> array(both, offset);
      fft.forward(array.data, array.data);
      h.expect(max_difference(array.data, expected, out.size()) <= 1e-12 * scale,
               what + ": forward in place equals serial FFTW");
      fft.backward(array.data, array.data);
      h.expect(max_difference(array.data, mine, mine.size()) <= 1e-12,
               what + ": backward in place restores");
    }
  };
  for (int repeat = 0; repeat < 2; ++repeat) {
    if (r2c)
      round_trip(cut(real_grid, n, fft.real_box()));
    else
      round_trip(cut(complex_grid, n, fft.input_box()));
  }
}

// The naive DFT (the definition, no FFTW) of `len` points `stride` apart, times scale.
std::vector<Complex> naive_dft(const Complex* x, int len, std::int64_t stride, int sign,
                               double scale) {
  const double pi = std::acos(-1.0);
  std::vector<Complex> y(static_cast<std::size_t>(len));
  for (int k = 0; k < len; ++k) {
    Complex sum = 0;
    for (int j = 0; j < len; ++j) {
      sum += x[j * stride] * std::polar(1.0, sign * 2 * pi * j * k / len);
    }
    y[static_cast<std::size_t>(k)] = sum * scale;
  }
  return y;
}

// Every way the slab's plane transforms may run (planes.hpp) and every panel width of the x
// transforms (columns.hpp), each forced, against the DFT's definition: whichever the planner
// picks on a machine must be right.
void check_local_ways(a2a::test::Harness& h) {
  using a2a::fft::ColumnFfts;
  using a2a::fft::PlaneFfts;
  using Way = PlaneFfts<double>::Way;
  const int n1 = 6, n2 = 5, planes = 3;
  const std::size_t count = static_cast<std::size_t>(n1 * n2 * planes);
  a2a::fft::AlignedVector<Complex> src(count), dst(count), input(count);
  for (std::size_t i = 0; i < count; ++i)
    input[i] = {std::sin(0.37 * static_cast<double>(i)), std::cos(1.3 * static_cast<double>(i))};
  for (int sign : {FFTW_FORWARD, FFTW_BACKWARD}) {
    // The 2D DFT of each plane: along z, then along y.
    std::vector<Complex> expected(input.begin(), input.end());
    for (int p = 0; p < planes; ++p) {
      Complex* plane = expected.data() + p * n1 * n2;
      for (int y = 0; y < n1; ++y) {
        const auto row = naive_dft(plane + y * n2, n2, 1, sign, 1);
        std::copy(row.begin(), row.end(), plane + y * n2);
      }
      for (int z = 0; z < n2; ++z) {
        const auto column = naive_dft(plane + z, n1, n2, sign, 1);
        for (int y = 0; y < n1; ++y)
          plane[y * n2 + z] = column[static_cast<std::size_t>(y)];
      }
    }
    for (Way way : {Way::whole, Way::per_plane, Way::copy_then_in_place, Way::in_place_then_copy}) {
      const bool scratch = way == Way::in_place_then_copy;
      PlaneFfts<double> fft({n1, n2}, planes, sign, FFTW_ESTIMATE, src.data(), dst.data(), scratch,
                            MPI_COMM_NULL, {way});
      const std::string what = "planes " + PlaneFfts<double>::name(way) +
                               (sign == FFTW_FORWARD ? " forward" : " backward");
      h.expect(fft.planned() && fft.way() == way, what + ": planned that way");
      std::copy(input.begin(), input.end(), src.begin());
      std::fill(dst.begin(), dst.end(), Complex(0));  // nothing left from the last way
      fft.run(src.data(), dst.data());
      h.expect(max_difference(dst, expected, count) <= 1e-12 * n1 * n2,
               what + ": equals the DFT's definition");
      if (!scratch) h.expect(max_difference(src, input, count) == 0, what + ": keeps its source");
    }
  }
  // The x transforms on y-planes of [y][x][z] (a slab's spectrum): 3 planes of 7 x 5, each of
  // the 5 columns a 7-point DFT, scaled, every way.
  {
    const int rows = 7, width = 5, count_planes = 3;
    const std::size_t cells = static_cast<std::size_t>(rows * width * count_planes);
    a2a::fft::AlignedVector<Complex> in(cells), out(cells), a(cells), b(cells);
    for (std::size_t i = 0; i < cells; ++i)
      in[i] = {std::sin(0.9 * static_cast<double>(i)), std::cos(0.21 * static_cast<double>(i))};
    for (Way way : {Way::whole, Way::per_plane, Way::copy_then_in_place, Way::in_place_then_copy}) {
      PlaneFfts<double> fft(PlaneFfts<double>::Plane::columns(rows, width), count_planes,
                            FFTW_BACKWARD, FFTW_ESTIMATE, a.data(), b.data(), true, MPI_COMM_NULL,
                            {way}, 0.25);
      std::copy(in.begin(), in.end(), a.begin());
      std::fill(out.begin(), out.end(), Complex(0));
      fft.run(a.data(), out.data());
      double worst = 0;
      for (int p = 0; p < count_planes; ++p) {
        for (int c = 0; c < width; ++c) {
          const auto column =
              naive_dft(in.data() + p * rows * width + c, rows, width, FFTW_BACKWARD, 0.25);
          for (int r = 0; r < rows; ++r) {
            worst =
                std::max(worst, std::abs(out[static_cast<std::size_t>((p * rows + r) * width + c)] -
                                         column[static_cast<std::size_t>(r)]));
          }
        }
      }
      h.expect(fft.planned() && worst <= 1e-12 * rows, "x on y-planes, " +
                                                           PlaneFfts<double>::name(way) +
                                                           ", scaled: equals the DFT's definition");
    }
  }
  // Columns of a 7 x 37 matrix, scaled: widths that divide 37 and that leave a tail panel,
  // and one wider than the matrix.
  const int len = 7, cols = 37;
  const std::size_t cells = static_cast<std::size_t>(len * cols);
  a2a::fft::AlignedVector<Complex> matrix(cells), out(cells), trial(cells), trial_out(cells);
  for (std::size_t i = 0; i < cells; ++i)
    matrix[i] = {std::cos(0.11 * static_cast<double>(i)), std::sin(0.7 * static_cast<double>(i))};
  // FFTW's strided plan over the whole matrix, out of place, in place, and on arrays of
  // another alignment (run on panels instead).
  for (std::int64_t width :
       std::vector<std::int64_t>{1, 5, 16, 37, 256, ColumnFfts<double>::strided}) {
    ColumnFfts<double> fft(len, cols, FFTW_BACKWARD, FFTW_ESTIMATE, trial.data(), trial_out.data(),
                           MPI_COMM_NULL, {width});
    for (const int call : {0, 1, 2}) {
      // 0: out of place; 1: in place; 2: out of place, from one complex past the plan's alignment.
      a2a::fft::AlignedVector<Complex> shifted(cells + 1);
      std::copy(matrix.begin(), matrix.end(), shifted.begin() + 1);
      const Complex* from = call == 2 ? shifted.data() + 1 : matrix.data();
      if (call == 1) {
        std::copy(matrix.begin(), matrix.end(), out.begin());
        from = out.data();
      } else {
        std::fill(out.begin(), out.end(), Complex(0));
      }
      fft.run(from, out.data(), 0.5);
      double worst = 0;
      for (int c = 0; c < cols; ++c) {
        const auto column = naive_dft(matrix.data() + c, len, cols, FFTW_BACKWARD, 0.5);
        for (int r = 0; r < len; ++r)
          worst = std::max(worst, std::abs(out[static_cast<std::size_t>(r * cols + c)] -
                                           column[static_cast<std::size_t>(r)]));
      }
      const char* how[] = {"out of place", "in place", "off the plan's alignment"};
      h.expect(fft.planned() && fft.way() == width && worst <= 1e-12 * len,
               "x columns, " + fft.name() + ", " + how[call] + ": equal the DFT's definition");
    }
  }
}

// Misuse gives one error on every rank, never a hang: a bad option on one rank only, options
// that differ between ranks, a process grid that is not P.
void check_misuse(a2a::test::Harness& h) {
  const int P = h.procs(), last = P - 1;
  auto plan = [&](auto change) {
    return [&h, change, P] {
      a2a::fft::Options o;
      o.n = {8, 6, 4};
      o.p1 = P;
      change(o, h.rank());
      a2a::fft::Fft3d<double> fft(h.comm(), o);
    };
  };
  a2a::test::expect_error(h, "one rank's grid dimension 0", "every dimension must be at least 1",
                          plan([last](a2a::fft::Options& o, int rank) {
                            if (rank == last) o.n[1] = 0;
                          }));
  a2a::test::expect_error(h, "a process grid that is not P",
                          "does not have P=", plan([](a2a::fft::Options& o, int) { o.p2 = 2; }));
  a2a::test::expect_error(h, "one rank's chunks 0", "chunks must be at least 1",
                          plan([last](a2a::fft::Options& o, int rank) {
                            if (rank == last) o.chunks = 0;
                          }));
  if (P > 1) {
    a2a::test::expect_error(h, "one rank's backend differs", "options differ from rank 0's",
                            plan([last](a2a::fft::Options& o, int rank) {
                              if (rank == last) o.backend = "pairwise";
                            }));
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    a2a::test::Harness h("test_fft3d");
    const int P = h.procs();
    check_local_ways(h);
    check_misuse(h);
    // MEASURE: the local ways timed at plan time, every rank at once, a rank with no x-planes
    // (3 of them on P >= 4 ranks) joining the trials with nothing to do.
    for (int p1 : {P, 1})
      check(h, {3, 8, 5}, p1, false, 0, "linear", FFTW_MEASURE);
    // r2c on a slab through shared_window, MEASURE: one-plane r2c/c2r plans fused with the
    // transposes; the caller's real arrays at FFTW's alignment and 8 bytes off it (a copy).
    for (const std::array<std::int64_t, 3> n :
         {std::array<std::int64_t, 3>{12, 10, 9}, std::array<std::int64_t, 3>{7, 13, 6}}) {
      for (std::size_t offset : {0, 8})
        check(h, n, P, true, offset, "shared_window", FFTW_MEASURE);
      // Fused or not is timed; the remembered choice (ways.hpp, the key docs/fft.md gives)
      // makes each way run here whatever the timing would pick.
      for (const char* fused : {"yes", "no"}) {
        a2a::fft::ways::forget_all();
        a2a::fft::ways::remember(slab_ways_key(n, P, true, "fused forward"), fused);
        a2a::fft::ways::remember(slab_ways_key(n, P, true, "fused backward"), fused);
        check(h, n, P, true, 8, "shared_window", FFTW_MEASURE, "", fused[0] == 'y' ? 1 : 0);
      }
      a2a::fft::ways::forget_all();
      // Backward pushed (each y-plane's rows pushed into the receivers' x-planes), at FFTW's
      // alignment (c2c: the own rows straight into the caller's array; r2c: each x-plane's
      // c2r from the window into it) and 8 bytes off it.
      for (const bool r2c : {false, true}) {
        a2a::fft::ways::remember(slab_ways_key(n, P, r2c, "fused backward"), "push");
        for (std::size_t offset : {0, 8})
          check(h, n, P, r2c, offset, "shared_window", FFTW_MEASURE, "", -1, P > 1);
        a2a::fft::ways::forget_all();
      }
    }
    // A slab's plane transforms each way; with shared_window the plane-at-a-time ways are
    // fused with the transposes (each plane's pieces straight to and from the peers' memory),
    // at offsets 0 and 8 (the caller's arrays are only copied from and to there).
    for (const char* way : {"whole", "per_plane", "copy_then_in_place", "in_place_then_copy"}) {
      for (const std::array<std::int64_t, 3> n :
           {std::array<std::int64_t, 3>{12, 10, 9}, std::array<std::int64_t, 3>{7, 13, 6}}) {
        for (std::size_t offset : {0, 8}) {
          check(h, n, P, false, offset, "shared_window", FFTW_ESTIMATE, way);
          check(h, n, P, false, offset, "linear", FFTW_ESTIMATE, way);
        }
      }
    }
    // Offsets 0 (FFTW's alignment: the out-of-place entry plans) and 8 (misaligned for SIMD:
    // the copy); the transposes through `linear`, and at offset 0 also through
    // `shared_window` (packed straight into the peers' memory, Redistribution::execute_direct).
    for (const std::array<std::int64_t, 3> n :
         {std::array<std::int64_t, 3>{12, 10, 9}, std::array<std::int64_t, 3>{7, 16, 6}}) {
      for (int p1 : {P, 1}) {
        for (bool r2c : {false, true}) {
          for (std::size_t offset : {0, 8})
            check(h, n, p1, r2c, offset, "linear");
          check(h, n, p1, r2c, 0, "shared_window");
        }
      }
    }
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
