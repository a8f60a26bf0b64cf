// The FFT experiments shared by a2a fft, a2a fft1d and the decks (experiment.hpp).
#include "fft/experiment.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "a2a/fft.hpp"
#include "core/records.hpp"
#include "core/session.hpp"
#include "core/stats.hpp"
#include "fft/baseline.hpp"
#include "fft/reference.hpp"
#include "fft/timed_arrays.hpp"
#include "fft/wisdom.hpp"
#ifdef A2A_WITH_HDF5
#include "io/hdf5_array.hpp"
#endif

namespace a2a::fft {
namespace {

using app::slowest_us;

template <typename Phases>
TransposeRates transpose_rates(MPI_Comm comm, const Phases& p, int iters) {
  // Every rank runs the barriers, also one with nothing to copy (a rank holding no data): the
  // size is per rank, the rounds are not.
  double memcpy_s = 0;
  std::vector<std::byte> from(p.largest_buffer, std::byte{1}), to(p.largest_buffer);
  for (int k = 0; k < 10; ++k) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    if (!from.empty()) std::memcpy(to.data(), from.data(), from.size());
    const double dt = MPI_Wtime() - t0;
    memcpy_s = k == 0 ? dt : std::min(memcpy_s, dt);
  }
  if (p.largest_buffer == 0) memcpy_s = 0;
  // Times: the slowest rank; rates: each rank's bytes over its own time, the slowest rank's.
  const auto rate = [](double bytes, double seconds) {
    return seconds > 0 ? bytes / seconds / 1e9 : 0.0;
  };
  double times[3] = {p.pack_s, p.exchange_s, p.unpack_s};
  double rates[4] = {-rate(p.packed_bytes, p.pack_s), -rate(p.sent_bytes, p.exchange_s),
                     -rate(p.unpacked_bytes, p.unpack_s),
                     -rate(static_cast<double>(p.largest_buffer), memcpy_s)};
  MPI_Allreduce(MPI_IN_PLACE, times, 3, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, rates, 4, MPI_DOUBLE, MPI_MAX, comm);
  const double scale = 1e6 / std::max(iters, 1);
  return {times[0] * scale, times[1] * scale, times[2] * scale, -rates[0],
          -rates[1],        -rates[2],        -rates[3]};
}

// One timed call of an a2a transform: its total, transposes and local FFTs (the FFT classes
// accumulate the last two per rank), the slowest rank's each; kept unless a warm-up.
template <typename Fft, typename Body>
void time_split(MPI_Comm comm, Fft& fft, FftSeries& s, bool keep, Body&& body) {
  const double t0 = fft.transpose_seconds, c0 = fft.compute_seconds;
  const double us = slowest_us(comm, body);
  double split[2] = {(fft.transpose_seconds - t0) * 1e6, (fft.compute_seconds - c0) * 1e6};
  MPI_Allreduce(MPI_IN_PLACE, split, 2, MPI_DOUBLE, MPI_MAX, comm);
  if (!keep) return;
  s.total_us.push_back(us);
  s.transpose_us.push_back(split[0]);
  s.compute_us.push_back(split[1]);
}

// Seconds to run `make` (planning), the slowest rank's.
template <typename Make>
double planning_seconds(MPI_Comm comm, Make&& make) {
  return slowest_us(comm, make) * 1e-6;
}

std::string round_label(int it, int iters) {
  return it < 0 ? std::string("warm-up")
                : "iteration " + std::to_string(it + 1) + "/" + std::to_string(iters);
}

double rank0_error(MPI_Comm comm, double error) {
  MPI_Bcast(&error, 1, MPI_DOUBLE, 0, comm);
  return error;
}

// |sum |a|^2 - sum |b|^2| / sum |b|^2: spectra in different orders (Parseval).
double energy_difference(const std::vector<std::complex<double>>& a,
                         const std::vector<std::complex<double>>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double ea = 0, eb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ea += std::norm(a[i]);
    eb += std::norm(b[i]);
  }
  const double d = std::abs(ea - eb) / (eb > 0 ? eb : 1);
  return std::isfinite(d) ? d : std::numeric_limits<double>::infinity();
}

void count_check(FftResult& r, FftSeries& s, double error) {
  s.checked = true;
  s.relative_error = error;
  if (!(error <= r.bound)) ++r.failures;  // NaN fails
}

#ifdef A2A_WITH_HDF5
// Dataset "input" on box b: real (n0, n1, n2) values for r2c, complex (n0, n1, n2, 2) for c2c,
// as complex values (r2c: imaginary parts 0).
template <typename Real, typename V>
void read_input(MPI_Comm comm, const std::string& file_name, const std::array<std::int64_t, 3>& n,
                const Box& b, bool r2c, V& input) {
  io::File file(comm, file_name, false);
  std::vector<Real> values(input.size() * (r2c ? 1 : 2));
  io::read_box(file, "input", n, b, values.data(), r2c ? 1 : 2);
  for (std::size_t i = 0; i < input.size(); ++i) {
    input[i] = r2c ? std::complex<Real>(values[i], 0)
                   : std::complex<Real>(values[2 * i], values[2 * i + 1]);
  }
}
#endif

// One backend's plan and arrays.
template <typename Real>
struct Fft3dEntry {
  std::unique_ptr<Fft3d<Real>> fft;
  std::unique_ptr<TimedArrays<Real>> arrays;
};

// Every backend's plan (its planning time) and arrays, the input read from --input if given.
template <typename Real>
std::vector<Fft3dEntry<Real>> make_entries(MPI_Comm comm, const Fft3dExperiment& e,
                                           FftResult& result) {
  const Options& o0 = e.options;
  const bool planewave = e.check == "planewave";
  std::vector<Fft3dEntry<Real>> entries;
  for (const std::string& spec : e.backends) {
    Options o = o0;
    o.backend = spec;
    Fft3dEntry<Real>& x = entries.emplace_back();
    FftSeries& s = result.series.emplace_back();
    s.label = spec;
    s.planning_s = planning_seconds(comm, [&] { x.fft = std::make_unique<Fft3d<Real>>(comm, o); });
    auto memory = static_cast<unsigned long long>(x.fft->memory_bytes());
    MPI_Allreduce(MPI_IN_PLACE, &memory, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
    s.plan_memory_bytes = memory;
    s.backend = x.fft->backends();
    s.local_transforms = x.fft->local_transforms();
    x.arrays = std::make_unique<TimedArrays<Real>>(*x.fft, o, planewave, e.in_place);
#ifdef A2A_WITH_HDF5
    if (!e.input_file.empty()) {  // a2a fft --input (one backend)
      const bool r2c = o0.r2c;
      TimedArrays<Real>& a = *x.arrays;
      read_input<Real>(comm, e.input_file, o.n, r2c ? x.fft->real_box() : x.fft->input_box(), r2c,
                       a.input);
      if (r2c) a.real_input = real_parts<decltype(a.input), Real, decltype(a.real_input)>(a.input);
    }
#endif
  }

  return entries;
}

// Backend b's checks before timing (the serial reference computed once, for all), and with
// --output its input and spectrum written; the first backend's spectrum kept on rank 0 for the
// baselines' comparison.
template <typename Real>
void check_entry(MPI_Comm comm, const Fft3dExperiment& e, std::size_t b, Fft3dEntry<Real>& entry,
                 FftResult& result, std::vector<std::complex<Real>>& reference,
                 std::vector<std::complex<Real>>& first_spectrum) {
  const Options& o0 = e.options;
  const bool r2c = o0.r2c, planewave = e.check == "planewave";
  const auto spectrum_grid = spectrum_shape(o0.n, r2c);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Fft3d<Real>& fft = *entry.fft;
  TimedArrays<Real>& a = *entry.arrays;
  a.check_pass(fft);
  const auto roundtrip = [&] {
    return r2c ? max_relative(comm, a.real_back, a.real_input)
               : max_relative(comm, a.back, a.input);
  };
  const bool spectrum_needed = e.check == "serial" || planewave || (b == 0 && e.baseline);
  // The spectrum row-major over its box (a slab's is [y][x][z] in memory), as gather and the
  // file take it.
  AlignedVector<std::complex<Real>> spectrum(a.spectrum.size());
  fft.to_box_order(a.spectrum.data(), spectrum.data());
  std::vector<std::complex<Real>> whole;
  if (spectrum_needed) whole = gather(comm, fft.output_box(), spectrum, spectrum_grid);
  if (e.check == "roundtrip") {
    count_check(result, result.series[b], roundtrip());
  } else if (e.check == "serial" || planewave) {
    const auto whole_input = gather(comm, r2c ? fft.real_box() : fft.input_box(), a.input, o0.n);
    double error = 0;
    if (rank == 0) {
      if (reference.empty()) {
        reference = planewave ? planewave_spectrum<Real>(o0.n)
                              : serial_reference<Real>(o0.n, r2c, whole_input);
      }
      error = relative_error(whole, reference);
    }
    // The spectrum, and backward must restore the input.
    count_check(result, result.series[b], std::max(rank0_error(comm, error), roundtrip()));
  }
  if (b == 0) first_spectrum = std::move(whole);
#ifdef A2A_WITH_HDF5
  if (b == 0 && !e.output_file.empty()) {
    const Box in_box = r2c ? fft.real_box() : fft.input_box();
    // Room for both arrays (8-byte values on disk) and HDF5's metadata.
    int procs = 1;
    MPI_Comm_size(comm, &procs);
    const std::uint64_t reserve = 8 *
                                      (static_cast<std::uint64_t>(in_box.count()) * (r2c ? 1 : 2) +
                                       static_cast<std::uint64_t>(a.spectrum.size()) * 2) *
                                      static_cast<std::uint64_t>(procs) +
                                  (1 << 20);
    io::File file(comm, e.output_file, true, reserve);
    if (r2c)
      io::write_box(file, "input", o0.n, in_box, a.real_input.data(), 1);
    else
      io::write_box(file, "input", o0.n, in_box, reinterpret_cast<const Real*>(a.input.data()), 2);
    io::write_box(file, "spectrum", spectrum_grid, fft.output_box(),
                  reinterpret_cast<const Real*>(spectrum.data()), 2);
    file.set_attribute("grid", e.grid);
    file.set_attribute("transform", std::string(r2c ? "r2c" : "c2c"));
    file.set_attribute("layout",
                       "C order; input (n0,n1,n2) real for r2c or (n0,n1,n2,2) complex "
                       "(re, im); spectrum (n0,n1,nz,2) with nz = n2/2+1 for r2c");
  }
#endif
}

// FFTW-MPI's two forms on the same input (its plans' time), each compared with the first
// backend's spectrum, and the local floor: `e.baseline` only, double only.
template <typename Real>
void add_baselines(MPI_Comm comm, const Fft3dExperiment& e, bool have_entries,
                   const std::vector<std::complex<Real>>& first_spectrum, FftResult& result,
                   std::vector<std::unique_ptr<FftwMpi>>& baselines,
                   std::unique_ptr<LocalFloor>& floor) {
  const Options& o0 = e.options;
  const bool r2c = o0.r2c, planewave = e.check == "planewave";
  const auto spectrum_grid = spectrum_shape(o0.n, r2c);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if constexpr (std::is_same_v<Real, double>) {
    if (e.baseline) {
      double planning = planning_seconds(
          comm, [&] { baselines = fftw_mpi_baselines(comm, o0.n, r2c, o0.fftw_flags); });
      floor = std::make_unique<LocalFloor>(comm, o0.n, r2c, o0.fftw_flags);
      // The like-for-like form first: FFTW-MPI's natural form for a natural a2a spectrum.
      if (o0.natural_spectrum) std::swap(baselines.front(), baselines.back());
      auto slab = fill<double>(baselines.front()->real_box(), o0.n, planewave);
#ifdef A2A_WITH_HDF5
      if (!e.input_file.empty()) {
        read_input<double>(comm, e.input_file, o0.n, baselines.front()->real_box(), r2c, slab);
      }
#endif
      for (auto& baseline : baselines) {
        FftSeries& s = result.series.emplace_back();
        s.label = s.backend = baseline->name();
        s.baseline = true;
        s.planning_s = planning / static_cast<double>(baselines.size());
        baseline->load(slab);
        baseline->forward();
        const auto theirs = gather(comm, baseline->box(), baseline->spectrum(), spectrum_grid);
        double difference = 0;
        if (rank == 0) difference = relative_error(first_spectrum, theirs);
        if (have_entries) count_check(result, s, rank0_error(comm, difference));
      }
    }
  }
}

// The timed rounds, interleaved: A B C (baselines) A B C ...; warm-up rounds not recorded.
template <typename Real>
void time_rounds(MPI_Comm comm, const Fft3dExperiment& e, std::vector<Fft3dEntry<Real>>& entries,
                 const std::vector<std::unique_ptr<FftwMpi>>& baselines, LocalFloor* floor,
                 FftResult& result, const Progress& progress) {
  const std::size_t a2a_series = entries.size();
  for (int it = -e.warmup; it < e.iters; ++it) {
    if (it == 0) {
      for (Fft3dEntry<Real>& x : entries)
        x.fft->reset_phases();
    }
    for (std::size_t b = 0; b < entries.size(); ++b) {
      Fft3dEntry<Real>& x = entries[b];
      time_split(comm, *x.fft, result.series[b], it >= 0, [&] {
        x.arrays->forward(*x.fft);
        x.arrays->backward(*x.fft);
      });
    }
    for (std::size_t b = 0; b < baselines.size(); ++b) {
      const double us = slowest_us(comm, [&] {
        baselines[b]->forward();
        baselines[b]->backward_normalized();
      });
      if (it >= 0) result.series[a2a_series + b].total_us.push_back(us);
    }
    if (floor && floor->available()) {
      const double us = slowest_us(comm, [&] { floor->forward_backward(); });
      if (it >= 0) result.local_floor_us.push_back(us);
    }
    progress(static_cast<double>(result.series.size()), round_label(it, e.iters));
  }
}

}  // namespace

template <typename Real>
FftResult run_fft3d(MPI_Comm comm, const Fft3dExperiment& e,
                    const std::function<void()>& save_wisdom, const Progress& progress) {
#ifndef A2A_WITH_HDF5
  if (!e.input_file.empty() || !e.output_file.empty()) {
    throw Error("--input/--output need a build with HDF5 (A2A_WITH_HDF5)");
  }
#endif
  if (e.baseline && !std::is_same_v<Real, double>) {
    throw Error("--baseline fftw-mpi needs --precision double");
  }
  FftResult result;
  result.bound = std::is_same_v<Real, double> ? 1e-10 : 1e-4;
  std::vector<Fft3dEntry<Real>> entries = make_entries<Real>(comm, e, result);
  std::vector<std::complex<Real>> reference;       // rank 0: the serial reference, once
  std::vector<std::complex<Real>> first_spectrum;  // rank 0: for the baselines' comparison
  for (std::size_t b = 0; b < entries.size(); ++b) {
    check_entry(comm, e, b, entries[b], result, reference, first_spectrum);
    progress(2, result.series[b].label + " checked");
  }
  std::vector<std::unique_ptr<FftwMpi>> baselines;
  std::unique_ptr<LocalFloor> floor;
  add_baselines(comm, e, !entries.empty(), first_spectrum, result, baselines, floor);
  save_wisdom();  // every plan of the experiment (a2a's and the baselines') is made
  time_rounds(comm, e, entries, baselines, floor.get(), result, progress);
  for (std::size_t b = 0; b < entries.size(); ++b)
    result.series[b].rates = transpose_rates(comm, entries[b].fft->phases(), e.iters);
  return result;
}

template FftResult run_fft3d<double>(MPI_Comm, const Fft3dExperiment&, const std::function<void()>&,
                                     const Progress&);
template FftResult run_fft3d<float>(MPI_Comm, const Fft3dExperiment&, const std::function<void()>&,
                                    const Progress&);

namespace {

// The fields every series of an experiment has: the check and the timing summary.
void put_series(nlohmann::json& rec, const FftSeries& s, double bound, double flops) {
  rec["label"] = s.label;
  rec["backend"] = s.backend;
  if (!s.local_transforms.empty()) rec["local_transforms"] = s.local_transforms;
  rec["check"] = s.checked ? (s.relative_error <= bound ? "passed" : "failed") : "skipped";
  rec["relative_error"] = s.relative_error;
  rec["error_bound"] = bound;
  rec["planning_s"] = s.planning_s;
  if (s.plan_memory_bytes > 0) rec["plan_memory_bytes"] = s.plan_memory_bytes;
  const stats::Summary sum = stats::summarize(s.total_us);
  put_summary(rec, sum);
  rec["gflops"] = flops / (sum.median * 1e-6) / 1e9;
  if (!s.baseline) {
    rec["transpose_us"] = stats::median(s.transpose_us);
    rec["compute_us"] = stats::median(s.compute_us);
  }
}

}  // namespace

std::vector<nlohmann::json> fft3d_records(const Fft3dExperiment& e, const FftResult& r, int procs,
                                          const std::string& precision) {
  const Options& o = e.options;
  const double total = static_cast<double>(o.n[0] * o.n[1] * o.n[2]);
  // Flops per forward+backward pair: 2 x 5 N log2 N for c2c; r2c counts half (2.5 N log2 N
  // per transform, N real points), the usual convention.
  const double flops = (o.r2c ? 5.0 : 10.0) * total * std::log2(total);
  std::vector<nlohmann::json> records;
  for (const FftSeries& s : r.series) {
    nlohmann::json rec = {{"app", "fft"},
                          {"grid", e.grid},
                          {"transform", o.r2c ? "r2c" : "c2c"},
                          {"decomp", e.decomp},
                          {"decomp_requested", e.decomp_requested},
                          {"proc_grid", std::to_string(o.p1) + "x" + std::to_string(o.p2)},
                          {"chunks", o.chunks},
                          {"in_place", e.in_place},
                          {"spectrum_layout", o.natural_spectrum ? "natural" : "transposed"},
                          {"precision", precision},
                          {"procs", procs},
                          {"iters", e.iters},
                          {"check_kind", s.baseline ? std::string("a2a_spectrum") : e.check},
                          {"fftw_plan", e.fftw_plan}};
    put_series(rec, s, r.bound, flops);
    if (!s.baseline) {
      const TransposeRates& t = s.rates;
      rec["pack_us"] = t.pack_us;
      rec["exchange_us"] = t.exchange_us;
      rec["unpack_us"] = t.unpack_us;
      rec["pack_gbps"] = t.pack_gbps;
      rec["exchange_gbps"] = t.exchange_gbps;
      rec["unpack_gbps"] = t.unpack_gbps;
      rec["memcpy_gbps"] = t.memcpy_gbps;
      if (!r.local_floor_us.empty()) rec["local_floor_us"] = stats::median(r.local_floor_us);
    }
    records.push_back(std::move(rec));
  }
  return records;
}

FftResult run_fft1d(MPI_Comm comm, const Fft1dExperiment& e,
                    const std::function<void()>& save_wisdom, const Progress& progress) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::int64_t n2 = e.points / e.n1;
  const unsigned flags = fftw_flags_of(e.fftw_plan);
  FftResult result;
  result.bound = 1e-10;
  struct Entry {
    std::unique_ptr<SixStep> fft;
    std::vector<std::complex<double>> in, out;
  };
  std::vector<Entry> entries;
  std::vector<std::complex<double>> reference, first_output;  // rank 0
  for (const std::string& spec : e.backends) {
    Entry& x = entries.emplace_back();
    FftSeries& s = result.series.emplace_back();
    s.label = spec;
    s.planning_s = planning_seconds(
        comm, [&] { x.fft = std::make_unique<SixStep>(comm, e.n1, n2, spec, flags); });
    s.backend = x.fft->backends();
    s.local_transforms = x.fft->local_transforms();
    x.in.resize(static_cast<std::size_t>(x.fft->input_count()));
    for (std::size_t i = 0; i < x.in.size(); ++i)
      x.in[i] = point(x.fft->input_first() + static_cast<std::int64_t>(i));
    x.out.resize(static_cast<std::size_t>(x.fft->output_count()));
    x.fft->forward(x.in.data(), x.out.data());
    std::vector<std::complex<double>> got;
    if (e.check || (entries.size() == 1 && e.baseline)) got = gather_blocks(comm, x.out);
    if (e.check) {
      double error = 0;
      if (rank == 0) {
        if (reference.empty()) reference = serial_1d_reference(e.points);
        error = relative_error(got, reference);
      }
      count_check(result, s, rank0_error(comm, error));
    }
    if (entries.size() == 1) first_output = std::move(got);
    progress(2, spec + " checked");
  }
  // FFTW-MPI's two forms: natural order, compared element by element with the first backend's
  // spectrum; scrambled, checked by its round trip and its energy against that spectrum.
  std::vector<std::unique_ptr<FftwMpi1d>> baselines;
  if (e.baseline) {
    const double planning =
        planning_seconds(comm, [&] { baselines = fftw_mpi_1d_baselines(comm, e.points, flags); });
    for (auto& baseline : baselines) {
      FftSeries& s = result.series.emplace_back();
      s.label = s.backend = baseline->name();
      s.baseline = true;
      s.planning_s = planning / static_cast<double>(baselines.size());
      baseline->forward();
      const auto theirs = gather_blocks(comm, baseline->output());
      double difference = 0;
      if (rank == 0) {
        difference = baseline->scrambled() ? energy_difference(first_output, theirs)
                                           : relative_error(first_output, theirs);
      }
      difference = rank0_error(comm, difference);
      if (baseline->scrambled()) difference = std::max(difference, baseline->roundtrip_error(comm));
      if (!entries.empty()) count_check(result, s, difference);
    }
  }
  save_wisdom();
  for (int it = -e.warmup; it < e.iters; ++it) {
    for (std::size_t b = 0; b < entries.size(); ++b) {
      Entry& x = entries[b];
      time_split(comm, *x.fft, result.series[b], it >= 0,
                 [&] { x.fft->forward(x.in.data(), x.out.data()); });
    }
    for (std::size_t b = 0; b < baselines.size(); ++b) {
      const double us = slowest_us(comm, [&] { baselines[b]->forward(); });
      if (it >= 0) result.series[entries.size() + b].total_us.push_back(us);
    }
    progress(static_cast<double>(result.series.size()), round_label(it, e.iters));
  }
  return result;
}

std::vector<nlohmann::json> fft1d_records(const Fft1dExperiment& e, const FftResult& r, int procs) {
  const double n = static_cast<double>(e.points);
  // Bytes per pair of ranks in each transpose.
  const double per_pair = n / (static_cast<double>(procs) * procs) * 16;
  std::vector<nlohmann::json> records;
  for (const FftSeries& s : r.series) {
    nlohmann::json rec = {
        {"app", "fft1d"},
        {"points", e.points},
        {"n1", e.n1},
        {"n2", e.points / e.n1},
        {"procs", procs},
        {"bytes", per_pair},
        {"iters", e.iters},
        {"fftw_plan", e.fftw_plan},
        {"check_kind", !s.baseline                       ? (e.check ? "serial" : "none")
                       : s.label == "fftw-mpi-scrambled" ? "a2a_energy_and_roundtrip"
                                                         : "a2a_spectrum"}};
    put_series(rec, s, r.bound, 5 * n * std::log2(n));
    records.push_back(std::move(rec));
  }
  return records;
}

}  // namespace a2a::fft
