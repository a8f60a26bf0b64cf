// The closed forms of Propositions 1-4 against an independent brute-force enumeration of the
// digit rule, for every radix of many P, and the paper's worked example.
#include <cstdio>
#include <string>

#include "serial_checks.hpp"

#include "a2a/model.hpp"
#include "brute_force.hpp"

int main() {
  using namespace a2a;
  test::SerialChecks expect("test_model");
  auto check_all_radices = [&](std::uint64_t p) {
    for (std::uint64_t r = 2; r <= std::max<std::uint64_t>(2, p); ++r) {
      const model::RadixCost cost = model::tra_cost(p, r);
      const test::BruteCount brute = test::brute_force_count(p, r);
      const std::string at = "P=" + std::to_string(p) + " r=" + std::to_string(r);
      expect(cost.rounds == brute.rounds, at + ": K=" + std::to_string(cost.rounds) +
                                              " brute force " + std::to_string(brute.rounds));
      expect(cost.blocks == brute.blocks, at + ": D=" + std::to_string(cost.blocks) +
                                              " brute force " + std::to_string(brute.blocks));
    }
  };
  for (std::uint64_t p = 1; p <= 300; ++p)
    check_all_radices(p);
  for (std::uint64_t p : {512, 1000, 1024, 2048, 2187, 4096})
    check_all_radices(p);

  // Section III-B: P = 16384, r = sqrt(P) = 128 gives K = 254, D = 32512; r = 2 gives
  // K = 14, D = 114688.
  expect(model::rounds(16384, 128) == 254, "paper example K(16384, 128) = 254");
  expect(model::blocks(16384, 128) == 32512, "paper example D(16384, 128) = 32512");
  expect(model::rounds(16384, 2) == 14, "paper example K(16384, 2) = 14");
  expect(model::blocks(16384, 2) == 114688, "paper example D(16384, 2) = 114688");
  // Fig. 3: P = 11, r = 3 has w = 3 and, in the last digit, only z = 1.
  expect(model::digits(11, 3) == 3, "w(11, 3) = 3");
  expect(model::rounds(11, 3) == 5, "K(11, 3) = 5");
  // Extreme radices: r = P is spread-out (K = D = P - 1); r = 2 has K = ceil(log2 P).
  for (std::uint64_t p : {5, 16, 100, 1023}) {
    expect(model::rounds(p, p) == p - 1 && model::blocks(p, p) == p - 1, "r = P is spread-out");
    std::uint64_t log2p = 0;
    while ((std::uint64_t{1} << log2p) < p)
      ++log2p;
    expect(model::rounds(p, 2) == log2p, "r = 2 has ceil(log2 P) rounds");
  }
  expect(model::sqrt_radix(16384) == 128 && model::sqrt_radix(2048) == 46 &&
             model::sqrt_radix(8192) == 91 && model::sqrt_radix(1) == 2,
         "ceil(sqrt P) as the paper lists it (Fig. 8: 46, 64, 91, 128)");

  return expect.finish();
}
