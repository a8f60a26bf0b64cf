// The node topology layer shared by every node-aware algorithm (tra2, sloavx): which ranks
// share a node, and the communicators of the two phases of a hierarchical exchange.
//
// Ranks per node Q come from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), or are emulated with
// a given q: ranks [n q, (n+1) q) form node n, which lets one machine stand for N = P/q nodes
// (how the hierarchical algorithms are tested here). Hierarchical algorithms need a uniform,
// contiguous placement (every node holds Q consecutive ranks); anything else is detected and
// described in problem(), and the algorithms declare themselves inapplicable with it.
#pragma once

#include <mpi.h>

#include <string>

namespace a2a {

// Collective: the fewest ranks of comm that share any one node (MPI_COMM_TYPE_SHARED); the
// size of comm when every rank shares one node's memory.
int ranks_sharing_memory(MPI_Comm comm);

// Collective: why an exchange through shared memory (shared_window) cannot run on comm, or ""
// where it can: every rank must share one node's memory, and not under SimGrid SMPI, whose
// simulated ranks' stores into each other's windows gave wrong results (SimGrid 3.32 does not
// implement MPI_Win_sync) and would take no simulated time anyway.
std::string one_node_refusal(MPI_Comm comm);

class NodeTopology;
// Collective over comm (the topology's): why the nodes cannot serve an algorithm that needs each
// node's ranks to share memory (an emulated node spanning real nodes does not), or "".
std::string shared_nodes_refusal(const NodeTopology& topology, MPI_Comm comm);

class NodeTopology {
 public:
  // Collective over comm. ranks_per_node = 0 detects the real placement; q > 0 emulates nodes
  // of q consecutive ranks (P must be a multiple of q, else problem() says so).
  NodeTopology(MPI_Comm comm, int ranks_per_node = 0);
  // Collective: nodes given by an arbitrary key per rank (ranks with equal keys share a node).
  // The real and emulated constructors use it; tests use it to fake odd placements.
  static NodeTopology from_node_key(MPI_Comm comm, int key);

  NodeTopology(NodeTopology&& other) noexcept;
  NodeTopology& operator=(NodeTopology&&) = delete;
  NodeTopology(const NodeTopology&) = delete;
  ~NodeTopology();

  bool uniform() const { return problem_.empty(); }
  // Why the placement cannot serve a hierarchical algorithm ("" if it can).
  const std::string& problem() const { return problem_; }

  int procs() const { return procs_; }
  int rank() const { return rank_; }
  int ranks_per_node() const { return q_; }  // Q (this rank's node size if not uniform)
  int nodes() const { return nodes_; }       // N = P / Q (0 if not uniform)
  int node() const { return node_; }         // this rank's node id, 0..N-1
  int local_rank() const { return local_; }  // rank within the node, 0..Q-1
  bool emulated() const { return emulated_; }
  // Ranks of this node, ordered by rank (local rank = rank in it).
  MPI_Comm node_comm() const { return node_comm_; }
  // Ranks with this local rank on every node, ordered by node (the Q-port model: local rank j
  // talks to local rank j of the other nodes). MPI_COMM_NULL if not uniform.
  MPI_Comm port_comm() const { return port_comm_; }

 private:
  NodeTopology() = default;
  void build(MPI_Comm comm, int key);

  MPI_Comm node_comm_ = MPI_COMM_NULL, port_comm_ = MPI_COMM_NULL;
  int procs_ = 1, rank_ = 0, q_ = 1, nodes_ = 1, node_ = 0, local_ = 0;
  bool emulated_ = false;
  std::string problem_;
};

}  // namespace a2a
