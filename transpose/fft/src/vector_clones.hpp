// A2A_VECTOR_CLONES before a function that is one hot loop over a box (a twiddle, a reorder):
// GCC compiles it three times, for AVX-512 (x86-64-v4), AVX2 with FMA (x86-64-v3) and the
// baseline, and the loader picks the widest this CPU runs, as FFTW picks its codelets. The
// library stays one portable binary; without it these loops run on SSE2 while FFTW's own run
// on AVX-512, and they are half of a DCT's time on one rank. `flatten` inlines every call in it
// (its lambdas, the helpers it shares with other loops) into each clone: a call left out of
// line runs the baseline's instructions, and whether GCC inlines one by itself shifts with the
// size of the whole file (a change elsewhere in box_fft.cpp once left PairedTrig's row twiddle
// out of line, on SSE2). Elsewhere (other compilers and CPUs) it is nothing.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#define A2A_VECTOR_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten))
#else
#define A2A_VECTOR_CLONES
#endif
