// Closed-form cost model of the radix-r Bruck family (TRA), configurable-alltoall paper,
// section III-A, Propositions 1-4: K communication rounds and D data blocks sent per rank.
// Exact for every P and r below 2^64 (128-bit intermediates); a K or D that does not fit in
// 64 bits is an a2a::Error, not a wrapped value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace a2a::model {

struct RadixCost {
  std::uint64_t digits = 0;  // w = ceil(log_r P)
  std::uint64_t rounds = 0;  // K
  std::uint64_t blocks = 0;  // D
};

// w = ceil(log_r P) computed exactly in integers (0 for P = 1).
std::uint64_t digits(std::uint64_t procs, std::uint64_t radix);
// Propositions 1 and 3.
std::uint64_t rounds(std::uint64_t procs, std::uint64_t radix);
// Blocks sent in round (x, z), Proposition 4 (Proposition 2 when P = r^w).
std::uint64_t blocks_in_round(std::uint64_t procs, std::uint64_t radix, std::uint64_t x,
                              std::uint64_t z);
// D: Proposition 2 when P = r^w, else the sum of Proposition 4.
std::uint64_t blocks(std::uint64_t procs, std::uint64_t radix);
RadixCost tra_cost(std::uint64_t procs, std::uint64_t radix);

// ceil(sqrt(P)), the paper's default radix, clamped to [2, max(2, P)].
std::uint64_t sqrt_radix(std::uint64_t procs);

// A machine's cost per exchange, as `a2a model --fit` and `a2a tune` fit it:
//   time = alpha * messages + beta * bytes sent + gamma * bytes copied (microseconds).
// A direct exchange sends P - 1 messages of S bytes and copies nothing; TRA at radix r sends
// K(P, r) messages and D(P, r) S bytes, and copies what it forwards (D S).
struct CostModel {
  double alpha_us = 0, beta_us_per_byte = 0, gamma_us_per_byte = 0;
  double predict(double messages, double bytes_sent, double bytes_copied) const {
    return alpha_us * messages + beta_us_per_byte * bytes_sent + gamma_us_per_byte * bytes_copied;
  }
  double direct_us(std::uint64_t procs, std::uint64_t block_bytes) const;
  double tra_us(std::uint64_t procs, std::uint64_t radix, std::uint64_t block_bytes) const;
  // SLOAV (sloavx-logarithmic-alltoallv.md eqs. 1-7, uniform counts): ceil(log2 P) rounds of
  // one message each way, each forwarding about half of the P blocks.
  double sloav_us(std::uint64_t procs, std::uint64_t block_bytes) const;
};

// The radix of least predicted time. Searched: every r up to 64, the powers of two, ceil(sqrt
// P) and P (all r would be O(P^2) work at large P; the optimum is flat between these).
std::uint64_t best_radix(const CostModel& model, std::uint64_t procs, std::uint64_t block_bytes);

}  // namespace a2a::model
