/* The Fortran module a2a_fft's forward and backward: the arrays arrive as Fortran's C
 * descriptors (assumed-rank, contiguous dummies: the compiler copies a strided section in and
 * out), so their sizes are known and passed on (a2a_fft_forward_sized): an array too small for
 * this rank's side of the plan is an error on every rank instead of memory past its end. */
#include <ISO_Fortran_binding.h>
#include <a2a/fft.h>
#include <stddef.h>

static size_t bytes_of(const CFI_cdesc_t* array) {
  size_t bytes = array->elem_len;
  for (CFI_rank_t r = 0; r < array->rank; ++r)
    bytes *= (size_t)array->dim[r].extent;
  return bytes;
}

int a2a_fft_forward_cfi(a2a_fft fft, const CFI_cdesc_t* in, CFI_cdesc_t* out, int scaling) {
  return a2a_fft_forward_sized(fft, in->base_addr, bytes_of(in), out->base_addr, bytes_of(out),
                               scaling, NULL);
}

int a2a_fft_backward_cfi(a2a_fft fft, const CFI_cdesc_t* in, CFI_cdesc_t* out, int scaling) {
  return a2a_fft_backward_sized(fft, in->base_addr, bytes_of(in), out->base_addr, bytes_of(out),
                                scaling, NULL);
}
