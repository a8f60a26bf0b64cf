/* What the hostile C programs share: this rank and the communicator's size, the tally of their
 * checks (each failure printed with a2a's last error), and the check that a call failed alike on
 * every rank. Included by each program's one source file. */
#pragma once

#include <a2a/a2a.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, procs, checks, failures;

static inline void expect(int ok, const char* what) {
  ++checks;
  if (!ok) {
    ++failures;
    fprintf(stderr, "[rank %d] FAILED: %s (last error: %s)\n", rank, what, a2a_last_error());
  }
}

/* Collective over MPI_COMM_WORLD: the code `want` on every rank, and a message containing
 * `words`. */
static inline void expect_everywhere(int code, int want, const char* words, const char* what) {
  int ok = code == want && strstr(a2a_last_error(), words) != NULL;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  expect(ok, what);
}

/* A refused create: the code, a message containing `words`, and the handle (at `handle`, any
 * of a2a's handle types, set to something other than NULL before the call) cleared to NULL. */
static inline void expect_refused(int code, const void* handle, const char* words,
                                  const char* what) {
  expect(code == A2A_ERR_ARGUMENT && strstr(a2a_last_error(), words) != NULL &&
             *(void* const*)handle == NULL,
         what);
}
