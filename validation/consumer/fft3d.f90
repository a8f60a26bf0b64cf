! A distributed 3D FFT from Fortran with `use a2a_fft`: a plane wave on a 32^3 grid held in
! slabs, its spectrum wanted in x-pencils, forward and back, checked.
program fft3d
  use mpi
  use a2a, only: a2a_last_error
  use a2a_fft
  use, intrinsic :: iso_c_binding
  implicit none
  type(a2a_fft_options) :: o
  type(a2a_fft_plan) :: fft
  complex(c_double_complex), allocatable :: u(:, :, :), spectrum(:), back(:, :, :)
  integer :: ierr, procs, rank, x, y, z
  real(c_double) :: peak, energy, error, n
  real(c_double), parameter :: pi = acos(-1.0_c_double)
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, procs, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call a2a_fft_options_default(o)                              ! DFT along every axis
  o%n = 32
  call a2a_fft_slab_box(o%n, procs, rank, o%in, ierr)          ! the box this rank holds
  call a2a_fft_pencil_box(o%n, 0, procs, rank, o%out, ierr)    ! the box it wants back
  call a2a_fft_create(fft, MPI_COMM_WORLD, o, ierr)            ! collective: plans once
  if (ierr /= 0) then
    print *, a2a_last_error()
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  ! C order: u(z, y, x) holds the box lo(1):hi(1) in x, z fastest.
  allocate(u(o%in%lo(3):o%in%hi(3) - 1, o%in%lo(2):o%in%hi(2) - 1, o%in%lo(1):o%in%hi(1) - 1))
  allocate(back, mold=u)
  allocate(spectrum(a2a_fft_output_elements(fft)))
  do x = lbound(u, 3), ubound(u, 3)
    do y = lbound(u, 2), ubound(u, 2)
      do z = lbound(u, 1), ubound(u, 1)
        u(z, y, x) = exp(cmplx(0, 2 * pi * (3 * x + 5 * y + 7 * z) / 32.0_c_double, c_double))
      end do
    end do
  end do
  call a2a_fft_forward(fft, u, spectrum, A2A_FFT_SCALE_NONE, ierr)   ! unnormalized
  call a2a_fft_backward(fft, spectrum, back, A2A_FFT_SCALE_FULL, ierr)  ! back == u
  ! A plane wave's spectrum is N in one bin, 0 elsewhere: all its energy there.
  peak = 0
  error = 0
  if (size(spectrum) > 0) peak = maxval(abs(spectrum))
  if (size(u) > 0) error = maxval(abs(back - u))
  energy = sum(abs(spectrum)**2)
  call MPI_Allreduce(MPI_IN_PLACE, peak, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, energy, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, error, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  n = 32.0_c_double**3
  if (rank == 0) then
    if (abs(peak - n) < 1e-6 * n .and. abs(energy - n * n) < 1e-6 * n * n .and. error < 1e-12) then
      print '(a, ": peak ", f0.0, ", round trip error ", es8.1, ": passed")', &
        a2a_fft_describe(fft), peak, error
    else
      print '(a, ": peak ", f0.0, ", round trip error ", es8.1, ": FAILED")', &
        a2a_fft_describe(fft), peak, error
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end if
  call a2a_fft_free(fft, ierr)
  call MPI_Finalize(ierr)
end program
