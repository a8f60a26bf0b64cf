// BoxFft (a2a/fft/box_fft.hpp) against NumPy and SciPy: test_box_fft CASES.h5, the file
// validation/fft_reference.py writes with h5py (numpy.fft.fftn/rfftn, scipy.fft.dct/dst: no
// FFTW, no a2a). For every case (c2c, r2c, real-to-real kinds I-IV, mixed with DFT axes and
// with none, batches of 1, 3 and 5) and several random brick decompositions on each side
// (every rank's box drawn from a random factorization of P with random cuts, so that some ranks
// hold empty boxes, assigned to the ranks in a random order), in double and float: the
// forward transform of this rank's input box against the reference's values in its output box,
// and the round trip (backward, full scaling) against the input; in place and out of place,
// interleaved and contiguous batches, the caller's axes in any order on either side (FFTW-MPI's
// transposed [y][x][z] among them), the plan's workspace and the caller's, symmetric scaling.
// A plan with external_workspace keeps no work arrays of its own (its heap, against the same
// plan without it). Then misuse: overlapping boxes, holes, a batch of 0, DCT-I of length 1, r2c
// along a real kind, options that differ between ranks, arrays of the wrong type: one error on
// every rank.
#include <hdf5.h>
#include <malloc.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "a2a/fft.hpp"
#include "a2a/topology.hpp"
#include "harness.hpp"

namespace {

using a2a::Box;
using a2a::fft::Kind;
using Grid = std::array<std::int64_t, 3>;

struct Case {
  std::string name;
  Grid n{};
  std::array<Kind, 3> kinds{};
  bool r2c = false;
  int batch = 1;
  bool complex_in = false, complex_out = false;
  std::vector<double> input, forward;  // (re, im) pairs where complex
};

const char* const kKindNames[] = {"dft",  "dct1", "dct2", "dct3", "dct4",
                                  "dst1", "dst2", "dst3", "dst4", "none"};
Kind kind_of(const std::string& text) {
  for (int k = 0; k < 9; ++k)
    if (text == kKindNames[k]) return static_cast<Kind>(k);
  return Kind::none;
}
std::string kind_name(Kind k) {
  return kKindNames[static_cast<int>(k)];
}

std::vector<double> read_doubles(hid_t group, const char* name) {
  const hid_t set = H5Dopen2(group, name, H5P_DEFAULT);
  const hid_t space = H5Dget_space(set);
  std::vector<double> out(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data());
  H5Sclose(space);
  H5Dclose(set);
  return out;
}

herr_t add_case(hid_t file, const char* name, const H5L_info_t*, void* data) {
  auto& cases = *static_cast<std::vector<Case>*>(data);
  const hid_t group = H5Gopen2(file, name, H5P_DEFAULT);
  Case c;
  c.name = name;
  const hid_t n = H5Aopen(group, "n", H5P_DEFAULT);
  H5Aread(n, H5T_NATIVE_INT64, c.n.data());
  H5Aclose(n);
  int flags[2] = {0, 0};
  const char* ints[2] = {"r2c", "batch"};
  for (int i = 0; i < 2; ++i) {
    const hid_t a = H5Aopen(group, ints[i], H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_INT, &flags[i]);
    H5Aclose(a);
  }
  c.r2c = flags[0] != 0;
  c.batch = flags[1];
  const hid_t k = H5Aopen(group, "kinds", H5P_DEFAULT);
  const hid_t type = H5Aget_type(k);
  std::string kinds;
  if (H5Tis_variable_str(type) > 0) {
    char* text = nullptr;
    H5Aread(k, type, &text);
    kinds = text;
    H5free_memory(text);
  } else {
    kinds.resize(H5Tget_size(type));
    H5Aread(k, type, kinds.data());
  }
  H5Tclose(type);
  H5Aclose(k);
  std::size_t start = 0;
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const std::size_t end = std::min(kinds.find(' ', start), kinds.size());
    c.kinds[axis] = kind_of(kinds.substr(start, end - start).c_str());
    start = end + 1;
  }
  const bool any_dft = std::find(c.kinds.begin(), c.kinds.end(), Kind::dft) != c.kinds.end();
  c.complex_in = any_dft && !c.r2c;
  c.complex_out = any_dft;
  c.input = read_doubles(group, "input");
  c.forward = read_doubles(group, "forward");
  H5Gclose(group);
  cases.push_back(std::move(c));
  return 0;
}

// Random bricks tiling grid n: P = a b c from a random factorization, the cuts along each axis
// random (equal cuts make empty boxes), the boxes dealt to the ranks in a random order. The
// same on every rank (one seed).
std::vector<Box> random_bricks(const Grid& n, int procs, std::mt19937_64& rng) {
  std::vector<std::array<int, 3>> factorizations;
  for (int a = 1; a <= procs; ++a)
    for (int b = 1; a * b <= procs; ++b)
      if (procs % (a * b) == 0) factorizations.push_back({a, b, procs / (a * b)});
  const auto f = factorizations[rng() % factorizations.size()];
  std::array<std::vector<std::int64_t>, 3> cuts;
  for (std::size_t d = 0; d < 3; ++d) {
    cuts[d] = {0, n[d]};
    for (int i = 1; i < f[d]; ++i)
      cuts[d].push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n[d] + 1)));
    std::sort(cuts[d].begin(), cuts[d].end());
  }
  std::vector<Box> boxes;
  for (int i = 0; i < f[0]; ++i)
    for (int j = 0; j < f[1]; ++j)
      for (int k = 0; k < f[2]; ++k)
        boxes.push_back(
            Box{{cuts[0][static_cast<std::size_t>(i)], cuts[1][static_cast<std::size_t>(j)],
                 cuts[2][static_cast<std::size_t>(k)]},
                {cuts[0][static_cast<std::size_t>(i + 1)], cuts[1][static_cast<std::size_t>(j + 1)],
                 cuts[2][static_cast<std::size_t>(k + 1)]}});
  std::shuffle(boxes.begin(), boxes.end(), rng);
  return boxes;
}

// This rank's part of a global array (values of `parts` doubles, batch fastest), in the
// layout BoxFft takes: the box's axes in `order` (slowest first), the batch interleaved or
// each field's box after the other's.
template <typename Real>
std::vector<Real> local_part(const std::vector<double>& global, const Grid& n, const Box& b,
                             int batch, int parts, bool contiguous,
                             const std::array<int, 3>& order = {0, 1, 2}) {
  std::vector<Real> out(static_cast<std::size_t>(b.count() * batch * parts));
  const auto count = static_cast<std::size_t>(b.count());
  std::array<std::size_t, 3> stride{};
  std::size_t s = 1;
  for (int k = 2; k >= 0; --k) {
    const auto axis = static_cast<std::size_t>(order[static_cast<std::size_t>(k)]);
    stride[axis] = s;
    s *= static_cast<std::size_t>(b.extent(static_cast<int>(axis)));
  }
  const auto B = static_cast<std::size_t>(batch), C = static_cast<std::size_t>(parts);
  for (auto x = b.lo[0]; x < b.hi[0]; ++x)
    for (auto y = b.lo[1]; y < b.hi[1]; ++y)
      for (auto z = b.lo[2]; z < b.hi[2]; ++z) {
        const std::size_t p = static_cast<std::size_t>(x - b.lo[0]) * stride[0] +
                              static_cast<std::size_t>(y - b.lo[1]) * stride[1] +
                              static_cast<std::size_t>(z - b.lo[2]) * stride[2];
        for (std::size_t f = 0; f < B; ++f)
          for (std::size_t c = 0; c < C; ++c) {
            const auto g =
                static_cast<std::size_t>(((x * n[1] + y) * n[2] + z)) * B * C + f * C + c;
            const std::size_t l = contiguous ? (f * count + p) * C + c : (p * B + f) * C + c;
            out[l] = static_cast<Real>(global[g]);
          }
      }
  return out;
}

// The largest |a - b| over every rank, relative to the largest |b| (collective).
template <typename Real>
double relative_error(MPI_Comm comm, const std::vector<Real>& a, const std::vector<Real>& b) {
  double e[2] = {0, 0};
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    e[0] = std::max(e[0], std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
    e[1] = std::max(e[1], std::abs(static_cast<double>(b[i])));
  }
  if (a.size() != b.size()) e[0] = INFINITY;
  MPI_Allreduce(MPI_IN_PLACE, e, 2, MPI_DOUBLE, MPI_MAX, comm);
  return e[0] / std::max(e[1], 1e-300);
}

struct Variant {
  bool in_place = false, contiguous = false, external = false, symmetric = false;
  bool padded = false;  // r2c in FFTW's padded rows
  // The caller's arrays one Real past an aligned start (not the alignment of the work arrays
  // FFTW planned on: a first transform that reads the caller's input copies it to a work array
  // first).
  bool misaligned = false;
  bool measure = false;  // FFTW_MEASURE: the plans timed (and the work arrays overwritten)
  std::array<int, 3> in_order{0, 1, 2}, out_order{0, 1, 2};
};

// Rows along axis 2 of `row` values (z extent times the batch) spread to `padded` values each
// (FFTW's in-place r2c layout), and back.
template <typename Real>
std::vector<Real> pad_rows(const std::vector<Real>& a, std::size_t row, std::size_t padded) {
  std::vector<Real> out(row == 0 ? 0 : a.size() / row * padded, Real(0));
  for (std::size_t r = 0; row > 0 && r < a.size() / row; ++r)
    std::copy_n(a.begin() + static_cast<std::ptrdiff_t>(r * row), row,
                out.begin() + static_cast<std::ptrdiff_t>(r * padded));
  return out;
}
template <typename Real>
std::vector<Real> unpad_rows(const Real* a, std::size_t rows, std::size_t row, std::size_t padded) {
  std::vector<Real> out(rows * row);
  for (std::size_t r = 0; r < rows; ++r)
    std::copy_n(a + r * padded, row, out.begin() + static_cast<std::ptrdiff_t>(r * row));
  return out;
}

// How the plan must run, where a case says: as it likes; on the tuned path (Fft3d); with every
// field of a batch in each exchange; or with DFTs on the same boxes joined in one FFTW plan.
enum class Path { any, tuned, fields_together, joined };

template <typename Real>
void check_case(a2a::test::Harness& h, const Case& c, const std::vector<Box>& in_boxes,
                const std::vector<Box>& out_boxes, const Variant& v, const std::string& label,
                Path path = Path::any) {
  using Complex = std::complex<Real>;
  const auto me = static_cast<std::size_t>(h.rank());
  a2a::fft::BoxOptions o;
  o.n = c.n;
  o.in = in_boxes[me];
  o.out = out_boxes[me];
  o.kinds = c.kinds;
  o.r2c = c.r2c;
  o.batch = c.batch;
  o.batch_layout =
      v.contiguous ? a2a::fft::BatchLayout::contiguous : a2a::fft::BatchLayout::interleaved;
  o.backend = h.procs() % 2 == 0 ? "pairwise" : "auto";
  o.external_workspace = v.external;
  o.in_order = v.in_order;
  o.out_order = v.out_order;
  o.r2c_padded = v.padded;
  if (v.measure) o.fftw_flags = FFTW_MEASURE;
  a2a::fft::BoxFft<Real> fft(h.comm(), o);
  const std::string plan = fft.describe();
  switch (path) {
    case Path::any:
      break;
    case Path::tuned:  // Fft3d's boxes and layout: the plan runs on Fft3d
      h.expect(plan.rfind("the tuned", 0) == 0, label + ": runs the tuned path (" + plan + ")");
      break;
    case Path::fields_together:
      h.expect(plan.rfind("each of the", 0) != 0 && plan.find("reshape") != std::string::npos,
               label + ": moves every field in each exchange (" + plan + ")");
      break;
    case Path::joined:
      h.expect(plan.find("along axes 2 and 1") != std::string::npos ||
                   plan.find("along axes 2, 1 and 0") != std::string::npos,
               label + ": the planes' DFTs in one plan (" + plan + ")");
      break;
  }
  // The cases whose DFT lines lie 4 KiB apart on one rank's whole grid (in double: in float
  // half that): in column panels under estimate (where the plan is not the tuned path's), and
  // describe() says so.
  if (c.name.find("columns") != std::string::npos && sizeof(Real) == 8 && h.procs() == 1 &&
      !v.measure && plan.find("tuned") == std::string::npos) {
    h.expect(plan.find("(panels of") != std::string::npos,
             label + ": a DFT in column panels (" + plan + ")");
  }
  const Grid spectrum = c.r2c ? a2a::fft::r2c_grid(c.n) : c.n;
  const int in_parts = c.complex_in ? 2 : 1, out_parts = c.complex_out ? 2 : 1;
  const auto input =
      local_part<Real>(c.input, c.n, o.in, c.batch, in_parts, v.contiguous, v.in_order);
  auto expected =
      local_part<Real>(c.forward, spectrum, o.out, c.batch, out_parts, v.contiguous, v.out_order);
  const auto row = static_cast<std::size_t>(c.n[2] * c.batch);
  const auto padded_row = static_cast<std::size_t>(2 * (c.n[2] / 2 + 1) * c.batch);
  const std::vector<Real> given = v.padded ? pad_rows(input, row, padded_row) : input;
  h.expect(given.size() == fft.input_elements() * static_cast<std::size_t>(in_parts),
           label + ": input_elements() " + std::to_string(fft.input_elements()));
  const std::size_t in_reals = given.size(), out_reals = expected.size();
  // One array for both sides in place; the caller's workspace where asked.
  std::vector<Real> a(std::max(in_reals, out_reals) + 1), b(out_reals + 1);
  a2a::fft::AlignedVector<Complex> workspace(
      v.external ? fft.workspace_bytes() / sizeof(Complex) + 1 : 0);
  void* ws = v.external ? workspace.data() : nullptr;
  const std::size_t skew = v.misaligned ? 1 : 0;
  Real* const first = a.data() + skew;
  std::copy(given.begin(), given.end(), first);
  Real* out = v.in_place ? first : b.data() + skew;
  const auto scaling = v.symmetric ? a2a::fft::Scaling::symmetric : a2a::fft::Scaling::none;
  if (c.complex_in) {
    fft.forward(reinterpret_cast<const Complex*>(first), reinterpret_cast<Complex*>(out), scaling,
                ws);
  } else if (c.complex_out) {
    fft.forward(first, reinterpret_cast<Complex*>(out), scaling, ws);
  } else {
    fft.forward(first, out, scaling, ws);
  }
  const double tolerance = sizeof(Real) == 8 ? 1e-11 : 2e-5;
  std::vector<Real> got(out, out + out_reals);
  if (v.symmetric) {  // forward scaled by 1/sqrt(N): compare it scaled back
    double n = 1;
    for (std::size_t d = 0; d < 3; ++d) {
      const auto e = static_cast<double>(c.n[d]);
      switch (c.kinds[d]) {
        case Kind::dft:
          n *= e;
          break;
        case Kind::dct1:
          n *= 2 * (e - 1);
          break;
        case Kind::dst1:
          n *= 2 * (e + 1);
          break;
        case Kind::none:
          break;
        default:
          n *= 2 * e;
      }
    }
    for (Real& x : expected)
      x = static_cast<Real>(x / std::sqrt(n));
  }
  const double forward_error = relative_error(h.comm(), got, expected);
  h.expect(forward_error < tolerance, label + ": forward against NumPy/SciPy, error " +
                                          std::to_string(forward_error) + " (" + fft.describe() +
                                          ")");
  if (!v.in_place) {
    h.expect(std::equal(given.begin(), given.end(), first), label + ": the input left untouched");
  }
  // Backward from the output array into the input's: the round trip.
  Real* back = first;
  const auto inverse = v.symmetric ? a2a::fft::Scaling::symmetric : a2a::fft::Scaling::full;
  if (c.complex_in) {
    fft.backward(reinterpret_cast<const Complex*>(out), reinterpret_cast<Complex*>(back), inverse,
                 ws);
  } else if (c.complex_out) {
    fft.backward(reinterpret_cast<const Complex*>(out), back, inverse, ws);
  } else {
    fft.backward(out, back, inverse, ws);
  }
  if (!v.in_place) {
    h.expect(std::equal(got.begin(), got.end(), out),
             label + ": backward leaves its input (the spectrum) untouched");
  }
  const double round_trip =
      relative_error(h.comm(),
                     v.padded ? unpad_rows(back, row == 0 ? 0 : input.size() / row, row, padded_row)
                              : std::vector<Real>(back, back + in_reals),
                     input);
  h.expect(round_trip < tolerance, label + ": round trip, error " + std::to_string(round_trip));
}

// Values that no transform mixes stay apart: in a batch of two real fields (DCT-II along every
// axis) a NaN field leaves the other's spectrum bit for bit as it is beside a finite one, and
// with axis 2 of kind none a NaN plane (z = 0) leaves the other planes so. (Lines whose values
// the transform mixes anyway may share a DFT: transpose/fft/src/paired_trig.hpp.)
void check_independence(a2a::test::Harness& h) {
  const int P = h.procs();
  const auto me = h.rank();
  const Grid n{6, 7, 5};
  auto spectra = [&](int batch, std::array<Kind, 3> kinds, auto poisoned) {
    a2a::fft::BoxOptions o;
    o.n = n;
    o.in = a2a::fft::slab_box(n, P, me);
    o.out = a2a::fft::pencil_box(n, 0, P, me);
    o.kinds = kinds;
    o.batch = batch;
    a2a::fft::BoxFft<double> fft(h.comm(), o);
    std::vector<double> in(fft.input_elements()), out(fft.output_elements());
    for (std::size_t i = 0; i < in.size(); ++i)
      in[i] = poisoned(i) ? std::nan("") : std::sin(0.1 * static_cast<double>(i) + me);
    fft.forward(in.data(), out.data());
    return out;
  };
  for (const Kind k : {Kind::dct2, Kind::dct1, Kind::dst1}) {
    const std::array<Kind, 3> kinds{k, k, k};
    const auto finite = spectra(2, kinds, [](std::size_t) { return false; });
    const auto field0_nan = spectra(2, kinds, [](std::size_t i) { return i % 2 == 0; });
    bool same = true;
    for (std::size_t i = 1; i < finite.size(); i += 2)
      same = same && finite[i] == field0_nan[i];
    h.expect(same, "a batch of 2 real fields: a NaN field 0 leaves field 1's " + kind_name(k) +
                       " as it is");
  }
  // The input slab holds whole rows along z; the output pencil rows of its own z range.
  const auto z = static_cast<std::size_t>(n[2]);
  const a2a::Box out = a2a::fft::pencil_box(n, 0, P, me);
  const auto out_z = static_cast<std::size_t>(out.extent(2));
  for (const std::array<Kind, 3> none_z :
       {std::array<Kind, 3>{Kind::dct2, Kind::dct3, Kind::none},
        std::array<Kind, 3>{Kind::dct1, Kind::dst1, Kind::none}}) {
    const auto planes = spectra(1, none_z, [](std::size_t) { return false; });
    const auto plane0_nan = spectra(1, none_z, [&](std::size_t i) { return i % z == 0; });
    bool same = true;
    for (std::size_t i = 0; i < planes.size(); ++i) {
      const bool plane0 = out.lo[2] + static_cast<std::int64_t>(i % out_z) == 0;
      same = same && (plane0 || planes[i] == plane0_nan[i]);
    }
    h.expect(same, "axis 2 of kind none (" + kind_name(none_z[0]) + ", " + kind_name(none_z[1]) +
                       "): a NaN plane z = 0 leaves the other planes as they are");
  }
}

// A plan with external_workspace keeps no work arrays of its own: it takes at least
// workspace_bytes() less heap than the same plan without it (glibc's count of the bytes in use;
// each plan made while a third, alike, is alive, so that FFTW's shared twiddles are there).
void check_external_workspace_memory(a2a::test::Harness& h) {
#if defined(__SANITIZE_ADDRESS__)
  if (h.rank() == 0)
    std::printf("external workspace's memory: not checked (AddressSanitizer's allocator)\n");
#else
  const Grid n{48, 48, 48};
  a2a::fft::BoxOptions o;
  o.n = n;
  o.in = a2a::fft::slab_box(n, h.procs(), h.rank());
  o.out = a2a::fft::pencil_box(n, 0, h.procs(), h.rank());
  auto in_use = [] {
    const struct mallinfo2 m = mallinfo2();
    return static_cast<long long>(m.uordblks + m.hblkhd);
  };
  const a2a::fft::BoxFft<double> warm(h.comm(), o);
  auto growth = [&](bool external) {
    o.external_workspace = external;
    const long long before = in_use();
    const a2a::fft::BoxFft<double> fft(h.comm(), o);
    return std::pair{in_use() - before, static_cast<long long>(fft.workspace_bytes())};
  };
  const auto [own, workspace] = growth(false);
  const auto [external, external_workspace] = growth(true);
  h.expect(
      workspace > 0 && external_workspace == workspace && 10 * (own - external) >= 9 * workspace,
      "a plan with external_workspace holds no work arrays: " + std::to_string(external) +
          " bytes of heap against " + std::to_string(own) + " without it, workspace " +
          std::to_string(workspace));
#endif
}

void check_misuse(a2a::test::Harness& h) {
  const int P = h.procs();
  const auto me = h.rank();
  const Grid n{6, 5, 4};
  auto plan = [&](auto change) {
    return [&, change] {
      a2a::fft::BoxOptions o;
      o.n = n;
      o.in = a2a::fft::slab_box(n, P, me);
      o.out = a2a::fft::pencil_box(n, 0, P, me);
      change(o);
      a2a::fft::BoxFft<double> fft(h.comm(), o);
    };
  };
  using a2a::test::expect_error;
  expect_error(h, "a batch of 0", "batch 0", plan([](auto& o) { o.batch = 0; }));
  expect_error(h, "DCT-I of length 1", "DCT-I needs at least 2 points", plan([](auto& o) {
                 o.n[2] = 1;
                 o.kinds = {Kind::dft, Kind::dft, Kind::dct1};
                 o.in = a2a::Box{{0, 0, 0}, {0, 0, 0}};
                 o.out = o.in;
               }));
  expect_error(h, "r2c along a real kind", "its kind must be dft", plan([](auto& o) {
                 o.r2c = true;
                 o.kinds[2] = Kind::dct2;
               }));
  expect_error(h, "boxes leaving a hole", "leave holes", plan([&](auto& o) {
                 if (me == P - 1) o.in.hi[1] = o.in.lo[1];  // the last rank's box emptied
               }));
  if (P > 1) {
    expect_error(h, "overlapping boxes", "overlap", plan([&](auto& o) {
                   if (me == P - 2) o.in = a2a::fft::slab_box(n, P, P - 1);
                 }));
    expect_error(h, "one rank's kinds differ", "options differ from rank 0's", plan([&](auto& o) {
                   if (me == P - 1) o.kinds[1] = Kind::dst2;
                 }));
  }
  expect_error(h, "a box outside the grid", "is not a box inside", plan([&](auto& o) {
                 if (me == P - 1) o.out.hi[0] = 7;
               }));
  expect_error(h, "real arrays for a complex plan", "call it with complex arrays", [&] {
    a2a::fft::BoxOptions o;
    o.n = n;
    o.in = a2a::fft::slab_box(n, P, me);
    o.out = o.in;
    a2a::fft::BoxFft<double> fft(h.comm(), o);
    std::vector<double> x(static_cast<std::size_t>(2 * o.in.count()) + 1);
    fft.forward(x.data(), x.data());
  });
  expect_error(h, "no workspace for an external-workspace plan", "none given", [&] {
    a2a::fft::BoxOptions o;
    o.n = n;
    o.in = a2a::fft::slab_box(n, P, me);
    o.out = o.in;
    o.external_workspace = true;
    a2a::fft::BoxFft<double> fft(h.comm(), o);
    std::vector<std::complex<double>> x(static_cast<std::size_t>(o.in.count()) + 1);
    fft.forward(x.data(), x.data());
  });
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    a2a::test::Harness h("test_box_fft");
    std::vector<Case> cases;
    const hid_t file = argc > 1 ? H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    if (file >= 0) {
      H5Literate(file, H5_INDEX_NAME, H5_ITER_INC, nullptr, add_case, &cases);
      H5Fclose(file);
    }
    h.expect(cases.size() >= 10,
             "the reference file holds the cases (" + std::to_string(cases.size()) + " read)");
    std::mt19937_64 rng(12345 + static_cast<unsigned>(h.procs()));
    const bool one_node = a2a::ranks_sharing_memory(h.comm()) == h.procs();
    int trial = 0;
    for (const Case& c : cases) {
      const Grid spectrum = c.r2c ? a2a::fft::r2c_grid(c.n) : c.n;
      for (int t = 0; t < 3; ++t, ++trial) {
        const auto in = random_bricks(c.n, h.procs(), rng);
        const auto out = random_bricks(spectrum, h.procs(), rng);
        Variant v;
        v.in_place = t == 1;
        v.contiguous = c.batch > 1 && t != 0;
        v.external = t == 2;
        v.symmetric = t == 2 && trial % 2 == 0;
        v.measure = t == 2;
        if (t == 1) {  // the caller's axes in another order on each side
          std::array<int, 3> a{0, 1, 2}, b{0, 1, 2};
          std::shuffle(a.begin(), a.end(), rng);
          std::shuffle(b.begin(), b.end(), rng);
          v.in_order = a;
          v.out_order = b;
        }
        const std::string label = c.name + " trial " + std::to_string(t);
        check_case<double>(h, c, in, out, v, label + " double");
        if (t == 0) check_case<float>(h, c, in, out, v, label + " float");
        Variant skewed = v;  // misaligned arrays, out of place and in place
        skewed.misaligned = true;
        if (t < 2) check_case<double>(h, c, in, out, skewed, label + " double, misaligned");
      }
      // The proposed boxes: slabs in, pencils along x out (a slab FFT's transposed layout).
      std::vector<Box> slabs, pencils;
      for (int r = 0; r < h.procs(); ++r) {
        slabs.push_back(a2a::fft::slab_box(c.n, h.procs(), r));
        pencils.push_back(a2a::fft::pencil_box(spectrum, 0, h.procs(), r));
      }
      check_case<double>(h, c, slabs, pencils, {}, c.name + " slabs to x-pencils");
      // Timed by FFTW, a slab's DFTs along y and z are one 2D plan (r2c's too) where the plan is
      // not the tuned path's; into misaligned arrays (a last c2r, which writes the caller's
      // output, then runs into its stand-in).
      Variant measured;
      measured.measure = measured.misaligned = true;
      const bool runs_tuned =
          c.batch == 1 && h.procs() == 1 &&
          std::all_of(c.kinds.begin(), c.kinds.end(), [](Kind k) { return k == Kind::dft; });
      const bool planes = c.kinds[1] == Kind::dft && c.kinds[2] == Kind::dft && !runs_tuned;
      check_case<double>(h, c, slabs, pencils, measured,
                         c.name + " slabs to x-pencils, measure, misaligned",
                         planes ? Path::joined : Path::any);
      // FFTW-MPI's transposed slab layout: the spectrum split along y, stored [y][x][z].
      std::vector<Box> y_slabs;
      for (int r = 0; r < h.procs(); ++r) {
        y_slabs.push_back(a2a::fft::slab_box(spectrum, h.procs(), r, 1));
      }
      Variant transposed;
      transposed.out_order = {1, 0, 2};
      check_case<double>(h, c, slabs, y_slabs, transposed, c.name + " FFTW-MPI transposed out");
      const bool one_dft = c.batch == 1 && std::all_of(c.kinds.begin(), c.kinds.end(),
                                                       [](Kind k) { return k == Kind::dft; });
      if (one_dft) {  // Fft3d's boxes (the tuned path): in place, float, symmetric, natural
        Variant tuned = transposed;
        tuned.in_place = true;
        // (On one rank Fft3d's spectrum is [x][y][z]: this layout is the general path's.)
        const bool transposed_tuned = h.procs() > 1;
        check_case<double>(h, c, slabs, y_slabs, tuned, c.name + " tuned slab, in place",
                           transposed_tuned ? Path::tuned : Path::any);
        tuned.in_place = false;
        tuned.symmetric = true;
        check_case<float>(h, c, slabs, y_slabs, tuned, c.name + " tuned slab, float",
                          transposed_tuned ? Path::tuned : Path::any);
        std::vector<Box> spectrum_slabs, z_pencils, x_pencils;
        for (int r = 0; r < h.procs(); ++r) {
          spectrum_slabs.push_back(a2a::fft::slab_box(spectrum, h.procs(), r));
          z_pencils.push_back(a2a::fft::pencil_box(c.n, 2, h.procs(), r));
          x_pencils.push_back(a2a::fft::pencil_box(spectrum, 0, h.procs(), r));
        }
        Variant natural;
        natural.in_place = !c.r2c;
        check_case<double>(h, c, slabs, spectrum_slabs, natural, c.name + " tuned, natural",
                           Path::tuned);
        check_case<double>(h, c, z_pencils, x_pencils, {}, c.name + " tuned pencil", Path::tuned);
      }
      const bool all_dft =
          std::all_of(c.kinds.begin(), c.kinds.end(), [](Kind k) { return k == Kind::dft; });
      if (c.batch > 1 && all_dft) {
        // A contiguous batch on FFTW-MPI's transposed slab boxes, on one node. One
        // rank has no exchange to share: each field in turn. c2c_batch3_slabs at P <= 5 sends
        // more than 4 KiB of a field to a peer and one field runs the tuned path: each field in
        // turn on it. The other cases send less (or are r2c, whose fields take fewer bytes in
        // than out): every field in each exchange.
        const auto me = static_cast<std::size_t>(h.rank());
        a2a::fft::BoxOptions o;
        o.n = c.n;
        o.r2c = c.r2c;
        o.in = slabs[me];
        o.out = y_slabs[me];
        o.out_order = {1, 0, 2};
        const std::string single = a2a::fft::BoxFft<double>(h.comm(), o).describe();
        o.batch = c.batch;
        o.batch_layout = a2a::fft::BatchLayout::contiguous;
        const std::string batch = a2a::fft::BoxFft<double>(h.comm(), o).describe();
        const std::string in_turn = "each of the " + std::to_string(c.batch) + " fields in turn: ";
        // Across nodes (the emulated cluster) fields share messages of up to 16 KiB: there
        // only P = 2 (36 KiB) runs the fields in turn.
        const bool large_pieces =
            c.name == "c2c_batch3_slabs" && (one_node ? h.procs() <= 5 : h.procs() <= 2);
        if (h.procs() == 1 && !c.r2c) {
          h.expect(batch == in_turn + single, c.name + " contiguous batch, one rank: " + batch);
        } else if (large_pieces) {
          h.expect(single.rfind("the tuned", 0) == 0 && batch == in_turn + single,
                   c.name + " contiguous batch on slabs, each field on the tuned path: " + batch);
        } else if (h.procs() > 1) {
          h.expect(batch.rfind(in_turn, 0) != 0 && batch.find("reshape") != std::string::npos,
                   c.name + " contiguous batch on slabs, the fields together: " + batch);
        }
        Variant apart = transposed;
        apart.contiguous = true;
        apart.in_place = !c.r2c;
        check_case<double>(h, c, slabs, y_slabs, apart, c.name + " contiguous batch, slabs");
        apart.in_place = false;
        apart.symmetric = true;
        check_case<float>(h, c, slabs, y_slabs, apart, c.name + " contiguous batch, slabs, float");
        if (h.procs() > 1) {  // boxes that only the general path takes: the fields together
          Variant together;
          together.contiguous = true;
          check_case<double>(h, c, slabs, pencils, together,
                             c.name + " contiguous batch, slabs to x-pencils",
                             large_pieces ? Path::any : Path::fields_together);
        }
      }
      if (c.r2c) {  // FFTW's in-place r2c: padded rows, one array
        Variant padded = transposed;
        padded.padded = true;
        padded.in_place = true;
        check_case<double>(h, c, slabs, y_slabs, padded, c.name + " in place, padded rows");
        check_case<float>(h, c, slabs, pencils, padded, c.name + " in place, padded rows, float");
      }
    }
    check_independence(h);
    check_external_workspace_memory(h);
    check_misuse(h);
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
