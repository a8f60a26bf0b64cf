/* a2a from C (and, through the `a2a` Fortran module and the Python package, from Fortran and
 * Python): the all-to-all exchanges of a2a::alltoall behind opaque handles.
 *
 *   a2a_plan plan;
 *   if (a2a_plan_create_uniform("tra:r=sqrt", MPI_COMM_WORLD, block_bytes, &plan) != A2A_SUCCESS)
 *     fprintf(stderr, "%s\n", a2a_last_error());              // the same error on every rank
 *   for (...) a2a_plan_execute(plan, send, recv);              // collective, many times
 *   a2a_plan_free(&plan);
 *
 * Three kinds of handle: a uniform plan (MPI_Alltoall's semantics), a fixed-layout vector plan
 * (MPI_Alltoallv with counts that do not change: all fixed work done when it is made), and a
 * per-call vector exchange (counts given with every call, nothing planned per call).
 * Counts and displacements are bytes in size_t; a message above 2 GiB works.
 *
 * Errors are return codes (never a C++ exception, never an abort); a2a_last_error() gives the
 * message of this rank's last failing call. Errors while creating are agreed on by every rank
 * of the communicator, so every rank returns the same code and message and none is left
 * waiting. The _f variants take a Fortran communicator handle (MPI_Fint, converted with
 * MPI_Comm_f2c): the Fortran module and the Python package (mpi4py's Comm.py2f()) use them. */
#ifndef A2A_A2A_H
#define A2A_A2A_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  A2A_SUCCESS = 0,
  A2A_ERR_SPEC = 1,        /* unknown backend or parameter, a value out of range */
  A2A_ERR_ARGUMENT = 2,    /* a null handle or pointer, a bad layout or box, mismatched counts,
                              a freed communicator, a call out of order */
  A2A_ERR_MPI = 3,         /* an MPI call failed */
  A2A_ERR_OTHER = 4,       /* an internal error */
  A2A_ERR_UNSUPPORTED = 5, /* the backend cannot serve this exchange here (kind, placement) */
  A2A_ERR_RESOURCE = 6     /* out of memory, shared memory or file space */
};

typedef struct a2a_plan_s* a2a_plan;
typedef struct a2a_exchange_s* a2a_exchange;

/* What the last execute did on this rank. */
typedef struct a2a_counters {
  size_t rounds, waits, messages_sent, blocks_sent, bytes_sent;
} a2a_counters;

/* The message of this rank's last failing call ("" if none failed). */
const char* a2a_last_error(void);

/* Uniform plan: block_bytes to and from every rank. Collective. */
int a2a_plan_create_uniform(const char* spec, MPI_Comm comm, size_t block_bytes, a2a_plan* plan);
int a2a_plan_create_uniform_f(const char* spec, MPI_Fint comm, size_t block_bytes, a2a_plan* plan);
/* Fixed-layout vector plan: one count and displacement (bytes) per rank, as MPI_Alltoallv.
 * Collective; the layout is checked (overlaps, and every sender's count against its
 * receiver's). */
int a2a_plan_create_vector(const char* spec, MPI_Comm comm, const size_t* send_counts,
                           const size_t* send_displs, const size_t* recv_counts,
                           const size_t* recv_displs, a2a_plan* plan);
int a2a_plan_create_vector_f(const char* spec, MPI_Fint comm, const size_t* send_counts,
                             const size_t* send_displs, const size_t* recv_counts,
                             const size_t* recv_displs, a2a_plan* plan);
/* Collective: send is only read. */
int a2a_plan_execute(a2a_plan plan, const void* send, void* recv);
/* The same exchange in two collective steps, with computation on other memory in between:
 * start begins it, finish completes it (one exchange per plan at a time; send must not change
 * nor recv be read in between). Only `mpi` (MPI_Ialltoall[v|w]) and `linear` progress between
 * the two; every other backend does all its work in start. a2a_plan_overlaps says which: 1 or
 * 0 (-1 for a null plan). */
int a2a_plan_start(a2a_plan plan, const void* send, void* recv);
int a2a_plan_finish(a2a_plan plan);
int a2a_plan_overlaps(a2a_plan plan);
/* The resolved backend ("tra:r=3,window=1", "auto->mpi") and a short label; valid until the
 * plan is freed. NULL for a null plan. */
const char* a2a_plan_name(a2a_plan plan);
const char* a2a_plan_label(a2a_plan plan);
int a2a_plan_counters(a2a_plan plan, a2a_counters* counters);
/* Bytes the send and receive buffers must span. */
size_t a2a_plan_send_extent(a2a_plan plan);
size_t a2a_plan_recv_extent(a2a_plan plan);
/* Bytes the plan holds on this rank besides the caller's buffers (its backend's work and
 * staging arrays, its part of shared-memory windows); 0 for a null plan. */
size_t a2a_plan_scratch_bytes(a2a_plan plan);
/* Frees the plan (not collective) and sets *plan to NULL; a NULL plan is fine. */
int a2a_plan_free(a2a_plan* plan);

/* Per-call vector exchange. Collective. */
int a2a_exchange_create(const char* spec, MPI_Comm comm, a2a_exchange* exchange);
int a2a_exchange_create_f(const char* spec, MPI_Fint comm, a2a_exchange* exchange);
/* Collective: MPI_Alltoallv's contract, counts and displacements in bytes. */
int a2a_exchange_execute(a2a_exchange exchange, const void* send, const size_t* send_counts,
                         const size_t* send_displs, void* recv, const size_t* recv_counts,
                         const size_t* recv_displs);
/* For bindings that know their arrays' lengths (the Fortran module): as above, where the
 * four count and displacement arrays hold at least `length` entries each; a length below the
 * communicator's size is A2A_ERR_ARGUMENT (agreed on every rank when creating) instead of a
 * read past the arrays' end. */
int a2a_plan_create_vector_fn(const char* spec, MPI_Fint comm, size_t length,
                              const size_t* send_counts, const size_t* send_displs,
                              const size_t* recv_counts, const size_t* recv_displs, a2a_plan* plan);
int a2a_exchange_execute_n(a2a_exchange exchange, const void* send, size_t length,
                           const size_t* send_counts, const size_t* send_displs, void* recv,
                           const size_t* recv_counts, const size_t* recv_displs);
/* The resolved backend; for auto, what the last call ran. Valid until the next call. */
const char* a2a_exchange_name(a2a_exchange exchange);
int a2a_exchange_counters(a2a_exchange exchange, a2a_counters* counters);
/* As a2a_plan_scratch_bytes, now: a per-call backend's scratch grows with the largest call so
 * far and is kept. 0 for a null exchange. */
size_t a2a_exchange_scratch_bytes(a2a_exchange exchange);
int a2a_exchange_free(a2a_exchange* exchange);

/* The registry: algorithm i in 0 .. a2a_algorithm_count()-1. kinds: bit 1 uniform, bit 2
 * vector. The strings are static. */
int a2a_algorithm_count(void);
int a2a_algorithm_info(int index, const char** name, unsigned* kinds, const char** summary,
                       const char** source, const char** cost);

/* The cost model of the radix-r Bruck family (configurable-alltoall paper, Propositions 1-4):
 * w = ceil(log_r P) digits, K rounds, D blocks sent per rank. */
int a2a_model(uint64_t procs, uint64_t radix, uint64_t* digits, uint64_t* rounds, uint64_t* blocks);

#ifdef __cplusplus
}
#endif

#endif /* A2A_A2A_H */
