// a2a run's progress on rank 0's stderr, and the work units its estimate of the time left
// counts.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "run/deck.hpp"

namespace a2a::app {

// Progress on rank 0's stderr: a bar on a terminal, plain lines otherwise, with an estimate of
// the time left from the work done so far (work units weight calls by their data volume).
class Progress {
 public:
  Progress(bool active, double total_units)
      : active_(active), tty_(active && isatty(STDERR_FILENO)), total_(total_units) {}
  void start(std::size_t index, std::size_t count, const deck::Experiment& e) {
    experiment_ = "[" + std::to_string(index + 1) + "/" + std::to_string(count) + "] " +
                  deck::to_string(e.type) + " " + e.name;
    show("", true);
  }
  void advance(double units, const std::string& what) {
    done_ += units;
    show(what, !tty_);
  }
  void finish() {
    if (tty_ && active_) std::cerr << "\n";
    if (active_) std::cerr << "run: done in " << clock(elapsed()) << std::endl;
  }

 private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  static std::string clock(double seconds) {
    const auto s = static_cast<long>(std::lround(seconds));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
  }
  void show(const std::string& what, bool line) {
    if (!active_) return;
    const double fraction = total_ > 0 ? std::min(1.0, done_ / total_) : 0;
    const double t = elapsed();
    std::string left = "?";
    if (fraction > 0.02 && t > 1) left = clock(t / fraction - t);
    if (tty_) {
      const int width = 24, filled = static_cast<int>(fraction * width);
      std::cerr << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
                << std::string(static_cast<std::size_t>(width - filled), '.') << "] "
                << static_cast<int>(fraction * 100) << "% " << experiment_ << " " << what << ", ~"
                << left << " left\033[K" << std::flush;
    } else if (line) {
      std::cerr << "run: " << static_cast<int>(fraction * 100) << "% " << experiment_
                << (what.empty() ? "" : " " + what) << " (elapsed " << clock(t) << ", ~" << left
                << " left)" << std::endl;
    }
  }
  bool active_, tty_;
  double total_, done_ = 0;
  std::string experiment_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// Work units, for the estimate of the time left only: calls weighted by their data volume.
// One size of a bench sweep, every backend:
double bench_units(const deck::Experiment& e, std::size_t bytes, int procs);
// One FFT call of `points` points:
double fft_unit(double points);
// One IS repetition of one backend:
double is_unit(const deck::Experiment& e);
// The whole experiment.
double units_of(const deck::Experiment& e, int procs);

}  // namespace a2a::app
