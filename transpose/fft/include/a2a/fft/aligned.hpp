// Memory for the FFTs' arrays: 64-byte aligned, so that FFTW's 32-byte SIMD loads of complex
// doubles never straddle a cache line (std::vector's large blocks start 16 bytes past a page,
// where the same FFTW plan runs slower), and blocks of 2 MiB or more on
// 2 MiB boundaries with transparent huge pages requested (passes that visit every row of a
// block otherwise miss the TLB as often as they copy).
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>
#include <vector>

namespace a2a::fft {

// Through C++'s aligned operator new (a program that counts its allocations sees these).
inline constexpr std::size_t huge_block = std::size_t{2} << 20;
inline std::size_t alignment_for(std::size_t bytes) {
  return bytes < huge_block ? 64 : huge_block;
}
// What a block of `bytes` takes: whole 2 MiB pages from 2 MiB on (each may become one huge
// page of memory once touched).
inline std::size_t rounded_block(std::size_t bytes) {
  const std::size_t align = alignment_for(bytes);
  return (std::max<std::size_t>(bytes, 1) + align - 1) / align * align;
}
inline void* allocate_aligned(std::size_t bytes) {
  if (bytes > std::numeric_limits<std::size_t>::max() / 4) throw std::bad_alloc();
  const std::size_t align = alignment_for(bytes);
  const std::size_t rounded = rounded_block(bytes);
  void* p = ::operator new (rounded, std::align_val_t{align});
  if (align == huge_block) madvise(p, rounded, MADV_HUGEPAGE);  // advice: its failure is harmless
  return p;
}
inline void free_aligned(void* p, std::size_t bytes) {
  ::operator delete (p, std::align_val_t{alignment_for(bytes)});
}

template <typename T>
struct AlignedAllocator {
  using value_type = T;
  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_aligned(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { free_aligned(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const AlignedAllocator<U>&) const {
    return true;
  }
};

template <typename T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

// The bytes an aligned vector's block takes (0 where it holds none).
template <typename T>
std::size_t held_bytes(const AlignedVector<T>& v) {
  return v.capacity() == 0 ? 0 : rounded_block(v.capacity() * sizeof(T));
}

}  // namespace a2a::fft
