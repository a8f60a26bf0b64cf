! The `use mpi_f08` binding (Open MPI: mpi_alltoall_f08_ and friends; MPICH: through its C
! entry points): MPI_Alltoall and MPI_Alltoallv with TYPE(MPI_Comm)/TYPE(MPI_Datatype)
! handles, MPI_IN_PLACE, a contiguous derived type against plain integers, Alltoallv with
! gaps and zero counts, a split communicator, calls with and without the optional ierror,
! and MPI_Ialltoall (counted, not replaced). Every element checked against its closed form
! (element k of the block from rank s to rank d is s*100000 + d*100 + k).
program probe_f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, checks, fails, totals(2)
  type(MPI_Comm) :: half
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  checks = 0
  fails = 0
  call uniform(MPI_COMM_WORLD)
  call uniform(MPI_COMM_WORLD)
  call vector(MPI_COMM_WORLD)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), nprocs - rank, half)
  call uniform(half)
  call vector(half)
  call MPI_Comm_free(half)
  call nonblocking(MPI_COMM_WORLD)
  totals = [checks, fails]
  call MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'probe_f08 (P=', nprocs, '): ', &
      totals(1) - totals(2), ' passed, ', totals(2), ' failed'
  call MPI_Finalize()
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

  logical function received_ok(recvbuf, me, p, count)
    integer, intent(in) :: recvbuf(0:), me, p, count
    integer :: s, k
    received_ok = .true.
    do s = 0, p - 1
      do k = 0, count - 1
        received_ok = received_ok .and. recvbuf(s*count + k) == val(s, me, k)
      end do
    end do
  end function

  subroutine uniform(comm)
    type(MPI_Comm), intent(in) :: comm
    integer :: me, p, count, d, k, c, err
    integer, allocatable :: sendbuf(:), recvbuf(:)
    type(MPI_Datatype) :: block
    call MPI_Comm_rank(comm, me)
    call MPI_Comm_size(comm, p)
    do c = 1, 2
      count = merge(1, 4, c == 1)
      allocate(sendbuf(0:p*count-1), recvbuf(0:p*count-1))
      do d = 0, p - 1
        do k = 0, count - 1
          sendbuf(d*count + k) = val(me, d, k)
        end do
      end do
      recvbuf = -1
      call MPI_Alltoall(sendbuf, count, MPI_INTEGER, recvbuf, count, MPI_INTEGER, comm, err)
      call check(err == MPI_SUCCESS .and. received_ok(recvbuf, me, p, count), &
                 'MPI_Alltoall (f08) integers')
      recvbuf = sendbuf
      call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recvbuf, count, MPI_INTEGER, comm)
      call check(received_ok(recvbuf, me, p, count), 'MPI_Alltoall (f08) MPI_IN_PLACE, no ierror')
      ! One block of `count` integers sent as a derived type, received as integers.
      call MPI_Type_contiguous(count, MPI_INTEGER, block)
      call MPI_Type_commit(block)
      recvbuf = -1
      call MPI_Alltoall(sendbuf, 1, block, recvbuf, count, MPI_INTEGER, comm, err)
      call check(err == MPI_SUCCESS .and. received_ok(recvbuf, me, p, count), &
                 'MPI_Alltoall (f08) contiguous derived type')
      call MPI_Type_free(block)
      deallocate(sendbuf, recvbuf)
    end do
  end subroutine

  subroutine vector(comm)
    type(MPI_Comm), intent(in) :: comm
    integer :: me, p, d, s, k, ssum, rsum, err
    integer, allocatable :: sc(:), sd(:), rc(:), rd(:), sendbuf(:), recvbuf(:)
    logical :: ok
    call MPI_Comm_rank(comm, me)
    call MPI_Comm_size(comm, p)
    allocate(sc(0:p-1), sd(0:p-1), rc(0:p-1), rd(0:p-1))
    ssum = 0
    rsum = 0
    do d = 0, p - 1
      sc(d) = mod(me + d, 3)
      rc(d) = mod(d + me, 3)
      sd(d) = ssum
      rd(d) = rsum
      ssum = ssum + sc(d) + 2
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
      ok = ok .and. recvbuf(rd(s) + rc(s)) == -1
    end do
    call check(ok, 'MPI_Alltoallv (f08) with gaps and zero counts')
    ! In place (symmetric counts), without ierror.
    recvbuf = -1
    do d = 0, p - 1
      do k = 0, rc(d) - 1
        recvbuf(rd(d) + k) = val(me, d, k)
      end do
    end do
    call MPI_Alltoallv(MPI_IN_PLACE, sc, sd, MPI_DATATYPE_NULL, recvbuf, rc, rd, MPI_INTEGER, comm)
    ok = .true.
    do s = 0, p - 1
      do k = 0, rc(s) - 1
        ok = ok .and. recvbuf(rd(s) + k) == val(s, me, k)
      end do
    end do
    call check(ok, 'MPI_Alltoallv (f08) MPI_IN_PLACE')
    deallocate(sc, sd, rc, rd, sendbuf, recvbuf)
  end subroutine

  subroutine nonblocking(comm)
    type(MPI_Comm), intent(in) :: comm
    integer :: me, p, s
    integer, allocatable :: sendbuf(:), recvbuf(:)
    type(MPI_Request) :: request
    logical :: ok
    call MPI_Comm_rank(comm, me)
    call MPI_Comm_size(comm, p)
    allocate(sendbuf(0:p-1), recvbuf(0:p-1))
    do s = 0, p - 1
      sendbuf(s) = val(me, s, 0)
    end do
    call MPI_Ialltoall(sendbuf, 1, MPI_INTEGER, recvbuf, 1, MPI_INTEGER, comm, request)
    call MPI_Wait(request, MPI_STATUS_IGNORE)
    ok = .true.
    do s = 0, p - 1
      ok = ok .and. recvbuf(s) == val(s, me, 0)
    end do
    call check(ok, 'MPI_Ialltoall (f08)')
    deallocate(sendbuf, recvbuf)
  end subroutine
end program
