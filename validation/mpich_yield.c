/* Test-only shim for MPICH (preloaded by the MPICH test runs and by scripts/cluster --mpi mpich).
 *
 * 1. Yield. MPICH's ch4:ucx device waits by calling ucp_worker_progress in a loop and never
 *    yields the CPU, so with more ranks than cores a rank that waits keeps the one it waits for
 *    off the CPU: on 2 cores a 3-rank test takes 50 times as long as a 2-rank one. Yielding when
 *    UCX made no progress changes only the scheduling, not what MPI computes.
 * 2. No endpoint flush at MPI_Finalize. Over UCX's TCP transport (the emulated cluster's hosts)
 *    MPICH 4.0.2 with UCX 1.13 hangs in MPI_Finalize in about 1 launch of 3: each rank closes
 *    its endpoints with a flush (ucp_disconnect_nb) that needs its peers' progress, and a peer
 *    whose own flush is done waits in the PMI barrier without progressing (UCX's TCP transport
 *    stops progressing closing endpoints; openucx/ucx issue 8738). A six-line MPI program
 *    without a2a shows it (validation/cluster/finalize.c). MPICH's next step is that PMI
 *    barrier, which every rank reaches only once all its communication is complete, and then
 *    ucp_worker_destroy, which closes every endpoint: skipping the flush loses nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

typedef unsigned (*progress_fn)(void*);

unsigned ucp_worker_progress(void* worker) {
  static progress_fn real = 0;
  if (!real) real = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
  const unsigned progressed = real(worker);
  if (progressed == 0) sched_yield();
  return progressed;
}

/* UCS_OK as a status pointer: done, nothing pending. */
void* ucp_disconnect_nb(void* endpoint) {
  (void)endpoint;
  return 0;
}
