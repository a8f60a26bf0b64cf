// Lanes<Real>: 32 bytes of reals as one vector (GCC's and Clang's vector extensions), for the
// loops along single lines (B == 1) that the compiler does not vectorize by itself: reads
// reversed (x[2h - j]) and two real lines interleaved into complex values. In a function marked
// A2A_VECTOR_CLONES each clone compiles them to its own instructions (AVX-512 or AVX2 registers;
// two SSE2 halves on the baseline).
#pragma once

#include <cstddef>
#include <cstring>

namespace a2a::fft {

template <typename Real>
struct Lanes {
  static constexpr std::size_t W = 32 / sizeof(Real);  // reals per vector
  typedef Real V __attribute__((vector_size(32)));

  [[gnu::always_inline]] static V load(const Real* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  [[gnu::always_inline]] static void store(Real* p, V v) { std::memcpy(p, &v, sizeof v); }
  [[gnu::always_inline]] static V reversed(V v) {
    if constexpr (W == 4) {
      return __builtin_shufflevector(v, v, 3, 2, 1, 0);
    } else {
      return __builtin_shufflevector(v, v, 7, 6, 5, 4, 3, 2, 1, 0);
    }
  }
  // p[0 .. W) in reverse order.
  [[gnu::always_inline]] static V load_reversed(const Real* p) { return reversed(load(p)); }
  // Values part, part + 2, ... of p[0 .. 2W): the real (part 0) or imaginary (1) parts of W
  // complex values.
  [[gnu::always_inline]] static V load_part(const Real* p, std::size_t part) {
    const V lo = load(p), hi = load(p + W);
    if constexpr (W == 4) {
      return part == 0 ? __builtin_shufflevector(lo, hi, 0, 2, 4, 6)
                       : __builtin_shufflevector(lo, hi, 1, 3, 5, 7);
    } else {
      return part == 0 ? __builtin_shufflevector(lo, hi, 0, 2, 4, 6, 8, 10, 12, 14)
                       : __builtin_shufflevector(lo, hi, 1, 3, 5, 7, 9, 11, 13, 15);
    }
  }
  // The first and second halves of (a[0], b[0], a[1], b[1], ...).
  [[gnu::always_inline]] static V zip_low(V a, V b) {
    if constexpr (W == 4) {
      return __builtin_shufflevector(a, b, 0, 4, 1, 5);
    } else {
      return __builtin_shufflevector(a, b, 0, 8, 1, 9, 2, 10, 3, 11);
    }
  }
  [[gnu::always_inline]] static V zip_high(V a, V b) {
    if constexpr (W == 4) {
      return __builtin_shufflevector(a, b, 2, 6, 3, 7);
    } else {
      return __builtin_shufflevector(a, b, 4, 12, 5, 13, 6, 14, 7, 15);
    }
  }
  // p[0 .. 2W) = a[0], b[0], a[1], b[1], ...: W complex values from their parts.
  [[gnu::always_inline]] static void store_zipped(Real* p, V a, V b) {
    store(p, zip_low(a, b));
    store(p + W, zip_high(a, b));
  }
};

}  // namespace a2a::fft
