// A real message above 2 GiB: rank 0 sends 2^31 + 5 bytes to rank 1 (and rank 1 sends 3 bytes
// back) through every vector backend. MPI's int counts cannot describe it, so the library must
// split it (direct algorithms) or use a large derived type (mpi). Run with P = 2; needs about
// 5 GiB of memory in total.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/registry.hpp"
#include "harness.hpp"

namespace {

std::uint64_t word(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t z = i * 0x9e3779b97f4a7c15ULL + seed;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  return z ^ (z >> 27);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    a2a::test::Harness h("test_large");
    if (h.procs() != 2) {
      if (h.rank() == 0) std::fprintf(stderr, "test_large needs exactly 2 ranks\n");
      MPI_Finalize();
      return 1;
    }
    const std::size_t big = (std::size_t{1} << 31) + 5;
    const std::size_t small = 3;
    const std::size_t words = big / 8 + 1;
    a2a::VectorLayout layout;
    if (h.rank() == 0) {
      layout.send_counts = {0, big};
      layout.recv_counts = {0, small};
    } else {
      layout.send_counts = {small, 0};
      layout.recv_counts = {big, 0};
    }
    layout.send_displs = {0, 0};
    layout.recv_displs = {0, 0};
    std::vector<std::uint64_t> send(h.rank() == 0 ? words : 1), recv(h.rank() == 1 ? words : 1);
    for (std::size_t i = 0; i < send.size(); ++i)
      send[i] = word(i, 17 + h.rank());
    for (const auto& info : a2a::registry()) {
      // Where its entry says these tests apply (not for auto, which runs one of the others,
      // nor where they would only multiply the memory needed).
      if (!info.supports(a2a::Kind::vector) || !info.large_message_tests) continue;
      const std::string& name = info.name;
      a2a::Plan plan(name, h.comm(), layout);
      std::fill(recv.begin(), recv.end(), 0);
      plan.execute(send.data(), recv.data());
      bool ok = true;
      if (h.rank() == 1) {
        for (std::size_t i = 0; i < big / 8; ++i)
          ok &= recv[i] == word(i, 17);
        const auto* tail_got = reinterpret_cast<const unsigned char*>(&recv[big / 8]);
        const auto* tail_exp = reinterpret_cast<const unsigned char*>(&send[0]);
        std::uint64_t expected_last = word(big / 8, 17);
        tail_exp = reinterpret_cast<const unsigned char*>(&expected_last);
        for (std::size_t k = 0; k < big % 8; ++k)
          ok &= tail_got[k] == tail_exp[k];
      } else {
        const std::uint64_t expected = word(0, 18);
        ok = std::memcmp(recv.data(), &expected, small) == 0;
      }
      h.expect(ok, name + ": a 2 GiB + 5 B message arrives intact");
      if (h.rank() == 0) std::printf("test_large: %s done\n", plan.name().c_str());
    }
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
