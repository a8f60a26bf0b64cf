// The node topology layer: emulated nodes (every q dividing P), the real placement (one
// machine: a single node), and placements a hierarchical algorithm cannot use (uneven nodes,
// round-robin ranks), which must be reported, identically on every rank.
#include <vector>

#include "a2a/topology.hpp"
#include "harness.hpp"

namespace {

using a2a::NodeTopology;
using a2a::test::Harness;

// Ranks of comm, in comm's order, as ranks of MPI_COMM_WORLD.
std::vector<int> world_ranks(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<int> mine(static_cast<std::size_t>(size)), world(mine.size());
  for (int i = 0; i < size; ++i)
    mine[static_cast<std::size_t>(i)] = i;
  MPI_Group g, wg;
  MPI_Comm_group(comm, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_translate_ranks(g, size, mine.data(), wg, world.data());
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
  return world;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Harness h("test_topology");
    const int P = h.procs(), me = h.rank();
    for (int q = 1; q <= P; ++q) {
      NodeTopology t(MPI_COMM_WORLD, q);
      const std::string at = "q=" + std::to_string(q);
      if (P % q != 0) {
        h.expect(!t.uniform() && t.problem().find("not a multiple of q=" + std::to_string(q)) !=
                                     std::string::npos,
                 at + ": P % q != 0 reported: '" + t.problem() + "'");
        continue;
      }
      h.expect(t.uniform(), at + ": uniform (" + t.problem() + ")");
      h.expect(t.ranks_per_node() == q && t.nodes() == P / q, at + ": Q and N");
      h.expect(t.node() == me / q && t.local_rank() == me % q, at + ": node and local rank");
      std::vector<int> node_members;
      for (int l = 0; l < q; ++l)
        node_members.push_back((me / q) * q + l);
      h.expect(world_ranks(t.node_comm()) == node_members, at + ": node communicator members");
      std::vector<int> port_members;
      for (int n = 0; n < P / q; ++n)
        port_members.push_back(n * q + me % q);
      h.expect(world_ranks(t.port_comm()) == port_members, at + ": port communicator members");
    }
    {
      NodeTopology real(MPI_COMM_WORLD);
      h.expect(real.uniform() && !real.emulated(), "real placement is uniform on one machine");
      h.expect(real.ranks_per_node() == P && real.nodes() == 1 && real.local_rank() == me,
               "one machine is one node of P ranks");
    }
    if (P >= 3) {
      // Uneven nodes: rank 0 alone, everyone else together.
      NodeTopology uneven = NodeTopology::from_node_key(MPI_COMM_WORLD, me == 0 ? 0 : 1);
      h.expect(!uneven.uniform() &&
                   uneven.problem().find("different numbers of ranks") != std::string::npos,
               "uneven nodes reported: '" + uneven.problem() + "'");
      h.expect(uneven.port_comm() == MPI_COMM_NULL, "no port communicator when not uniform");
    }
    if (P >= 4 && P % 2 == 0) {
      // Round-robin: even ranks on one node, odd on the other.
      NodeTopology rr = NodeTopology::from_node_key(MPI_COMM_WORLD, me % 2);
      h.expect(!rr.uniform() && rr.problem().find("not consecutive") != std::string::npos,
               "round-robin placement reported: '" + rr.problem() + "'");
    }
    // Communicators are freed with the object: creating many does not leak handles (a leak
    // would exhaust Open MPI's communicator ids long before 3000).
    for (int i = 0; i < 1500; ++i)
      NodeTopology t(MPI_COMM_WORLD, 1);
    h.expect(true, "1500 topologies created and freed");
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
