// Uses the installed library: one TRA plan, executed, compared with MPI_Alltoall.
#include <a2a/alltoall.hpp>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, procs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  std::vector<long> send(static_cast<std::size_t>(procs) * 3), recv(send.size()), ref(send.size());
  for (std::size_t i = 0; i < send.size(); ++i)
    send[i] = rank * 1000 + static_cast<long>(i);
  int ok = 1;
  {
    a2a::Plan plan("tra:r=2", MPI_COMM_WORLD, 3 * sizeof(long));
    plan.execute(send.data(), recv.data());
    MPI_Alltoall(send.data(), 3, MPI_LONG, ref.data(), 3, MPI_LONG, MPI_COMM_WORLD);
    ok = recv == ref;
    if (rank == 0) std::printf("consumer: plan %s\n", plan.name().c_str());
  }
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) std::printf("consumer: %s\n", ok ? "1 passed, 0 failed" : "0 passed, 1 failed");
  MPI_Finalize();
  return ok ? 0 : 1;
}
