// a2a::alltoall: plans for Alltoall and Alltoallv exchanges through any registered algorithm.
//
//   a2a::Plan plan("tra:r=sqrt", MPI_COMM_WORLD, block_bytes);   // collective, once
//   for (...) plan.execute(send, recv);                           // collective, many times
//
// A plan works on a private duplicate of the communicator (made once per communicator and
// freed with it; its messages never match the caller's), owns its scratch
// buffers and precomputed schedule, and never writes to the send buffer. Sizes and offsets are
// bytes in std::size_t; messages above A2A_MAX_MESSAGE_BYTES (default 1 GiB) are split.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "a2a/error.hpp"

namespace a2a {

enum class Kind : unsigned {
  uniform = 1,  // MPI_Alltoall: the same block size to and from every peer
  vector = 2,   // MPI_Alltoallv: per-peer counts and displacements
};
const char* to_string(Kind kind);

// What the last execute() did on this rank.
struct Counters {
  std::size_t rounds = 0;         // communication rounds (steps that wait for a partner)
  std::size_t blocks_sent = 0;    // data blocks sent, counting a block again at every hop
  std::size_t messages_sent = 0;  // point-to-point messages started (before splitting)
  std::size_t bytes_sent = 0;     // payload bytes sent, including forwarded data
  // Node-aware algorithms split the rounds and blocks above into their two phases: within a
  // node (intra) and between nodes (inter). Zero for flat algorithms.
  std::size_t rounds_intra = 0, rounds_inter = 0;
  std::size_t blocks_intra = 0, blocks_inter = 0;
};

// Per-peer byte counts and displacements, exactly what MPI_Alltoallv takes, in bytes.
struct VectorLayout {
  std::vector<std::size_t> send_counts, send_displs;
  std::vector<std::size_t> recv_counts, recv_displs;

  // The layout of a uniform exchange: block b to and from every one of p peers, in rank order.
  static VectorLayout uniform(int procs, std::size_t block_bytes);
  std::size_t send_extent() const;  // bytes the send buffer must span
  std::size_t recv_extent() const;
};

namespace detail {
struct PlanState;
}

class Plan {
 public:
  // Uniform exchange of block_bytes to every peer. Collective over comm.
  Plan(std::string_view spec, MPI_Comm comm, std::size_t block_bytes);
  // Vector exchange with the given per-peer byte layout. Collective over comm.
  Plan(std::string_view spec, MPI_Comm comm, VectorLayout layout);
  // MPI_Alltoallv-style entry: counts and displacements in elements of the given datatypes
  // (contiguous, possibly derived, types; the byte layout uses their extents).
  static Plan from_alltoallv(std::string_view spec, MPI_Comm comm, const int* send_counts,
                             const int* send_displs, MPI_Datatype send_type, const int* recv_counts,
                             const int* recv_displs, MPI_Datatype recv_type);

  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  ~Plan();

  // Collective: exchange from send into recv. send is only read.
  void execute(const void* send, void* recv);

  Kind kind() const;
  int procs() const;
  // The resolved backend, every parameter explicit: "tra:r=3", or "auto->tra:r=3".
  const std::string& name() const;
  // A short form for tables: the algorithm, the parameters the caller set and the radices,
  // e.g. "tra:r=3", "random_sendrecv:shuffle=off", "auto->pairwise".
  const std::string& label() const;
  const Counters& counters() const;  // of the last execute() on this rank
  std::size_t send_extent() const;
  std::size_t recv_extent() const;

 private:
  std::unique_ptr<detail::PlanState> state_;
  explicit Plan(std::unique_ptr<detail::PlanState> state);
};

}  // namespace a2a
