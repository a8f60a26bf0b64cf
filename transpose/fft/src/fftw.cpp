// The lock around FFTW's planner (fftw.hpp): one for the process, for both precisions.
#include "fftw.hpp"

namespace a2a::fft {

std::mutex& fftw_planner_lock() {
  static std::mutex lock;
  return lock;
}

}  // namespace a2a::fft
