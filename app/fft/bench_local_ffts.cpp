// a2a_local_ffts N P [REPS]: one slab rank's local transforms of an N^3 c2c FFT on P ranks
// (N/P x-planes of N x N), serial, each way a2a could run them, timed (median of REPS, MEASURE
// plans, forward only). The evidence behind planes.hpp and columns.hpp, and the local floor's
// layout (baseline.hpp): run it pinned to one core (`taskset -c 1`) on the machine in
// question. Not a test: it asserts nothing.
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename Run>
double median_ms(Run&& run, int reps) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const double t0 = now();
    run();
    t.push_back(now() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] * 1e3;
}

void report(const char* what, double ms) {
  std::printf("%-44s %9.2f ms\n", what, ms);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: a2a_local_ffts N P [REPS]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]), procs = std::atoi(argv[2]);
  const int reps = argc > 3 ? std::atoi(argv[3]) : 10;
  if (n < 2 || procs < 1 || n % procs != 0 || reps < 1) {
    std::fprintf(stderr, "a2a_local_ffts: N >= 2, P >= 1 dividing N, REPS >= 1\n");
    return 2;
  }
  const int local = n / procs;
  const std::size_t plane = static_cast<std::size_t>(n) * n, count = plane * local;
  fftw_complex* a = fftw_alloc_complex(count);
  fftw_complex* b = fftw_alloc_complex(count);
  fftw_complex* panel = fftw_alloc_complex(static_cast<std::size_t>(n) * 256);
  // Zeros, after planning (which overwrites the arrays): no denormals, no overflow.
  const auto zero = [&] {
    std::fill_n(reinterpret_cast<double*>(a), 2 * count, 0.0);
    std::fill_n(reinterpret_cast<double*>(b), 2 * count, 0.0);
  };
  std::printf("%d^3 c2c on %d ranks: one rank's %d x %d x %d (%.1f MiB), forward, MEASURE\n", n,
              procs, local, n, n, static_cast<double>(count) * 16 / 1048576);
  const unsigned flags = FFTW_MEASURE;

  // The 2D plane transforms (a slab's y and z), the ways of planes.hpp.
  const fftw_iodim yz[2] = {{n, n, n}, {n, 1, 1}};
  const fftw_iodim all{local, n * n, n * n}, one{1, 0, 0};
  fftw_plan whole_out = fftw_plan_guru_dft(2, yz, 1, &all, a, b, FFTW_FORWARD, flags);
  fftw_plan whole_in = fftw_plan_guru_dft(2, yz, 1, &all, a, a, FFTW_FORWARD, flags);
  fftw_plan plane_out = fftw_plan_guru_dft(2, yz, 1, &one, a, b, FFTW_FORWARD, flags);
  fftw_plan plane_in = fftw_plan_guru_dft(2, yz, 1, &one, b, b, FFTW_FORWARD, flags);
  zero();
  report("planes: one plan, out of place (whole)",
         median_ms([&] { fftw_execute_dft(whole_out, a, b); }, reps));
  report("planes: one plan, in place", median_ms([&] { fftw_execute_dft(whole_in, a, a); }, reps));
  report("planes: plane by plane, out of place", median_ms(
                                                     [&] {
                                                       for (int x = 0; x < local; ++x)
                                                         fftw_execute_dft(plane_out, a + x * plane,
                                                                          b + x * plane);
                                                     },
                                                     reps));
  report("planes: copy, then in place per plane",
         median_ms(
             [&] {
               for (int x = 0; x < local; ++x) {
                 std::memcpy(b + x * plane, a + x * plane, plane * 16);
                 fftw_execute_dft(plane_in, b + x * plane, b + x * plane);
               }
             },
             reps));
  report("planes: in place, then copy per plane",
         median_ms(
             [&] {
               for (int x = 0; x < local; ++x) {
                 fftw_execute_dft(plane_in, a + x * plane, a + x * plane);
                 std::memcpy(b + x * plane, a + x * plane, plane * 16);
               }
             },
             reps));

  // The x transforms. A pencil's x-pencil [x][y/P][z]: x-lines n^2/P elements apart.
  const int cols = local * n;
  const fftw_iodim x_a2a{n, cols, cols}, x_a2a_how{cols, 1, 1};
  fftw_plan strided = fftw_plan_guru_dft(1, &x_a2a, 1, &x_a2a_how, a, a, FFTW_FORWARD, flags);
  zero();
  fftw_plan strided_out = fftw_plan_guru_dft(1, &x_a2a, 1, &x_a2a_how, a, b, FFTW_FORWARD, flags);
  zero();
  report("x, [x][y][z] (pencil): one strided plan, in place",
         median_ms([&] { fftw_execute_dft(strided, a, a); }, reps));
  report("x, [x][y][z] (pencil): one strided plan, out of place",
         median_ms([&] { fftw_execute_dft(strided_out, a, b); }, reps));
  fftw_destroy_plan(strided_out);
  for (int width : {16, 32, 64, 128, 256}) {
    if (width > cols) break;
    int len = n;
    fftw_plan p = fftw_plan_many_dft(1, &len, width, panel, nullptr, width, 1, panel, nullptr,
                                     width, 1, FFTW_FORWARD, flags);
    const double ms = median_ms(
        [&] {
          for (int c0 = 0; c0 + width <= cols; c0 += width) {
            for (int r = 0; r < n; ++r)
              std::memcpy(panel + r * width, a + static_cast<std::size_t>(r) * cols + c0,
                          static_cast<std::size_t>(width) * 16);
            fftw_execute_dft(p, panel, panel);
            for (int r = 0; r < n; ++r)
              std::memcpy(b + static_cast<std::size_t>(r) * cols + c0, panel + r * width,
                          static_cast<std::size_t>(width) * 16);
          }
        },
        reps);
    char what[64];
    std::snprintf(what, sizeof what, "x, [x][y][z] (pencil): panels of %d lines", width);
    report(what, ms);
    fftw_destroy_plan(p);
  }
  // FFTW-MPI's transposed layout [y/P][x][z]: per y-plane, x-lines n apart, z a unit vector.
  const fftw_iodim x_line{n, n, n}, x_how[2] = {{local, n * n, n * n}, {n, 1, 1}};
  fftw_plan fftw_layout = fftw_plan_guru_dft(1, &x_line, 2, x_how, a, a, FFTW_FORWARD, flags);
  zero();
  report("x, FFTW-MPI's layout [y][x][z]: in place",
         median_ms([&] { fftw_execute_dft(fftw_layout, a, a); }, reps));
  // The same from another array, as a2a's slab runs it (planes.hpp's ways on y-planes): from
  // the exchange's window into the caller's spectrum.
  const fftw_iodim x_vector{n, 1, 1};
  fftw_plan y_plane_out = fftw_plan_guru_dft(1, &x_line, 1, &x_vector, a, b, FFTW_FORWARD, flags);
  fftw_plan y_plane_in = fftw_plan_guru_dft(1, &x_line, 1, &x_vector, b, b, FFTW_FORWARD, flags);
  fftw_plan y_planes_out = fftw_plan_guru_dft(1, &x_line, 2, x_how, a, b, FFTW_FORWARD, flags);
  zero();
  report("x, [y][x][z] to another array: one plan",
         median_ms([&] { fftw_execute_dft(y_planes_out, a, b); }, reps));
  report("x, [y][x][z] to another array: per y-plane",
         median_ms(
             [&] {
               for (int y = 0; y < local; ++y)
                 fftw_execute_dft(y_plane_out, a + y * plane, b + y * plane);
             },
             reps));
  report("x, [y][x][z] to another array: copy, in place",
         median_ms(
             [&] {
               for (int y = 0; y < local; ++y) {
                 std::memcpy(b + y * plane, a + y * plane, plane * 16);
                 fftw_execute_dft(y_plane_in, b + y * plane, b + y * plane);
               }
             },
             reps));
  for (fftw_plan p : {y_plane_out, y_plane_in, y_planes_out})
    fftw_destroy_plan(p);
  report("memcpy of the whole box", median_ms([&] { std::memcpy(b, a, count * 16); }, reps));

  for (fftw_plan p : {whole_out, whole_in, plane_out, plane_in, strided, fftw_layout})
    fftw_destroy_plan(p);
  fftw_free(a);
  fftw_free(b);
  fftw_free(panel);
  return 0;
}
