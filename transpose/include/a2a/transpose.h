/* The transpose layer from C: a redistribution of a 3D array between two box decompositions
 * (slabs, pencils) through any a2a backend. Arrays are row-major over their box (the last
 * axis fastest). Errors as in a2a/a2a.h: return codes, a2a_last_error(), agreed on by every
 * rank when creating.
 *
 *   a2a_box zpencil = {{x0, y0, 0}, {x1, y1, nz}}, ypencil = {{x0, 0, z0}, {x1, ny, z1}};
 *   a2a_redistribution r;
 *   a2a_redistribution_create(row_comm, &zpencil, &ypencil, sizeof(double complex), "auto", &r);
 *   a2a_redistribution_execute(r, z_data, y_data);      // collective, many times
 *   a2a_redistribution_free(&r); */
#ifndef A2A_TRANSPOSE_H
#define A2A_TRANSPOSE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "a2a/a2a.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A half-open box [lo, hi) of global indices. */
typedef struct a2a_box {
  int64_t lo[3], hi[3];
} a2a_box;

typedef struct a2a_redistribution_s* a2a_redistribution;

/* Collective over comm: each rank's input and output boxes (their unions must be equal and
 * cover each index once). backend: any spec (NULL = "auto"). */
int a2a_redistribution_create(MPI_Comm comm, const a2a_box* in, const a2a_box* out,
                              size_t element_bytes, const char* backend, a2a_redistribution* r);
int a2a_redistribution_create_f(MPI_Fint comm, const a2a_box* in, const a2a_box* out,
                                size_t element_bytes, const char* backend, a2a_redistribution* r);
/* Collective: in holds the input box's elements, out receives the output box's. */
int a2a_redistribution_execute(a2a_redistribution r, const void* in, void* out);
/* The same in two collective steps (a2a_plan_start/finish): start packs and begins the
 * exchange, finish completes it and unpacks into out. */
int a2a_redistribution_start(a2a_redistribution r, const void* in, void* out);
int a2a_redistribution_finish(a2a_redistribution r);
/* The exchange's resolved backend, and whether it is a uniform exchange. */
const char* a2a_redistribution_backend(a2a_redistribution r);
int a2a_redistribution_uniform(a2a_redistribution r);
int a2a_redistribution_counters(a2a_redistribution r, a2a_counters* counters);
/* For redistributions that run one after another (your transform's steps, forward and back;
 * none in flight while another runs): r packs and receives into with's buffers from now on,
 * grown to r's needs (r's own freed), and, where both are single-copy (shared_window) on the
 * same ranks, into with's shared-memory window. Collective over r's communicator. */
int a2a_redistribution_share(a2a_redistribution r, a2a_redistribution with);
/* What the `count` redistributions hold together on this rank besides your arrays, memory they
 * share counted once (pass all that share: a window shared with one left out may be counted
 * with it): packing buffers, their backends' scratch and shared windows. */
size_t a2a_redistribution_memory_bytes(const a2a_redistribution* rs, int count);
int a2a_redistribution_free(a2a_redistribution* r);

/* The balanced split of n indices into `parts`: the first index of part `index`
 * (n * index / parts, exact for any n). -1, with a2a_last_error() set, unless n >= 0,
 * parts >= 1 and 0 <= index <= parts. */
int64_t a2a_block_start(int64_t n, int parts, int index);

#ifdef __cplusplus
}
#endif

#endif /* A2A_TRANSPOSE_H */
