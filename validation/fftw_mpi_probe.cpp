// FFTW's own MPI 3D transform (fftw_mpi_plan_dft_3d), as an unmodified third-party MPI
// program: prints a hash of the whole forward transform (gathered in rank order) and the time
// of `repeats` forward+backward pairs. Run with and without liba2a_interpose.so, the hashes
// must be identical.
#include <fftw3-mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const ptrdiff_t n = argc > 1 ? std::atol(argv[1]) : 32;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  // FFTW chooses its transpose (MPI_Alltoall, or pairwise MPI_Sendrecv) by planning rigour.
  const char* rigour = argc > 3 ? argv[3] : "estimate";
  const unsigned flags = std::strcmp(rigour, "patient") == 0   ? FFTW_PATIENT
                         : std::strcmp(rigour, "measure") == 0 ? FFTW_MEASURE
                                                               : FFTW_ESTIMATE;
  ptrdiff_t local_n0 = 0, local_0_start = 0;
  const ptrdiff_t alloc =
      fftw_mpi_local_size_3d(n, n, n, MPI_COMM_WORLD, &local_n0, &local_0_start);
  // FFTW_MEASURE chooses plans by timing, so two runs may round differently: with a wisdom
  // file (argv[4]) every run uses the plan the first one chose, and results are comparable
  // bit for bit.
  const char* wisdom = argc > 4 ? argv[4] : nullptr;
  if (wisdom != nullptr) {
    if (rank == 0) fftw_import_wisdom_from_filename(wisdom);
    fftw_mpi_broadcast_wisdom(MPI_COMM_WORLD);
  }
  // Out of place: FFTW's MPI_Alltoall transpose applies only there.
  fftw_complex* data = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_complex* out = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_plan forward = fftw_mpi_plan_dft_3d(n, n, n, data, out, MPI_COMM_WORLD, FFTW_FORWARD,
                                           flags | FFTW_DESTROY_INPUT);
  fftw_plan backward = fftw_mpi_plan_dft_3d(n, n, n, out, data, MPI_COMM_WORLD, FFTW_BACKWARD,
                                            flags | FFTW_DESTROY_INPUT);
  auto fill = [&] {
    for (ptrdiff_t i = 0; i < local_n0; ++i) {
      for (ptrdiff_t j = 0; j < n; ++j) {
        for (ptrdiff_t k = 0; k < n; ++k) {
          const double x = static_cast<double>((local_0_start + i) * 131 + j * 31 + k * 7);
          const ptrdiff_t at = (i * n + j) * n + k;
          data[at][0] = std::sin(0.01 * x);
          data[at][1] = std::cos(0.02 * x);
        }
      }
    }
  };
  if (wisdom != nullptr) {
    fftw_mpi_gather_wisdom(MPI_COMM_WORLD);
    if (rank == 0) fftw_export_wisdom_to_filename(wisdom);
  }
  fill();
  fftw_execute(forward);
  // FNV-1a over every rank's output bytes, in rank order.
  std::uint64_t hash = 1469598103934665603ULL;
  const auto* bytes = reinterpret_cast<const unsigned char*>(out);
  for (std::size_t b = 0; b < static_cast<std::size_t>(local_n0 * n * n) * sizeof(fftw_complex);
       ++b) {
    hash = (hash ^ bytes[b]) * 1099511628211ULL;
  }
  int procs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  std::vector<std::uint64_t> hashes(static_cast<std::size_t>(procs));
  MPI_Gather(&hash, 1, MPI_UINT64_T, hashes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  fill();
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int r = 0; r < repeats; ++r) {
    fftw_execute(forward);
    fftw_execute(backward);
  }
  double elapsed = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    std::uint64_t all = 0;
    for (std::uint64_t h : hashes)
      all = all * 31 + h;
    // Which transpose FFTW planned: its MPI_Alltoall one, or pairwise MPI_Sendrecv.
    char* forward_text = fftw_sprint_plan(forward);
    const bool alltoall = forward_text != nullptr && std::strstr(forward_text, "alltoall");
    std::free(forward_text);
    std::printf("fftw_mpi_probe: n=%td P=%d hash=%016llx time_per_pair_ms=%.3f transpose=%s\n", n,
                procs, static_cast<unsigned long long>(all), 1e3 * elapsed / repeats,
                alltoall ? "alltoall" : "other");
  }
  fftw_destroy_plan(forward);
  fftw_destroy_plan(backward);
  fftw_free(data);
  fftw_free(out);
  fftw_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
