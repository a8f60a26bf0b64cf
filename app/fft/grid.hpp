// The 3D FFT's grid and decomposition (--grid, --decomp, --proc-grid), the six-step FFT's
// factorisation, and the memory a run needs: what a2a fft, a2a fft1d and the decks' FFT
// experiments check before they plan.
#pragma once

#include <array>
#include <charconv>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>

#include "a2a/error.hpp"

namespace a2a::fft {

// "AxBxC": three positive integers, each at most 2^31-1 (FFTW's int), their product too
// (the points count) fits 63 bits.
inline std::array<std::int64_t, 3> parse_dims(const std::string& text, const char* option,
                                              const std::string& shown = "") {
  const std::string& as_written = shown.empty() ? text : shown;
  std::array<std::int64_t, 3> n{};
  std::size_t start = 0;
  for (int d = 0; d < 3; ++d) {
    const std::size_t x = d < 2 ? text.find('x', start) : text.size();
    if (x == std::string::npos) {
      throw Error(std::string(option) + " " + as_written + ": expected NXxNYxNZ");
    }
    auto& value = n[static_cast<std::size_t>(d)];
    const auto [end, ec] = std::from_chars(text.data() + start, text.data() + x, value);
    if (ec == std::errc::result_out_of_range ||
        (ec == std::errc() && end == text.data() + x && value > INT_MAX)) {
      throw Error(std::string(option) + " " + as_written + ": " + text.substr(start, x - start) +
                  " is too large (each extent at most 2147483647)");
    }
    if (ec != std::errc() || end != text.data() + x || value < 1) {
      throw Error(std::string(option) + " " + as_written +
                  (shown.empty() ? ": expected NXxNYxNZ with positive integers"
                                 : ": expected P1xP2 with positive integers"));
    }
    start = x + 1;
  }
  std::int64_t total = 0;
  if (__builtin_mul_overflow(n[0], n[1], &total) || __builtin_mul_overflow(total, n[2], &total)) {
    throw Error(std::string(option) + " " + as_written + ": more than 2^63 points");
  }
  return n;
}

inline std::array<std::int64_t, 3> parse_grid(const std::string& text) {
  return parse_dims(text, "--grid");
}

// The most square P1 x P2 = P with P1 >= P2.
inline std::pair<int, int> square_grid(int procs) {
  int p2 = 1;
  for (int f = 1; f * f <= procs; ++f) {
    if (procs % f == 0) p2 = f;
  }
  return {procs / p2, p2};
}

// --decomp auto: a slab (P x 1) when every rank gets at least one plane in both slab layouts
// (P <= n0 and P <= n1), else a pencil. The model: a slab moves the data once per direction (one
// transpose among all P ranks), a pencil twice (two transposes among P1 and P2 ranks), and on
// one node there is no network latency for the smaller pencil exchanges to save (the dated FFT
// records compare both: docs/measurements.md).
inline std::string resolve_decomp(const std::string& decomp, const std::array<std::int64_t, 3>& n,
                                  int procs) {
  if (decomp != "auto") return decomp;
  return procs <= n[0] && procs <= n[1] ? "slab" : "pencil";
}

// The P1 x P2 process grid of a decomposition (after resolve_decomp): slab is P x 1; pencil
// takes `proc_grid` ("P1xP2", which must have P ranks) or, when empty, the most square
// factorisation.
inline std::pair<int, int> process_grid(const std::string& decomp, const std::string& proc_grid,
                                        int procs) {
  if (decomp == "slab") {
    if (!proc_grid.empty()) throw Error("--proc-grid applies to --decomp pencil only");
    return {procs, 1};
  }
  if (proc_grid.empty()) return square_grid(procs);
  const auto n = parse_dims(proc_grid + "x1", "--proc-grid", proc_grid);
  if (n[0] * n[1] != procs) {
    throw Error("--proc-grid " + proc_grid + " has " + std::to_string(n[0] * n[1]) +
                " ranks: it does not have P=" + std::to_string(procs) + " ranks");
  }
  return {static_cast<int>(n[0]), static_cast<int>(n[1])};
}

// Estimated bytes per rank of a distributed 3D FFT run (the largest rank: rank 0 also
// gathers the whole grid for a serial check): per rank about 14 boxes of complex values
// (input, spectrum, the inverse, two work arrays, the four redistributions' send and receive
// buffers, the plans' scratch), and with a serial check 3 whole grids on rank 0 (gathered
// input and spectrum, the reference).
inline std::uint64_t fft_memory(const std::array<std::int64_t, 3>& n, int procs, bool serial_check,
                                std::size_t complex_bytes) {
  const double points =
      static_cast<double>(n[0]) * static_cast<double>(n[1]) * static_cast<double>(n[2]);
  double bytes = 14 * points / procs * static_cast<double>(complex_bytes) + (1 << 20);
  if (serial_check) bytes += 3 * points * static_cast<double>(complex_bytes);
  return bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes);
}

// The same for the six-step 1D FFT of N points: about 12 blocks of N/P complex doubles per
// rank (input, output, the transposes' buffers, twiddles), 3 N on rank 0 for a serial check.
inline std::uint64_t fft1d_memory(std::int64_t points, int procs, bool serial_check) {
  double bytes = 12 * static_cast<double>(points) / procs * 16 + (1 << 20);
  if (serial_check) bytes += 3 * static_cast<double>(points) * 16;
  return bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes);
}

// The six-step FFT's default N1: the largest divisor of N not above sqrt N.
inline std::int64_t default_n1(std::int64_t points) {
  std::int64_t n1 = 1;
  for (std::int64_t f = 1; f * f <= points; ++f) {
    if (points % f == 0) n1 = f;
  }
  return n1;
}

}  // namespace a2a::fft
