// The verification pattern: byte k of the block that rank `src` sends to rank `dst` is a hash of
// (src, dst, k), so a block that lands in the wrong place, from the wrong rank or shifted by one
// byte is detected.
#pragma once

#include <cstddef>
#include <cstdint>

namespace a2a {

inline std::uint8_t pattern_byte(std::uint64_t src, std::uint64_t dst, std::uint64_t k) {
  std::uint64_t z =
      (src * 0x9e3779b97f4a7c15ULL) ^ (dst * 0xc2b2ae3d27d4eb4fULL) ^ (k * 0x165667b19e3779f9ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<std::uint8_t>(z ^ (z >> 31));
}

inline void fill_pattern(std::byte* block, std::size_t bytes, int src, int dst) {
  for (std::size_t k = 0; k < bytes; ++k) {
    block[k] = static_cast<std::byte>(
        pattern_byte(static_cast<std::uint64_t>(src), static_cast<std::uint64_t>(dst), k));
  }
}

}  // namespace a2a
