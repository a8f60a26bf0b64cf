// a2a's FFT library (a2a::fft): distributed 3D transforms of the caller's boxes with a kind per
// axis and batches (BoxFft), the tuned 3D FFT on slabs and pencils (Fft3d), the six-step
// 1D FFT (SixStep), the ways chosen at plan time and their store (ways), and the aligned arrays
// they run fastest on (AlignedVector). Built on the transpose layer (a2a/transpose.hpp) and
// FFTW; link a2a::fft (CMake) or -la2a_fft (pkg-config a2a). docs/fft.md is the manual.
#pragma once

#include "a2a/fft/aligned.hpp"
#include "a2a/fft/box_fft.hpp"
#include "a2a/fft/fft3d.hpp"
#include "a2a/fft/six_step.hpp"
#include "a2a/fft/ways.hpp"
