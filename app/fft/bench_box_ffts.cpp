// a2a_box_ffts N [ITERS] [estimate|measure]: BoxFft (the FFT library's general path: any boxes,
// kinds, batches) beside Fft3d (its tuned slab and pencil path) on an N^3 grid over the launch's P
// ranks, slabs in and FFTW-MPI's transposed spectrum out ([y][x][z] over y-slabs) unless said.
// Series, interleaved within every round, each timed on its second run in a row (the first
// untimed: its own arrays then as warm as in a loop of its transforms, whichever series ran
// before it; forward then backward, between barriers, the slowest rank's time):
//   fft3d_c2c      Fft3d, c2c
//   box_c2c        BoxFft, c2c (Fft3d's boxes and layout: BoxFft runs its tuned path, Fft3d)
//   box_c2c_general  BoxFft, c2c, x-pencils [x][y][z] out (the general path: its one reshape)
//   box_c2c_x3     BoxFft, a batch of 3 interleaved fields in one plan, x-pencils out
//   box_c2c_x3_contiguous  the same batch with the fields contiguous (field after field)
//   box_c2c_x3_transposed  the batch of 3 interleaved fields on FFTW-MPI's boxes and layout
//                  (slabs in, [y][x][z] y-slabs out): like for like with fftw_mpi_c2c_x3_in_place
//   box_c2c_x3_transposed_contiguous  the same 3 fields contiguous on those boxes (where the
//                  grid splits evenly, one field's plan is the tuned path: run on each in turn)
//   box_c2c_3_singles  the one-field plan of box_c2c_general run on each of the batch's 3
//                  fields in turn (3 forward, then 3 backward): the 3 single transforms a batch
//                  replaces, on 3 fields' memory as the batch's
//   box_c2c_3_singles_transposed  the same with box_c2c's plan (FFTW-MPI's boxes and layout)
//   box_dct2       BoxFft, DCT-II along every axis (real data, the same N^3), x-pencils out
//   box_dct4       the same with DCT-IV
//   box_dct1       the same with DCT-I (its logical size 2(N - 1): prime factors at N = 2^k)
//   box_dct1_n_plus_1  DCT-I on the (N+1)^3 grid, the size DCT-I grids take (2^k + 1 points:
//                  logical size 2^(k+1)), beside the c2c of N^3
//   box_dst1_n_minus_1  DST-I on the (N-1)^3 grid, the size DST-I grids take (2^k - 1 points:
//                  logical size 2^(k+1)), beside the c2c of N^3
//   fftw_mpi_c2c   FFTW-MPI's own, the same layout (FFTW_MPI_TRANSPOSED_OUT), out of place
//   fftw_mpi_c2c_in_place  the same in place, its fastest form (where a2a was built with
//                  FFTW-MPI: both)
//   fftw_mpi_c2c_x3_in_place  FFTW-MPI's batch of 3 interleaved fields (howmany), in place
//   fftw_r2r_dct1  on one rank (P = 1) only: serial FFTW's own DCT-I of the N^3 grid
//                  (fftw_plan_r2r_3d, REDFT00 along every axis), out of place, beside box_dct1
// Every plan with the same FFTW planner: estimate (the library's default) or measure.
// One JSON line per series: the median and each round's time (us), the round trip's error, and
// what a BoxFft plan does (its describe(): how a batch runs, on which path) and what an a2a plan
// holds (memory_bytes(), the largest rank's).
// scripts/measure box-fft runs it and writes the dated record. Not a test: it asserts nothing.
#include <fftw3.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "a2a/fft.hpp"
#ifdef A2A_WITH_FFTW_MPI
#include <fftw3-mpi.h>
#endif

namespace {

using Complex = std::complex<double>;
using Array = a2a::fft::AlignedVector<Complex>;
using Grid = std::array<std::int64_t, 3>;

struct Series {
  std::string name;
  std::function<void()> pair;  // forward then backward
  std::function<double()> error;
  std::vector<double> us;
  std::string plan;  // what a BoxFft plan does (describe()): how its batch runs
  // What an a2a plan holds on this rank (memory_bytes()); 0: not known.
  std::size_t memory_bytes = 0;
};

template <typename T>
double max_error(const T& a, const T& b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

// Deterministic input values, the same for every series.
std::vector<double> seeded(std::size_t size) {
  std::vector<double> v(size);
  for (std::size_t i = 0; i < size; ++i)
    v[i] = std::sin(0.001 * static_cast<double>(i * 7919 + 1));
  return v;
}

// A pair of a2a plans' series over arrays of its own: input, spectrum, round trip.
template <typename In>
struct Transformed {
  a2a::fft::AlignedVector<In> in, spectrum, back;
};

// The library's series: Fft3d and BoxFft (c2c, a batch of 3, DCT-II), slabs in and FFTW-MPI's
// transposed spectrum out, every plan with `flags`.
class LibrarySeries {
 public:
  LibrarySeries(const Grid& grid, unsigned flags, const std::vector<double>& seeds) {
    int procs = 1, rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &procs);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const a2a::Box slab = a2a::fft::slab_box(grid, procs, rank);
    const a2a::Box y_slab = a2a::fft::slab_box(grid, procs, rank, 1);
    const auto in_count = static_cast<std::size_t>(slab.count());
    const auto count =
        std::max({in_count, static_cast<std::size_t>(y_slab.count()),
                  static_cast<std::size_t>(a2a::fft::pencil_box(grid, 0, procs, rank).count())});
    a2a::fft::Options o3;
    o3.n = grid;
    o3.p1 = procs;
    o3.fftw_flags = flags;
    fft3d_ = std::make_unique<a2a::fft::Fft3d<double>>(MPI_COMM_WORLD, o3);
    a2a::fft::BoxOptions ob;
    ob.n = grid;
    ob.in = slab;
    ob.out = y_slab;
    ob.out_order = {1, 0, 2};
    ob.fftw_flags = flags;
    box_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, ob);
    a2a::fft::BoxOptions o_general = ob;
    o_general.out = a2a::fft::pencil_box(grid, 0, procs, rank);
    o_general.out_order = {0, 1, 2};
    general_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_general);
    a2a::fft::BoxOptions o_batch = o_general;
    o_batch.batch = 3;
    batch_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_batch);
    o_batch.batch_layout = a2a::fft::BatchLayout::contiguous;
    batch_apart_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_batch);
    a2a::fft::BoxOptions o_batch_transposed = ob;
    o_batch_transposed.batch = 3;
    batch_transposed_ =
        std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_batch_transposed);
    o_batch_transposed.batch_layout = a2a::fft::BatchLayout::contiguous;
    batch_transposed_apart_ =
        std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_batch_transposed);
    a2a::fft::BoxOptions o_dct = o_general;
    o_dct.kinds = {a2a::fft::Kind::dct2, a2a::fft::Kind::dct2, a2a::fft::Kind::dct2};
    dct_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_dct);
    o_dct.kinds = {a2a::fft::Kind::dct4, a2a::fft::Kind::dct4, a2a::fft::Kind::dct4};
    dct4_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_dct);
    o_dct.kinds = {a2a::fft::Kind::dct1, a2a::fft::Kind::dct1, a2a::fft::Kind::dct1};
    dct1_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_dct);
    const Grid plus_one{grid[0] + 1, grid[1] + 1, grid[2] + 1};
    o_dct.n = plus_one;
    o_dct.in = a2a::fft::slab_box(plus_one, procs, rank);
    o_dct.out = a2a::fft::pencil_box(plus_one, 0, procs, rank);
    dct1_plus_one_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_dct);
    const Grid minus_one{grid[0] - 1, grid[1] - 1, grid[2] - 1};
    o_dct.kinds = {a2a::fft::Kind::dst1, a2a::fft::Kind::dst1, a2a::fft::Kind::dst1};
    o_dct.n = minus_one;
    o_dct.in = a2a::fft::slab_box(minus_one, procs, rank);
    o_dct.out = a2a::fft::pencil_box(minus_one, 0, procs, rank);
    dst1_minus_one_ = std::make_unique<a2a::fft::BoxFft<double>>(MPI_COMM_WORLD, o_dct);
    single_ = complex_arrays(seeds, in_count, count);
    triple_ = complex_arrays(seeds, 3 * in_count, 3 * count);
    real_.in.assign(seeds.begin(), seeds.begin() + static_cast<std::ptrdiff_t>(in_count));
    real_.spectrum.resize(count);
    real_.back.resize(in_count);
    const auto in_plus_one = dct1_plus_one_->input_elements();
    real_plus_one_.in.assign(seeds.begin(),
                             seeds.begin() + static_cast<std::ptrdiff_t>(in_plus_one));
    real_plus_one_.spectrum.resize(std::max(in_plus_one, dct1_plus_one_->output_elements()));
    real_plus_one_.back.resize(in_plus_one);
    const auto in_minus_one = dst1_minus_one_->input_elements();
    real_minus_one_.in.assign(seeds.begin(),
                              seeds.begin() + static_cast<std::ptrdiff_t>(in_minus_one));
    real_minus_one_.spectrum.resize(std::max(in_minus_one, dst1_minus_one_->output_elements()));
    real_minus_one_.back.resize(in_minus_one);
  }

  void add_to(std::vector<Series>& series) {
    series.push_back(of("fft3d_c2c", *fft3d_, single_));
    series.push_back(of("box_c2c", *box_, single_));
    series.push_back(of("box_c2c_general", *general_, single_));
    series.push_back(of("box_c2c_x3", *batch_, triple_));
    series.push_back(of("box_c2c_x3_contiguous", *batch_apart_, triple_));
    series.push_back(of("box_c2c_x3_transposed", *batch_transposed_, triple_));
    series.push_back(of("box_c2c_x3_transposed_contiguous", *batch_transposed_apart_, triple_));
    series.push_back(three_singles("box_c2c_3_singles", *general_));
    series.push_back(three_singles("box_c2c_3_singles_transposed", *box_));
    series.push_back(of("box_dct2", *dct_, real_));
    series.push_back(of("box_dct4", *dct4_, real_));
    series.push_back(of("box_dct1", *dct1_, real_));
    series.push_back(of("box_dct1_n_plus_1", *dct1_plus_one_, real_plus_one_));
    series.push_back(of("box_dst1_n_minus_1", *dst1_minus_one_, real_minus_one_));
  }

 private:
  static Transformed<Complex> complex_arrays(const std::vector<double>& seeds, std::size_t in,
                                             std::size_t out) {
    Transformed<Complex> t{Array(in), Array(out), Array(in)};
    for (std::size_t i = 0; i < in; ++i)
      t.in[i] = {seeds[2 * i], seeds[2 * i + 1]};
    return t;
  }
  template <typename Plan, typename In>
  static Series of(const std::string& name, Plan& plan, Transformed<In>& t) {
    std::string described;
    if constexpr (requires { plan.describe(); }) described = plan.describe();
    return {name,
            [&plan, &t] {
              plan.forward(t.in.data(), t.spectrum.data());
              plan.backward(t.spectrum.data(), t.back.data());
            },
            [&t] { return max_error(t.in, t.back); },
            {},
            described,
            plan.memory_bytes()};
  }

  // A one-field plan on each of triple_'s 3 fields (each array a third per field).
  Series three_singles(const std::string& name, a2a::fft::BoxFft<double>& plan) {
    return {name,
            [this, &plan] {
              const std::size_t in = triple_.in.size() / 3, out = triple_.spectrum.size() / 3;
              for (std::size_t f = 0; f < 3; ++f)
                plan.forward(triple_.in.data() + f * in, triple_.spectrum.data() + f * out);
              for (std::size_t f = 0; f < 3; ++f)
                plan.backward(triple_.spectrum.data() + f * out, triple_.back.data() + f * in);
            },
            [this] { return max_error(triple_.in, triple_.back); },
            {},
            plan.describe(),
            plan.memory_bytes()};
  }

  std::unique_ptr<a2a::fft::Fft3d<double>> fft3d_;
  std::unique_ptr<a2a::fft::BoxFft<double>> box_, general_, batch_, batch_apart_, batch_transposed_,
      batch_transposed_apart_, dct_, dct4_, dct1_, dct1_plus_one_, dst1_minus_one_;
  Transformed<Complex> single_, triple_;
  Transformed<double> real_, real_plus_one_, real_minus_one_;
};

#ifdef A2A_WITH_FFTW_MPI
// FFTW-MPI's slab, spectrum transposed ([y][x][z] over y-slabs), out of place: its own
// distribution (ceil(n/P) planes), arrays from its local_size.
class FftwMpiSeries {
 public:
  // in_place: FFTW-MPI's fastest form, one array both ways (its values grow by N each round:
  // finite for the rounds run here); else out of place, as a2a's series run. howmany: fields
  // interleaved (FFTW-MPI's many interface), transformed by one plan.
  FftwMpiSeries(const Grid& grid, unsigned flags, const std::vector<double>& seeds, bool in_place,
                ptrdiff_t howmany = 1)
      : in_place_(in_place), howmany_(howmany) {
    const auto [n0, n1, n2] = grid;
    const ptrdiff_t n[3] = {n0, n1, n2};
    ptrdiff_t local_n0 = 0, local_0_start = 0, local_n1 = 0, local_1_start = 0;
    const ptrdiff_t alloc = fftw_mpi_local_size_many_transposed(
        3, n, howmany, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, MPI_COMM_WORLD, &local_n0,
        &local_0_start, &local_n1, &local_1_start);
    for (std::size_t i = 0; i < 3; ++i) {
      storage_[i].resize(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
      arrays_[i] = reinterpret_cast<fftw_complex*>(storage_[i].data());
    }
    if (in_place) arrays_[1] = arrays_[2] = arrays_[0];
    auto [in, out, back] = arrays_;
    forward_ =
        fftw_mpi_plan_many_dft(3, n, howmany, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, in,
                               out, MPI_COMM_WORLD, FFTW_FORWARD, flags | FFTW_MPI_TRANSPOSED_OUT);
    backward_ =
        fftw_mpi_plan_many_dft(3, n, howmany, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, out,
                               back, MPI_COMM_WORLD, FFTW_BACKWARD, flags | FFTW_MPI_TRANSPOSED_IN);
    input_.resize(static_cast<std::size_t>(local_n0 * n1 * n2 * howmany));
    for (std::size_t i = 0; i < input_.size(); ++i)
      input_[i] = {seeds[2 * i % seeds.size()], seeds[(2 * i + 1) % seeds.size()]};
    std::copy_n(reinterpret_cast<const double*>(input_.data()), 2 * input_.size(),
                reinterpret_cast<double*>(in));
    total_ = static_cast<double>(n0 * n1 * n2);
  }
  ~FftwMpiSeries() {
    fftw_destroy_plan(forward_);
    fftw_destroy_plan(backward_);
  }
  FftwMpiSeries(const FftwMpiSeries&) = delete;

  Series series() {
    return {
        std::string(howmany_ > 1 ? "fftw_mpi_c2c_x" + std::to_string(howmany_) : "fftw_mpi_c2c") +
            (in_place_ ? "_in_place" : ""),
        [this] {
          fftw_execute(forward_);
          fftw_execute(backward_);
        },
        [this] {
          if (in_place_) {  // one round trip from the input again
            std::copy_n(reinterpret_cast<const double*>(input_.data()), 2 * input_.size(),
                        reinterpret_cast<double*>(arrays_[0]));
            fftw_execute(forward_);
            fftw_execute(backward_);
          }
          const fftw_complex* back = arrays_[2];
          double e = 0;
          for (std::size_t i = 0; i < input_.size(); ++i)
            e = std::max(e, std::abs(Complex(back[i][0], back[i][1]) / total_ - input_[i]));
          return e;
        },
        {},
        {}};
  }

 private:
  std::array<Array, 3> storage_;
  std::array<fftw_complex*, 3> arrays_{};  // in, out, back: storage_'s
  fftw_plan forward_ = nullptr, backward_ = nullptr;
  std::vector<Complex> input_;
  double total_ = 1;
  bool in_place_ = false;
  ptrdiff_t howmany_ = 1;
};
#endif

// Serial FFTW's DCT-I along every axis of the whole N^3 grid (REDFT00, its own inverse up to
// 2(n - 1) per axis), out of place: what box_dct1 is on one rank.
class FftwDct1Series {
 public:
  FftwDct1Series(const Grid& grid, unsigned flags, const std::vector<double>& seeds)
      : in_(static_cast<std::size_t>(grid[0] * grid[1] * grid[2])),
        spectrum_(in_.size()),
        back_(in_.size()) {
    const auto [n0, n1, n2] = grid;
    const auto kind = FFTW_REDFT00;
    const int n[3] = {static_cast<int>(n0), static_cast<int>(n1), static_cast<int>(n2)};
    forward_ =
        fftw_plan_r2r_3d(n[0], n[1], n[2], in_.data(), spectrum_.data(), kind, kind, kind, flags);
    backward_ =
        fftw_plan_r2r_3d(n[0], n[1], n[2], spectrum_.data(), back_.data(), kind, kind, kind, flags);
    for (std::size_t i = 0; i < in_.size(); ++i)
      in_[i] = seeds[i % seeds.size()];
    total_ = 8.0 * static_cast<double>((n0 - 1) * (n1 - 1) * (n2 - 1));
  }
  ~FftwDct1Series() {
    fftw_destroy_plan(forward_);
    fftw_destroy_plan(backward_);
  }
  FftwDct1Series(const FftwDct1Series&) = delete;

  Series series() {
    return {"fftw_r2r_dct1",
            [this] {
              fftw_execute(forward_);
              fftw_execute(backward_);
            },
            [this] {
              double e = 0;
              for (std::size_t i = 0; i < in_.size(); ++i)
                e = std::max(e, std::abs(back_[i] / total_ - in_[i]));
              return e;
            },
            {},
            {}};
  }

 private:
  a2a::fft::AlignedVector<double> in_, spectrum_, back_;
  fftw_plan forward_ = nullptr, backward_ = nullptr;
  double total_ = 1;
};

// Every series once per round, in turn, between barriers: the slowest rank's time (us).
void time_rounds(std::vector<Series>& series, int iters) {
  for (int round = -2; round < iters; ++round) {  // two warm-up rounds
    for (Series& x : series) {
      // Untimed: else a series that follows one on the same arrays (box_c2c_general after
      // box_c2c) finds them in the caches and one on its own arrays does not, which at small
      // grids moves the ratios between them by a third.
      x.pair();
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      x.pair();
      double t = MPI_Wtime() - t0;
      MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (round >= 0) x.us.push_back(t * 1e6);
    }
  }
}

// One JSON line per series (rank 0): the median, each round's time, the round trip's error, the
// plan's description and memory.
void report(std::vector<Series>& series, std::int64_t n) {
  int procs = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (Series& x : series) {
    double error = x.error();
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    unsigned long long memory = x.memory_bytes;
    MPI_Allreduce(MPI_IN_PLACE, &memory, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    std::vector<double> sorted = x.us;
    std::sort(sorted.begin(), sorted.end());
    if (rank != 0) continue;
    std::printf(
        "{\"series\": \"%s\", \"n\": %lld, \"procs\": %d, \"median_us\": %.2f, "
        "\"round_trip_error\": %.3g, \"us\": [",
        x.name.c_str(), static_cast<long long>(n), procs, sorted[sorted.size() / 2], error);
    for (std::size_t i = 0; i < x.us.size(); ++i)
      std::printf("%s%.2f", i ? ", " : "", x.us[i]);
    std::string plan;  // as a JSON string
    for (char c : x.plan) {
      if (c == '"' || c == '\\') plan += '\\';
      plan += c;
    }
    std::printf("], \"plan\": \"%s\"", plan.c_str());
    if (memory > 0) std::printf(", \"memory_bytes\": %llu", memory);
    std::printf("}\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 64;
  const int iters = argc > 2 ? std::atoi(argv[2]) : 20;
  const std::string planner = argc > 3 ? argv[3] : "estimate";
  if (n < 2 || iters < 1 || (planner != "estimate" && planner != "measure")) {
    if (rank == 0) std::fprintf(stderr, "usage: a2a_box_ffts N [ITERS] [estimate|measure]\n");
    MPI_Finalize();
    return 2;
  }
  const Grid grid{n, n, n};
  const unsigned flags = planner == "measure" ? FFTW_MEASURE : FFTW_ESTIMATE;
  int procs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  const std::int64_t largest =
      std::max({a2a::fft::slab_box(grid, procs, rank).count(),
                a2a::fft::slab_box(grid, procs, rank, 1).count(),
                a2a::fft::slab_box({n + 1, n + 1, n + 1}, procs, rank).count()});
  // Enough for 3 complex fields of this rank's larger box (and the real (N+1)^3 slab).
  const std::vector<double> seeds = seeded(static_cast<std::size_t>(6 * largest));
#ifdef A2A_WITH_FFTW_MPI
  fftw_mpi_init();
#endif
  {
    std::vector<Series> series;
    LibrarySeries library(grid, flags, seeds);
    library.add_to(series);
#ifdef A2A_WITH_FFTW_MPI
    FftwMpiSeries fftw_mpi(grid, flags, seeds, false), fftw_mpi_in_place(grid, flags, seeds, true),
        fftw_mpi_x3(grid, flags, seeds, true, 3);
    series.push_back(fftw_mpi.series());
    series.push_back(fftw_mpi_in_place.series());
    series.push_back(fftw_mpi_x3.series());
#endif
    std::unique_ptr<FftwDct1Series> fftw_dct1;
    if (procs == 1) {
      fftw_dct1 = std::make_unique<FftwDct1Series>(grid, flags, seeds);
      series.push_back(fftw_dct1->series());
    }
    time_rounds(series, iters);
    report(series, n);
  }
#ifdef A2A_WITH_FFTW_MPI
  fftw_mpi_cleanup();  // after every FFTW-MPI plan is destroyed
#endif
  MPI_Finalize();
  return 0;
}
