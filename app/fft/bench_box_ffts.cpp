// a2a_box_ffts N [ITERS] [estimate|measure]: BoxFft (the FFT library's general path: any boxes,
// kinds, batches) beside Fft3d (its tuned slab and pencil path) on an N^3 grid over the launch's P
// ranks, slabs in and FFTW-MPI's transposed spectrum out ([y][x][z] over y-slabs) for both. Series,
// interleaved within every round (forward then backward, between barriers, the slowest rank's
// time):
//   fft3d_c2c      Fft3d, c2c
//   box_c2c        BoxFft, c2c
//   box_c2c_x3     BoxFft, a batch of 3 interleaved fields in one plan
//   box_dct2       BoxFft, DCT-II along every axis (real data, the same N^3)
//   fftw_mpi_c2c   FFTW-MPI's own, the same layout (FFTW_MPI_TRANSPOSED_OUT), out of place
//                  (where a2a was built with FFTW-MPI)
// Every plan with the same FFTW planner: estimate (the library's default) or measure.
// One JSON line per series: the median and each round's time (us), and the round trip's error.
// scripts/measure box-fft runs it and writes the dated record. Not a test: it asserts nothing.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "a2a/fft.hpp"
#ifdef A2A_WITH_FFTW_MPI
#include <fftw3-mpi.h>
#endif

namespace {

using Complex = std::complex<double>;

struct Series {
  std::string name;
  std::function<void()> pair;  // forward then backward
  std::function<double()> error;
  std::vector<double> us;
};

template <typename T>
double max_error(const std::vector<T>& a, const std::vector<T>& b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int procs = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 64;
  const int iters = argc > 2 ? std::atoi(argv[2]) : 20;
  const std::string planner = argc > 3 ? argv[3] : "estimate";
  if (n < 2 || iters < 1 || (planner != "estimate" && planner != "measure")) {
    if (rank == 0) std::fprintf(stderr, "usage: a2a_box_ffts N [ITERS] [estimate|measure]\n");
    MPI_Finalize();
    return 2;
  }
  const std::array<std::int64_t, 3> grid{n, n, n};
  const a2a::Box slab = a2a::fft::slab_box(grid, procs, rank);
  const a2a::Box y_slab = a2a::fft::slab_box(grid, procs, rank, 1);
  const auto count = static_cast<std::size_t>(std::max(slab.count(), y_slab.count()));
  auto random = [&](std::size_t size, std::size_t seed) {
    std::vector<double> v(size);
    for (std::size_t i = 0; i < size; ++i)
      v[i] = std::sin(0.001 * static_cast<double>(i * 7919 + seed));
    return v;
  };

  const unsigned flags = planner == "measure" ? FFTW_MEASURE : FFTW_ESTIMATE;
  a2a::fft::Options o3;
  o3.n = grid;
  o3.p1 = procs;
  o3.fftw_flags = flags;
  a2a::fft::Fft3d<double> fft3d(MPI_COMM_WORLD, o3);
  a2a::fft::BoxOptions ob;
  ob.n = grid;
  ob.in = slab;
  ob.out = y_slab;
  ob.out_order = {1, 0, 2};
  ob.fftw_flags = flags;
  a2a::fft::BoxFft<double> box(MPI_COMM_WORLD, ob);
  a2a::fft::BoxOptions o_batch = ob;
  o_batch.batch = 3;
  a2a::fft::BoxFft<double> batch(MPI_COMM_WORLD, o_batch);
  a2a::fft::BoxOptions o_dct = ob;
  o_dct.kinds = {a2a::fft::Kind::dct2, a2a::fft::Kind::dct2, a2a::fft::Kind::dct2};
  a2a::fft::BoxFft<double> dct(MPI_COMM_WORLD, o_dct);

  using Array = a2a::fft::AlignedVector<Complex>;
  const auto seeds = random(2 * count * 3, 1);
  auto complex_input = [&](std::size_t size) {
    Array a(size);
    for (std::size_t i = 0; i < size; ++i)
      a[i] = {seeds[2 * i], seeds[2 * i + 1]};
    return a;
  };
  const auto in_count = static_cast<std::size_t>(slab.count());
  Array u = complex_input(in_count), s(count), back(in_count);
  Array u3 = complex_input(3 * in_count), s3(3 * count), back3(3 * in_count);
  a2a::fft::AlignedVector<double> r(in_count), rs(count), rback(in_count);
  std::copy_n(seeds.begin(), in_count, r.begin());
  std::vector<Series> series;
  series.push_back({"fft3d_c2c",
                    [&] {
                      fft3d.forward(u.data(), s.data());
                      fft3d.backward(s.data(), back.data());
                    },
                    [&] {
                      return max_error(std::vector<Complex>(u.begin(), u.end()),
                                       std::vector<Complex>(back.begin(), back.end()));
                    },
                    {}});
  series.push_back({"box_c2c",
                    [&] {
                      box.forward(u.data(), s.data());
                      box.backward(s.data(), back.data());
                    },
                    [&] {
                      return max_error(std::vector<Complex>(u.begin(), u.end()),
                                       std::vector<Complex>(back.begin(), back.end()));
                    },
                    {}});
  series.push_back({"box_c2c_x3",
                    [&] {
                      batch.forward(u3.data(), s3.data());
                      batch.backward(s3.data(), back3.data());
                    },
                    [&] {
                      return max_error(std::vector<Complex>(u3.begin(), u3.end()),
                                       std::vector<Complex>(back3.begin(), back3.end()));
                    },
                    {}});
  series.push_back({"box_dct2",
                    [&] {
                      dct.forward(r.data(), rs.data());
                      dct.backward(rs.data(), rback.data());
                    },
                    [&] {
                      return max_error(std::vector<double>(r.begin(), r.end()),
                                       std::vector<double>(rback.begin(), rback.end()));
                    },
                    {}});
#ifdef A2A_WITH_FFTW_MPI
  // FFTW-MPI's slab, spectrum transposed ([y][x][z] over y-slabs), out of place: its own
  // distribution (ceil(n/P) planes), arrays from its local_size.
  fftw_mpi_init();
  ptrdiff_t local_n0 = 0, local_0_start = 0, local_n1 = 0, local_1_start = 0;
  const ptrdiff_t alloc = fftw_mpi_local_size_3d_transposed(
      n, n, n, MPI_COMM_WORLD, &local_n0, &local_0_start, &local_n1, &local_1_start);
  fftw_complex* f_in = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_complex* f_out = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_complex* f_back = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_plan f_forward = fftw_mpi_plan_dft_3d(n, n, n, f_in, f_out, MPI_COMM_WORLD, FFTW_FORWARD,
                                             flags | FFTW_MPI_TRANSPOSED_OUT);
  fftw_plan f_backward = fftw_mpi_plan_dft_3d(n, n, n, f_out, f_back, MPI_COMM_WORLD, FFTW_BACKWARD,
                                              flags | FFTW_MPI_TRANSPOSED_IN);
  const auto f_count = static_cast<std::size_t>(local_n0 * n * n);
  std::vector<Complex> f_input(f_count);
  for (std::size_t i = 0; i < f_count; ++i)
    f_input[i] = {seeds[2 * i % seeds.size()], seeds[(2 * i + 1) % seeds.size()]};
  std::copy_n(reinterpret_cast<const double*>(f_input.data()), 2 * f_count,
              reinterpret_cast<double*>(f_in));
  const double total = static_cast<double>(n * n * n);
  series.push_back({"fftw_mpi_c2c",
                    [&] {
                      fftw_execute(f_forward);
                      fftw_execute(f_backward);
                    },
                    [&] {
                      double e = 0;
                      for (std::size_t i = 0; i < f_count; ++i)
                        e = std::max(
                            e, std::abs(Complex(f_back[i][0], f_back[i][1]) / total - f_input[i]));
                      return e;
                    },
                    {}});
#endif
  for (int round = -2; round < iters; ++round) {  // two warm-up rounds
    for (Series& x : series) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      x.pair();
      double t = MPI_Wtime() - t0;
      MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (round >= 0) x.us.push_back(t * 1e6);
    }
  }
  for (Series& x : series) {
    double error = x.error();
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    std::vector<double> sorted = x.us;
    std::sort(sorted.begin(), sorted.end());
    if (rank == 0) {
      std::printf(
          "{\"series\": \"%s\", \"n\": %lld, \"procs\": %d, \"median_us\": %.2f, "
          "\"round_trip_error\": %.3g, \"us\": [",
          x.name.c_str(), static_cast<long long>(n), procs, sorted[sorted.size() / 2], error);
      for (std::size_t i = 0; i < x.us.size(); ++i)
        std::printf("%s%.2f", i ? ", " : "", x.us[i]);
      std::printf("]}\n");
    }
  }
#ifdef A2A_WITH_FFTW_MPI
  fftw_destroy_plan(f_forward);
  fftw_destroy_plan(f_backward);
  for (fftw_complex* a : {f_in, f_out, f_back})
    fftw_free(a);
  fftw_mpi_cleanup();
#endif
  MPI_Finalize();
  return 0;
}
