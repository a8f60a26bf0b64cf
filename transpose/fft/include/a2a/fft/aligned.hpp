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
#include <new>
#include <vector>

namespace a2a::fft {

inline void* allocate_aligned(std::size_t bytes) {
  constexpr std::size_t huge = std::size_t{2} << 20;
  const std::size_t align = bytes < huge ? 64 : huge;
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
  if (p == nullptr) throw std::bad_alloc();
  if (align == huge) madvise(p, rounded, MADV_HUGEPAGE);  // advice: its failure is harmless
  return p;
}

template <typename T>
struct AlignedAllocator {
  using value_type = T;
  AlignedAllocator() = default;
  template <typename U>
  AlignedAllocator(const AlignedAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_aligned(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) { std::free(p); }
  template <typename U>
  bool operator==(const AlignedAllocator<U>&) const {
    return true;
  }
};

template <typename T>
using AlignedVector = std::vector<T, AlignedAllocator<T>>;

}  // namespace a2a::fft
