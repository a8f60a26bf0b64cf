// a2a fft --grid NXxNYxNZ [--decomp slab|pencil|auto] [--proc-grid P1xP2] [--backend SPEC]
//         [--backend2 SPEC] [--chunks N] [--check serial|roundtrip|planewave|none] [--iters N]
//         [--precision double|float] [--fftw-plan estimate|measure] [--in-place]
//         [--format table|json]
// A distributed 3D c2c FFT whose transposes go through a2a backends, checked against serial
// FFTW on the whole grid, a round trip, or the closed form of a plane wave.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <numbers>

#include "commands.hpp"
#include "core/memory.hpp"
#include "core/records.hpp"
#include "core/stats.hpp"
#include "fft/aligned.hpp"
#include "fft/fft3d.hpp"
#include "fft/harness.hpp"
#include "fft/timed_arrays.hpp"
#ifdef A2A_WITH_HDF5
#include "io/hdf5_array.hpp"
#endif

namespace a2a::app {
namespace {

using namespace a2a::fft;

struct Settings {
  std::string grid = "32x32x32", decomp = "auto", proc_grid, backend = "auto", backend2;
  std::string check = "serial", precision = "double", fftw_plan = "measure", format = "table";
  std::string wisdom = "auto";          // FFTW wisdom kept across runs (fft/wisdom.hpp)
  std::string baseline;                 // "fftw-mpi": FFTW's own MPI transform in the same run
  std::string transform = "c2c";        // or r2c (forward r2c, backward c2r)
  std::string input_file, output_file;  // parallel HDF5
  int iters = 5;
  int chunks = 1;             // pipeline each transpose in this many chunks
  bool in_place = false;      // forward and backward on one array (c2c), as FFTW-MPI's baseline
  bool decomp_given = false;  // --decomp on the command line (else auto, or pencil with a grid)
};

// The transposes' phases per forward+backward pair: the slowest rank's time of each, and its
// rate (bytes this rank moved over that time), against memcpy of the largest buffer on every
// rank at once (best of 10, the slowest rank's). Collective.
struct TransposeRates {
  double pack_us = 0, exchange_us = 0, unpack_us = 0;
  double pack_gbps = 0, exchange_gbps = 0, unpack_gbps = 0, memcpy_gbps = 0;
};

template <typename Phases>
TransposeRates transpose_rates(MPI_Comm comm, const Phases& p, int iters) {
  double memcpy_s = 0;
  if (p.largest_buffer > 0) {
    std::vector<std::byte> from(p.largest_buffer, std::byte{1}), to(p.largest_buffer);
    memcpy_s = 1e30;
    for (int k = 0; k < 10; ++k) {
      MPI_Barrier(comm);
      const double t0 = MPI_Wtime();
      std::memcpy(to.data(), from.data(), from.size());
      memcpy_s = std::min(memcpy_s, MPI_Wtime() - t0);
    }
  }
  // Times: the slowest rank; rates: each rank's bytes over its own time, the slowest rank's.
  const auto rate = [](double bytes, double seconds) {
    return seconds > 0 ? bytes / seconds / 1e9 : 0.0;
  };
  double times[3] = {p.pack_s, p.exchange_s, p.unpack_s};
  double rates[4] = {-rate(p.packed_bytes, p.pack_s), -rate(p.packed_bytes, p.exchange_s),
                     -rate(p.unpacked_bytes, p.unpack_s),
                     -rate(static_cast<double>(p.largest_buffer), memcpy_s)};
  MPI_Allreduce(MPI_IN_PLACE, times, 3, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, rates, 4, MPI_DOUBLE, MPI_MAX, comm);
  const double scale = 1e6 / std::max(iters, 1);
  return {times[0] * scale, times[1] * scale, times[2] * scale, -rates[0],
          -rates[1],        -rates[2],        -rates[3]};
}

template <typename Real>
int run(const Session& session, const Settings& s) {
  fft::Options o;
  o.n = parse_grid(s.grid);
  // A process grid without a decomposition asks for a pencil; with --decomp auto, a conflict.
  const std::string requested =
      s.proc_grid.empty() || s.decomp_given ? s.decomp : std::string("pencil");
  if (requested == "auto" && !s.proc_grid.empty()) {
    throw Error("--proc-grid applies to --decomp pencil only (auto chooses the grid)");
  }
  const std::string decomp = resolve_decomp(requested, o.n, session.procs);
  std::tie(o.p1, o.p2) = process_grid(decomp, s.proc_grid, session.procs);
  const bool r2c = s.transform == "r2c";
  const bool planewave = s.check == "planewave";
  if (r2c && planewave) throw Error("--check planewave is for --transform c2c");
  if (planewave && !s.input_file.empty()) throw Error("--check planewave defines its own input");
  if (s.in_place && r2c) {
    throw Error(
        "--in-place is for --transform c2c (r2c's real input and complex spectrum "
        "are different arrays)");
  }
  if (!s.baseline.empty() && !std::is_same_v<Real, double>) {
    throw Error("--baseline fftw-mpi needs --precision double");
  }
  o.r2c = r2c;
  o.backend = s.backend;
  o.backend2 = s.backend2;
  o.chunks = s.chunks;
  o.fftw_flags = fft::fftw_flags_of(s.fftw_plan);
  const fft::Wisdom wisdom(session.comm, s.wisdom, s.fftw_plan);
  refuse_check_on_folded_buffers(s.check != "none", "fft --check " + s.check);
  check_memory(
      session.comm,
      fft_memory(o.n, session.procs, s.check == "serial" || planewave, sizeof(std::complex<Real>)),
      "fft " + s.grid);
  // Planning (FFTW's plans of the local transforms, the transposes' plans), timed: with
  // --fftw-plan measure a first run on a machine pays for FFTW's timing, later runs read the
  // plans from the wisdom cache.
  MPI_Barrier(session.comm);
  const double planning_start = MPI_Wtime();
  fft::Fft3d<Real> fft(session.comm, o);
  double planning_s = MPI_Wtime() - planning_start;
  MPI_Allreduce(MPI_IN_PLACE, &planning_s, 1, MPI_DOUBLE, MPI_MAX, session.comm);
  const std::array<std::int64_t, 3> spectrum_grid{o.n[0], o.n[1], r2c ? o.n[2] / 2 + 1 : o.n[2]};
  const Box in_box = r2c ? fft.real_box() : fft.input_box();
  TimedArrays<Real> arrays(fft, o, planewave, s.in_place);
  auto &input = arrays.input, &spectrum = arrays.spectrum, &back = arrays.back;
  auto &real_input = arrays.real_input, &real_back = arrays.real_back;
#ifdef A2A_WITH_HDF5
  if (!s.input_file.empty()) {
    // Dataset "input": real (n0, n1, n2) for r2c, complex (n0, n1, n2, 2) for c2c.
    io::File file(session.comm, s.input_file, false);
    if (r2c) {
      io::read_box(file, "input", o.n, in_box, real_input.data(), 1);
      for (std::size_t i = 0; i < input.size(); ++i)
        input[i] = real_input[i];
    } else {
      io::read_box(file, "input", o.n, in_box, reinterpret_cast<Real*>(input.data()), 2);
    }
  }
#else
  if (!s.input_file.empty() || !s.output_file.empty()) {
    throw Error("--input/--output need a build with HDF5 (A2A_WITH_HDF5)");
  }
#endif
  auto forward = [&] { arrays.forward(fft); };
  auto backward = [&] { arrays.backward(fft); };

  // Check first (one forward, one backward), then time.
  arrays.check_pass(fft);
  double error = 0;
  const double bound = std::is_same_v<Real, double> ? 1e-10 : 1e-4;
  const std::int64_t total = o.n[0] * o.n[1] * o.n[2];
  auto roundtrip_error = [&] {
    return r2c ? max_relative(session.comm, real_back, real_input)
               : max_relative(session.comm, back, input);
  };
  if (s.check == "roundtrip") {
    error = roundtrip_error();
  } else if (s.check == "serial" || planewave) {
    const auto whole = gather(session.comm, fft.output_box(), spectrum, spectrum_grid);
    const auto whole_input = gather(session.comm, in_box, input, o.n);
    if (session.root()) {
      const auto reference =
          planewave ? planewave_spectrum<Real>(o.n) : serial_reference<Real>(o.n, r2c, whole_input);
      error = relative_error(whole, reference);
    }
    MPI_Bcast(&error, 1, MPI_DOUBLE, 0, session.comm);
    error = std::max(error, roundtrip_error());  // and backward must restore the input
  }
  const bool checked = s.check != "none";
  const bool passed = !checked || error <= bound;
#ifdef A2A_WITH_HDF5
  if (!s.output_file.empty()) {
    // Room for both arrays (8-byte values on disk) and HDF5's metadata.
    const std::uint64_t reserve = 8 *
                                      (static_cast<std::uint64_t>(in_box.count()) * (r2c ? 1 : 2) +
                                       static_cast<std::uint64_t>(spectrum.size()) * 2) *
                                      static_cast<std::uint64_t>(session.procs) +
                                  (1 << 20);
    io::File file(session.comm, s.output_file, true, reserve);
    if (r2c)
      io::write_box(file, "input", o.n, in_box, real_input.data(), 1);
    else
      io::write_box(file, "input", o.n, in_box, reinterpret_cast<const Real*>(input.data()), 2);
    io::write_box(file, "spectrum", spectrum_grid, fft.output_box(),
                  reinterpret_cast<const Real*>(spectrum.data()), 2);
    file.set_attribute("grid", s.grid);
    file.set_attribute("transform", s.transform);
    file.set_attribute("layout",
                       "C order; input (n0,n1,n2) real for r2c or (n0,n1,n2,2) complex "
                       "(re, im); spectrum (n0,n1,nz,2) with nz = n2/2+1 for r2c");
  }
#endif
  // The baselines (both FFTW-MPI forms): same input, results compared, timed interleaved.
  std::vector<std::unique_ptr<FftwMpi>> baselines;
  std::vector<double> baseline_errors;
  if constexpr (std::is_same_v<Real, double>) {
    if (!s.baseline.empty()) {
      baselines = fftw_mpi_baselines(session.comm, o.n, r2c, o.fftw_flags);
      auto slab = fill<double>(baselines.front()->real_box(), o.n, planewave);
#ifdef A2A_WITH_HDF5
      if (!s.input_file.empty()) {  // the baselines read the same file, their own slab
        io::File file(session.comm, s.input_file, false);
        std::vector<double> values(slab.size() * (r2c ? 1 : 2));
        io::read_box(file, "input", o.n, baselines.front()->real_box(), values.data(), r2c ? 1 : 2);
        for (std::size_t i = 0; i < slab.size(); ++i) {
          slab[i] = r2c ? std::complex<double>(values[i], 0)
                        : std::complex<double>(values[2 * i], values[2 * i + 1]);
        }
      }
#endif
      const auto b = gather(session.comm, fft.output_box(), spectrum, spectrum_grid);
      for (auto& baseline : baselines) {
        baseline->load(slab);
        baseline->forward();
        const auto a = gather(session.comm, baseline->box(), baseline->spectrum(), spectrum_grid);
        double difference = -1;
        if (session.root()) difference = relative_error(b, a);
        MPI_Bcast(&difference, 1, MPI_DOUBLE, 0, session.comm);
        baseline_errors.push_back(difference);
      }
    }
  }
  wisdom.save();  // every plan of this run (ours and the baseline's) is made
  bool baseline_agrees = true;
  for (double difference : baseline_errors)
    baseline_agrees = baseline_agrees && difference <= bound;

  fft.transpose_seconds = fft.compute_seconds = 0;
  fft.reset_phases();
  std::vector<double> times;
  std::vector<std::vector<double>> baseline_times(baselines.size());
  auto timed = [&](auto&& body) { return slowest_us(session.comm, body); };
  for (int it = 0; it < s.iters; ++it) {
    times.push_back(timed([&] {
      forward();
      backward();
    }));
    for (std::size_t b = 0; b < baselines.size(); ++b) {
      baseline_times[b].push_back(timed([&] {
        baselines[b]->forward();
        baselines[b]->backward_normalized();
      }));
    }
  }
  double split[2] = {fft.transpose_seconds, fft.compute_seconds};
  MPI_Allreduce(MPI_IN_PLACE, split, 2, MPI_DOUBLE, MPI_MAX, session.comm);
  const TransposeRates rates = transpose_rates(session.comm, fft.phases(), s.iters);
  if (session.root()) {
    const stats::Summary sum = stats::summarize(times);
    // Flops per forward+backward pair: 2 x 5 N log2 N for c2c; r2c counts half (2.5 N log2 N
    // per transform, N real points), the usual convention.
    const double flops =
        (r2c ? 5.0 : 10.0) * static_cast<double>(total) * std::log2(static_cast<double>(total));
    nlohmann::json rec = {{"app", "fft"},
                          {"grid", s.grid},
                          {"transform", s.transform},
                          {"decomp", decomp},
                          {"decomp_requested", requested},
                          {"proc_grid", std::to_string(o.p1) + "x" + std::to_string(o.p2)},
                          {"backend", fft.backends()},
                          {"chunks", s.chunks},
                          {"in_place", s.in_place},
                          {"precision", s.precision},
                          {"procs", session.procs},
                          {"iters", s.iters},
                          {"check", checked ? (passed ? "passed" : "failed") : "skipped"},
                          {"check_kind", s.check},
                          {"relative_error", error},
                          {"error_bound", bound},
                          {"transpose_us", split[0] * 1e6 / s.iters},
                          {"compute_us", split[1] * 1e6 / s.iters},
                          {"pack_us", rates.pack_us},
                          {"exchange_us", rates.exchange_us},
                          {"unpack_us", rates.unpack_us},
                          {"pack_gbps", rates.pack_gbps},
                          {"exchange_gbps", rates.exchange_gbps},
                          {"unpack_gbps", rates.unpack_gbps},
                          {"memcpy_gbps", rates.memcpy_gbps},
                          {"gflops", flops / (sum.median * 1e-6) / 1e9},
                          {"fftw_plan", s.fftw_plan},
                          {"wisdom", wisdom.file()},
                          {"wisdom_found", wisdom.found()},
                          {"planning_s", planning_s}};
    put_summary(rec, sum);
    // The headline: the transposed form (like for like); then the natural form.
    for (std::size_t b = 0; b < baselines.size(); ++b) {
      put_baseline(rec, baselines[b]->name(), times, baseline_times[b], baseline_errors[b],
                   b == 0 ? "baseline" : "baseline_natural");
    }
    if (s.format == "json") {
      std::cout << rec.dump() << "\n";
    } else {
      std::printf("a2a fft: %s %s %s%s, %s grid %dx%d, P=%d, %s\n", s.grid.c_str(),
                  s.transform.c_str(), s.precision.c_str(), s.in_place ? " in place" : "",
                  decomp.c_str(), o.p1, o.p2, session.procs, fft.backends().c_str());
      std::printf("  check %-9s relative max error %.3e (bound %.0e): %s\n", s.check.c_str(), error,
                  bound, checked ? (passed ? "passed" : "FAILED") : "skipped");
      const std::string kept =
          wisdom.file().empty()
              ? std::string(", no wisdom kept")
              : (wisdom.found() ? ", plans from " : ", a first run: wisdom saved to ") +
                    wisdom.file();
      std::printf("  planning: %.3f s (FFTW %s%s)\n", planning_s, s.fftw_plan.c_str(),
                  kept.c_str());
      std::printf(
          "  forward+backward: median %.1f us (95%% CI %.1f-%.1f), transposes %.1f us, "
          "local FFTs %.1f us, %.2f GFlop/s\n",
          sum.median, sum.ci95_low, sum.ci95_high, split[0] * 1e6 / s.iters,
          split[1] * 1e6 / s.iters, rec["gflops"].get<double>());
      std::printf(
          "  transposes per pair: pack %.1f us (%.2f GB/s), exchange %.1f us (%.2f GB/s), "
          "unpack %.1f us (%.2f GB/s); memcpy of one buffer %.2f GB/s (slowest rank)\n",
          rates.pack_us, rates.pack_gbps, rates.exchange_us, rates.exchange_gbps, rates.unpack_us,
          rates.unpack_gbps, rates.memcpy_gbps);
      for (std::size_t b = 0; b < baselines.size(); ++b)
        print_baseline(rec, baseline_errors[b] <= bound, b == 0 ? "baseline" : "baseline_natural");
    }
  }
  return passed && baseline_agrees ? 0 : 1;
}

}  // namespace

Runner setup_fft(CLI::App& app, const Session& session) {
  auto s = std::make_shared<Settings>();
  auto* sub = app.add_subcommand(
      "fft", "Distributed 3D FFT (c2c or r2c; slab or pencil) through a2a transposes (mpirun)");
  sub->add_option("--grid,-g", s->grid, "NXxNYxNZ");
  auto* decomp = sub->add_option("--decomp", s->decomp,
                                 "slab, pencil, or auto (slab when P <= NX and P <= NY, else "
                                 "pencil; with --proc-grid alone: pencil)")
                     ->check(CLI::IsMember({"slab", "pencil", "auto"}));
  sub->add_option("--proc-grid", s->proc_grid, "P1xP2 (pencil; default: the most square)");
  sub->add_option("--backend,-b", s->backend, "backend spec of the transposes");
  sub->add_option("--backend2", s->backend2, "backend of the second (y <-> x) transpose");
  sub->add_option("--chunks", s->chunks,
                  "pipeline each transpose in N chunks: one chunk's exchange in flight while "
                  "the next is packed and the last unpacked and transformed (1: off)")
      ->check(CLI::Range(1, 65536));
  sub->add_flag("--in-place", s->in_place,
                "forward and backward on one array, as FFTW-MPI's baseline runs (c2c; on one "
                "rank this saves the copy before FFTW's in-place 3D plan)");
  sub->add_option("--transform", s->transform, "c2c or r2c (forward r2c, backward c2r)")
      ->check(CLI::IsMember({"c2c", "r2c"}));
  sub->add_option("--input", s->input_file,
                  "read the input from dataset 'input' of this HDF5 file (parallel, collective)");
  sub->add_option("--output", s->output_file,
                  "write datasets 'input' and 'spectrum' to this HDF5 file (parallel, collective)");
  sub->add_option("--check", s->check, "serial (vs serial FFTW), roundtrip, planewave, none")
      ->check(CLI::IsMember({"serial", "roundtrip", "planewave", "none"}));
  sub->add_option("--precision", s->precision, "double or float")
      ->check(CLI::IsMember({"double", "float"}));
  add_planning_options(*sub, s->fftw_plan, s->wisdom);
  sub->add_option("--baseline", s->baseline,
                  "fftw-mpi: also run FFTW's MPI transform, both its transposed form (like for "
                  "like: the headline ratio) and its natural layout, on the same input; "
                  "compare the spectra, time all interleaved")
      ->check(CLI::IsMember({"fftw-mpi"}));
  sub->add_option("--iters,-n", s->iters, "timed forward+backward pairs")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--format", s->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  return [session, s, decomp]() {
    s->decomp_given = decomp->count() > 0;
    return s->precision == "float" ? run<float>(session, *s) : run<double>(session, *s);
  };
}

}  // namespace a2a::app
