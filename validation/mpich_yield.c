/* Test-only shim for MPICH on oversubscribed machines (preloaded by the MPICH test runs).
 * MPICH's ch4:ucx device waits by calling ucp_worker_progress in a loop and never yields the
 * CPU, so with more ranks than cores a rank that waits keeps the one it waits for off the
 * CPU: on 2 cores a 3-rank test takes 50 times as long as a 2-rank one. Yielding when UCX
 * made no progress changes only the scheduling, not what MPI computes. */
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
