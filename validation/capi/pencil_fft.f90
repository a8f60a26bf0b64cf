! A distributed 3D FFT in Fortran on the a2a transpose layer (`use a2a`), with FFTW's Fortran
! interface for the local transforms, checked against FFTW's serial 3D transform:
!   pencil_fft [BACKEND]
! On a P1 x P2 process grid: z-pencils, FFT along z; a2a redistribution to y-pencils in the row
! communicator, FFT along y; to x-pencils in the column communicator, FFT along x. Every rank
! then compares its x-pencil with the same part of the serial transform of the whole grid
! (every rank can make the input: it is a closed form). Prints "pencil_fft: N passed, M failed".
!
! Boxes are in C order (lo(1): x, the slowest axis): a Fortran array a(z, y, x) holds a box
! with z fastest, which is a2a's row-major layout.
program pencil_fft
  use, intrinsic :: iso_c_binding
  use mpi
  use a2a
  implicit none
  include 'fftw3.f03'
  integer(c_int64_t), parameter :: nx = 12, ny = 10, nz = 8
  integer :: ierr, rank, procs, dims(2), p1, p2, r1, r2, row, col, checks, fails, totals(2)
  type(a2a_box) :: zbox, ybox, xbox
  type(a2a_redistribution) :: zy, yx
  integer(c_size_t) :: apart
  complex(c_double_complex), allocatable :: zp(:, :, :), yp(:, :, :), xp(:, :, :), whole(:, :, :)
  character(len=64) :: backend
  integer(c_int64_t) :: i, j, k
  type(c_ptr) :: plan
  real(c_double) :: err, scale, worst(1), sums(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, procs, ierr)
  backend = "auto"
  if (command_argument_count() >= 1) call get_command_argument(1, backend)
  checks = 0
  fails = 0
  dims = 0
  call MPI_Dims_create(procs, 2, dims, ierr)
  p1 = dims(1)
  p2 = dims(2)
  r1 = rank / p2
  r2 = mod(rank, p2)
  call MPI_Comm_split(MPI_COMM_WORLD, r1, r2, row, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, r2, r1, col, ierr)

  ! The three pencils (global indices from 0; C order x, y, z).
  zbox%lo = [a2a_block_start(nx, p1, r1), a2a_block_start(ny, p2, r2), 0_c_int64_t]
  zbox%hi = [a2a_block_start(nx, p1, r1 + 1), a2a_block_start(ny, p2, r2 + 1), nz]
  ybox%lo = [zbox%lo(1), 0_c_int64_t, a2a_block_start(nz, p2, r2)]
  ybox%hi = [zbox%hi(1), ny, a2a_block_start(nz, p2, r2 + 1)]
  xbox%lo = [0_c_int64_t, a2a_block_start(ny, p1, r1), ybox%lo(3)]
  xbox%hi = [nx, a2a_block_start(ny, p1, r1 + 1), ybox%hi(3)]
  allocate(zp(zbox%lo(3):zbox%hi(3) - 1, zbox%lo(2):zbox%hi(2) - 1, zbox%lo(1):zbox%hi(1) - 1))
  allocate(yp(ybox%lo(3):ybox%hi(3) - 1, ybox%lo(2):ybox%hi(2) - 1, ybox%lo(1):ybox%hi(1) - 1))
  allocate(xp(xbox%lo(3):xbox%hi(3) - 1, xbox%lo(2):xbox%hi(2) - 1, xbox%lo(1):xbox%hi(1) - 1))
  do i = zbox%lo(1), zbox%hi(1) - 1
    do j = zbox%lo(2), zbox%hi(2) - 1
      do k = zbox%lo(3), zbox%hi(3) - 1
        zp(k, j, i) = input(i, j, k)
      end do
    end do
  end do

  call a2a_redistribution_create(zy, row, zbox, ybox, 16_c_size_t, trim(backend), ierr)
  call check(ierr == A2A_SUCCESS, "z -> y redistribution: " // a2a_last_error())
  call a2a_redistribution_create(yx, col, ybox, xbox, 16_c_size_t, trim(backend), ierr)
  call check(ierr == A2A_SUCCESS, "y -> x redistribution: " // a2a_last_error())
  ! They run one after another: one set of buffers (and of window, single-copy on the same
  ! ranks) serves both.
  apart = a2a_redistribution_memory_bytes([zy]) + a2a_redistribution_memory_bytes([yx])
  call a2a_redistribution_share(yx, zy, ierr)
  call check(ierr == A2A_SUCCESS .and. a2a_redistribution_memory_bytes([zy, yx]) <= apart, &
             "y -> x shares z -> y's buffers")

  ! The FFT loop: along z (the first Fortran index), y, x, each a batch of 1D transforms.
  call fft_along(zp, 1)
  call a2a_redistribution_execute(zy, zp, yp, ierr)
  call check(ierr == A2A_SUCCESS, "z -> y executed")
  call fft_along(yp, 2)
  call a2a_redistribution_execute(yx, yp, xp, ierr)
  call check(ierr == A2A_SUCCESS, "y -> x executed")
  call fft_along(xp, 3)

  ! The serial reference: FFTW's 3D transform of the whole grid (dims in C order x, y, z).
  allocate(whole(0:nz - 1, 0:ny - 1, 0:nx - 1))
  do i = 0, nx - 1
    do j = 0, ny - 1
      do k = 0, nz - 1
        whole(k, j, i) = input(i, j, k)
      end do
    end do
  end do
  ! The reference, made once: ESTIMATE (MEASURE would overwrite the filled array).
  plan = fftw_plan_dft_3d(int(nx, c_int), int(ny, c_int), int(nz, c_int), whole, whole, &
                          FFTW_FORWARD, FFTW_ESTIMATE)
  call fftw_execute_dft(plan, whole, whole)
  call fftw_destroy_plan(plan)
  scale = maxval(abs(whole))
  err = maxval(abs(xp - whole(xbox%lo(3):xbox%hi(3) - 1, xbox%lo(2):xbox%hi(2) - 1, &
                              xbox%lo(1):xbox%hi(1) - 1))) / scale
  worst = err  ! rank-1 double buffers in both reductions: no mismatch under any `use mpi`
  call MPI_Allreduce(MPI_IN_PLACE, worst, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  err = worst(1)
  call check(err < 1e-12_c_double, "the distributed FFT equals the serial one")
  if (rank == 0) then
    write(*, '(A,I0,A,I0,A,I0,A,I0,A,I0,A,A,A,ES10.3)') 'pencil_fft ', nx, 'x', ny, 'x', nz, &
        ' on ', p1, 'x', p2, ' (', a2a_redistribution_backend(zy), &
        '): relative max error ', err
  end if

  ! A bad backend is an error code on every rank, not an abort.
  call a2a_redistribution_free(zy, ierr)
  call a2a_redistribution_create(zy, row, zbox, ybox, 16_c_size_t, "nosuch", ierr)
  call check(ierr == A2A_ERR_SPEC, "a bad backend: A2A_ERR_SPEC")
  call check(index(a2a_last_error(), "unknown backend 'nosuch'") > 0, "its message")
  call a2a_redistribution_free(yx, ierr)

  sums = [real(checks, c_double), real(fails, c_double)]
  call MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  totals = nint(sums)
  if (rank == 0) write(*, '(A,I0,A,I0,A)') 'pencil_fft: ', totals(1) - totals(2), ' passed, ', &
      totals(2), ' failed'
  call MPI_Comm_free(row, ierr)
  call MPI_Comm_free(col, ierr)
  call MPI_Finalize(ierr)
  if (totals(2) /= 0) stop 1

contains

  complex(c_double_complex) function input(i, j, k)
    integer(c_int64_t), intent(in) :: i, j, k
    input = cmplx(sin(0.1d0 * i + 0.2d0 * j), cos(0.3d0 * k + 0.05d0 * i), c_double_complex)
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

  ! Forward 1D transforms of a(:, :, :) along its dimension `dim`, in place, one FFTW plan
  ! per line (the arrays are small; a real code would batch them with fftw_plan_many_dft).
  ! FFTW_MEASURE times FFTW's candidate plans and keeps the fastest (ESTIMATE guesses, and
  ! can be several times slower); planning overwrites `line`, which is filled afterwards.
  subroutine fft_along(a, dim)
    complex(c_double_complex), intent(inout) :: a(:, :, :)
    integer, intent(in) :: dim
    complex(c_double_complex), allocatable :: line(:)
    type(c_ptr) :: p
    integer :: n, u, v
    n = size(a, dim)
    if (n == 0 .or. size(a) == 0) return
    allocate(line(n))
    p = fftw_plan_dft_1d(int(n, c_int), line, line, FFTW_FORWARD, FFTW_MEASURE)
    select case (dim)
    case (1)
      do v = 1, size(a, 3)
        do u = 1, size(a, 2)
          line = a(:, u, v)
          call fftw_execute_dft(p, line, line)
          a(:, u, v) = line
        end do
      end do
    case (2)
      do v = 1, size(a, 3)
        do u = 1, size(a, 1)
          line = a(u, :, v)
          call fftw_execute_dft(p, line, line)
          a(u, :, v) = line
        end do
      end do
    case (3)
      do v = 1, size(a, 2)
        do u = 1, size(a, 1)
          line = a(u, v, :)
          call fftw_execute_dft(p, line, line)
          a(u, v, :) = line
        end do
      end do
    end select
    call fftw_destroy_plan(p)
  end subroutine
end program
