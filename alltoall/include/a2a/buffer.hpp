// a2a::ByteBuffer: the byte vector that holds exchange data (send, receive and staging
// buffers). On a real machine it is a std::vector<std::byte>. Under SimGrid SMPI (the smpi
// preset, A2A_SMPI) it allocates through SMPI, so that
// `--cfg=smpi/auto-shared-malloc-thresh:BYTES` (scripts/simulate --shared-buffers) folds
// every rank's large buffers onto the same physical pages: a simulated run of 1024 ranks then
// fits in one machine's memory, and SMPI skips copying the folded bytes. The contents become
// meaningless (every rank writes the same pages), so results cannot be checked, but with
// computation not simulated the simulated times do not change. Below the threshold, or with
// the setting absent, it is the plain allocator.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#ifdef A2A_SMPI
#include <smpi/smpi_helpers_internal.h>
#endif

namespace a2a {

template <class T>
struct SimulationFoldableAllocator {
  using value_type = T;
  SimulationFoldableAllocator() = default;
  template <class U>
  SimulationFoldableAllocator(const SimulationFoldableAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
#ifdef A2A_SMPI
    void* p = smpi_shared_malloc_intercept(n * sizeof(T), __FILE__, __LINE__);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
#else
    return std::allocator<T>().allocate(n);
#endif
  }
  void deallocate(T* p, std::size_t n) noexcept {
#ifdef A2A_SMPI
    (void)n;
    smpi_shared_free(p);
#else
    std::allocator<T>().deallocate(p, n);
#endif
  }
  template <class U>
  bool operator==(const SimulationFoldableAllocator<U>&) const noexcept {
    return true;
  }
};

using ByteBuffer = std::vector<std::byte, SimulationFoldableAllocator<std::byte>>;

/// The size from which SMPI folds a ByteBuffer (smpi/auto-shared-malloc-thresh), or 0 where
/// nothing is folded: always 0 outside SimGrid. Where it is not 0, contents cannot be checked.
std::size_t simulation_fold_threshold();

}  // namespace a2a
