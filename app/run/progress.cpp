// Work units of a2a run's progress (progress.hpp).
#include "run/progress.hpp"

#include "is/npb_is.hpp"
#ifdef A2A_WITH_FFTW
#include "fft/grid.hpp"
#endif

namespace a2a::app {

using deck::Experiment;
using deck::Type;

double bench_units(const Experiment& e, std::size_t bytes, int procs) {
  return static_cast<double>(e.backends.size()) * (e.iters + e.warmup) *
         (1 + static_cast<double>(bytes) * procs / 65536);
}
double fft_unit(double points) {
  return 1 + points / 4096;
}
double is_unit(const Experiment& e) {
  return e.is_iterations *
         (1 + static_cast<double>(is::class_params(e.is_class).total_keys()) / 65536);
}

double units_of(const Experiment& e, int procs) {
  const double calls = e.iters + e.warmup;
  // The 3D FFT's baseline is two series (FFTW-MPI's transposed and natural forms).
  const std::size_t baselines = e.baseline.empty() ? 0 : (e.type == Type::fft ? 2 : 1);
  const double backends = static_cast<double>(e.backends.size() + baselines);
  switch (e.type) {
    case Type::bench: {
      double u = 0;
      for (std::size_t s : e.bench.sizes)
        u += bench_units(e, s, procs);
      return u;
    }
    case Type::fft: {
      double volume = 1;
#ifdef A2A_WITH_FFTW
      for (auto n : fft::parse_grid(e.grid))
        volume *= static_cast<double>(n);
#endif
      return backends * (calls + 2) * fft_unit(volume);
    }
    case Type::fft1d:
      return backends * (calls + 2) * fft_unit(static_cast<double>(e.points));
    case Type::is:
      return backends * calls * is_unit(e);
    case Type::model:
      return 1;
  }
  return 1;
}

}  // namespace a2a::app
