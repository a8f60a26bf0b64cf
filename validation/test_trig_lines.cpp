// BoxFft's own real-to-real line transforms against FFTW's r2r transforms of the same lines,
// without MPI: PairedTrig (transpose/fft/src/paired_trig.hpp: DCT/DST types II and III through
// complex DFTs of paired lines; n = 1, 2, 3, 8 and 17), HalfLengthDct4 (half_length_dct4.hpp:
// types IV of even length through DFTs of n/2 points; n = 2, 4, 6, 16), ExtendedTrig
// (extended_trig.hpp: types I through DFTs of paired lines' symmetric extensions; n = 1 (DST-I
// only), 2, 3, 8, 17 and 33) and SplitTrig1 (split_trig1.hpp: types I of odd length through DFTs
// of their even and odd outputs' halves; n = 9 to 65), every kind, double and float, boxes
// [A][n][B] with A and B of 1, 2, 3 and 6 (lines paired along B, along A, and an odd line out on
// either) and B of 129 and 130 (rows padded in the scratch), on random values, in place and out of
// place times a factor (the input left as it was); and each of them run in panels (LinePanels,
// line_panels.hpp) against the whole box's run, to the bit. (A line's partner shares its DFT: a
// NaN in one reaches the other; BoxFft pairs only lines its transform mixes anyway, tested in
// test_box_fft.)
#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "a2a/fft/aligned.hpp"
#include "extended_trig.hpp"
#include "half_length_dct4.hpp"
#include "line_panels.hpp"
#include "paired_trig.hpp"
#include "serial_checks.hpp"
#include "split_trig1.hpp"

namespace {

using a2a::fft::ExtendedTrig;
using a2a::fft::HalfLengthDct4;
using a2a::fft::Kind;
using a2a::fft::PairedTrig;
using a2a::fft::SplitTrig1;

fftw_r2r_kind fftw_kind(Kind k) {
  switch (k) {
    case Kind::dct2:
      return FFTW_REDFT10;
    case Kind::dct3:
      return FFTW_REDFT01;
    case Kind::dst2:
      return FFTW_RODFT10;
    case Kind::dst3:
      return FFTW_RODFT01;
    case Kind::dct4:
      return FFTW_REDFT11;
    case Kind::dct1:
      return FFTW_REDFT00;
    case Kind::dst1:
      return FFTW_RODFT00;
    default:
      return FFTW_RODFT11;
  }
}
const char* name(Kind k) {
  const char* names[] = {"dft",  "dct1", "dct2", "dct3", "dct4",
                         "dst1", "dst2", "dst3", "dst4", "none"};
  return names[static_cast<int>(k)];
}

// FFTW's r2r (always in double) of every line along n of [a][n][b].
std::vector<double> reference(Kind k, std::size_t a, std::size_t n, std::size_t b,
                              const std::vector<double>& x) {
  std::vector<double> y = x;
  const fftw_iodim64 line{static_cast<std::ptrdiff_t>(n), static_cast<std::ptrdiff_t>(b),
                          static_cast<std::ptrdiff_t>(b)};
  const fftw_iodim64 how[2] = {{static_cast<std::ptrdiff_t>(a), static_cast<std::ptrdiff_t>(n * b),
                                static_cast<std::ptrdiff_t>(n * b)},
                               {static_cast<std::ptrdiff_t>(b), 1, 1}};
  const fftw_r2r_kind kind = fftw_kind(k);
  fftw_plan p = fftw_plan_guru64_r2r(1, &line, 2, how, y.data(), y.data(), &kind, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  return y;
}

// The class under test: the one for the kind (PairedTrig, HalfLengthDct4, ExtendedTrig), or
// SplitTrig1 for a type I.
enum class Under { own, split };

template <typename Real>
std::size_t scratch_of(Kind k, Under under, std::size_t a, std::size_t n, std::size_t b) {
  const bool four = k == Kind::dct4 || k == Kind::dst4, one = k == Kind::dct1 || k == Kind::dst1;
  return under == Under::split ? SplitTrig1<Real>::scratch_size(k, a, n, b)
         : four                ? HalfLengthDct4<Real>::scratch_size(a, n, b)
         : one                 ? ExtendedTrig<Real>::scratch_size(k, a, n, b)
                               : PairedTrig<Real>::scratch_size(a, n, b);
}
template <typename Real>
std::unique_ptr<a2a::fft::LineTransform<Real>> lines_of(Kind k, Under under, std::size_t a,
                                                        std::size_t n, std::size_t b,
                                                        std::size_t ldx,
                                                        std::complex<Real>* scratch) {
  const bool four = k == Kind::dct4 || k == Kind::dst4, one = k == Kind::dct1 || k == Kind::dst1;
  if (under == Under::split) return SplitTrig1<Real>::make(k, a, n, b, scratch, FFTW_ESTIMATE, ldx);
  if (four) return std::make_unique<HalfLengthDct4<Real>>(k, a, n, b, scratch, FFTW_ESTIMATE, ldx);
  if (one) return std::make_unique<ExtendedTrig<Real>>(k, a, n, b, scratch, FFTW_ESTIMATE, ldx);
  return std::make_unique<PairedTrig<Real>>(k, a, n, b, scratch, FFTW_ESTIMATE, ldx);
}

template <typename Real>
void check_shape(a2a::test::SerialChecks& check, Kind k, std::size_t a, std::size_t n,
                 std::size_t b, std::mt19937& random, Under under = Under::own) {
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> x(a * n * b);
  for (double& v : x)
    v = value(random);
  const std::vector<double> want = reference(k, a, n, b, x);
  std::vector<Real> mine(x.begin(), x.end());
  const bool split = under == Under::split;
  a2a::fft::AlignedVector<std::complex<Real>> scratch(scratch_of<Real>(k, under, a, n, b));
  const auto lines = lines_of<Real>(k, under, a, n, b, 0, scratch.data());
  // In place; then out of place from a copy of x, times a factor: the input left as it was.
  const std::vector<Real> input(mine);
  std::vector<Real> scaled(mine.size());
  lines->run(mine.data(), mine.data(), scratch.data());
  const Real factor = Real(0.375);
  lines->run(input.data(), scaled.data(), scratch.data(), factor);
  double error = 0, scaled_error = 0, scale = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    error = std::max(error, std::abs(static_cast<double>(mine[i]) - want[i]));
    scaled_error =
        std::max(scaled_error, std::abs(static_cast<double>(scaled[i]) - 0.375 * want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  const double tolerance = (sizeof(Real) == 8 ? 1e-13 : 2e-5) * std::max(scale, 1.0);
  const std::string what = std::string(split ? "split " : "") + name(k) +
                           (sizeof(Real) == 8 ? " double" : " float") + " [" + std::to_string(a) +
                           "][" + std::to_string(n) + "][" + std::to_string(b) + "]";
  check(error <= tolerance, what + ": error " + std::to_string(error));
  check(scaled_error <= tolerance,
        what + ", out of place, times 0.375: error " + std::to_string(scaled_error));
  check(std::equal(input.begin(), input.end(), x.begin(),
                   [](Real v, double d) { return v == static_cast<Real>(d); }),
        what + ", out of place: the input as it was");
}

// LinePanels: the box in chunks of planes or panels of B, each through its own transform of
// the class, a scratch `budget` bytes or so (small: the boxes here are small), against the
// whole box's transform of the same class, to the bit (the pairs stay the same), in place and
// out of place times a factor. `budget_planes`: the budget as the scratch of that many planes (B =
// 1: pairs of planes), else 1 byte (the narrowest panels).
template <typename Real>
void check_panels(a2a::test::SerialChecks& check, Kind k, Under under, std::size_t a, std::size_t n,
                  std::size_t b, std::size_t budget_planes, std::mt19937& random) {
  using Panels = a2a::fft::LinePanels<Real>;
  const typename Panels::ScratchSize size = [k, under](std::size_t planes, std::size_t length,
                                                       std::size_t values) {
    return scratch_of<Real>(k, under, planes, length, values);
  };
  const typename Panels::Make make = [k, under](std::size_t planes, std::size_t length,
                                                std::size_t values, std::size_t ldx,
                                                std::complex<Real>* z) {
    return lines_of<Real>(k, under, planes, length, values, ldx, z);
  };
  const std::size_t budget =
      budget_planes == 0 ? 1
                         : budget_planes * size(b == 1 ? 2 : 1, n, b) * sizeof(std::complex<Real>);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<Real> x(a * n * b);
  for (Real& v : x)
    v = static_cast<Real>(value(random));
  a2a::fft::AlignedVector<std::complex<Real>> whole_scratch(size(a, n, b)),
      scratch(Panels::scratch_size(a, n, b, size, budget));
  const auto whole = make(a, n, b, 0, whole_scratch.data());
  const Panels panels(a, n, b, scratch.data(), size, make, budget);
  const std::string what = std::string("panels of ") + (under == Under::split ? "split " : "") +
                           name(k) + (sizeof(Real) == 8 ? " double" : " float") + " [" +
                           std::to_string(a) + "][" + std::to_string(n) + "][" + std::to_string(b) +
                           "], " + std::to_string(budget) + " bytes";
  check(Panels::needed(a, n, b, size, budget) && scratch.size() < whole_scratch.size(),
        what + ": runs in panels on less scratch");
  std::vector<Real> want(x.size()), got(x.size()), in_place(x);
  whole->run(x.data(), want.data(), whole_scratch.data(), Real(0.375));
  panels.run(x.data(), got.data(), scratch.data(), Real(0.375));
  panels.run(in_place.data(), in_place.data(), scratch.data(), Real(0.375));
  check(got == want, what + ": as the whole box's, to the bit");
  check(in_place == want, what + ", in place: as the whole box's, to the bit");
}

}  // namespace

// Long scratch rows are an odd number of cache lines apart, so that no DFT along them steps a
// multiple of two lines (the old rule, 8 values more, made 248 values 4 KiB apart).
template <typename Real>
void check_row_strides(a2a::test::SerialChecks& check) {
  constexpr std::size_t line = 64;
  std::size_t bad = 0;
  for (std::size_t inner = 64; inner <= 20000; ++inner) {
    const std::size_t bytes = a2a::fft::LinesDft<Real>::row_stride(inner) * 2 * sizeof(Real);
    if (bytes < inner * 2 * sizeof(Real) || bytes % line != 0 || (bytes / line) % 2 == 0) ++bad;
  }
  check(bad == 0, "row strides of " + std::string(sizeof(Real) == 8 ? "double" : "float") +
                      ": an odd number of cache lines from 64 values on (" + std::to_string(bad) +
                      " not)");
}

int main() {
  a2a::test::SerialChecks check("trig_lines");
  std::mt19937 random(2026);
  for (Kind k : {Kind::dct2, Kind::dct3, Kind::dst2, Kind::dst3}) {
    check(PairedTrig<double>::serves(k), std::string(name(k)) + " is served");
    for (std::size_t n : {1, 2, 3, 8, 17}) {
      for (std::size_t a : {1, 2, 3, 6}) {
        for (std::size_t b : {1, 2, 3, 6, 129, 130}) {
          if (b > 6 && a > 2) continue;  // long rows: padded in the scratch (row_stride)
          check_shape<double>(check, k, a, n, b, random);
          check_shape<float>(check, k, a, n, b, random);
        }
      }
    }
  }
  for (Kind k : {Kind::dct4, Kind::dst4}) {
    check(HalfLengthDct4<double>::serves(k, 8) && !HalfLengthDct4<double>::serves(k, 7),
          std::string(name(k)) + " is served at even lengths only");
    for (std::size_t n : {2, 4, 6, 16}) {
      for (std::size_t a : {1, 2, 3, 6}) {
        for (std::size_t b : {1, 2, 3, 6, 129, 130}) {
          if (b > 6 && a > 2) continue;  // long rows: padded in the scratch (row_stride)
          check_shape<double>(check, k, a, n, b, random);
          check_shape<float>(check, k, a, n, b, random);
        }
      }
    }
  }
  for (Kind k : {Kind::dct1, Kind::dst1}) {
    check(ExtendedTrig<double>::serves(k, 2) && !ExtendedTrig<double>::serves(Kind::dct1, 1),
          std::string(name(k)) + " is served (DCT-I from two points)");
    for (std::size_t n : {1, 2, 3, 8, 17, 33}) {
      if (!ExtendedTrig<double>::serves(k, n)) continue;
      for (std::size_t a : {1, 2, 3, 6}) {
        for (std::size_t b : {1, 2, 3, 6, 129, 130}) {
          if (b > 6 && a > 2) continue;  // long rows: padded in the scratch (row_stride)
          check_shape<double>(check, k, a, n, b, random);
          check_shape<float>(check, k, a, n, b, random);
        }
      }
    }
  }
  for (Kind k : {Kind::dct1, Kind::dst1}) {
    check(SplitTrig1<double>::serves(k, 9) && !SplitTrig1<double>::serves(k, 10) &&
              !SplitTrig1<double>::serves(k, 7),
          std::string(name(k)) + " splits at odd lengths from 9");
    for (std::size_t n : {9, 11, 15, 17, 31, 33, 63, 65}) {
      for (std::size_t a : {1, 2, 3, 6}) {
        for (std::size_t b : {1, 2, 3, 6, 129, 130}) {
          if (b > 6 && a > 2) continue;  // long rows: padded in the scratch (row_stride)
          check_shape<double>(check, k, a, n, b, random, Under::split);
          check_shape<float>(check, k, a, n, b, random, Under::split);
        }
      }
    }
  }
  // Panels: lines along A (B = 1: chunks of 4 and 3 planes, an odd line out in the last; of 2),
  // chunks of 2, 2 and 1 planes (B = 6), panels of B 16 values wide and more (B = 37: 16 + 16 +
  // 5; 33: 16 + 17, the last widened rather than one value wide; 130: nine).
  for (const auto& [k, under, n] :
       {std::tuple{Kind::dct2, Under::own, 8}, std::tuple{Kind::dct3, Under::own, 17},
        std::tuple{Kind::dst2, Under::own, 9}, std::tuple{Kind::dst3, Under::own, 8},
        std::tuple{Kind::dct4, Under::own, 16}, std::tuple{Kind::dst4, Under::own, 6},
        std::tuple{Kind::dct1, Under::own, 8}, std::tuple{Kind::dst1, Under::own, 7},
        std::tuple{Kind::dct1, Under::split, 17}, std::tuple{Kind::dst1, Under::split, 15}}) {
    for (const auto& [a, b, planes] : {std::tuple<std::size_t, std::size_t, std::size_t>{7, 1, 2},
                                       {9, 1, 0},
                                       {5, 6, 2},
                                       {2, 37, 0},
                                       {3, 33, 0},
                                       {1, 130, 0}}) {
      check_panels<double>(check, k, under, a, static_cast<std::size_t>(n), b, planes, random);
      check_panels<float>(check, k, under, a, static_cast<std::size_t>(n), b, planes, random);
    }
  }
  for (Kind k : {Kind::dft, Kind::dct2, Kind::dct4, Kind::dst2, Kind::dst4})
    check(!SplitTrig1<double>::serves(k, 17), std::string(name(k)) + " does not split");
  for (Kind k : {Kind::dft, Kind::dct2, Kind::dct4, Kind::dst2, Kind::dst4})
    check(!ExtendedTrig<double>::serves(k, 8), std::string(name(k)) + " is not type I");
  for (Kind k : {Kind::dft, Kind::dct1, Kind::dct4, Kind::dst1, Kind::dst4})
    check(!PairedTrig<double>::serves(k), std::string(name(k)) + " is not PairedTrig's");
  for (Kind k : {Kind::dct1, Kind::dst1, Kind::dct2})
    check(!HalfLengthDct4<double>::serves(k, 8), std::string(name(k)) + " is not type IV");
  check_row_strides<double>(check);
  check_row_strides<float>(check);
  return check.finish();
}
