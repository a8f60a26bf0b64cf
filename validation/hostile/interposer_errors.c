/* interposer_errors: erroneous MPI_Alltoall/MPI_Alltoallv calls of a program that asked for
 * errors to be returned (MPI_ERRORS_RETURN on its communicator), run with and without
 * liba2a_interpose.so: each must return the error class the MPI library returns without the
 * interposer, never abort the job.
 *   - MPI_DATATYPE_NULL as the send or the receive type: MPI_ERR_TYPE;
 *   - MPI_COMM_NULL: MPI_ERR_COMM (MPI raises it on MPI_COMM_WORLD's handler, set to return);
 *   - a NULL send or receive buffer where the rank has data (on every rank, so that none
 *     waits for another): MPI_ERR_BUFFER, what MPICH's own argument checks return; not in the
 *     plain run under Open MPI, which dereferences the NULL (a segmentation fault);
 *   - Alltoallv where rank 0 sends rank 1 more than rank 1 expects: MPI_ERR_TRUNCATE on rank 1
 *     (the other ranks' calls succeed, as MPI's do); then a correct call on a fresh
 *     communicator still works.
 * Prints "interposer_errors: N passed, M failed". Needs 2 ranks or more. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, procs, checks, failures;

static void expect_class(int code, int want, const char* what) {
  int cls = MPI_SUCCESS;
  if (code != MPI_SUCCESS) MPI_Error_class(code, &cls);
  ++checks;
  if (cls != want) {
    ++failures;
    fprintf(stderr, "[rank %d] FAILED: %s: error class %d, expected %d\n", rank, what, cls, want);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int* send = calloc((size_t)procs * 4, sizeof(int));
  int* recv = calloc((size_t)procs * 4, sizeof(int));
  int* sc = malloc(sizeof(int) * procs);
  int* sd = malloc(sizeof(int) * procs);
  int* rc = malloc(sizeof(int) * procs);
  int* rd = malloc(sizeof(int) * procs);

  expect_class(MPI_Alltoall(send, 1, MPI_DATATYPE_NULL, recv, 1, MPI_INT, comm), MPI_ERR_TYPE,
               "MPI_Alltoall with a null send type");
  expect_class(MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_DATATYPE_NULL, comm), MPI_ERR_TYPE,
               "MPI_Alltoall with a null receive type");
  for (int p = 0; p < procs; ++p)
    sc[p] = rc[p] = 1, sd[p] = rd[p] = p;
  expect_class(MPI_Alltoallv(send, sc, sd, MPI_DATATYPE_NULL, recv, rc, rd, MPI_INT, comm),
               MPI_ERR_TYPE, "MPI_Alltoallv with a null send type");
  expect_class(MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM,
               "MPI_Alltoall on MPI_COMM_NULL");

#ifndef MPICH_VERSION
  const int check_null = getenv("A2A_ALLTOALL") != NULL; /* the interposer's runs */
#else
  const int check_null = 1;
#endif
  if (check_null) {
    for (int p = 0; p < procs; ++p)
      sc[p] = rc[p] = 1, sd[p] = rd[p] = p;
    expect_class(MPI_Alltoall(NULL, 1, MPI_INT, recv, 1, MPI_INT, comm), MPI_ERR_BUFFER,
                 "MPI_Alltoall with a NULL send buffer");
    expect_class(MPI_Alltoall(send, 1, MPI_INT, NULL, 1, MPI_INT, comm), MPI_ERR_BUFFER,
                 "MPI_Alltoall with a NULL receive buffer");
    expect_class(MPI_Alltoallv(NULL, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm), MPI_ERR_BUFFER,
                 "MPI_Alltoallv with a NULL send buffer");
    expect_class(MPI_Alltoallv(send, sc, sd, MPI_INT, NULL, rc, rd, MPI_INT, comm), MPI_ERR_BUFFER,
                 "MPI_Alltoallv with a NULL receive buffer");
  }

  /* Rank 0 sends rank 1 two ints where rank 1 expects one. */
  for (int p = 0; p < procs; ++p)
    sc[p] = rc[p] = 1, sd[p] = rd[p] = 2 * p;
  if (rank == 0) sc[1] = 2;
  const int code = MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm);
  expect_class(code, rank == 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS,
               "MPI_Alltoallv with counts that disagree");

  /* After a failed collective the communicator's state is undefined (MPI): a fresh one works. */
  MPI_Comm fresh;
  MPI_Comm_dup(MPI_COMM_WORLD, &fresh);
  for (int p = 0; p < procs; ++p)
    send[p] = rank * 1000 + p, sc[p] = rc[p] = 1, sd[p] = rd[p] = p;
  int ok = MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, fresh) == MPI_SUCCESS;
  for (int p = 0; ok && p < procs; ++p)
    ok = recv[p] == p * 1000 + rank;
  ++checks;
  if (!ok) {
    ++failures;
    fprintf(stderr, "[rank %d] FAILED: a correct Alltoallv after the errors\n", rank);
  }
  MPI_Comm_free(&fresh);

  int totals[2] = {checks, failures};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("interposer_errors: %d passed, %d failed\n", totals[0] - totals[1], totals[1]);
  MPI_Comm_free(&comm);
  free(send);
  free(recv);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  MPI_Finalize();
  return totals[1] == 0 ? 0 : 1;
}
