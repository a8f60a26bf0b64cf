// a2a fft1d --points N [--n1 N1] [--backend SPEC] [--check serial|none] [--iters N]
// The six-step 1D FFT (configurable-alltoall paper, section VI) with its three transposes
// through an a2a backend, checked against serial FFTW.
#include <climits>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "core/memory.hpp"
#include "core/points.hpp"
#include "core/records.hpp"
#include "core/stats.hpp"
#include "fft/fft1d.hpp"
#include "fft/harness.hpp"

namespace a2a::app {

using fft::gather_blocks;
using fft::point;

Runner setup_fft1d(CLI::App& app, const Session& session) {
  struct Settings {
    std::string points_text;
    std::int64_t points = 0, n1 = 0;
    std::string backend = "auto", check = "serial", fftw_plan = "measure", format = "table";
    std::string baseline, wisdom = "auto";
    int iters = 10;
  };
  auto s = std::make_shared<Settings>();
  auto* sub = app.add_subcommand("fft1d", "Six-step distributed 1D FFT through a2a transposes");
  sub->add_option("--points,-N", s->points_text,
                  "N points (N = N1 N2): a number, 2^E, or relative to the ranks, e.g. 64P^2")
      ->required();
  sub->add_option("--n1", s->n1, "N1 (default: the largest divisor of N not above sqrt N)");
  sub->add_option("--backend,-b", s->backend, "backend spec of the three transposes");
  sub->add_option("--check", s->check, "serial (vs serial FFTW) or none")
      ->check(CLI::IsMember({"serial", "none"}));
  fft::add_planning_options(*sub, s->fftw_plan, s->wisdom);
  sub->add_option("--baseline", s->baseline,
                  "fftw-mpi: also run FFTW's MPI 1D transform on the same input, compare, time")
      ->check(CLI::IsMember({"fftw-mpi"}));
  sub->add_option("--iters,-n", s->iters, "timed transforms")->check(CLI::Range(1, 100000));
  sub->add_option("--format", s->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  return [session, s]() {
    s->points = parse_points(s->points_text, session.procs, std::int64_t{1} << 40, "--points");
    const std::int64_t n1 = s->n1 != 0 ? s->n1 : fft::default_n1(s->points);
    if (n1 < 1 || s->points % n1 != 0) {
      throw Error("--n1 " + std::to_string(n1) + " does not divide --points " +
                  std::to_string(s->points));
    }
    const std::int64_t n2 = s->points / n1;
    if (n1 > INT_MAX || n2 > INT_MAX) {
      throw Error("--points " + std::to_string(s->points) + " = " + std::to_string(n1) + " x " +
                  std::to_string(n2) + ": each factor must be at most 2147483647 (FFTW's int)");
    }
    refuse_check_on_folded_buffers(s->check == "serial", "fft1d --check serial");
    check_memory(session.comm, fft::fft1d_memory(s->points, session.procs, s->check == "serial"),
                 "fft1d of " + std::to_string(s->points) + " points");
    const fft::Wisdom wisdom(session.comm, s->wisdom, s->fftw_plan);
    fft::SixStep fft(session.comm, n1, n2, s->backend, fft::fftw_flags_of(s->fftw_plan));
    std::vector<std::complex<double>> in(static_cast<std::size_t>(fft.input_count()));
    for (std::size_t i = 0; i < in.size(); ++i)
      in[i] = point(fft.input_first() + static_cast<std::int64_t>(i));
    std::vector<std::complex<double>> out(static_cast<std::size_t>(fft.output_count()));
    fft.forward(in.data(), out.data());
    double error = 0;
    if (s->check == "serial") {
      const auto got = gather_blocks(session.comm, out);
      if (session.root()) {
        error = fft::relative_error(got, fft::serial_1d_reference(s->points));
      }
      MPI_Bcast(&error, 1, MPI_DOUBLE, 0, session.comm);
    }
    const double bound = 1e-10;
    const bool checked = s->check != "none", passed = !checked || error <= bound;

    // The baseline: FFTW's own MPI 1D transform (its own distribution) on the same points.
    std::unique_ptr<fft::FftwMpi1d> baseline;
    double baseline_error = -1;
    if (!s->baseline.empty()) {
      baseline = std::make_unique<fft::FftwMpi1d>(session.comm, s->points,
                                                  fft::fftw_flags_of(s->fftw_plan));
      baseline->forward();
      const auto a = gather_blocks(session.comm, baseline->output());
      const auto b = gather_blocks(session.comm, out);
      if (session.root()) baseline_error = fft::relative_error(b, a);
      MPI_Bcast(&baseline_error, 1, MPI_DOUBLE, 0, session.comm);
    }
    const bool baseline_agrees = !baseline || baseline_error <= bound;
    wisdom.save();  // every plan of this run (ours and the baseline's) is made

    fft.transpose_seconds = fft.compute_seconds = 0;
    std::vector<double> times, baseline_times;
    auto timed = [&](auto&& body) { return slowest_us(session.comm, body); };
    for (int it = 0; it < s->iters; ++it) {
      times.push_back(timed([&] { fft.forward(in.data(), out.data()); }));
      if (baseline) baseline_times.push_back(timed([&] { baseline->forward(); }));
    }
    double split[2] = {fft.transpose_seconds, fft.compute_seconds};
    MPI_Allreduce(MPI_IN_PLACE, split, 2, MPI_DOUBLE, MPI_MAX, session.comm);
    if (session.root()) {
      const stats::Summary sum = stats::summarize(times);
      const double n = static_cast<double>(s->points);
      const double per_pair = static_cast<double>(n1) * static_cast<double>(n2) /
                              (static_cast<double>(session.procs) * session.procs) * 16;
      nlohmann::json rec = {{"app", "fft1d"},
                            {"points", s->points},
                            {"n1", n1},
                            {"n2", n2},
                            {"backend", fft.backends()},
                            {"procs", session.procs},
                            {"bytes", per_pair},
                            {"iters", s->iters},
                            {"check", checked ? (passed ? "passed" : "failed") : "skipped"},
                            {"relative_error", error},
                            {"error_bound", bound},
                            {"transpose_us", split[0] * 1e6 / s->iters},
                            {"compute_us", split[1] * 1e6 / s->iters},
                            {"gflops", 5 * n * std::log2(n) / (sum.median * 1e-6) / 1e9}};
      put_summary(rec, sum);
      if (baseline) {
        put_baseline(rec, "fftw-mpi", times, baseline_times, baseline_error);
      }
      if (s->format == "json") {
        std::cout << rec.dump() << "\n";
      } else {
        std::printf("a2a fft1d: N=%lld = %lld x %lld, P=%d, %s, ~%.0f B per pair per transpose\n",
                    static_cast<long long>(s->points), static_cast<long long>(n1),
                    static_cast<long long>(n2), session.procs, fft.backends().c_str(), per_pair);
        std::printf("  check %-6s relative max error %.3e (bound %.0e): %s\n", s->check.c_str(),
                    error, bound, checked ? (passed ? "passed" : "FAILED") : "skipped");
        std::printf(
            "  forward: median %.1f us (95%% CI %.1f-%.1f), transposes %.1f us, local FFTs "
            "and twiddles %.1f us, %.2f GFlop/s\n",
            sum.median, sum.ci95_low, sum.ci95_high, split[0] * 1e6 / s->iters,
            split[1] * 1e6 / s->iters, rec["gflops"].get<double>());
        if (baseline) {
          print_baseline(rec, baseline_agrees);
        }
      }
    }
    return passed && baseline_agrees ? 0 : 1;
  };
}

}  // namespace a2a::app
