// How much memory a rank may use, and the check every command makes before it allocates: an
// estimate of the bytes per rank against what this node allows each of its ranks (physical
// memory, or a cgroup limit, shared by the ranks of the node; a per-process RLIMIT_AS or
// RLIMIT_DATA), refused on every rank alike with both figures in the message.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

namespace a2a::app {

// Bytes this rank may use: the smallest of (node memory / ranks on the node) and its own
// address-space and data limits. Collective over comm.
std::uint64_t memory_per_rank(MPI_Comm comm);

// Collective: throws the same a2a::Error on every rank when the largest estimate of any rank
// exceeds 80% of what its node allows per rank. `what` names the work ("fft 2048x2048x2048").
void check_memory(MPI_Comm comm, std::uint64_t bytes_per_rank, const std::string& what);

// Throws the same a2a::Error on every rank when `verifies` and SimGrid folds the exchange
// buffers (a2a/buffer.hpp, scripts/simulate --shared-buffers): every rank then writes the
// same memory, so a check would fail for no fault of the exchange. `what` names the check.
void refuse_check_on_folded_buffers(bool verifies, const std::string& what);

// "1.5 GiB": a byte count for messages.
std::string bytes_text(std::uint64_t bytes);

}  // namespace a2a::app
