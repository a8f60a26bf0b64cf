// Propositions 1-4 of the configurable-alltoall paper (section III-A), in exact integer
// arithmetic. The tests compare these with a brute-force enumeration of the digit rule and with
// the counters of the running algorithms.
#include "a2a/model.hpp"

#include "a2a/error.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace a2a::model {

namespace {

__extension__ using Wide = unsigned __int128;  // products of two 64-bit values never overflow it
constexpr Wide kMax64 = ~std::uint64_t{0};

std::uint64_t narrow(Wide value, const char* what, std::uint64_t procs, std::uint64_t radix) {
  if (value > kMax64) {
    throw Error(std::string(what) + " of P=" + std::to_string(procs) +
                ", r=" + std::to_string(radix) + " exceeds 2^64 - 1");
  }
  return static_cast<std::uint64_t>(value);
}

// r^e in 128 bits; only called where r^e <= r * P < 2^128.
Wide wide_pow(std::uint64_t base, std::uint64_t exp) {
  Wide result = 1;
  while (exp-- > 0)
    result *= base;
  return result;
}

}  // namespace

std::uint64_t digits(std::uint64_t procs, std::uint64_t radix) {
  if (radix < 2) throw std::invalid_argument("radix must be at least 2");
  std::uint64_t w = 0;
  for (Wide power = 1; power < procs; power *= radix)  // power <= r P: no overflow, no end
    ++w;
  return w;
}

std::uint64_t rounds(std::uint64_t procs, std::uint64_t radix) {
  const std::uint64_t w = digits(procs, radix);
  if (w == 0) return 0;
  const Wide top = wide_pow(radix, w - 1);
  const Wide full = static_cast<Wide>(w) * (radix - 1);
  // Proposition 1 (P = r^w) is the case (r^w - P) = 0 of Proposition 3.
  return narrow(full - (top * radix - procs) / top, "K", procs, radix);
}

std::uint64_t blocks_in_round(std::uint64_t procs, std::uint64_t radix, std::uint64_t x,
                              std::uint64_t z) {
  if (x >= digits(procs, radix)) return 0;
  const Wide unit = wide_pow(radix, x);  // r^x < P
  const Wide group = unit * radix;       // r^(x+1)
  const Wide lc = procs / group * unit;
  const Wide lgc = procs % group;
  // t = lgc - z r^x may be negative: compare before subtracting.
  if (lgc <= z * unit) return narrow(lc, "blocks", procs, radix);
  const Wide t = lgc - z * unit;
  if (t / unit > 0) return narrow(lc + unit, "blocks", procs, radix);
  return narrow(lc + t % unit, "blocks", procs, radix);
}

std::uint64_t blocks(std::uint64_t procs, std::uint64_t radix) {
  const std::uint64_t w = digits(procs, radix);
  if (w == 0) return 0;
  if (wide_pow(radix, w) == procs) {  // Proposition 2
    return narrow(static_cast<Wide>(w) * (radix - 1) * wide_pow(radix, w - 1), "D", procs, radix);
  }
  // Proposition 4 summed over z = 1..r-1 in closed form, per digit x (O(w), not O(w r)): with
  // u = r^x, lc = floor(P / (r u)) u, lgc = P mod r u = q u + rem, round (x, z) sends lc
  // blocks plus u for z < q, plus rem for z = q, plus none for z > q. Each digit adds at most
  // 2P, so the sum stays far inside 128 bits.
  Wide total = 0;
  Wide unit = 1;
  for (std::uint64_t x = 0; x < w; ++x, unit *= radix) {
    const Wide group = unit * radix;
    const Wide lc = procs / group * unit, lgc = procs % group;
    const Wide q = lgc / unit, rem = lgc % unit;
    total += (radix - 1) * lc + (q > 1 ? (q - 1) * unit : 0) + (q >= 1 ? rem : 0);
  }
  return narrow(total, "D", procs, radix);
}

RadixCost tra_cost(std::uint64_t procs, std::uint64_t radix) {
  return {digits(procs, radix), rounds(procs, radix), blocks(procs, radix)};
}

std::uint64_t sqrt_radix(std::uint64_t procs) {
  // The floating-point root, corrected to the exact ceiling (long double is near enough).
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<long double>(procs)));
  while (r > 0 && static_cast<Wide>(r - 1) * (r - 1) >= procs)
    --r;
  while (static_cast<Wide>(r) * r < procs)
    ++r;
  return r < 2 ? 2 : r;
}

double CostModel::direct_us(std::uint64_t procs, std::uint64_t block_bytes) const {
  const double peers = procs > 0 ? static_cast<double>(procs - 1) : 0.0;
  return predict(peers, peers * static_cast<double>(block_bytes), 0);
}

double CostModel::tra_us(std::uint64_t procs, std::uint64_t radix,
                         std::uint64_t block_bytes) const {
  const RadixCost c = tra_cost(procs, radix);
  const double bytes = static_cast<double>(c.blocks) * static_cast<double>(block_bytes);
  return predict(static_cast<double>(c.rounds), bytes, bytes);
}

double CostModel::sloav_us(std::uint64_t procs, std::uint64_t block_bytes) const {
  const double rounds = static_cast<double>(digits(procs, 2));
  const double bytes = rounds * static_cast<double>(procs / 2) * static_cast<double>(block_bytes);
  return predict(rounds, bytes, bytes);
}

std::uint64_t best_radix(const CostModel& model, std::uint64_t procs, std::uint64_t block_bytes) {
  const std::uint64_t hi = procs < 2 ? 2 : procs;
  std::uint64_t best = 2;
  double best_us = model.tra_us(procs, 2, block_bytes);
  const auto consider = [&](std::uint64_t r) {
    if (r < 2 || r > hi) return;
    const double us = model.tra_us(procs, r, block_bytes);
    if (us < best_us) best = r, best_us = us;
  };
  for (std::uint64_t r = 3; r <= 64; ++r)
    consider(r);
  for (std::uint64_t r = 128; r <= hi && r != 0; r *= 2)
    consider(r);
  consider(sqrt_radix(procs));
  consider(hi);
  return best;
}

}  // namespace a2a::model
