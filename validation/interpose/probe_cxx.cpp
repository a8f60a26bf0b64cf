// The C++ caller, compiled with the MPI C++ bindings enabled (MPI::MPI_CXX, as a C++ program
// of an Open MPI user would be): exercises MPI_Alltoall/MPI_Alltoallv the way applications do,
// and compares every result with the pass-through result (PMPI_, the library's own
// implementation, called directly): plain types, MPI_IN_PLACE, a contiguous derived type
// against plain elements (equal signatures), a non-contiguous vector type, a sub-communicator,
// Alltoallv with gaps, and 1000 communicators created, used and freed, after which the memory
// must not have grown. (validation/interpose/probe.c covers the same and more from C.)
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const std::string& what, int rank) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "[rank %d] FAILED: %s\n", rank, what.c_str());
  }
}

long resident_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

std::vector<int> ramp(std::size_t n, int rank) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = rank * 100000 + static_cast<int>(i);
  return v;
}

void uniform_cases(MPI_Comm comm, const char* where) {
  int rank = 0, procs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  const auto P = static_cast<std::size_t>(procs);
  const std::string at = std::string(where) + ": ";
  for (int count : {1, 3, 1000}) {
    const auto send = ramp(P * static_cast<std::size_t>(count), rank);
    std::vector<int> got(send.size()), want(send.size());
    MPI_Alltoall(send.data(), count, MPI_INT, got.data(), count, MPI_INT, comm);
    PMPI_Alltoall(send.data(), count, MPI_INT, want.data(), count, MPI_INT, comm);
    expect(got == want, at + "MPI_INT x " + std::to_string(count), rank);
  }
  {  // MPI_IN_PLACE: staged by the interposer.
    auto got = ramp(P * 2, rank), want = got;
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got.data(), 2, MPI_INT, comm);
    PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, want.data(), 2, MPI_INT, comm);
    expect(got == want, at + "MPI_IN_PLACE", rank);
  }
  {  // Send 1 contiguous(4 int), receive 4 MPI_INT: equal signatures, different types.
    MPI_Datatype quad;
    MPI_Type_contiguous(4, MPI_INT, &quad);
    MPI_Type_commit(&quad);
    const auto send = ramp(P * 4, rank);
    std::vector<int> got(send.size()), want(send.size());
    MPI_Alltoall(send.data(), 1, quad, got.data(), 4, MPI_INT, comm);
    PMPI_Alltoall(send.data(), 1, quad, want.data(), 4, MPI_INT, comm);
    expect(got == want, at + "contiguous derived type against MPI_INT", rank);
    MPI_Type_free(&quad);
  }
  {  // A strided vector type: not plain bytes, packed by the interposer.
    MPI_Datatype strided, resized;
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, 4 * sizeof(int), &resized);
    MPI_Type_commit(&resized);
    const auto send = ramp(P * 4, rank);
    std::vector<int> got(P * 2), want(P * 2);
    MPI_Alltoall(send.data(), 1, resized, got.data(), 2, MPI_INT, comm);
    PMPI_Alltoall(send.data(), 1, resized, want.data(), 2, MPI_INT, comm);
    expect(got == want, at + "non-contiguous vector type", rank);
    MPI_Type_free(&strided);
    MPI_Type_free(&resized);
  }
  {  // Alltoallv with gaps and varying counts (rank-dependent, consistent pairwise).
    std::vector<int> sc(P), sd(P), rc(P), rd(P);
    int so = 0, ro = 0;
    for (std::size_t p = 0; p < P; ++p) {
      sc[p] = static_cast<int>((static_cast<std::size_t>(rank) + p) % 4);
      rc[p] = static_cast<int>((p + static_cast<std::size_t>(rank)) % 4);
      sd[p] = so;
      rd[p] = ro;
      so += sc[p] + 1;
      ro += rc[p] + 2;
    }
    const auto send = ramp(static_cast<std::size_t>(so), rank);
    std::vector<int> got(static_cast<std::size_t>(ro), -1), want(got);
    MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT, got.data(), rc.data(), rd.data(),
                  MPI_INT, comm);
    PMPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT, want.data(), rc.data(), rd.data(),
                   MPI_INT, comm);
    expect(got == want, at + "MPI_Alltoallv with gaps", rank);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, procs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  uniform_cases(MPI_COMM_WORLD, "world");
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  uniform_cases(half, "split communicator");
  MPI_Comm_free(&half);

  // 1000 communicators, each used (so each gets plans) and freed: memory must not grow.
  auto churn = [&](int n) {
    for (int i = 0; i < n; ++i) {
      MPI_Comm c;
      MPI_Comm_dup(MPI_COMM_WORLD, &c);
      std::vector<int> send(static_cast<std::size_t>(procs) * 16, rank), recv(send.size());
      MPI_Alltoall(send.data(), 16, MPI_INT, recv.data(), 16, MPI_INT, c);
      MPI_Comm_free(&c);
    }
  };
  churn(100);  // warm up allocators
  const long before = resident_kb();
  churn(1000);
  const long growth = resident_kb() - before;
  expect(growth < 8 * 1024,
         "memory grew by " + std::to_string(growth) + " KiB over 1000 communicators", rank);

  int total = failures;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("interpose_probe: %s (memory growth on rank 0: %ld KiB)\n",
                total == 0 ? "1 passed, 0 failed" : "0 passed, 1 failed", growth);
  }
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
