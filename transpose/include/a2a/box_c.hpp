// a2a_box (the C APIs', a2a/transpose.h) and a2a::Box (C++) converted both ways: the C entry
// points of the transpose layer and of the FFT library share them.
#pragma once

#include "a2a/transpose.h"
#include "a2a/transpose.hpp"

namespace a2a {

inline Box box_of(const a2a_box& b) {
  Box out;
  for (std::size_t d = 0; d < 3; ++d) {
    out.lo[d] = b.lo[d];
    out.hi[d] = b.hi[d];
  }
  return out;
}

inline a2a_box c_box_of(const Box& b) {
  a2a_box out;
  for (std::size_t d = 0; d < 3; ++d) {
    out.lo[d] = b.lo[d];
    out.hi[d] = b.hi[d];
  }
  return out;
}

}  // namespace a2a
