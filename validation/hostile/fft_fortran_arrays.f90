! fft_fortran_arrays: the `a2a_fft` module's forward and backward given arrays a Fortran program
! gets wrong, on one rank only: an output or input array one element short (the usual
! off-by-one in an allocate). The module passes the arrays' sizes on (Fortran's C descriptors):
! every rank must return A2A_ERR_ARGUMENT naming that rank and nothing may be written, where the
! library once wrote past the array's end. Strided sections (an input every other plane of a
! larger array, an output every other element) are copied in and out by the compiler and give
! the contiguous arrays' result. Every spectrum is checked against a plane wave's closed form.
! Prints "fft_fortran_arrays: N passed, M failed".
program fft_fortran_arrays
  use, intrinsic :: iso_c_binding
  use mpi
  use a2a, only: a2a_last_error, A2A_ERR_ARGUMENT
  use a2a_fft
  implicit none
  integer, parameter :: n0 = 12, n1 = 10, n2 = 9
  real(c_double), parameter :: pi = acos(-1.0_c_double)
  type(a2a_fft_options) :: o
  type(a2a_fft_plan) :: fft
  complex(c_double_complex), allocatable :: u(:, :, :), wide(:, :, :), spectrum(:), short(:), &
                                             spread(:), back(:, :, :)
  integer :: ierr, rank, procs, checks, fails, code, bad, x, y, z
  integer(c_int64_t) :: m
  character(len=16) :: words

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, procs, ierr)
  checks = 0
  fails = 0
  bad = procs - 1
  write (words, '(a, i0, a)') "(rank ", bad, ")"
  call a2a_fft_options_default(o)
  o%n = [int(n0, c_int64_t), int(n1, c_int64_t), int(n2, c_int64_t)]
  call a2a_fft_slab_box(o%n, procs, rank, o%in, ierr)
  call a2a_fft_pencil_box(o%n, 0, procs, rank, o%out, ierr)
  call a2a_fft_create(fft, MPI_COMM_WORLD, o, ierr)
  call check(ierr == 0, "plan made")
  m = a2a_fft_output_elements(fft)
  ! C order: u(z, y, x) over this rank's slab; a plane wave of wave numbers (2, 3, 4).
  allocate(u(0:n2 - 1, 0:n1 - 1, o%in%lo(1):o%in%hi(1) - 1))
  allocate(back, mold=u)
  do x = lbound(u, 3), ubound(u, 3)
    do y = 0, n1 - 1
      do z = 0, n2 - 1
        u(z, y, x) = exp(cmplx(0, 2 * pi * (real(2 * x, c_double) / n0 + &
                                            real(3 * y, c_double) / n1 + &
                                            real(4 * z, c_double) / n2), c_double))
      end do
    end do
  end do
  allocate(spectrum(m))
  call a2a_fft_forward(fft, u, spectrum, A2A_FFT_SCALE_NONE, code)
  call check(code == 0 .and. plane_wave(spectrum), "the spectrum of contiguous arrays")
  call a2a_fft_backward(fft, spectrum, back, A2A_FFT_SCALE_FULL, code)
  call check(code == 0 .and. maxval(abs(back - u)) < 1e-12, "the round trip")

  ! One element short on the last rank: an error on every rank, nothing written.
  allocate(short(merge(m - 1, m, rank == bad)))
  short = (7, 7)
  call a2a_fft_forward(fft, u, short, A2A_FFT_SCALE_NONE, code)
  call agreed(code, "an output array one element short on one rank")
  call check(all(short == (7, 7)), "nothing written into the short output")
  back = (7, 7)
  call a2a_fft_backward(fft, short, back, A2A_FFT_SCALE_FULL, code)
  call agreed(code, "an input array one element short on one rank")
  call check(all(back == (7, 7)), "nothing written by the refused backward")

  ! Strided sections: the input every other x-plane of a wider array, the output every other
  ! element of a longer one.
  allocate(wide(0:n2 - 1, 0:n1 - 1, 2 * o%in%lo(1):2 * o%in%hi(1) - 1))
  wide = (0, 0)
  wide(:, :, 2 * o%in%lo(1):2 * o%in%hi(1) - 1:2) = u
  allocate(spread(2 * m))
  spread = (7, 7)
  call a2a_fft_forward(fft, wide(:, :, 2 * o%in%lo(1):2 * o%in%hi(1) - 1:2), spread(1:2 * m:2), &
                       A2A_FFT_SCALE_NONE, code)
  call check(code == 0 .and. maxval(abs(spread(1:2 * m:2) - spectrum)) < 1e-9 .and. &
             all(spread(2:2 * m:2) == (7, 7)), "strided sections in and out")

  call a2a_fft_free(fft, ierr)

  ! local_call_checks on the last rank only: the options differ, refused at the create on every
  ! rank (the field reaches the C struct where C has it).
  if (procs > 1) then
    o%local_call_checks = merge(1, 0, rank == bad)
    call a2a_fft_create(fft, MPI_COMM_WORLD, o, code)
    call agreed_words(code, "differ", "local_call_checks on one rank only: refused")
  end if
  call finish("fft_fortran_arrays")

contains

  include 'checks.inc'

  ! A2A_ERR_ARGUMENT on every rank, the message naming the rank that erred.
  subroutine agreed(code, what)
    integer, intent(in) :: code
    character(len=*), intent(in) :: what
    call agreed_words(code, trim(words), what)
  end subroutine

  ! A2A_ERR_ARGUMENT on every rank, the message containing `expected`.
  subroutine agreed_words(code, expected, what)
    integer, intent(in) :: code
    character(len=*), intent(in) :: expected, what
    integer :: all_ranks(1)
    call MPI_Allreduce([merge(1, 0, code == A2A_ERR_ARGUMENT .and. &
                                    index(a2a_last_error(), expected) > 0)], &
                       all_ranks, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
    call check(all_ranks(1) == 1, what)
  end subroutine

  ! A plane wave's spectrum: n0 n1 n2 at wave numbers (2, 3, 4), 0 elsewhere, on every rank's
  ! part (the output box, row-major: z fastest). Integer reductions only: MPICH's mpi module has
  ! no explicit interfaces, and gfortran checks one call's arguments against another's.
  logical function plane_wave(s)
    complex(c_double_complex), intent(in) :: s(:)
    real(c_double) :: total, want
    integer :: i, kx, ky, kz, ey, ez, right(1), everywhere(1)
    total = real(n0, c_double) * n1 * n2
    ey = int(o%out%hi(2) - o%out%lo(2))
    ez = int(o%out%hi(3) - o%out%lo(3))
    right = 1
    do i = 1, size(s)
      kz = int(o%out%lo(3)) + mod(i - 1, ez)
      ky = int(o%out%lo(2)) + mod((i - 1) / ez, ey)
      kx = int(o%out%lo(1)) + (i - 1) / (ez * ey)
      want = merge(total, 0.0_c_double, kx == 2 .and. ky == 3 .and. kz == 4)
      if (abs(s(i) - want) > 1e-9 * total) right = 0
    end do
    call MPI_Allreduce(right, everywhere, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
    plane_wave = everywhere(1) == 1
  end function
end program
