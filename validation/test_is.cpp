// NPB IS through the a2a backends: classes S and W must pass the official partial and full
// verification with every listed backend at this P; the generator's jump-ahead must equal
// stepping, so the key sequence does not depend on P.
#include <string>
#include <vector>

#include "a2a/registry.hpp"
#include "harness.hpp"
#include "is/npb_is.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    a2a::test::Harness h("test_is");
    // randlc: skip(n) is n steps; generating keys in pieces gives the same sequence.
    a2a::is::Randlc stepped(a2a::is::Randlc::kSeed), jumped(a2a::is::Randlc::kSeed);
    for (int i = 0; i < 12345; ++i)
      stepped.next();
    jumped.skip(12345);
    h.expect(stepped.state() == jumped.state(), "randlc skip(n) equals n steps");
    const auto& s = a2a::is::class_params('S');
    const auto whole = a2a::is::generate_keys(s, 0, 1000);
    auto part = a2a::is::generate_keys(s, 0, 377);
    const auto rest = a2a::is::generate_keys(s, 377, 623);
    part.insert(part.end(), rest.begin(), rest.end());
    h.expect(whole == part, "keys generated in pieces equal the whole sequence");
    bool in_range = true;
    for (auto k : whole)
      in_range &= k >= 0 && k < s.max_key();
    h.expect(in_range, "keys lie in [0, MAX_KEY)");

    std::vector<std::string> backends = {
        "mpi",   "linear", "pairwise", "random_sendrecv", "random_scatter:shuffle=off",
        "sloav", "sloavx", "tra_v",    "tra_v:r=2",       "padded_bruck_v"};
    if (h.procs() % 2 == 0) backends.push_back("sloavx:q=2");
    for (char cls : {'S', 'W'}) {
      for (const std::string& backend : backends) {
        a2a::is::Options o;
        o.class_name = cls;
        o.backend = backend;
        o.counts_backend = backend == "mpi" ? "mpi" : "tra";
        const a2a::is::Result r = a2a::is::run(o, h.comm());
        const std::string at = std::string("class ") + cls + " " + backend;
        h.expect(r.partial_ok,
                 at + ": partial verification " + std::to_string(r.partial_passed) + "/50");
        h.expect(r.full_ok, at + ": full verification (sorted)");
        h.expect(r.count_ok && r.keys_ok, at + ": every key arrived once (count and multiset)");
      }
    }
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
