! The `a2a` Fortran module: a2a's exchanges and transpose layer from Fortran, over the C API
! (a2a/a2a.h, a2a/transpose.h) through ISO_C_BINDING. Built into liba2a_fortran with the
! libraries; `use a2a` and link a2a::fortran (find_package(a2a)).
!
!   use a2a
!   type(a2a_redistribution) :: r
!   type(a2a_box) :: zpencil, ypencil          ! boxes in C order: lo(1) is the slowest axis
!   call a2a_redistribution_create(r, comm, zpencil, ypencil, 16_int64, "auto", ierr)
!   call a2a_redistribution_execute(r, zdata, ydata, ierr)
!   call a2a_redistribution_free(r, ierr)
!
! Communicators are Fortran handles: an INTEGER (mpif.h, `use mpi`) or, with `use mpi_f08`,
! comm%MPI_VAL. Buffers are any contiguous arrays. Arrays are row-major over their box in C
! order, so a Fortran array a(z, y, x) (z fastest) is the box with lo/hi = (x, y, z).
! Every procedure returns ierr = A2A_SUCCESS or an error code; a2a_last_error() says why.
! Errors while creating are the same on every rank (none is left waiting).
module a2a
  use, intrinsic :: iso_c_binding
  implicit none
  private

  integer, parameter, public :: A2A_SUCCESS = 0, A2A_ERR_SPEC = 1, A2A_ERR_ARGUMENT = 2, &
                                A2A_ERR_MPI = 3, A2A_ERR_OTHER = 4, A2A_ERR_UNSUPPORTED = 5, &
                                A2A_ERR_RESOURCE = 6

  type, public :: a2a_plan
    type(c_ptr) :: handle = c_null_ptr
  end type
  type, public :: a2a_exchange
    type(c_ptr) :: handle = c_null_ptr
  end type
  type, public :: a2a_redistribution
    type(c_ptr) :: handle = c_null_ptr
  end type
  ! A half-open box [lo, hi) of global indices, in C order (lo(1): the slowest axis).
  type, public, bind(c) :: a2a_box
    integer(c_int64_t) :: lo(3) = 0, hi(3) = 0
  end type
  type, public, bind(c) :: a2a_counters
    integer(c_size_t) :: rounds = 0, waits = 0, messages_sent = 0, blocks_sent = 0, bytes_sent = 0
  end type

  public :: a2a_last_error, a2a_plan_create_uniform, a2a_plan_create_vector, a2a_plan_execute, &
            a2a_plan_name, a2a_plan_counters, a2a_plan_scratch_bytes, a2a_plan_free, &
            a2a_exchange_create, a2a_exchange_execute, a2a_exchange_name, &
            a2a_exchange_scratch_bytes, a2a_exchange_free, &
            a2a_redistribution_create, a2a_redistribution_execute, a2a_redistribution_backend, &
            a2a_redistribution_share, a2a_redistribution_memory_bytes, a2a_redistribution_free, &
            a2a_block_start, a2a_algorithm_count, a2a_algorithm_name, a2a_model
  ! A C string (char*) as a Fortran one: for the modules built on this one (a2a_fft).
  public :: fortran_string

  interface
    function c_last_error() bind(c, name="a2a_last_error") result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function
    function c_plan_create_uniform(spec, comm, bytes, plan) &
        bind(c, name="a2a_plan_create_uniform_f") result(code)
      import :: c_char, c_int, c_size_t, c_ptr
      character(kind=c_char), intent(in) :: spec(*)
      integer(c_int), value :: comm
      integer(c_size_t), value :: bytes
      type(c_ptr), intent(out) :: plan
      integer(c_int) :: code
    end function
    function c_plan_create_vector(spec, comm, length, sc, sd, rc, rd, plan) &
        bind(c, name="a2a_plan_create_vector_fn") result(code)
      import :: c_char, c_int, c_size_t, c_ptr
      character(kind=c_char), intent(in) :: spec(*)
      integer(c_int), value :: comm
      integer(c_size_t), value :: length
      integer(c_size_t), intent(in) :: sc(*), sd(*), rc(*), rd(*)
      type(c_ptr), intent(out) :: plan
      integer(c_int) :: code
    end function
    function c_plan_execute(plan, send, recv) bind(c, name="a2a_plan_execute") result(code)
      import :: c_ptr, c_int
      type(c_ptr), value :: plan
      type(*), intent(in) :: send(*)
      type(*) :: recv(*)
      integer(c_int) :: code
    end function
    function c_plan_name(plan) bind(c, name="a2a_plan_name") result(p)
      import :: c_ptr
      type(c_ptr), value :: plan
      type(c_ptr) :: p
    end function
    function c_plan_counters(plan, counters) bind(c, name="a2a_plan_counters") result(code)
      import :: c_ptr, c_int, a2a_counters
      type(c_ptr), value :: plan
      type(a2a_counters), intent(out) :: counters
      integer(c_int) :: code
    end function
    function c_plan_free(plan) bind(c, name="a2a_plan_free") result(code)
      import :: c_ptr, c_int
      type(c_ptr), intent(inout) :: plan
      integer(c_int) :: code
    end function
    function c_exchange_create(spec, comm, exchange) bind(c, name="a2a_exchange_create_f") &
        result(code)
      import :: c_char, c_int, c_ptr
      character(kind=c_char), intent(in) :: spec(*)
      integer(c_int), value :: comm
      type(c_ptr), intent(out) :: exchange
      integer(c_int) :: code
    end function
    function c_exchange_execute(exchange, send, length, sc, sd, recv, rc, rd) &
        bind(c, name="a2a_exchange_execute_n") result(code)
      import :: c_ptr, c_int, c_size_t
      type(c_ptr), value :: exchange
      type(*), intent(in) :: send(*)
      integer(c_size_t), value :: length
      integer(c_size_t), intent(in) :: sc(*), sd(*), rc(*), rd(*)
      type(*) :: recv(*)
      integer(c_int) :: code
    end function
    function c_exchange_name(exchange) bind(c, name="a2a_exchange_name") result(p)
      import :: c_ptr
      type(c_ptr), value :: exchange
      type(c_ptr) :: p
    end function
    function c_plan_scratch_bytes(plan) bind(c, name="a2a_plan_scratch_bytes") result(bytes)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: plan
      integer(c_size_t) :: bytes
    end function
    function c_exchange_scratch_bytes(exchange) bind(c, name="a2a_exchange_scratch_bytes") &
        result(bytes)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: exchange
      integer(c_size_t) :: bytes
    end function
    function c_exchange_free(exchange) bind(c, name="a2a_exchange_free") result(code)
      import :: c_ptr, c_int
      type(c_ptr), intent(inout) :: exchange
      integer(c_int) :: code
    end function
    function c_redistribution_create(comm, in, out, bytes, backend, r) &
        bind(c, name="a2a_redistribution_create_f") result(code)
      import :: c_int, c_size_t, c_char, c_ptr, a2a_box
      integer(c_int), value :: comm
      type(a2a_box), intent(in) :: in, out
      integer(c_size_t), value :: bytes
      character(kind=c_char), intent(in) :: backend(*)
      type(c_ptr), intent(out) :: r
      integer(c_int) :: code
    end function
    function c_redistribution_execute(r, in, out) bind(c, name="a2a_redistribution_execute") &
        result(code)
      import :: c_ptr, c_int
      type(c_ptr), value :: r
      type(*), intent(in) :: in(*)
      type(*) :: out(*)
      integer(c_int) :: code
    end function
    function c_redistribution_backend(r) bind(c, name="a2a_redistribution_backend") result(p)
      import :: c_ptr
      type(c_ptr), value :: r
      type(c_ptr) :: p
    end function
    function c_redistribution_share(r, with) bind(c, name="a2a_redistribution_share") &
        result(code)
      import :: c_ptr, c_int
      type(c_ptr), value :: r, with
      integer(c_int) :: code
    end function
    function c_redistribution_memory_bytes(rs, count) &
        bind(c, name="a2a_redistribution_memory_bytes") result(bytes)
      import :: c_ptr, c_int, c_size_t
      type(c_ptr), intent(in) :: rs(*)
      integer(c_int), value :: count
      integer(c_size_t) :: bytes
    end function
    function c_redistribution_free(r) bind(c, name="a2a_redistribution_free") result(code)
      import :: c_ptr, c_int
      type(c_ptr), intent(inout) :: r
      integer(c_int) :: code
    end function
    function c_block_start(n, parts, index) bind(c, name="a2a_block_start") result(first)
      import :: c_int64_t, c_int
      integer(c_int64_t), value :: n
      integer(c_int), value :: parts, index
      integer(c_int64_t) :: first
    end function
    function c_algorithm_count() bind(c, name="a2a_algorithm_count") result(n)
      import :: c_int
      integer(c_int) :: n
    end function
    function c_algorithm_info(index, name, kinds, summary, source, cost) &
        bind(c, name="a2a_algorithm_info") result(code)
      import :: c_int, c_ptr
      integer(c_int), value :: index
      type(c_ptr), intent(out) :: name, summary, source, cost
      integer(c_int), intent(out) :: kinds
      integer(c_int) :: code
    end function
    function c_model(procs, radix, digits, rounds, blocks) bind(c, name="a2a_model") result(code)
      import :: c_int64_t, c_int
      integer(c_int64_t), value :: procs, radix
      integer(c_int64_t), intent(out) :: digits, rounds, blocks
      integer(c_int) :: code
    end function
    function c_strlen(s) bind(c, name="strlen") result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function
  end interface

contains

  ! A C string as a Fortran string ("" for NULL).
  function fortran_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    if (.not. c_associated(p)) then
      s = ""
      return
    end if
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function

  pure function c_string(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c
    c = trim(s) // c_null_char
  end function

  ! The length of the shortest of four count and displacement arrays.
  pure integer(c_size_t) function shortest(a, b, c, d)
    integer(c_size_t), intent(in) :: a(:), b(:), c(:), d(:)
    shortest = int(min(size(a), size(b), size(c), size(d)), c_size_t)
  end function

  ! The message of this rank's last failing call.
  function a2a_last_error() result(message)
    character(len=:), allocatable :: message
    message = fortran_string(c_last_error())
  end function

  subroutine a2a_plan_create_uniform(plan, spec, comm, block_bytes, ierr)
    type(a2a_plan), intent(out) :: plan
    character(len=*), intent(in) :: spec
    integer, intent(in) :: comm
    integer(c_size_t), intent(in) :: block_bytes
    integer, intent(out) :: ierr
    ierr = c_plan_create_uniform(c_string(spec), int(comm, c_int), block_bytes, plan%handle)
  end subroutine

  ! Counts and displacements in bytes, one per rank of comm (a fixed layout).
  subroutine a2a_plan_create_vector(plan, spec, comm, send_counts, send_displs, recv_counts, &
                                    recv_displs, ierr)
    type(a2a_plan), intent(out) :: plan
    character(len=*), intent(in) :: spec
    integer, intent(in) :: comm
    integer(c_size_t), intent(in) :: send_counts(:), send_displs(:), recv_counts(:), recv_displs(:)
    integer, intent(out) :: ierr
    ! The arrays' length goes along: one shorter than the communicator is an error on every
    ! rank, not a read past its end.
    ierr = c_plan_create_vector(c_string(spec), int(comm, c_int), shortest(send_counts, &
                                send_displs, recv_counts, recv_displs), send_counts, send_displs, &
                                recv_counts, recv_displs, plan%handle)
  end subroutine

  subroutine a2a_plan_execute(plan, send, recv, ierr)
    type(a2a_plan), intent(in) :: plan
    type(*), intent(in) :: send(*)
    type(*) :: recv(*)
    integer, intent(out) :: ierr
    ierr = c_plan_execute(plan%handle, send, recv)
  end subroutine

  function a2a_plan_name(plan) result(name)
    type(a2a_plan), intent(in) :: plan
    character(len=:), allocatable :: name
    name = fortran_string(c_plan_name(plan%handle))
  end function

  subroutine a2a_plan_counters(plan, counters, ierr)
    type(a2a_plan), intent(in) :: plan
    type(a2a_counters), intent(out) :: counters
    integer, intent(out) :: ierr
    ierr = c_plan_counters(plan%handle, counters)
  end subroutine

  ! Bytes the plan holds on this rank besides your buffers (its backend's work and staging
  ! arrays, its part of shared-memory windows).
  function a2a_plan_scratch_bytes(plan) result(bytes)
    type(a2a_plan), intent(in) :: plan
    integer(c_size_t) :: bytes
    bytes = c_plan_scratch_bytes(plan%handle)
  end function

  subroutine a2a_plan_free(plan, ierr)
    type(a2a_plan), intent(inout) :: plan
    integer, intent(out) :: ierr
    ierr = c_plan_free(plan%handle)
  end subroutine

  subroutine a2a_exchange_create(exchange, spec, comm, ierr)
    type(a2a_exchange), intent(out) :: exchange
    character(len=*), intent(in) :: spec
    integer, intent(in) :: comm
    integer, intent(out) :: ierr
    ierr = c_exchange_create(c_string(spec), int(comm, c_int), exchange%handle)
  end subroutine

  ! MPI_Alltoallv's contract, counts and displacements in bytes, new ones every call.
  subroutine a2a_exchange_execute(exchange, send, send_counts, send_displs, recv, recv_counts, &
                                  recv_displs, ierr)
    type(a2a_exchange), intent(in) :: exchange
    type(*), intent(in) :: send(*)
    integer(c_size_t), intent(in) :: send_counts(:), send_displs(:), recv_counts(:), recv_displs(:)
    type(*) :: recv(*)
    integer, intent(out) :: ierr
    ierr = c_exchange_execute(exchange%handle, send, shortest(send_counts, send_displs, &
                              recv_counts, recv_displs), send_counts, send_displs, recv, &
                              recv_counts, recv_displs)
  end subroutine

  function a2a_exchange_name(exchange) result(name)
    type(a2a_exchange), intent(in) :: exchange
    character(len=:), allocatable :: name
    name = fortran_string(c_exchange_name(exchange%handle))
  end function

  ! As a2a_plan_scratch_bytes, now: grown to the largest call so far.
  function a2a_exchange_scratch_bytes(exchange) result(bytes)
    type(a2a_exchange), intent(in) :: exchange
    integer(c_size_t) :: bytes
    bytes = c_exchange_scratch_bytes(exchange%handle)
  end function

  subroutine a2a_exchange_free(exchange, ierr)
    type(a2a_exchange), intent(inout) :: exchange
    integer, intent(out) :: ierr
    ierr = c_exchange_free(exchange%handle)
  end subroutine

  subroutine a2a_redistribution_create(r, comm, in, out, element_bytes, backend, ierr)
    type(a2a_redistribution), intent(out) :: r
    integer, intent(in) :: comm
    type(a2a_box), intent(in) :: in, out
    integer(c_size_t), intent(in) :: element_bytes
    character(len=*), intent(in) :: backend
    integer, intent(out) :: ierr
    ierr = c_redistribution_create(int(comm, c_int), in, out, element_bytes, c_string(backend), &
                                   r%handle)
  end subroutine

  subroutine a2a_redistribution_execute(r, in, out, ierr)
    type(a2a_redistribution), intent(in) :: r
    type(*), intent(in) :: in(*)
    type(*) :: out(*)
    integer, intent(out) :: ierr
    ierr = c_redistribution_execute(r%handle, in, out)
  end subroutine

  function a2a_redistribution_backend(r) result(name)
    type(a2a_redistribution), intent(in) :: r
    character(len=:), allocatable :: name
    name = fortran_string(c_redistribution_backend(r%handle))
  end function

  ! For redistributions that run one after another: r packs and receives into with's buffers
  ! (and, single-copy on the same ranks, its window). Collective over r's communicator.
  subroutine a2a_redistribution_share(r, with, ierr)
    type(a2a_redistribution), intent(in) :: r, with
    integer, intent(out) :: ierr
    ierr = c_redistribution_share(r%handle, with%handle)
  end subroutine

  ! What the redistributions hold together on this rank besides your arrays, memory they share
  ! counted once (pass all that share).
  function a2a_redistribution_memory_bytes(rs) result(bytes)
    type(a2a_redistribution), intent(in) :: rs(:)
    integer(c_size_t) :: bytes
    type(c_ptr) :: handles(max(size(rs), 1))
    integer :: i
    handles = c_null_ptr
    do i = 1, size(rs)
      handles(i) = rs(i)%handle
    end do
    bytes = c_redistribution_memory_bytes(handles, int(size(rs), c_int))
  end function

  subroutine a2a_redistribution_free(r, ierr)
    type(a2a_redistribution), intent(inout) :: r
    integer, intent(out) :: ierr
    ierr = c_redistribution_free(r%handle)
  end subroutine

  ! The first index of part `index` (0-based) of n indices split into `parts`.
  integer(c_int64_t) function a2a_block_start(n, parts, index)
    integer(c_int64_t), intent(in) :: n
    integer, intent(in) :: parts, index
    a2a_block_start = c_block_start(n, int(parts, c_int), int(index, c_int))
  end function

  integer function a2a_algorithm_count()
    a2a_algorithm_count = int(c_algorithm_count())
  end function

  ! The name of registry entry `index` (0-based).
  function a2a_algorithm_name(index) result(name)
    integer, intent(in) :: index
    character(len=:), allocatable :: name
    type(c_ptr) :: n, summary, source, cost
    integer(c_int) :: kinds
    if (c_algorithm_info(int(index, c_int), n, kinds, summary, source, cost) /= 0) then
      name = ""
    else
      name = fortran_string(n)
    end if
  end function

  subroutine a2a_model(procs, radix, digits, rounds, blocks, ierr)
    integer(c_int64_t), intent(in) :: procs, radix
    integer(c_int64_t), intent(out) :: digits, rounds, blocks
    integer, intent(out) :: ierr
    ierr = c_model(procs, radix, digits, rounds, blocks)
  end subroutine
end module a2a
