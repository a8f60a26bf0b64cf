/* a2a's FFT library from C (and, through it, Fortran and Python): a2a::fft::BoxFft, a
 * distributed 3D transform of data in the caller's boxes with a kind per axis (DFT, DCT/DST
 * I-IV, none), c2c, r2c or real-to-real, a batch of fields, double or float. Arrays are
 * row-major over their box (axis 2 fastest; a batch's field index fastest when interleaved).
 * Errors as in a2a/a2a.h: return codes and a2a_last_error(), agreed on every rank when
 * creating. Link -la2a_fft (pkg-config a2a) or a2a::fft (CMake).
 *
 *   a2a_fft_options o;
 *   a2a_fft_options_default(&o);
 *   o.n[0] = nx; o.n[1] = ny; o.n[2] = nz;
 *   a2a_fft_slab_box(o.n, procs, rank, &o.in);           // or the boxes your code holds
 *   a2a_fft_pencil_box(o.n, 0, procs, rank, &o.out);
 *   a2a_fft fft;
 *   a2a_fft_create(MPI_COMM_WORLD, &o, &fft);              // collective, plans once
 *   a2a_fft_forward(fft, u, spectrum, A2A_FFT_SCALE_NONE, NULL);
 *   a2a_fft_backward(fft, spectrum, u, A2A_FFT_SCALE_FULL, NULL);
 *   a2a_fft_free(&fft); */
#ifndef A2A_FFT_H
#define A2A_FFT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "a2a/transpose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The transform along one axis: FFTW's REDFT00/10/01/11 (DCT-I..IV) and RODFT00/10/01/11
 * (DST-I..IV), unnormalized. */
enum {
  A2A_FFT_DFT = 0,
  A2A_FFT_DCT1 = 1,
  A2A_FFT_DCT2 = 2,
  A2A_FFT_DCT3 = 3,
  A2A_FFT_DCT4 = 4,
  A2A_FFT_DST1 = 5,
  A2A_FFT_DST2 = 6,
  A2A_FFT_DST3 = 7,
  A2A_FFT_DST4 = 8,
  A2A_FFT_NONE = 9
};
/* Scaling of one call: none, 1/N (N the product of FFTW's logical sizes), 1/sqrt(N). */
enum { A2A_FFT_SCALE_NONE = 0, A2A_FFT_SCALE_FULL = 1, A2A_FFT_SCALE_SYMMETRIC = 2 };

typedef struct a2a_fft_options {
  int64_t n[3];    /* the global (real) grid */
  a2a_box in, out; /* this rank's boxes (r2c: out over n0 x n1 x (n2/2 + 1)) */
  /* The arrays' axes, slowest first: {0,1,2} row-major over the box; {1,0,2} is [y][x][z],
   * FFTW_MPI_TRANSPOSED_OUT's layout. */
  int in_order[3], out_order[3];
  int kinds[3];           /* A2A_FFT_DFT ... A2A_FFT_NONE per axis */
  int r2c;                /* real input, axis 2 real-to-complex */
  int batch;              /* fields per plan, >= 1 */
  int batch_contiguous;   /* 0: interleaved (field fastest); 1: one box after another */
  int single_precision;   /* 0: double; 1: float */
  const char* backend;    /* every reshape's exchange (NULL: "auto") */
  unsigned fftw_flags;    /* FFTW_ESTIMATE (0x40), FFTW_MEASURE (0), ... */
  int external_workspace; /* 1: the caller passes a2a_fft_workspace_bytes() each call */
  int r2c_padded; /* r2c in place in FFTW's padded rows: 2 (n2/2 + 1) reals per row along axis 2 */
  /* 1: each call checks its arguments on its own rank only, without the small allreduce that
   * makes one rank's bad argument an error on every rank (the others then wait in the
   * exchanges); 0 (default): agreed. */
  int local_call_checks;
} a2a_fft_options;

typedef struct a2a_fft_s* a2a_fft;

/* Defaults: three DFT axes, row-major arrays, batch 1, interleaved, double, "auto",
 * FFTW_ESTIMATE, boxes empty. */
void a2a_fft_options_default(a2a_fft_options* o);
/* Collective over comm. */
int a2a_fft_create(MPI_Comm comm, const a2a_fft_options* o, a2a_fft* fft);
int a2a_fft_create_f(MPI_Fint comm, const a2a_fft_options* o, a2a_fft* fft);
/* Collective. Forward: in holds the input box, out receives the output box; backward the
 * reverse, with the inverse kinds. Complex data is interleaved (re, im) pairs of the plan's
 * precision; a2a_fft_complex_input / _output say which side is complex. in == out: in place
 * (the array holds the larger side). workspace: a2a_fft_workspace_bytes() bytes aligned as
 * fftw_malloc's where created with external_workspace, else NULL. */
int a2a_fft_forward(a2a_fft fft, const void* in, void* out, int scaling, void* workspace);
int a2a_fft_backward(a2a_fft fft, const void* in, void* out, int scaling, void* workspace);
/* The same with each array's size in bytes (SIZE_MAX: not known): an array smaller than this
 * rank's side of the plan (in place: the larger side) is an error on every rank, as a NULL one
 * is. The Fortran module passes its arrays' sizes this way. */
int a2a_fft_forward_sized(a2a_fft fft, const void* in, size_t in_bytes, void* out, size_t out_bytes,
                          int scaling, void* workspace);
int a2a_fft_backward_sized(a2a_fft fft, const void* in, size_t in_bytes, void* out,
                           size_t out_bytes, int scaling, void* workspace);
/* Values (real or complex, times the batch) of this rank's input and output arrays. */
int64_t a2a_fft_input_elements(a2a_fft fft);
int64_t a2a_fft_output_elements(a2a_fft fft);
int a2a_fft_complex_input(a2a_fft fft);
int a2a_fft_complex_output(a2a_fft fft);
size_t a2a_fft_workspace_bytes(a2a_fft fft);
/* Bytes the plan holds on this rank besides the caller's arrays and workspace: its work arrays
 * (none with external_workspace), the exchanges' buffers, scratch and shared windows. */
size_t a2a_fft_memory_bytes(a2a_fft fft);
/* The steps and the backend of each reshape, in words. */
const char* a2a_fft_describe(a2a_fft fft);
int a2a_fft_free(a2a_fft* fft);

/* Box proposals for rank `rank` of `procs`: slabs (split along axis 0), pencils whole along
 * `axis` on the most square process grid. */
int a2a_fft_slab_box(const int64_t n[3], int procs, int rank, a2a_box* box);
/* Slabs split along `axis` (1: the y-slabs of FFTW_MPI_TRANSPOSED_OUT's spectrum). */
int a2a_fft_slab_box_along(const int64_t n[3], int axis, int procs, int rank, a2a_box* box);
int a2a_fft_pencil_box(const int64_t n[3], int axis, int procs, int rank, a2a_box* box);

#ifdef __cplusplus
}
#endif

#endif /* A2A_FFT_H */
