// a2a fft --grid NXxNYxNZ [--decomp auto|slab|pencil] [--proc-grid P1xP2] [--backend SPEC]
//         [--backend2 SPEC] [--chunks N] [--transform c2c|r2c] [--in-place]
//         [--check serial|roundtrip|planewave|none] [--precision double|float]
//         [--fftw-plan ...] [--wisdom ...] [--baseline fftw-mpi] [--input F.h5] [--output F.h5]
//         [--iters N] [--format table|json]
// The distributed 3D FFT experiment (fft/experiment.hpp) with one backend: checked, compared
// with FFTW-MPI's two forms when asked, timed, and printed as one record.
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
#include "fft/experiment.hpp"
#include "fft/grid.hpp"
#include "fft/wisdom.hpp"

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
  int chunks = 1;         // pipeline each transpose in this many chunks
  bool in_place = false;  // forward and backward on one array (c2c), as FFTW-MPI's baseline
  std::string spectrum_layout = "transposed";  // or natural: the input's layout
  bool decomp_given = false;  // --decomp on the command line (else auto, or pencil with a grid)
};

// The experiment the options describe (the decomposition resolved, the options checked).
Fft3dExperiment experiment_of(const Session& session, const Settings& s) {
  Fft3dExperiment e;
  Options& o = e.options;
  e.grid = s.grid;
  o.n = parse_grid(s.grid);
  // A process grid without a decomposition asks for a pencil; with --decomp auto, a conflict.
  e.decomp_requested = s.proc_grid.empty() || s.decomp_given ? s.decomp : std::string("pencil");
  if (e.decomp_requested == "auto" && !s.proc_grid.empty()) {
    throw Error("--proc-grid applies to --decomp pencil only (auto chooses the grid)");
  }
  e.decomp = resolve_decomp(e.decomp_requested, o.n, session.procs);
  std::tie(o.p1, o.p2) = process_grid(e.decomp, s.proc_grid, session.procs);
  const bool r2c = s.transform == "r2c";
  const bool planewave = s.check == "planewave";
  if (r2c && planewave) throw Error("--check planewave is for --transform c2c");
  if (planewave && !s.input_file.empty()) throw Error("--check planewave defines its own input");
  if (s.in_place && r2c) {
    throw Error(
        "--in-place is for --transform c2c (r2c's real input and complex spectrum "
        "are different arrays)");
  }
  o.r2c = r2c;
  o.backend2 = s.backend2;
  o.chunks = s.chunks;
  o.natural_spectrum = s.spectrum_layout == "natural";
  o.fftw_flags = fftw_flags_of(s.fftw_plan);
  e.backends = {s.backend};
  e.check = s.check;
  e.in_place = s.in_place;
  e.baseline = !s.baseline.empty();
  e.iters = s.iters;
  e.fftw_plan = s.fftw_plan;
  e.input_file = s.input_file;
  e.output_file = s.output_file;
  return e;
}

// The text report's lines about a2a's own run (its check, planning, times, transposes, floor).
void print_ours(const Session& session, const Settings& s, const Fft3dExperiment& e,
                const FftResult& result, const nlohmann::json& rec, const Wisdom& wisdom) {
  const Options& o = e.options;
  const FftSeries& ours = result.series.front();
  const double bound = result.bound, error = ours.relative_error;
  std::printf("a2a fft: %s %s %s%s, %s grid %dx%d, P=%d, %s\n", s.grid.c_str(), s.transform.c_str(),
              s.precision.c_str(), s.in_place ? " in place" : "", e.decomp.c_str(), o.p1, o.p2,
              session.procs, ours.backend.c_str());
  std::printf("  check %-9s relative max error %.3e (bound %.0e): %s\n", s.check.c_str(), error,
              bound, ours.checked ? (error <= bound ? "passed" : "FAILED") : "skipped");
  const std::string kept = wisdom.file().empty() ? std::string(", no wisdom kept")
                           : wisdom.found()      ? ", plans from " + wisdom.file()
                           : wisdom.saved()
                               ? ", a first run: wisdom saved to " + wisdom.file()
                               : std::string(", wisdom not saved (see the warning above)");
  std::printf(
      "  planning: %.3f s (FFTW %s%s), the plan holds %s a rank (largest)%s%s\n", ours.planning_s,
      s.fftw_plan.c_str(), kept.c_str(), bytes_text(ours.plan_memory_bytes).c_str(),
      ours.local_transforms.empty() ? "" : "; local transforms: ", ours.local_transforms.c_str());
  std::printf(
      "  forward+backward: median %.1f us (95%% CI %.1f-%.1f), transposes %.1f us, "
      "local FFTs %.1f us, %.2f GFlop/s\n",
      rec["median_us"].get<double>(), rec["ci95_low_us"].get<double>(),
      rec["ci95_high_us"].get<double>(), rec["transpose_us"].get<double>(),
      rec["compute_us"].get<double>(), rec["gflops"].get<double>());
  const TransposeRates& rates = ours.rates;
  std::printf(
      "  transposes per pair: pack %.1f us (%.2f GB/s), exchange %.1f us (%.2f GB/s), "
      "unpack %.1f us (%.2f GB/s); memcpy of one buffer %.2f GB/s (slowest rank)\n",
      rates.pack_us, rates.pack_gbps, rates.exchange_us, rates.exchange_gbps, rates.unpack_us,
      rates.unpack_gbps, rates.memcpy_gbps);
  if (rec.contains("local_floor_us")) {
    const double floor = rec["local_floor_us"].get<double>();
    std::printf(
        "  local floor (FFTW's in-place plans on FFTW-MPI's layout, no exchange): median "
        "%.1f us; a2a's local FFTs %.2fx that\n",
        floor, rec["compute_us"].get<double>() / floor);
  }
}

template <typename Real>
int run(const Session& session, const Settings& s) {
  const Fft3dExperiment e = experiment_of(session, s);
  const Options& o = e.options;
  const bool planewave = s.check == "planewave";
  const Wisdom wisdom(session.comm, s.wisdom, s.fftw_plan);
  refuse_check_on_folded_buffers(s.check != "none", "fft --check " + s.check);
  check_memory(
      session.comm,
      fft_memory(o.n, session.procs, s.check == "serial" || planewave, sizeof(std::complex<Real>)),
      "fft " + s.grid);
  const FftResult result = run_fft3d<Real>(
      session.comm, e, [&] { wisdom.save(); }, [](double, const std::string&) {});
  if (session.root()) {
    auto records = fft3d_records(e, result, session.procs, s.precision);
    nlohmann::json& rec = records.front();
    rec["wisdom"] = wisdom.file();
    rec["wisdom_found"] = wisdom.found();
    // The headline: FFTW-MPI's form with a2a's spectrum layout (like for like); then the
    // other.
    const FftSeries& ours = result.series.front();
    const auto key = [&](std::size_t b) {
      return b == 1 ? "baseline"
                    : (o.natural_spectrum ? "baseline_transposed" : "baseline_natural");
    };
    for (std::size_t b = 1; b < result.series.size(); ++b) {
      const FftSeries& theirs = result.series[b];
      put_baseline(rec, theirs.label, ours.total_us, theirs.total_us, theirs.relative_error,
                   key(b));
    }
    if (s.format == "json") {
      std::cout << rec.dump() << "\n";
    } else {
      print_ours(session, s, e, result, rec, wisdom);
      for (std::size_t b = 1; b < result.series.size(); ++b) {
        print_baseline(rec, result.series[b].relative_error <= result.bound, key(b));
      }
    }
  }
  return result.passed() ? 0 : 1;
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
  sub->add_option("--spectrum-layout", s->spectrum_layout,
                  "transposed (x-pencils: one exchange per direction fewer, FFTW-MPI's "
                  "TRANSPOSED_OUT form) or natural (the input's layout, one more exchange each "
                  "way, FFTW-MPI's natural form)")
      ->check(CLI::IsMember({"transposed", "natural"}));
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

void add_planning_options(CLI::App& command, std::string& fftw_plan, std::string& wisdom) {
  command
      .add_option("--fftw-plan", fftw_plan,
                  "FFTW's planner: measure (the fast plans, timed once per machine: the "
                  "wisdom cache keeps them), estimate (no timing, slower plans), patient, or "
                  "wisdom-only (plans only from --wisdom FILE)")
      ->check(CLI::IsMember({"estimate", "measure", "patient", "wisdom-only"}))
      ->capture_default_str();
  command
      .add_option("--wisdom", wisdom,
                  "FFTW wisdom kept across runs: auto (this machine's cache, ~/.cache/a2a), "
                  "none, or FILE (FILE and FILE.float; a2a's chosen local ways in FILE.ways)")
      ->capture_default_str();
}

}  // namespace a2a::app
