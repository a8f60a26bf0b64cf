! short_arrays: count and displacement arrays one entry short of the communicator's size, passed
! by a Fortran program to the `a2a` module (allocate(sc(p - 1)), the usual off-by-one). The
! module knows the arrays' sizes: a2a_plan_create_vector must return A2A_ERR_ARGUMENT on every
! rank and a2a_exchange_execute on the rank that passed them (every rank here), never read past
! the arrays (a hang, garbage counts or a crash before). Arrays of the right size then work.
! And what a plan and an exchange hold, asked from Fortran (a2a_plan_scratch_bytes,
! a2a_exchange_scratch_bytes), against the backends' closed forms.
! Prints "short_arrays: N passed, M failed".
program short_arrays
  use, intrinsic :: iso_c_binding
  use mpi
  use a2a
  implicit none
  integer :: ierr, rank, procs, checks, fails, code, everywhere(1), p
  logical :: right
  integer(c_size_t), allocatable :: short(:), full(:), displs(:)
  integer(c_int8_t), allocatable :: send(:), recv(:)
  type(a2a_plan) :: plan
  type(a2a_exchange) :: ex

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, procs, ierr)
  checks = 0
  fails = 0
  allocate(short(procs - 1), full(procs), displs(procs), send(8 * procs), recv(8 * procs))
  short = 8
  full = 8
  displs = [(8 * (p - 1), p = 1, procs)]
  send = int(rank, c_int8_t)

  call a2a_plan_create_vector(plan, "linear", MPI_COMM_WORLD, short, displs, full, displs, code)
  ! Arrays as send buffers here and below: MPICH's mpi module has no explicit interface, and
  ! gfortran checks one call's arguments against the other's.
  call MPI_Allreduce([merge(1, 0, code == A2A_ERR_ARGUMENT)], everywhere, 1, MPI_INTEGER, MPI_MIN, &
                     MPI_COMM_WORLD, ierr)
  call check(everywhere(1) == 1 .and. index(a2a_last_error(), "entries") > 0, &
             "a short send_counts: A2A_ERR_ARGUMENT on every rank")

  call a2a_exchange_create(ex, "sloav", MPI_COMM_WORLD, code)
  call check(code == A2A_SUCCESS, "exchange made")
  call a2a_exchange_execute(ex, send, full, displs, recv, short, displs, code)
  call check(code == A2A_ERR_ARGUMENT .and. index(a2a_last_error(), "entries") > 0, &
             "a short recv_counts per call: A2A_ERR_ARGUMENT")
  recv = -1
  call a2a_exchange_execute(ex, send, full, displs, recv, full, displs, code)
  right = code == A2A_SUCCESS
  do p = 0, procs - 1
    right = right .and. all(recv(8 * p + 1:8 * p + 8) == int(p, c_int8_t))
  end do
  call check(right, "then full arrays: the right data")
  call a2a_exchange_free(ex, code)

  ! What a plan holds, asked from Fortran: TRA's work array holds its procs blocks of 8 bytes.
  call a2a_plan_create_uniform(plan, "tra", MPI_COMM_WORLD, 8_c_size_t, code)
  call check(code == A2A_SUCCESS .and. &
             a2a_plan_scratch_bytes(plan) >= merge(8 * procs, 0, procs > 1), &
             "a2a_plan_scratch_bytes: tra's work array")
  call a2a_plan_free(plan, code)
  ! A single-copy exchange's window holds what this rank received (every rank on one node here).
  call a2a_exchange_create(ex, "shared_window", MPI_COMM_WORLD, code)
  call check(code == A2A_SUCCESS, "shared_window exchange made")
  call a2a_exchange_execute(ex, send, full, displs, recv, full, displs, code)
  call check(code == A2A_SUCCESS .and. a2a_exchange_scratch_bytes(ex) >= 8 * procs, &
             "a2a_exchange_scratch_bytes: shared_window's window")
  call a2a_exchange_free(ex, code)

  call finish("short_arrays")

contains

  include 'checks.inc'
end program
