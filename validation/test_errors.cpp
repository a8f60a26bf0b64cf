// Bad specs and bad layouts: every rank must throw, with the same message, and nobody may hang;
// a good plan made afterwards must still work.
#include <fstream>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/registry.hpp"
#include "harness.hpp"

namespace {

using a2a::test::expect_error;
using a2a::test::Harness;

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Harness h("test_errors");
    const int P = h.procs();
    const MPI_Comm world = MPI_COMM_WORLD;
    auto uniform = [&](const std::string& spec) { return [=] { a2a::Plan(spec, world, 8); }; };

    expect_error(h, "unknown backend", "unknown backend 'nosuch'", uniform("nosuch"));
    expect_error(h, "unknown parameter", "unknown parameter 'q'", uniform("tra:q=2"));
    expect_error(h, "parameter of a parameterless backend", "parameters: none",
                 uniform("pairwise:r=2"));
    expect_error(h, "radix 1", "outside [2, " + std::to_string(std::max(2, P)) + "]",
                 uniform("tra:r=1"));
    expect_error(h, "radix above max(2, P)", "outside",
                 uniform("tra:r=" + std::to_string(std::max(2, P) + 1)));
    expect_error(h, "radix not a number", "not an integer", uniform("tra_modified:r=abc"));
    expect_error(h, "segment 0", "segment=0 is outside", uniform("random_segmented:segment=0"));
    expect_error(h, "queue 0", "queue=0 is outside", uniform("random_sendrecv:queue=0"));
    expect_error(h, "non-numeric seed", "seed=x1 is not an integer",
                 uniform("random_scatter:seed=x1"));
    expect_error(h, "negative seed", "seed=-1 is outside", uniform("random_auto:seed=-1"));
    expect_error(h, "large below small", "large=10 is outside",
                 uniform("random_auto:small=100,large=10"));
    expect_error(h, "malformed spec", "malformed", uniform("tra:r"));
    expect_error(h, "empty name", "malformed", uniform(":r=2"));
    expect_error(h, "duplicate key", "twice", uniform("tra:r=2,r=3"));
    expect_error(h, "uniform-only backend for a vector exchange", "does not support the vector",
                 [&] { a2a::Plan("bruck", world, a2a::VectorLayout::uniform(P, 4)); });
    expect_error(h, "missing selection table", "cannot read selection table",
                 uniform("auto:table=/nonexistent/table.json"));
    {
      if (h.rank() == 0) {
        std::ofstream("bad_table.json") << R"({"uniform": [{"backend": "tra:r=1"}]})";
      }
      MPI_Barrier(world);
      expect_error(h, "table whose only rule does not apply", "no rule",
                   uniform("auto:table=bad_table.json"));
    }
    // Ranks that disagree: only rank 0 asks for something invalid.
    expect_error(h, "error on one rank only", "unknown backend",
                 uniform(h.rank() == 0 ? "nosuch" : "tra"));
    if (P > 1) {
      // Ranks asking for different valid backends would deadlock: detected.
      expect_error(h, "ranks disagree", "disagree", uniform(h.rank() == 0 ? "tra:r=2" : "bruck"));
      expect_error(h, "ranks disagree on block size", "disagree",
                   [&] { a2a::Plan("pairwise", world, static_cast<std::size_t>(8 + h.rank())); });
      // Vector counts that do not match between sender and receiver.
      a2a::VectorLayout bad = a2a::VectorLayout::uniform(P, 4);
      if (h.rank() == 0) bad.send_counts[1] = 5;
      expect_error(h, "mismatched vector counts", "sends 5 bytes",
                   [&] { a2a::Plan("linear", world, bad); });
    }
    {
      a2a::VectorLayout overlap = a2a::VectorLayout::uniform(P, 4);
      if (P > 1) overlap.recv_displs[1] = 1;  // overlaps peer 0's region
      if (P > 1) {
        expect_error(h, "overlapping receive regions", "overlap",
                     [&] { a2a::Plan("pairwise", world, overlap); });
      }
      a2a::VectorLayout short_layout = a2a::VectorLayout::uniform(P, 4);
      short_layout.send_counts.pop_back();
      expect_error(h, "wrong number of counts", "one entry per rank",
                   [&] { a2a::Plan("mpi", world, short_layout); });
    }

    // The shipped one-node table: mpi for Alltoall, linear for Alltoallv below 17 ranks.
    {
      const std::string table = std::string(A2A_SOURCE_DIR) + "/inputs/auto-one-node.json";
      const std::string uniform_name = a2a::Plan("auto:table=" + table, world, 64).name();
      h.expect(uniform_name.find("->mpi") != std::string::npos,
               "inputs/auto-one-node.json picks mpi for Alltoall: " + uniform_name);
      const std::string vector_name =
          a2a::Plan("auto:table=" + table, world, a2a::VectorLayout::uniform(P, 64)).name();
      h.expect(vector_name.find("->linear") != std::string::npos,
               "inputs/auto-one-node.json picks linear for Alltoallv: " + vector_name);
    }
    // check_applicable agrees with the constructor, without communicating.
    h.expect(a2a::check_applicable("tra:r=1", world, a2a::Kind::uniform, 8).has_value(),
             "check_applicable reports a bad radix");
    h.expect(!a2a::check_applicable("tra", world, a2a::Kind::uniform, 8).has_value(),
             "check_applicable accepts tra");

    // After all that, a good plan still works.
    std::vector<int> send(static_cast<std::size_t>(P)), recv(static_cast<std::size_t>(P));
    for (int i = 0; i < P; ++i)
      send[static_cast<std::size_t>(i)] = h.rank() * 100 + i;
    a2a::Plan plan("tra", world, sizeof(int));
    plan.execute(send.data(), recv.data());
    bool ok = true;
    for (int i = 0; i < P; ++i)
      ok &= recv[static_cast<std::size_t>(i)] == i * 100 + h.rank();
    h.expect(ok, "a good plan after the errors");
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
