// The randomized algorithms (randomized-alltoall paper) byte-exact against MPI_Alltoall and
// MPI_Alltoallv: sizes k*segment-1, k*segment, k*segment+1; queues 1, 2, 3 and > 2P; seeds and
// shuffle=off; vector counts equal, random with zeros, and one hot peer.
#include <string>
#include <vector>

#include "checks.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    a2a::test::Harness h("test_randomized");
    const int P = h.procs();
    const std::string big_queue = std::to_string(2 * P + 5);
    std::vector<std::string> specs = {"random_scatter", "random_scatter:seed=7",
                                      "random_scatter:shuffle=off"};
    for (const std::string& queue : std::vector<std::string>{"1", "2", "3", big_queue}) {
      specs.push_back("random_sendrecv:queue=" + queue);
      specs.push_back("random_sendrecv:queue=" + queue + ",shuffle=off,seed=3");
      for (const std::string segment : {"7", "100"}) {
        specs.push_back("random_segmented:segment=" + segment + ",queue=" + queue);
      }
    }
    specs.push_back("random_segmented:shuffle=off,segment=64");
    // random_auto across its three regimes (and both sides of the process threshold).
    for (const std::string procs : {"1", "1000"}) {
      specs.push_back("random_auto:small=8,large=100,segment=16,procs=" + procs);
    }
    specs.push_back("random_auto");

    for (const std::string& spec : specs) {
      for (std::size_t bytes : {0, 1, 6, 7, 8, 99, 100, 101, 199, 200, 201, 1000}) {
        a2a::test::check_uniform_exchange(h, h.comm(), spec, bytes, "uniform", 1);
      }
      for (const char* dist : {"equal", "random", "hot"}) {
        for (std::size_t max_bytes : {1, 100, 301}) {
          const a2a::VectorLayout layout =
              a2a::test::vector_layout(dist, P, h.rank(), max_bytes, max_bytes == 100);
          a2a::test::check_vector_exchange(
              h, h.comm(), spec, layout,
              std::string("vector ") + dist + " max=" + std::to_string(max_bytes));
        }
      }
    }

    // random_auto picks by size: the plan's name says what it chose.
    auto chosen = [&](const std::string& spec, std::size_t bytes) {
      return a2a::Plan(spec, h.comm(), bytes).name();
    };
    h.expect(chosen("random_auto", 64).find("->mpi") != std::string::npos,
             "random_auto: below 512 B not randomized");
    h.expect(chosen("random_auto", 4096).find("->random_scatter") != std::string::npos,
             "random_auto: 512 B..16 KiB with few processes is scatter");
    h.expect(chosen("random_auto:procs=1", 4096).find("->random_sendrecv") != std::string::npos,
             "random_auto: 512 B..16 KiB with many processes is sendrecv");
    h.expect(chosen("random_auto", 16385).find("->random_segmented") != std::string::npos,
             "random_auto: above 16 KiB segmented");

    // Counters: scatter is one round; sendrecv with queue q waits ceil(2(P-1)/q) times.
    {
      a2a::Plan plan("random_sendrecv:queue=2", h.comm(), 16);
      std::vector<char> send(16 * static_cast<std::size_t>(P)), recv(send.size());
      plan.execute(send.data(), recv.data());
      h.expect(plan.counters().rounds == static_cast<std::size_t>(P - 1),
               "random_sendrecv:queue=2 waits once per peer (" +
                   std::to_string(plan.counters().rounds) + ")");
      h.expect(plan.counters().blocks_sent == static_cast<std::size_t>(P - 1),
               "random_sendrecv sends P-1 blocks");
    }
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
