// a2a::alltoall: plans for Alltoall and Alltoallv exchanges through any registered algorithm.
//
//   a2a::Plan plan("tra:r=sqrt", MPI_COMM_WORLD, block_bytes);   // collective, once
//   for (...) plan.execute(send, recv);                           // collective, many times
//
//   a2a::VectorExchange ex("sloav", MPI_COMM_WORLD);              // collective, once
//   for (...) ex.execute(send, scounts, sdispls, recv, rcounts, rdispls);  // counts per call
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
  std::size_t waits = 0;          // times this rank waited for messages to complete
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
struct ExchangeState;
}  // namespace detail

class Plan {
 public:
  // Uniform exchange of block_bytes to every peer. Collective over comm.
  Plan(std::string_view spec, MPI_Comm comm, std::size_t block_bytes);
  // Vector exchange with the given per-peer byte layout. Collective over comm.
  Plan(std::string_view spec, MPI_Comm comm, VectorLayout layout);
  // MPI_Alltoallv-style entry: counts and displacements in elements of the given datatypes,
  // any datatype MPI allows. A type whose data is provably plain bytes in order (decided from
  // its envelope and contents) is exchanged in place; any other (permuted, shifted, strided,
  // with holes), or negative displacements, is staged: packed with MPI_Pack before the
  // exchange and unpacked with MPI_Unpack after it. The plan keeps its own duplicate of each
  // type. send_extent()/recv_extent() are then the packed bytes.
  static Plan from_alltoallv(std::string_view spec, MPI_Comm comm, const int* send_counts,
                             const int* send_displs, MPI_Datatype send_type, const int* recv_counts,
                             const int* recv_displs, MPI_Datatype recv_type);

  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  ~Plan();

  // Collective: exchange from send into recv. send is only read.
  void execute(const void* send, void* recv);
  // The same exchange in two steps, so that the caller can compute between them: start()
  // begins it, finish() completes it (both collective, in the same order on every rank; one
  // exchange per plan at a time; send must not change nor recv be read in between). Only the
  // single-round direct exchanges progress between the two (`mpi` through MPI_Ialltoall[v|w],
  // `linear` with its requests posted); every other backend does all its work in start(), and
  // overlaps() says which kind this plan is.
  void start(const void* send, void* recv);
  void finish();
  bool overlaps() const;

  // Single-copy plans (`shared_window`, one node) let the caller fuse its own pass over the
  // data with the exchange: instead of packing a send buffer for execute(), it writes its
  // block for each peer q (send_counts[q] bytes of the plan's layout) straight to
  // direct_target(q), between begin_direct() (collective: returns once every peer has read
  // what the last call left it) and end_direct() (collective: returns this rank's received
  // data, laid out as execute()'s recv, valid until the next begin_direct()). direct() says
  // whether the plan is one; the three calls throw for any other. begin_direct(true), the same
  // on every rank, skips the wait where the caller knows that every peer has read it already:
  // each read its data before a later synchronization of all these ranks (another single-copy
  // plan's end_direct() or pull calls on the same ranks, say).
  bool direct() const;
  void begin_direct(bool peers_have_read = false);
  std::byte* direct_target(int peer);
  const std::byte* end_direct();
  // The same plans also work the other way round: prepare_pull() (collective, once) gives this
  // rank a send area in shared memory, pull_area() (send_extent() bytes, the plan's send
  // layout). The caller writes its send data there instead of into a send buffer; between
  // begin_pull() (collective: every peer's send data is complete) and end_pull() (collective:
  // every rank has read its blocks, so the areas may be written again) it reads peer q's block
  // for it (recv_counts[q] bytes) at pull_source(q).
  void prepare_pull();
  std::byte* pull_area();
  void begin_pull();
  const std::byte* pull_source(int peer);
  void end_pull();
  // A caller that only pulls frees the memory the push writes into (collective, alike on every
  // rank; prepare_pull() first where not yet): after it, the three direct calls throw and
  // execute() goes through this rank's pull area (the same two copies). Nothing for a plan
  // that is not single-copy. The other way, release_pull() (collective) frees the pull area
  // of a caller that only pushes (nothing for a plan that is not single-copy either);
  // prepare_pull() makes it again. Not after pull_only().
  void pull_only();
  void release_pull();
  // Plans on the same ranks (duplicates of one communicator) whose exchanges never overlap can
  // receive into one window, as large as the most any of them receives on each rank:
  // share_receive_window(other) (collective over those ranks, both plans single-copy) joins
  // this plan, and every plan already sharing with it, to `other`'s window. For a sequence of
  // exchanges (a transform's reshapes, forward and backward): a plan's received data
  // (end_direct()) is valid until the next exchange of any of them; begin_direct(true) then
  // claims that every peer has read what the last exchange of any of them left it. Not after
  // pull_only(); a sharer's pull_only() leaves the window to the others, shrunk to what they
  // receive.
  void share_receive_window(Plan& other);
  // The same for a pull: this plan's pull area moves into `other`'s receive window (collective,
  // both single-copy on the same ranks; prepare_pull() first where not yet), for a plan that
  // pulls after `other` pushed, or before it: what the pull area holds is valid until the next
  // exchange of any of the window's plans. Not where `other` only pulls.
  void share_pull_area(Plan& other);
  // Whether the two plans' communicators hold the same ranks in the same order (local).
  bool same_ranks(const Plan& other) const;

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
  // Bytes of exchange data the plan holds on this rank besides the caller's buffers, for as
  // long as it lives: the backend's work and staging arrays, and this rank's part of its
  // shared-memory windows (a pull area once prepare_pull() made one). Not its schedules (a few
  // words per peer) nor what the MPI library allocates inside its own calls (`mpi`).
  std::size_t scratch_bytes() const;

 private:
  std::unique_ptr<detail::PlanState> state_;
  explicit Plan(std::unique_ptr<detail::PlanState> state);
  // The state, or a2a::Error for a plan that was moved from (its state went with the move).
  detail::PlanState& live() const;
};

// Alltoallv with the counts given per call (MPI_Alltoallv's contract), for exchanges whose
// counts change from call to call (NPB IS, the interposer, sparse data). Made once per
// communicator and backend; execute() builds no plan: direct algorithms use the counts they
// are given, the SLOAV family (sloav, tra_v, sloavx) carries sizes in band as its paper does
// (nothing exchanged beforehand), padded_bruck_v agrees on the padding with one small
// allreduce, and selecting backends (auto, random_auto, sloav:linear_above) with one 8-byte
// allreduce of the largest count. Scratch grows on demand and is kept.
// For counts that stay fixed, a Plan does all of that work once instead.
class VectorExchange {
 public:
  // Collective over comm. Throws the same SpecError on every rank for a bad or
  // non-vector spec.
  VectorExchange(std::string_view spec, MPI_Comm comm);
  VectorExchange(VectorExchange&&) noexcept;
  VectorExchange& operator=(VectorExchange&&) noexcept;
  ~VectorExchange();

  // Collective: counts and displacements in bytes, one per rank; what rank s sends to rank d
  // must equal what d expects from s (MPI_Alltoallv's rule). send is only read.
  void execute(const void* send, const std::size_t* send_counts, const std::size_t* send_displs,
               void* recv, const std::size_t* recv_counts, const std::size_t* recv_displs);
  void execute(const void* send, void* recv, const VectorLayout& layout);

  // Debug aid: before every call, check with one Alltoall of the counts that every sender's
  // count equals its receiver's (off by default; also on with A2A_CHECK_COUNTS=1). A
  // mismatch throws the same a2a::Error on every rank instead of hanging or truncating.
  void set_check_counts(bool on);

  int procs() const;
  // The resolved backend; for auto and random_auto, what the last call ran ("auto->sloav").
  std::string name() const;
  std::string label() const;
  const Counters& counters() const;  // of the last execute() on this rank
  // As Plan::scratch_bytes, now: scratch grows with the largest call so far and is kept.
  std::size_t scratch_bytes() const;

 private:
  std::unique_ptr<detail::ExchangeState> state_;
  detail::ExchangeState& live() const;  // as Plan::live
};

}  // namespace a2a
