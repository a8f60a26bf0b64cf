! The `a2a_fft` Fortran module: a2a's FFT library (a2a::fft::BoxFft through a2a/fft.h) from
! Fortran. A distributed 3D transform of data in your boxes, a kind per axis (DFT, DCT/DST
! I-IV, none), c2c, r2c or real, a batch of fields, double or float. Built into liba2a_fortran
! when a2a has its FFT library; `use a2a_fft` and link a2a::fortran.
!
!   use a2a_fft
!   type(a2a_fft_options) :: o
!   type(a2a_fft_plan) :: fft
!   call a2a_fft_options_default(o)
!   o%n = [nx, ny, nz]                        ! C order: n(1) is the slowest axis
!   call a2a_fft_slab_box(o%n, nprocs, rank, o%in, ierr)
!   call a2a_fft_pencil_box(o%n, 0, nprocs, rank, o%out, ierr)
!   call a2a_fft_create(fft, comm, o, ierr)   ! collective
!   call a2a_fft_forward(fft, u, spectrum, A2A_FFT_SCALE_NONE, ierr)
!   call a2a_fft_backward(fft, spectrum, u, A2A_FFT_SCALE_FULL, ierr)
!   call a2a_fft_free(fft, ierr)
!
! Boxes and arrays are in C order, as in the `a2a` module: a Fortran array u(z, y, x) (z
! fastest) holds the box with lo/hi = (x, y, z). Arrays are any contiguous arrays of the side's
! type (complex(c_double_complex) where complex, real(c_double) where real; c_float and
! c_float_complex with single_precision). Every procedure returns ierr = A2A_SUCCESS or an
! error code of the `a2a` module; a2a_last_error() says why.
module a2a_fft
  use, intrinsic :: iso_c_binding
  use a2a, only: a2a_box, fortran_string
  implicit none
  private

  integer, parameter, public :: A2A_FFT_DFT = 0, A2A_FFT_DCT1 = 1, A2A_FFT_DCT2 = 2, &
                                A2A_FFT_DCT3 = 3, A2A_FFT_DCT4 = 4, A2A_FFT_DST1 = 5, &
                                A2A_FFT_DST2 = 6, A2A_FFT_DST3 = 7, A2A_FFT_DST4 = 8, &
                                A2A_FFT_NONE = 9
  integer, parameter, public :: A2A_FFT_SCALE_NONE = 0, A2A_FFT_SCALE_FULL = 1, &
                                A2A_FFT_SCALE_SYMMETRIC = 2

  ! a2a/fft.h's a2a_fft_options, field for field (backend is set by a2a_fft_create).
  type, public, bind(c) :: a2a_fft_options
    integer(c_int64_t) :: n(3) = 0
    type(a2a_box) :: in, out
    integer(c_int) :: in_order(3) = [0, 1, 2], out_order(3) = [0, 1, 2]
    integer(c_int) :: kinds(3) = 0
    integer(c_int) :: r2c = 0, batch = 1, batch_contiguous = 0, single_precision = 0
    type(c_ptr) :: backend = c_null_ptr
    integer(c_int) :: fftw_flags = 64  ! FFTW_ESTIMATE (an unsigned int in C)
    integer(c_int) :: external_workspace = 0
    integer(c_int) :: r2c_padded = 0  ! r2c in place: FFTW's padded rows
    integer(c_int) :: local_call_checks = 0  ! 1: calls check on their own rank, no allreduce
  end type
  type, public :: a2a_fft_plan
    type(c_ptr) :: handle = c_null_ptr
  end type

  public :: a2a_fft_options_default, a2a_fft_create, a2a_fft_forward, a2a_fft_backward, &
            a2a_fft_free, a2a_fft_describe, a2a_fft_input_elements, a2a_fft_output_elements, &
            a2a_fft_memory_bytes, a2a_fft_slab_box, a2a_fft_pencil_box

  interface
    subroutine c_options_default(o) bind(c, name="a2a_fft_options_default")
      import :: a2a_fft_options
      type(a2a_fft_options), intent(inout) :: o
    end subroutine
    function c_create(comm, o, fft) bind(c, name="a2a_fft_create_f") result(code)
      import :: c_int, c_ptr, a2a_fft_options
      integer(c_int), value :: comm
      type(a2a_fft_options), intent(in) :: o
      type(c_ptr), intent(out) :: fft
      integer(c_int) :: code
    end function
    ! fft_descriptors.c: the arrays with their sizes (Fortran's C descriptors).
    function c_forward(fft, in, out, scaling) bind(c, name="a2a_fft_forward_cfi") result(code)
      import :: c_ptr, c_int
      type(c_ptr), value :: fft
      type(*), dimension(..), contiguous, intent(in) :: in
      type(*), dimension(..), contiguous :: out
      integer(c_int), value :: scaling
      integer(c_int) :: code
    end function
    ! fft_descriptors.c: the arrays with their sizes (Fortran's C descriptors).
    function c_backward(fft, in, out, scaling) bind(c, name="a2a_fft_backward_cfi") result(code)
      import :: c_ptr, c_int
      type(c_ptr), value :: fft
      type(*), dimension(..), contiguous, intent(in) :: in
      type(*), dimension(..), contiguous :: out
      integer(c_int), value :: scaling
      integer(c_int) :: code
    end function
    function c_free(fft) bind(c, name="a2a_fft_free") result(code)
      import :: c_ptr, c_int
      type(c_ptr), intent(inout) :: fft
      integer(c_int) :: code
    end function
    function c_describe(fft) bind(c, name="a2a_fft_describe") result(p)
      import :: c_ptr
      type(c_ptr), value :: fft
      type(c_ptr) :: p
    end function
    function c_input_elements(fft) bind(c, name="a2a_fft_input_elements") result(n)
      import :: c_ptr, c_int64_t
      type(c_ptr), value :: fft
      integer(c_int64_t) :: n
    end function
    function c_output_elements(fft) bind(c, name="a2a_fft_output_elements") result(n)
      import :: c_ptr, c_int64_t
      type(c_ptr), value :: fft
      integer(c_int64_t) :: n
    end function
    function c_memory_bytes(fft) bind(c, name="a2a_fft_memory_bytes") result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: fft
      integer(c_size_t) :: n
    end function
    function c_slab_box(n, axis, procs, rank, box) bind(c, name="a2a_fft_slab_box_along") &
        result(code)
      import :: c_int64_t, c_int, a2a_box
      integer(c_int64_t), intent(in) :: n(3)
      integer(c_int), value :: axis, procs, rank
      type(a2a_box), intent(out) :: box
      integer(c_int) :: code
    end function
    function c_pencil_box(n, axis, procs, rank, box) bind(c, name="a2a_fft_pencil_box") &
        result(code)
      import :: c_int64_t, c_int, a2a_box
      integer(c_int64_t), intent(in) :: n(3)
      integer(c_int), value :: axis, procs, rank
      type(a2a_box), intent(out) :: box
      integer(c_int) :: code
    end function
  end interface

contains

  ! Three DFT axes, row-major arrays, batch 1, interleaved, double, FFTW_ESTIMATE, "auto".
  subroutine a2a_fft_options_default(o)
    type(a2a_fft_options), intent(out) :: o
    call c_options_default(o)
  end subroutine

  ! Collective over comm (a Fortran handle). backend: any spec of `a2a list` ("auto" if absent).
  subroutine a2a_fft_create(fft, comm, options, ierr, backend)
    type(a2a_fft_plan), intent(out) :: fft
    integer, intent(in) :: comm
    type(a2a_fft_options), intent(in) :: options
    integer, intent(out) :: ierr
    character(len=*), intent(in), optional :: backend
    type(a2a_fft_options) :: o
    character(kind=c_char), target :: spec(256)
    character(len=:), allocatable :: text
    integer :: i
    text = "auto"
    if (present(backend)) text = trim(backend)
    spec = c_null_char
    do i = 1, min(len(text), 255)
      spec(i) = text(i:i)
    end do
    o = options
    o%backend = c_loc(spec)
    ierr = c_create(int(comm, c_int), o, fft%handle)
  end subroutine

  ! Collective: in holds the input box, out receives the output box (the same array: in place).
  subroutine a2a_fft_forward(fft, in, out, scaling, ierr)
    type(a2a_fft_plan), intent(in) :: fft
    type(*), dimension(..), contiguous, intent(in) :: in
    type(*), dimension(..), contiguous :: out
    integer, intent(in) :: scaling
    integer, intent(out) :: ierr
    ierr = c_forward(fft%handle, in, out, int(scaling, c_int))
  end subroutine

  ! Collective: the inverse kinds, from the output box back to the input box.
  subroutine a2a_fft_backward(fft, in, out, scaling, ierr)
    type(a2a_fft_plan), intent(in) :: fft
    type(*), dimension(..), contiguous, intent(in) :: in
    type(*), dimension(..), contiguous :: out
    integer, intent(in) :: scaling
    integer, intent(out) :: ierr
    ierr = c_backward(fft%handle, in, out, int(scaling, c_int))
  end subroutine

  subroutine a2a_fft_free(fft, ierr)
    type(a2a_fft_plan), intent(inout) :: fft
    integer, intent(out) :: ierr
    ierr = c_free(fft%handle)
  end subroutine

  ! The plan's steps and the backend of each reshape, in words.
  function a2a_fft_describe(fft) result(s)
    type(a2a_fft_plan), intent(in) :: fft
    character(len=:), allocatable :: s
    s = fortran_string(c_describe(fft%handle))
  end function

  ! Values (real or complex, times the batch) of this rank's input and output arrays.
  integer(c_int64_t) function a2a_fft_input_elements(fft)
    type(a2a_fft_plan), intent(in) :: fft
    a2a_fft_input_elements = c_input_elements(fft%handle)
  end function
  integer(c_int64_t) function a2a_fft_output_elements(fft)
    type(a2a_fft_plan), intent(in) :: fft
    a2a_fft_output_elements = c_output_elements(fft%handle)
  end function

  ! Bytes the plan holds on this rank besides your arrays: work arrays, the exchanges' buffers.
  integer(c_size_t) function a2a_fft_memory_bytes(fft)
    type(a2a_fft_plan), intent(in) :: fft
    a2a_fft_memory_bytes = c_memory_bytes(fft%handle)
  end function

  ! Rank `rank`'s slab of grid n (split along axis 0, or `axis`: 0, 1 or 2 in C order).
  subroutine a2a_fft_slab_box(n, procs, rank, box, ierr, axis)
    integer(c_int64_t), intent(in) :: n(3)
    integer, intent(in) :: procs, rank
    type(a2a_box), intent(out) :: box
    integer, intent(out) :: ierr
    integer, intent(in), optional :: axis
    integer :: a
    a = 0
    if (present(axis)) a = axis
    ierr = c_slab_box(n, int(a, c_int), int(procs, c_int), int(rank, c_int), box)
  end subroutine

  ! Rank `rank`'s pencil of grid n, whole along `axis` (0, 1 or 2 in C order).
  subroutine a2a_fft_pencil_box(n, axis, procs, rank, box, ierr)
    integer(c_int64_t), intent(in) :: n(3)
    integer, intent(in) :: axis, procs, rank
    type(a2a_box), intent(out) :: box
    integer, intent(out) :: ierr
    ierr = c_pencil_box(n, int(axis, c_int), int(procs, c_int), int(rank, c_int), box)
  end subroutine
end module a2a_fft
