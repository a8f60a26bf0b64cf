#include "a2a/topology.hpp"

#include <utility>

#include "a2a/error.hpp"

namespace a2a {

int ranks_sharing_memory(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int sharing = 1;
  MPI_Comm_size(node, &sharing);
  MPI_Comm_free(&node);
  MPI_Allreduce(MPI_IN_PLACE, &sharing, 1, MPI_INT, MPI_MIN, comm);
  return sharing;
}

std::string shared_nodes_refusal(const NodeTopology& topology, MPI_Comm comm) {
  MPI_Comm shared = MPI_COMM_NULL;
  MPI_Comm_split_type(topology.node_comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
  int shared_size = 0;
  MPI_Comm_size(shared, &shared_size);
  MPI_Comm_free(&shared);
  int all_shared = shared_size == topology.ranks_per_node();
  MPI_Allreduce(MPI_IN_PLACE, &all_shared, 1, MPI_INT, MPI_LAND, comm);
  return all_shared != 0 ? "" : "the ranks of an (emulated) node do not share memory";
}

std::string one_node_refusal(MPI_Comm comm) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  const int sharing = ranks_sharing_memory(comm);
  if (sharing != procs) {
    return "needs every rank on one node (shared memory), but only " + std::to_string(sharing) +
           " of the P=" + std::to_string(procs) +
           " ranks share a node; use it on one node or pick another backend";
  }
#ifdef A2A_SMPI
  return "cannot run under SimGrid SMPI (its shared-memory windows gave wrong results there, "
         "MPI_Win_sync is not implemented, and stores into them take no simulated time); pick "
         "another backend";
#else
  return {};
#endif
}

NodeTopology::NodeTopology(MPI_Comm comm, int ranks_per_node) {
  MPI_Comm_size(comm, &procs_);
  MPI_Comm_rank(comm, &rank_);
  if (ranks_per_node > 0) {
    emulated_ = true;
    if (procs_ % ranks_per_node != 0) {
      // Still split (collectively, like every other path) so the object is usable.
      build(comm, rank_ / ranks_per_node);
      problem_ = "P=" + std::to_string(procs_) +
                 " is not a multiple of q=" + std::to_string(ranks_per_node) + " ranks per node";
      return;
    }
    build(comm, rank_ / ranks_per_node);
    return;
  }
  // Real placement: the lowest rank of each shared-memory domain names the node.
  MPI_Comm shared = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &shared);
  int first = rank_;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, shared);
  MPI_Comm_free(&shared);
  build(comm, first);
}

NodeTopology NodeTopology::from_node_key(MPI_Comm comm, int key) {
  NodeTopology t;
  MPI_Comm_size(comm, &t.procs_);
  MPI_Comm_rank(comm, &t.rank_);
  t.emulated_ = true;
  t.build(comm, key);
  return t;
}

void NodeTopology::build(MPI_Comm comm, int key) {
  MPI_Comm_split(comm, key, rank_, &node_comm_);
  MPI_Comm_size(node_comm_, &q_);
  MPI_Comm_rank(node_comm_, &local_);
  int first = rank_;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, node_comm_);
  // Uniform: every node has the same Q. Contiguous: node ranks are first .. first + Q - 1.
  int sizes[2] = {q_, -q_};
  MPI_Allreduce(MPI_IN_PLACE, sizes, 2, MPI_INT, MPI_MIN, comm);
  int contiguous = rank_ == first + local_;
  MPI_Allreduce(MPI_IN_PLACE, &contiguous, 1, MPI_INT, MPI_LAND, comm);
  const int smallest = sizes[0], largest = -sizes[1];
  if (smallest != largest) {
    problem_ = "nodes hold different numbers of ranks (" + std::to_string(smallest) + " to " +
               std::to_string(largest) + ")";
  } else if (!contiguous) {
    problem_ =
        "the ranks of a node are not consecutive (e.g. round-robin placement); "
        "hierarchical algorithms need nodes of Q consecutive ranks";
  }
  if (!problem_.empty()) {
    nodes_ = 0;
    node_ = -1;
    // Keep the collective pattern identical on every rank: split with an undefined color.
    MPI_Comm_split(comm, MPI_UNDEFINED, rank_, &port_comm_);
    return;
  }
  nodes_ = procs_ / q_;
  node_ = first / q_;
  MPI_Comm_split(comm, local_, node_, &port_comm_);
}

NodeTopology::NodeTopology(NodeTopology&& other) noexcept
    : node_comm_(std::exchange(other.node_comm_, MPI_COMM_NULL)),
      port_comm_(std::exchange(other.port_comm_, MPI_COMM_NULL)),
      procs_(other.procs_),
      rank_(other.rank_),
      q_(other.q_),
      nodes_(other.nodes_),
      node_(other.node_),
      local_(other.local_),
      emulated_(other.emulated_),
      problem_(std::move(other.problem_)) {}

NodeTopology::~NodeTopology() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (node_comm_ != MPI_COMM_NULL) MPI_Comm_free(&node_comm_);
  if (port_comm_ != MPI_COMM_NULL) MPI_Comm_free(&port_comm_);
}

}  // namespace a2a
