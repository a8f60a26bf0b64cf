// a2a fft1d --points N [--n1 N1] [--backend SPEC] [--check serial|none] [--fftw-plan ...]
//           [--wisdom ...] [--baseline fftw-mpi] [--iters N] [--format table|json]
// The six-step 1D FFT experiment (fft/experiment.hpp) with one backend: its three transposes
// through an a2a backend, checked against serial FFTW, timed, printed as one record.
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
#include "fft/experiment.hpp"
#include "fft/grid.hpp"
#include "fft/wisdom.hpp"

namespace a2a::app {

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
  add_planning_options(*sub, s->fftw_plan, s->wisdom);
  sub->add_option("--baseline", s->baseline,
                  "fftw-mpi: also run FFTW's MPI 1D transform on the same input, in natural order "
                  "(like for like: the headline ratio) and scrambled (its fastest form); "
                  "compare, time all interleaved")
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
    fft::Fft1dExperiment e;
    e.points = s->points;
    e.n1 = n1;
    e.backends = {s->backend};
    e.check = s->check == "serial";
    e.baseline = !s->baseline.empty();
    e.iters = s->iters;
    e.fftw_plan = s->fftw_plan;
    const fft::FftResult result = fft::run_fft1d(
        session.comm, e, [&] { wisdom.save(); }, [](double, const std::string&) {});
    if (session.root()) {
      auto records = fft::fft1d_records(e, result, session.procs);
      nlohmann::json& rec = records.front();
      const fft::FftSeries& ours = result.series.front();
      // The headline: FFTW-MPI's natural order (like for like); then its scrambled form.
      const auto key = [](std::size_t b) { return b == 1 ? "baseline" : "baseline_scrambled"; };
      for (std::size_t b = 1; b < result.series.size(); ++b) {
        const fft::FftSeries& theirs = result.series[b];
        put_baseline(rec, theirs.label, ours.total_us, theirs.total_us, theirs.relative_error,
                     key(b));
      }
      if (s->format == "json") {
        std::cout << rec.dump() << "\n";
      } else {
        const double bound = result.bound, error = ours.relative_error;
        std::printf("a2a fft1d: N=%lld = %lld x %lld, P=%d, %s, ~%.0f B per pair per transpose\n",
                    static_cast<long long>(s->points), static_cast<long long>(n1),
                    static_cast<long long>(n2), session.procs, ours.backend.c_str(),
                    rec["bytes"].get<double>());
        std::printf("  check %-6s relative max error %.3e (bound %.0e): %s\n", s->check.c_str(),
                    error, bound,
                    ours.checked ? (error <= bound ? "passed" : "FAILED") : "skipped");
        std::printf("  planning: %.3f s (FFTW %s); local transforms: %s\n", ours.planning_s,
                    s->fftw_plan.c_str(), ours.local_transforms.c_str());
        std::printf(
            "  forward: median %.1f us (95%% CI %.1f-%.1f), transposes %.1f us, local FFTs "
            "and twiddles %.1f us, %.2f GFlop/s\n",
            rec["median_us"].get<double>(), rec["ci95_low_us"].get<double>(),
            rec["ci95_high_us"].get<double>(), rec["transpose_us"].get<double>(),
            rec["compute_us"].get<double>(), rec["gflops"].get<double>());
        for (std::size_t b = 1; b < result.series.size(); ++b)
          print_baseline(rec, result.series[b].relative_error <= bound, key(b));
      }
    }
    return result.passed() ? 0 : 1;
  };
}

}  // namespace a2a::app
