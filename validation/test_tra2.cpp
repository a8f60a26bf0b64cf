// tra2 byte-exact against MPI_Alltoall for every q dividing P in {1, 2, 3, 4, 6} (q = 1 and
// q = P included), r1 and r2 in {2, sqrt, max}, blocks {0, 1, 7, 4096}, rounds in flight
// (window) 1, 2 and all; the per-phase counters equal Propositions 1-4 with Q and N, and the
// brute-force count; waits: one per round with window=1, one per digit with window=all.
#include <set>

#include "a2a/model.hpp"
#include "a2a/spec.hpp"
#include "brute_force.hpp"
#include "checks.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    a2a::test::Harness h("test_tra2");
    const int P = h.procs();
    std::set<int> qs = {1, P};
    for (int q : {2, 3, 4, 6}) {
      if (q <= P && P % q == 0) qs.insert(q);
    }
    for (int q : qs) {
      const int N = P / q;
      for (const std::string r1 : {"2", "sqrt", "max"}) {
        for (const std::string r2 : {"2", "sqrt", "max"}) {
          for (const std::string window : {"1", "2", "all"}) {
            if (window != "1" && r1 != r2) continue;  // windows on the diagonal suffice
            const std::string spec =
                "tra2:q=" + std::to_string(q) + ",r1=" + r1 + ",r2=" + r2 + ",window=" + window;
            for (std::size_t bytes : {0, 1, 7, 4096}) {
              const a2a::Plan plan = a2a::test::check_uniform_exchange(h, h.comm(), spec, bytes);
              if (bytes == 0) continue;
              const a2a::Spec resolved = a2a::Spec::parse(plan.name());
              const auto R1 = std::stoull(*resolved.find("r1"));
              const auto R2 = std::stoull(*resolved.find("r2"));
              const auto& c = plan.counters();
              const auto uq = static_cast<std::uint64_t>(q), un = static_cast<std::uint64_t>(N);
              const auto b1 = a2a::test::brute_force_count(uq, R1);
              const auto b2 = a2a::test::brute_force_count(un, R2);
              const std::string at = spec + " bytes=" + std::to_string(bytes);
              h.expect(c.rounds_intra == a2a::model::rounds(uq, R1) && c.rounds_intra == b1.rounds,
                       at + ": K1 = K(Q, r1) = " + std::to_string(c.rounds_intra));
              h.expect(c.rounds_inter == a2a::model::rounds(un, R2) && c.rounds_inter == b2.rounds,
                       at + ": K2 = K(N, r2) = " + std::to_string(c.rounds_inter));
              h.expect(c.blocks_intra == a2a::model::blocks(uq, R1) * un &&
                           c.blocks_intra == b1.blocks * un,
                       at + ": D1 = D(Q, r1) N");
              h.expect(c.blocks_inter == a2a::model::blocks(un, R2) * uq &&
                           c.blocks_inter == b2.blocks * uq,
                       at + ": D2 = D(N, r2) Q");
              h.expect(c.rounds == c.rounds_intra + c.rounds_inter, at + ": K = K1 + K2");
              const std::uint64_t digits = a2a::model::digits(uq, R1) + a2a::model::digits(un, R2);
              if (window == "1") {
                h.expect(c.waits == c.rounds, at + ": one wait per round");
              } else if (window == "all") {
                h.expect(c.waits == digits, at + ": one wait per digit (" + std::to_string(digits) +
                                                "), got " + std::to_string(c.waits));
              }
            }
          }
        }
      }
    }
    // Defaults: r1 = ceil(sqrt Q), r2 = N; q = node detects one node of P ranks here.
    const std::string name = a2a::Plan("tra2", h.comm(), 8).name();
    h.expect(
        name == "tra2:r1=" + std::to_string(a2a::model::sqrt_radix(static_cast<std::uint64_t>(P))) +
                    ",r2=2,q=" + std::to_string(P) + ",window=1",
        "tra2 defaults resolve to the real node: " + name);
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
