/* What the hostile programs of the FFT library share: the usual options (DFTs from x-slabs to
 * x-pencils) and the reals a plan's arrays hold. */
#pragma once

#include <a2a/fft.h>
#include <stddef.h>
#include <stdint.h>

/* DFTs of an n0 x n1 x n2 grid: rank `rank` of `procs` holds its x-slab and wants its x-pencil. */
static inline void slabs_to_pencils(a2a_fft_options* o, int64_t n0, int64_t n1, int64_t n2,
                                    int procs, int rank) {
  a2a_fft_options_default(o);
  o->n[0] = n0, o->n[1] = n1, o->n[2] = n2;
  a2a_fft_slab_box(o->n, procs, rank, &o->in);
  a2a_fft_pencil_box(o->n, 0, procs, rank, &o->out);
}

/* Reals (a complex value is two) of this rank's input (input != 0) or output array. */
static inline size_t reals(a2a_fft fft, int input) {
  const int64_t n = input ? a2a_fft_input_elements(fft) : a2a_fft_output_elements(fft);
  const int is_complex = input ? a2a_fft_complex_input(fft) : a2a_fft_complex_output(fft);
  return (size_t)n * (is_complex ? 2 : 1);
}
