// Every vector-kind algorithm in the registry against MPI_Alltoallv, for count distributions
// (all equal, random with zeros, one hot peer, all zero) and layouts with gaps and reversed
// displacements. Also the MPI_Alltoallv-signature entry point with a derived contiguous type.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/registry.hpp"
#include "core/pattern.hpp"
#include "core/stats.hpp"
#include "harness.hpp"

namespace {

using a2a::test::Harness;

// counts[s][d]: bytes rank s sends to rank d, the same table on every rank.
using Table = std::vector<std::vector<std::size_t>>;

Table make_counts(const std::string& dist, int procs, std::size_t max_bytes) {
  const auto P = static_cast<std::size_t>(procs);
  Table t(P, std::vector<std::size_t>(P, 0));
  a2a::stats::SplitMix64 rng{42 + P};
  for (std::size_t s = 0; s < P; ++s) {
    for (std::size_t d = 0; d < P; ++d) {
      if (dist == "equal") t[s][d] = max_bytes;
      if (dist == "random") t[s][d] = rng.below(max_bytes + 1);
      if (dist == "hot") t[s][d] = (d == P / 2) ? max_bytes : (s + d) % 2;
    }
  }
  return t;
}

// Lays out blocks in reverse peer order with a gap of 3 bytes between them.
std::vector<std::size_t> displs_for(const std::vector<std::size_t>& counts, bool reversed) {
  std::vector<std::size_t> displs(counts.size());
  std::size_t offset = 5;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const std::size_t i = reversed ? counts.size() - 1 - k : k;
    displs[i] = offset;
    offset += counts[i] + 3;
  }
  return displs;
}

void run(Harness& h) {
  const int rank = h.rank();
  const auto P = static_cast<std::size_t>(h.procs());
  const auto me = static_cast<std::size_t>(rank);
  for (const char* dist : {"equal", "random", "hot", "zero"}) {
    for (std::size_t max_bytes : {1, 8, 1024, 65536 + 3}) {
      for (bool reversed : {false, true}) {
        const Table t = make_counts(dist, h.procs(), max_bytes);
        a2a::VectorLayout layout;
        for (std::size_t p = 0; p < P; ++p) {
          layout.send_counts.push_back(t[me][p]);
          layout.recv_counts.push_back(t[p][me]);
        }
        layout.send_displs = displs_for(layout.send_counts, reversed);
        layout.recv_displs = displs_for(layout.recv_counts, !reversed);
        std::vector<std::byte> send(layout.send_extent() + 7, std::byte{0});
        for (std::size_t d = 0; d < P; ++d) {
          a2a::fill_pattern(send.data() + layout.send_displs[d], layout.send_counts[d], rank,
                            static_cast<int>(d));
        }
        const std::vector<std::byte> send_copy = send;
        std::vector<std::byte> reference(layout.recv_extent() + 7, std::byte{0x5A});
        std::vector<int> sc(P), sd(P), rc(P), rd(P);
        for (std::size_t p = 0; p < P; ++p) {
          sc[p] = static_cast<int>(layout.send_counts[p]);
          sd[p] = static_cast<int>(layout.send_displs[p]);
          rc[p] = static_cast<int>(layout.recv_counts[p]);
          rd[p] = static_cast<int>(layout.recv_displs[p]);
        }
        MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, reference.data(), rc.data(),
                      rd.data(), MPI_BYTE, h.comm());
        for (std::size_t s = 0; s < P; ++s) {
          std::vector<std::byte> block(layout.recv_counts[s]);
          a2a::fill_pattern(block.data(), block.size(), static_cast<int>(s), rank);
          h.expect(
              std::equal(block.begin(), block.end(),
                         reference.begin() + static_cast<std::ptrdiff_t>(layout.recv_displs[s])),
              "MPI_Alltoallv matches the pattern");
        }
        for (const std::string& name : a2a::algorithm_names(a2a::Kind::vector)) {
          const std::string at = "P=" + std::to_string(P) + " " + name + " " + dist +
                                 " max=" + std::to_string(max_bytes) +
                                 (reversed ? " reversed" : "");
          a2a::Plan plan(name, h.comm(), layout);
          std::vector<std::byte> recv(reference.size(), std::byte{0x5A});
          plan.execute(send.data(), recv.data());
          h.expect(recv == reference, at + ": equals MPI_Alltoallv (gaps untouched)");
          h.expect(send == send_copy, at + ": send buffer unchanged");
        }
      }
    }
  }

  // MPI_Alltoallv signature with a derived contiguous type of 3 doubles.
  MPI_Datatype triple;
  MPI_Type_contiguous(3, MPI_DOUBLE, &triple);
  MPI_Type_commit(&triple);
  std::vector<int> counts(P), displs(P);
  for (std::size_t p = 0; p < P; ++p)
    counts[p] = static_cast<int>(p % 3);  // same on all ranks
  std::vector<int> recv_counts(P, static_cast<int>(me % 3));
  std::partial_sum(counts.begin(), counts.end() - 1, displs.begin() + 1);
  std::vector<int> recv_displs(P);
  std::partial_sum(recv_counts.begin(), recv_counts.end() - 1, recv_displs.begin() + 1);
  const auto total_send =
      static_cast<std::size_t>(std::accumulate(counts.begin(), counts.end(), 0));
  const auto total_recv =
      static_cast<std::size_t>(std::accumulate(recv_counts.begin(), recv_counts.end(), 0));
  std::vector<double> send(3 * total_send), expect(3 * total_recv), got(3 * total_recv);
  for (std::size_t i = 0; i < send.size(); ++i)
    send[i] = rank * 1000.0 + static_cast<double>(i);
  MPI_Alltoallv(send.data(), counts.data(), displs.data(), triple, expect.data(),
                recv_counts.data(), recv_displs.data(), triple, h.comm());
  for (const std::string& name : a2a::algorithm_names(a2a::Kind::vector)) {
    a2a::Plan plan = a2a::Plan::from_alltoallv(name, h.comm(), counts.data(), displs.data(), triple,
                                               recv_counts.data(), recv_displs.data(), triple);
    std::fill(got.begin(), got.end(), -1.0);
    plan.execute(send.data(), got.data());
    h.expect(got == expect, name + ": from_alltoallv with a contiguous derived type");
  }
  MPI_Type_free(&triple);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Harness h("test_vector");
    run(h);
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
