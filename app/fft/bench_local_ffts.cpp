// a2a_local_ffts N P [REPS]: one slab rank's local transforms of an N^3 c2c FFT on P ranks
// (N/P x-planes of N x N), serial, each way a2a could run them, timed (median of REPS, MEASURE
// plans, forward only). The evidence behind planes.hpp and columns.hpp, and the local floor's
// layout (baseline.hpp): run it pinned to one core (`taskset -c 1`) on the machine in
// question. Not a test: it asserts nothing.
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "a2a/fft/aligned.hpp"

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
  std::printf("%-54s %9.2f ms\n", what, ms);
}

// One rank's box and the arrays every way is timed on.
struct Box {
  int n = 0, local = 0, reps = 0;
  std::size_t plane = 0, count = 0;
  fftw_complex *a = nullptr, *b = nullptr, *panel = nullptr;
  // Zeros, after planning (which overwrites the arrays): no denormals, no overflow.
  void zero() const {
    std::fill_n(reinterpret_cast<double*>(a), 2 * count, 0.0);
    std::fill_n(reinterpret_cast<double*>(b), 2 * count, 0.0);
  }
  template <typename Run>
  void time(const char* what, Run&& run) const {
    report(what, median_ms(run, reps));
  }
};

constexpr unsigned kFlags = FFTW_MEASURE;

// The 2D plane transforms (a slab's y and z), the ways of planes.hpp.
void plane_ways(const Box& box) {
  const int n = box.n, local = box.local;
  fftw_complex *a = box.a, *b = box.b;
  const std::size_t plane = box.plane;
  const fftw_iodim yz[2] = {{n, n, n}, {n, 1, 1}};
  const fftw_iodim all{local, n * n, n * n}, one{1, 0, 0};
  fftw_plan whole_out = fftw_plan_guru_dft(2, yz, 1, &all, a, b, FFTW_FORWARD, kFlags);
  fftw_plan whole_in = fftw_plan_guru_dft(2, yz, 1, &all, a, a, FFTW_FORWARD, kFlags);
  fftw_plan plane_out = fftw_plan_guru_dft(2, yz, 1, &one, a, b, FFTW_FORWARD, kFlags);
  fftw_plan plane_in = fftw_plan_guru_dft(2, yz, 1, &one, b, b, FFTW_FORWARD, kFlags);
  box.zero();
  box.time("planes: one plan, out of place (whole)", [&] { fftw_execute_dft(whole_out, a, b); });
  box.time("planes: one plan, in place", [&] { fftw_execute_dft(whole_in, a, a); });
  box.time("planes: plane by plane, out of place", [&] {
    for (int x = 0; x < local; ++x)
      fftw_execute_dft(plane_out, a + x * plane, b + x * plane);
  });
  box.time("planes: copy, then in place per plane", [&] {
    for (int x = 0; x < local; ++x) {
      std::memcpy(b + x * plane, a + x * plane, plane * 16);
      fftw_execute_dft(plane_in, b + x * plane, b + x * plane);
    }
  });
  box.time("planes: in place, then copy per plane", [&] {
    for (int x = 0; x < local; ++x) {
      fftw_execute_dft(plane_in, a + x * plane, a + x * plane);
      std::memcpy(b + x * plane, a + x * plane, plane * 16);
    }
  });
  for (fftw_plan p : {whole_out, whole_in, plane_out, plane_in})
    fftw_destroy_plan(p);
}

// The x transforms of a pencil's x-pencil [x][y/P][z]: x-lines n^2/P elements apart, by one
// strided plan and by panels (columns.hpp's ways).
void pencil_x_ways(const Box& box) {
  const int n = box.n, cols = box.local * n;
  fftw_complex *a = box.a, *b = box.b, *panel = box.panel;
  const fftw_iodim x_a2a{n, cols, cols}, x_a2a_how{cols, 1, 1};
  fftw_plan strided = fftw_plan_guru_dft(1, &x_a2a, 1, &x_a2a_how, a, a, FFTW_FORWARD, kFlags);
  fftw_plan strided_out = fftw_plan_guru_dft(1, &x_a2a, 1, &x_a2a_how, a, b, FFTW_FORWARD, kFlags);
  box.zero();
  box.time("x, [x][y][z] (pencil): one strided plan, in place",
           [&] { fftw_execute_dft(strided, a, a); });
  box.time("x, [x][y][z] (pencil): one strided plan, out of place",
           [&] { fftw_execute_dft(strided_out, a, b); });
  fftw_destroy_plan(strided);
  fftw_destroy_plan(strided_out);
  for (int width : {16, 32, 64, 128, 256}) {
    if (width > cols) break;
    int len = n;
    fftw_plan p = fftw_plan_many_dft(1, &len, width, panel, nullptr, width, 1, panel, nullptr,
                                     width, 1, FFTW_FORWARD, kFlags);
    const auto bytes = static_cast<std::size_t>(width) * 16;
    char what[64];
    std::snprintf(what, sizeof what, "x, [x][y][z] (pencil): panels of %d lines", width);
    box.time(what, [&] {
      for (int c0 = 0; c0 + width <= cols; c0 += width) {
        for (int r = 0; r < n; ++r)
          std::memcpy(panel + r * width, a + static_cast<std::size_t>(r) * cols + c0, bytes);
        fftw_execute_dft(p, panel, panel);
        for (int r = 0; r < n; ++r)
          std::memcpy(b + static_cast<std::size_t>(r) * cols + c0, panel + r * width, bytes);
      }
    });
    fftw_destroy_plan(p);
  }
}

// The x transforms in FFTW-MPI's transposed layout [y/P][x][z] (per y-plane, x-lines n apart,
// z a unit vector): in place as FFTW-MPI runs them, and from another array as a2a's slab does
// (planes.hpp's ways on y-planes: from the exchange's window into the caller's spectrum).
void transposed_x_ways(const Box& box) {
  const int n = box.n, local = box.local;
  fftw_complex *a = box.a, *b = box.b;
  const std::size_t plane = box.plane;
  const fftw_iodim x_line{n, n, n}, x_how[2] = {{local, n * n, n * n}, {n, 1, 1}};
  const fftw_iodim x_vector{n, 1, 1};
  fftw_plan fftw_layout = fftw_plan_guru_dft(1, &x_line, 2, x_how, a, a, FFTW_FORWARD, kFlags);
  fftw_plan y_plane_out = fftw_plan_guru_dft(1, &x_line, 1, &x_vector, a, b, FFTW_FORWARD, kFlags);
  fftw_plan y_plane_in = fftw_plan_guru_dft(1, &x_line, 1, &x_vector, b, b, FFTW_FORWARD, kFlags);
  fftw_plan y_planes_out = fftw_plan_guru_dft(1, &x_line, 2, x_how, a, b, FFTW_FORWARD, kFlags);
  box.zero();
  box.time("x, FFTW-MPI's layout [y][x][z]: in place",
           [&] { fftw_execute_dft(fftw_layout, a, a); });
  box.time("x, [y][x][z] to another array: one plan",
           [&] { fftw_execute_dft(y_planes_out, a, b); });
  box.time("x, [y][x][z] to another array: per y-plane", [&] {
    for (int y = 0; y < local; ++y)
      fftw_execute_dft(y_plane_out, a + y * plane, b + y * plane);
  });
  box.time("x, [y][x][z] to another array: copy, in place", [&] {
    for (int y = 0; y < local; ++y) {
      std::memcpy(b + y * plane, a + y * plane, plane * 16);
      fftw_execute_dft(y_plane_in, b + y * plane, b + y * plane);
    }
  });
  for (fftw_plan p : {fftw_layout, y_plane_out, y_plane_in, y_planes_out})
    fftw_destroy_plan(p);
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
  Box box;
  box.n = n;
  box.local = n / procs;
  box.reps = reps;
  box.plane = static_cast<std::size_t>(n) * n;
  box.count = box.plane * box.local;
  using Array = a2a::fft::AlignedVector<std::complex<double>>;
  Array a(box.count), b(box.count), panel(static_cast<std::size_t>(n) * 256);
  box.a = reinterpret_cast<fftw_complex*>(a.data());
  box.b = reinterpret_cast<fftw_complex*>(b.data());
  box.panel = reinterpret_cast<fftw_complex*>(panel.data());
  std::printf("%d^3 c2c on %d ranks: one rank's %d x %d x %d (%.1f MiB), forward, MEASURE\n", n,
              procs, box.local, n, n, static_cast<double>(box.count) * 16 / 1048576);
  plane_ways(box);
  pencil_x_ways(box);
  transposed_x_ways(box);
  box.time("memcpy of the whole box", [&] { std::memcpy(box.b, box.a, box.count * 16); });
  return 0;
}
