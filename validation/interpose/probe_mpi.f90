! A Fortran program with `use mpi` (Open MPI: the same entry points as mpif.h) that calls
! MPI_ALLTOALL and MPI_ALLTOALLV and checks every received element against its closed form
! (element k of the block from rank s to rank d is s*100000 + d*100 + k): counts 1 and 3,
! MPI_IN_PLACE, a strided derived type (MPI_TYPE_VECTOR, resized), Alltoallv with gaps and
! zero counts, a split communicator; and MPI_IALLTOALL (counted, not replaced). Built with
! mpif90 as a user would; run with and without liba2a_interpose.so.
program probe_mpi
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, half, checks, fails, totals(2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  checks = 0
  fails = 0
  call uniform(MPI_COMM_WORLD)
  call uniform(MPI_COMM_WORLD)   ! again: from the interposer's cache
  call vector(MPI_COMM_WORLD)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), nprocs - rank, half, ierr)
  call uniform(half)
  call vector(half)
  call MPI_Comm_free(half, ierr)
  call nonblocking(MPI_COMM_WORLD)
  totals = (/ checks, fails /)
  call MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'probe_mpi (P=', nprocs, '): ', &
      totals(1) - totals(2), ' passed, ', totals(2), ' failed'
  call MPI_Finalize(ierr)
  if (totals(2) /= 0) stop 1
contains
  integer function val(s, d, k)
    integer, intent(in) :: s, d, k
    val = s * 100000 + d * 100 + k
  end function

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    checks = checks + 1
    if (.not. ok) then
      fails = fails + 1
      write(0, '(A,I0,A,A)') '[rank ', rank, '] FAILED: ', what
    end if
  end subroutine

  subroutine uniform(comm)
    integer, intent(in) :: comm
    integer :: me, p, count, d, s, k, c, strided, resized, err
    integer, allocatable :: sendbuf(:), recvbuf(:), wide(:)
    integer(kind=MPI_ADDRESS_KIND) :: lb, extent
    logical :: ok
    call MPI_Comm_rank(comm, me, err)
    call MPI_Comm_size(comm, p, err)
    do c = 1, 2
      count = merge(1, 3, c == 1)
      allocate(sendbuf(0:p*count-1), recvbuf(0:p*count-1))
      do d = 0, p - 1
        do k = 0, count - 1
          sendbuf(d*count + k) = val(me, d, k)
        end do
      end do
      recvbuf = -1
      call MPI_Alltoall(sendbuf, count, MPI_INTEGER, recvbuf, count, MPI_INTEGER, comm, err)
      ok = err == MPI_SUCCESS
      do s = 0, p - 1
        do k = 0, count - 1
          ok = ok .and. recvbuf(s*count + k) == val(s, me, k)
        end do
      end do
      call check(ok, 'MPI_ALLTOALL integers')
      recvbuf = sendbuf
      call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recvbuf, count, MPI_INTEGER, comm, err)
      ok = err == MPI_SUCCESS
      do s = 0, p - 1
        do k = 0, count - 1
          ok = ok .and. recvbuf(s*count + k) == val(s, me, k)
        end do
      end do
      call check(ok, 'MPI_ALLTOALL MPI_IN_PLACE')
      ! Every other integer of a twice-as-long buffer: MPI_TYPE_VECTOR, resized.
      allocate(wide(0:2*p*count-1))
      wide = -7
      do d = 0, p - 1
        do k = 0, count - 1
          wide(2*(d*count + k)) = val(me, d, k)
        end do
      end do
      call MPI_Type_vector(count, 1, 2, MPI_INTEGER, strided, err)
      lb = 0
      extent = 2 * count * 4
      call MPI_Type_create_resized(strided, lb, extent, resized, err)
      call MPI_Type_commit(resized, err)
      recvbuf = -1
      call MPI_Alltoall(wide, 1, resized, recvbuf, count, MPI_INTEGER, comm, err)
      ok = err == MPI_SUCCESS
      do s = 0, p - 1
        do k = 0, count - 1
          ok = ok .and. recvbuf(s*count + k) == val(s, me, k)
        end do
      end do
      call check(ok, 'MPI_ALLTOALL strided derived type')
      call MPI_Type_free(resized, err)
      call MPI_Type_free(strided, err)
      deallocate(sendbuf, recvbuf, wide)
    end do
  end subroutine

  subroutine vector(comm)
    integer, intent(in) :: comm
    integer :: me, p, d, s, k, ssum, rsum, err
    integer, allocatable :: sc(:), sd(:), rc(:), rd(:), sendbuf(:), recvbuf(:)
    logical :: ok
    call MPI_Comm_rank(comm, me, err)
    call MPI_Comm_size(comm, p, err)
    allocate(sc(0:p-1), sd(0:p-1), rc(0:p-1), rd(0:p-1))
    ssum = 0
    rsum = 0
    do d = 0, p - 1
      sc(d) = mod(me + d, 3)   ! zero for some peers
      rc(d) = mod(d + me, 3)
      sd(d) = ssum
      rd(d) = rsum
      ssum = ssum + sc(d) + 2  ! gaps of two integers
      rsum = rsum + rc(d) + 2
    end do
    allocate(sendbuf(0:ssum), recvbuf(0:rsum))
    do d = 0, p - 1
      do k = 0, sc(d) - 1
        sendbuf(sd(d) + k) = val(me, d, k)
      end do
    end do
    recvbuf = -1
    call MPI_Alltoallv(sendbuf, sc, sd, MPI_INTEGER, recvbuf, rc, rd, MPI_INTEGER, comm, err)
    ok = err == MPI_SUCCESS
    do s = 0, p - 1
      do k = 0, rc(s) - 1
        ok = ok .and. recvbuf(rd(s) + k) == val(s, me, k)
      end do
      ok = ok .and. recvbuf(rd(s) + rc(s)) == -1   ! gaps untouched
    end do
    call check(ok, 'MPI_ALLTOALLV with gaps and zero counts')
    deallocate(sc, sd, rc, rd, sendbuf, recvbuf)
  end subroutine

  subroutine nonblocking(comm)
    integer, intent(in) :: comm
    integer :: me, p, s, request, err
    integer, allocatable :: sendbuf(:), recvbuf(:)
    logical :: ok
    call MPI_Comm_rank(comm, me, err)
    call MPI_Comm_size(comm, p, err)
    allocate(sendbuf(0:p-1), recvbuf(0:p-1))
    do s = 0, p - 1
      sendbuf(s) = val(me, s, 0)
    end do
    call MPI_Ialltoall(sendbuf, 1, MPI_INTEGER, recvbuf, 1, MPI_INTEGER, comm, request, err)
    call MPI_Wait(request, MPI_STATUS_IGNORE, err)
    ok = .true.
    do s = 0, p - 1
      ok = ok .and. recvbuf(s) == val(s, me, 0)
    end do
    call check(ok, 'MPI_IALLTOALL')
    deallocate(sendbuf, recvbuf)
  end subroutine
end program
