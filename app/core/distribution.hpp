// Per-peer count distributions for Alltoallv benchmarks and tests. count(s, d) is the bytes
// rank s sends to rank d; every rank computes the same table, so the layouts agree.
#pragma once

#include <string>
#include <vector>

#include "a2a/alltoall.hpp"

namespace a2a {

// equal      every block max_bytes
// random     uniform in [0, max_bytes] (zeros included), a fixed hash of (s, d)
// powerlaw   max_bytes / k^2 for the k-th peer after oneself (heavy skew, many small)
// hot        every rank sends max_bytes to rank P/2 and 0 or 1 byte elsewhere
// onesender  rank 0 sends max_bytes to everyone, nobody else sends anything
// pernode    one nonzero block per node of 2 ranks: only to peers of the sender's parity
// zero       nothing at all
const std::vector<std::string>& distribution_names();
bool is_distribution(const std::string& name);
std::size_t distribution_count(const std::string& dist, int procs, int s, int d,
                               std::size_t max_bytes);

// This rank's layout: blocks `gap` bytes apart starting at `first`, in peer order or, where
// asked, in reverse peer order.
VectorLayout distribution_layout(const std::string& dist, int procs, int rank,
                                 std::size_t max_bytes, bool send_reversed = false,
                                 bool recv_reversed = false, std::size_t first = 0,
                                 std::size_t gap = 0);

}  // namespace a2a
