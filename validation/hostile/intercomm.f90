! intercomm.f90: the Fortran module's create calls given a communicator they cannot use, as a
! Fortran program (built with the MPI's mpif90 wrapper flags) makes them by mistake: an
! inter-communicator (MPI_Intercomm_create of the even and odd ranks), and MPI_COMM_WORLD after
! MPI_Finalize. Each must return A2A_ERR_ARGUMENT, never abort the job (the C entry points took
! the handle through MPI_Comm_f2c first, which Open MPI aborts on after MPI_Finalize). Needs 2
! ranks or more. Prints "intercomm_fortran: N passed, M failed" on each rank (after
! MPI_Finalize no reduction is possible).
program intercomm_fortran
  use mpi
  use a2a
  use iso_c_binding, only: c_int64_t, c_size_t
  implicit none
  integer :: ierr, rank, half, inter, code, checks, fails
  type(a2a_plan) :: plan
  type(a2a_exchange) :: ex
  type(a2a_redistribution) :: r
  type(a2a_box) :: box
  checks = 0
  fails = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - mod(rank, 2), 7, inter, ierr)
  box%lo = [int(rank, c_int64_t), 0_c_int64_t, 0_c_int64_t]
  box%hi = [int(rank + 1, c_int64_t), 2_c_int64_t, 2_c_int64_t]
  call create_each(inter, "on an inter-communicator")
  call MPI_Comm_free(inter, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Finalize(ierr)
  call create_each(MPI_COMM_WORLD, "after MPI_Finalize")
  print '(a,i0,a,i0,a)', 'intercomm_fortran: ', checks - fails, ' passed, ', fails, ' failed'
  if (fails /= 0) stop 1
contains
  ! Every create call of the module on comm, each expected to return A2A_ERR_ARGUMENT.
  subroutine create_each(comm, when)
    integer, intent(in) :: comm
    character(len=*), intent(in) :: when
    call a2a_plan_create_uniform(plan, "linear", comm, 8_c_size_t, code)
    call expect(code, "a2a_plan_create_uniform " // when)
    call a2a_exchange_create(ex, "auto", comm, code)
    call expect(code, "a2a_exchange_create " // when)
    call a2a_redistribution_create(r, comm, box, box, 8_c_size_t, "auto", code)
    call expect(code, "a2a_redistribution_create " // when)
  end subroutine

  subroutine expect(got, what)
    integer, intent(in) :: got
    character(len=*), intent(in) :: what
    checks = checks + 1
    if (got /= A2A_ERR_ARGUMENT) then
      fails = fails + 1
      print '(a,i0,a,a,a,i0)', '[rank ', rank, '] FAILED: ', what, ': code ', got
    end if
  end subroutine
end program
