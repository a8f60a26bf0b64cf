// Every uniform algorithm in the registry (so a new algorithm is covered by registering it),
// with radix variants r in {2, 3, sqrt, P-1, P} where it takes a radix, rounds in flight
// (window) 2 and all where it takes a window, at block sizes
// {0, 1, 3, 8, 1000, 65537}: byte-exact against MPI_Alltoall and against the closed-form
// pattern, send buffer unchanged, plan executed twice; and the specs each entry names as its
// test variants. Where an entry has a model radix (the Bruck family) the counted rounds and
// blocks must equal Propositions 1-4 and the brute-force enumeration, and the waits one per
// round (window=1) or one per digit (window=all). Everything runs on
// the world communicator and on a sub-communicator (ranks split by parity).
#include <cstring>
#include <set>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/model.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "brute_force.hpp"
#include "checks.hpp"

namespace {

using a2a::test::Harness;

// The specs to test for one algorithm: its defaults, plus the radix sweep when it has one.
std::vector<std::string> variants(const a2a::AlgorithmInfo& info, MPI_Comm comm, int procs) {
  std::vector<std::string> specs = {info.name};
  for (const auto& p : info.params) {
    if (p.name != "r") continue;
    std::set<long long> radices;
    for (long long r :
         {2LL, 3LL, static_cast<long long>(procs) - 1, static_cast<long long>(procs)}) {
      if (r >= 2 && r <= std::max(2, procs)) radices.insert(r);
    }
    for (long long r : radices)
      specs.push_back(info.name + ":r=" + std::to_string(r));
    specs.push_back(info.name + ":r=sqrt");
  }
  if (info.param("window") != nullptr) {
    const bool radix = info.param("r") != nullptr;
    specs.push_back(info.name + (radix ? ":r=max,window=2" : ":window=2"));
    specs.push_back(info.name + (radix ? ":r=sqrt,window=all" : ":window=all"));
    if (radix) specs.push_back(info.name + ":r=max,window=all");
  }
  // And those its entry names (test_variants), where they can run at this P.
  if (info.test_variants) {
    for (const std::string& spec : info.test_variants(a2a::Kind::uniform, procs)) {
      if (!a2a::check_applicable(spec, comm, a2a::Kind::uniform, 8)) specs.push_back(spec);
    }
  }
  return specs;
}

// The radix whose Propositions 1-4 the plan's counters follow (its entry's model_radix; 0 for
// none, and for auto, whose choice is another entry's).
long long model_radix(const std::string& resolved) {
  if (resolved.find("->") != std::string::npos) return 0;
  const a2a::AlgorithmInfo* info = a2a::algorithm_of(resolved);
  return info != nullptr && info->model_radix ? static_cast<long long>(info->model_radix(resolved))
                                              : 0;
}

void run_suite(Harness& h, MPI_Comm comm, const char* where) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  const auto P = static_cast<std::size_t>(procs);
  for (std::size_t bytes : {0, 1, 3, 8, 1000, 65537}) {
    for (const auto& info : a2a::registry()) {
      if (!info.supports(a2a::Kind::uniform)) continue;
      for (const std::string& spec : variants(info, comm, procs)) {
        const a2a::Plan plan = a2a::test::check_uniform_exchange(h, comm, spec, bytes, where);
        const long long r = model_radix(plan.name());
        if (r == 0 || bytes == 0) continue;
        const std::string at = std::string(where) + " P=" + std::to_string(procs) + " " + spec +
                               " bytes=" + std::to_string(bytes);
        const auto& c = plan.counters();
        const auto brute = a2a::test::brute_force_count(P, static_cast<std::uint64_t>(r));
        h.expect(c.rounds == a2a::model::rounds(P, r) && c.rounds == brute.rounds,
                 at + ": rounds " + std::to_string(c.rounds) + " vs K " +
                     std::to_string(a2a::model::rounds(P, r)));
        h.expect(c.blocks_sent == a2a::model::blocks(P, r) && c.blocks_sent == brute.blocks,
                 at + ": blocks " + std::to_string(c.blocks_sent) + " vs D " +
                     std::to_string(a2a::model::blocks(P, r)));
        h.expect(c.bytes_sent == c.blocks_sent * bytes, at + ": bytes = blocks * S");
        const std::string window = *a2a::Spec::parse(plan.name()).find("window");
        const std::uint64_t w = a2a::model::digits(P, static_cast<std::uint64_t>(r));
        if (window == "1") h.expect(c.waits == c.rounds, at + ": one wait per round");
        if (window == "all") h.expect(c.waits == w, at + ": one wait per digit");
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Harness h("test_uniform");
    run_suite(h, MPI_COMM_WORLD, "world");
    // The split phase's misuse is an error, not a hang.
    a2a::Plan plan("linear", MPI_COMM_WORLD, 8);
    std::vector<std::byte> send(8 * static_cast<std::size_t>(h.procs())), recv(send.size());
    a2a::test::expect_error(h, "finish without start", "no exchange was started",
                            [&] { plan.finish(); });
    plan.start(send.data(), recv.data());
    a2a::test::expect_error(h, "start twice", "was not finished",
                            [&] { plan.start(send.data(), recv.data()); });
    plan.finish();
    // The single-copy calls: refused for a plan that is not single-copy, and out of order.
    a2a::test::expect_error(h, "begin_direct on linear", "is not single-copy",
                            [&] { plan.begin_direct(); });
    a2a::Plan shared("shared_window", MPI_COMM_WORLD, 8);
    a2a::test::expect_error(h, "end_direct without begin", "no begin_direct()",
                            [&] { shared.end_direct(); });
    shared.prepare_pull();
    shared.begin_pull();  // collective, on every rank alike
    a2a::test::expect_error(h, "direct_target during a pull", "no begin_direct()",
                            [&] { shared.direct_target(0); });
    a2a::test::expect_error(h, "finish during a pull", "no exchange was started",
                            [&] { shared.finish(); });
    a2a::test::expect_error(h, "pull_source out of range", "out of range",
                            [&] { shared.pull_source(h.procs()); });
    shared.end_pull();
    a2a::test::expect_error(h, "end_pull twice", "no begin_pull()", [&] { shared.end_pull(); });
    // Push rounds: each rank writes its 8 bytes for q straight into q's area and checks what it
    // received. After the first, the caller's own barrier (after every rank's reads) stands in
    // for begin_direct's wait: begin_direct(true).
    for (int round = 0; round < 4; ++round) {
      auto value = [&](int from, int to) {
        return static_cast<std::uint64_t>(round * 1000000 + from * 1000 + to);
      };
      shared.begin_direct(round > 0);
      for (int q = 0; q < h.procs(); ++q) {
        const std::uint64_t v = value(h.rank(), q);
        std::memcpy(shared.direct_target(q), &v, sizeof v);
      }
      const std::byte* received = shared.end_direct();
      bool right = true;
      for (int s = 0; s < h.procs(); ++s) {
        std::uint64_t v = 0;
        std::memcpy(&v, received + 8 * s, sizeof v);
        right = right && v == value(s, h.rank());
      }
      h.expect(right, "push round " + std::to_string(round) +
                          (round > 0 ? " (begin_direct(true))" : "") + ": every block received");
      MPI_Barrier(MPI_COMM_WORLD);
    }
    // Pull only: the receive areas freed, the push refused, execute() right through the pull
    // area (twice: the second writes it again after the first's reads).
    const std::size_t before = shared.scratch_bytes();
    shared.pull_only();
    // (MPI may round a window's areas up to pages.)
    h.expect(before - shared.scratch_bytes() >= shared.recv_extent() &&
                 shared.scratch_bytes() >= shared.send_extent(),
             "pull_only frees the receive area (" + std::to_string(before) + " -> " +
                 std::to_string(shared.scratch_bytes()) + " bytes)");
    a2a::test::expect_error(h, "begin_direct after pull_only", "only pulls",
                            [&] { shared.begin_direct(); });
    for (int round = 0; round < 2; ++round) {
      std::vector<std::uint64_t> out(static_cast<std::size_t>(h.procs())), in(out.size());
      for (int q = 0; q < h.procs(); ++q)
        out[static_cast<std::size_t>(q)] =
            static_cast<std::uint64_t>(round * 1000 + 10 * h.rank() + q);
      shared.execute(out.data(), in.data());
      std::vector<std::uint64_t> expected(in.size());
      MPI_Alltoall(out.data(), 1, MPI_UINT64_T, expected.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
      h.expect(in == expected,
               "pull_only: execute round " + std::to_string(round) + " as MPI_Alltoall");
    }
    plan.pull_only();  // not single-copy: nothing to free, nothing changes
    a2a::test::expect_error(h, "release_pull after pull_only", "only pulls",
                            [&] { shared.release_pull(); });
    // The other way: a pull area prepared and freed again; the push goes on, and a second
    // prepare_pull() makes one that works.
    a2a::Plan pushed("shared_window", MPI_COMM_WORLD, 8);
    const std::size_t push_only = pushed.scratch_bytes();
    pushed.prepare_pull();
    h.expect(pushed.scratch_bytes() > push_only, "prepare_pull adds the pull area");
    pushed.release_pull();
    h.expect(pushed.scratch_bytes() == push_only, "release_pull frees it");
    a2a::test::expect_error(h, "pull_area after release_pull", "no prepare_pull()",
                            [&] { pushed.pull_area(); });
    std::vector<std::uint64_t> mine(static_cast<std::size_t>(h.procs())), got(mine.size()),
        expected(mine.size());
    for (int q = 0; q < h.procs(); ++q)
      mine[static_cast<std::size_t>(q)] = static_cast<std::uint64_t>(7 + 100 * h.rank() + q);
    MPI_Alltoall(mine.data(), 1, MPI_UINT64_T, expected.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    pushed.execute(mine.data(), got.data());
    h.expect(got == expected, "release_pull: execute as MPI_Alltoall");
    pushed.prepare_pull();
    std::memcpy(pushed.pull_area(), mine.data(), 8 * mine.size());
    pushed.begin_pull();
    for (int s = 0; s < h.procs(); ++s)
      std::memcpy(&got[static_cast<std::size_t>(s)], pushed.pull_source(s), 8);
    pushed.end_pull();
    h.expect(got == expected, "prepare_pull again: pulled as MPI_Alltoall");
    // Two plans of different block sizes (and a third) receiving into one window: held once,
    // as large as the larger needs; each still exchanges right, alternately.
    {
      a2a::Plan small("shared_window", MPI_COMM_WORLD, 8),
          large("shared_window", MPI_COMM_WORLD, 64), third("shared_window", MPI_COMM_WORLD, 16);
      const std::size_t apart =
          small.scratch_bytes() + large.scratch_bytes() + third.scratch_bytes();
      small.share_receive_window(large);
      third.share_receive_window(small);
      const std::size_t held =
          small.scratch_bytes() + large.scratch_bytes() + third.scratch_bytes();
      h.expect(held < apart && held >= large.recv_extent(), "share_receive_window: one window (" +
                                                                std::to_string(held) + " bytes, " +
                                                                std::to_string(apart) + " apart)");
      for (int round = 0; round < 3; ++round) {
        for (a2a::Plan* p : {&small, &large, &third}) {
          const std::size_t block = p->send_extent() / static_cast<std::size_t>(h.procs());
          std::vector<std::uint8_t> out(p->send_extent()), in(p->recv_extent()), want(in.size());
          for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = static_cast<std::uint8_t>(i * 7 + static_cast<std::size_t>(h.rank()) * 13 +
                                               block + static_cast<std::size_t>(round));
          p->execute(out.data(), in.data());
          MPI_Alltoall(out.data(), static_cast<int>(block), MPI_BYTE, want.data(),
                       static_cast<int>(block), MPI_BYTE, MPI_COMM_WORLD);
          h.expect(in == want, "shared window, " + std::to_string(block) + "-byte blocks, round " +
                                   std::to_string(round) + ": as MPI_Alltoall");
        }
      }
      a2a::test::expect_error(h, "share_receive_window with linear", "is not single-copy",
                              [&] { small.share_receive_window(plan); });
      a2a::test::expect_error(h, "share_receive_window after pull_only", "only pulls",
                              [&] { shared.share_receive_window(small); });
      if (h.procs() > 1) {  // a plan on other ranks: refused before any collective call
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, h.rank() % 2, h.rank(), &half);
        {
          a2a::Plan elsewhere("shared_window", half, 8);
          a2a::test::expect_error(h, "share_receive_window across communicators",
                                  "communicators differ",
                                  [&] { small.share_receive_window(elsewhere); });
        }
        MPI_Comm_free(&half);
      }
    }
    // The larger of two sharers turns to pulling: the window shrinks to what the other
    // receives, and both still exchange right.
    {
      a2a::Plan small("shared_window", MPI_COMM_WORLD, 16),
          large("shared_window", MPI_COMM_WORLD, 65536);
      small.share_receive_window(large);
      large.pull_only();
      const std::size_t held = small.scratch_bytes() + large.scratch_bytes();
      h.expect(small.scratch_bytes() < large.recv_extent() && held < 2 * large.recv_extent(),
               "pull_only of the larger sharer: the window shrinks (" + std::to_string(held) +
                   " bytes held)");
      for (a2a::Plan* p : {&small, &large}) {
        const std::size_t block = p->send_extent() / static_cast<std::size_t>(h.procs());
        std::vector<std::uint8_t> out(p->send_extent()), in(p->recv_extent()), want(in.size());
        for (std::size_t i = 0; i < out.size(); ++i)
          out[i] = static_cast<std::uint8_t>(i * 5 + static_cast<std::size_t>(h.rank()) * 11);
        p->execute(out.data(), in.data());
        MPI_Alltoall(out.data(), static_cast<int>(block), MPI_BYTE, want.data(),
                     static_cast<int>(block), MPI_BYTE, MPI_COMM_WORLD);
        h.expect(in == want,
                 "after the shrink, " + std::to_string(block) + "-byte blocks: as MPI_Alltoall");
      }
    }
    // A plan that pulls keeps its send data in the receive window of one that pushes: held
    // once; the two alternate, each as MPI_Alltoall; refused where it cannot be.
    {
      a2a::Plan pushes("shared_window", MPI_COMM_WORLD, 24),
          pulls("shared_window", MPI_COMM_WORLD, 4096);
      pulls.prepare_pull();
      const std::size_t apart = pushes.scratch_bytes() + pulls.scratch_bytes();
      pulls.share_pull_area(pushes);
      const std::size_t held = pushes.scratch_bytes() + pulls.scratch_bytes();
      h.expect(held < apart && held >= pulls.send_extent(), "share_pull_area: one window (" +
                                                                std::to_string(held) + " bytes, " +
                                                                std::to_string(apart) + " apart)");
      for (int round = 0; round < 3; ++round) {
        for (a2a::Plan* p : {&pushes, &pulls}) {
          const std::size_t block = p->send_extent() / static_cast<std::size_t>(h.procs());
          std::vector<std::uint8_t> out(p->send_extent()), in(p->recv_extent()), want(in.size());
          for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = static_cast<std::uint8_t>(i * 3 + static_cast<std::size_t>(h.rank()) * 17 +
                                               block + static_cast<std::size_t>(round));
          if (p == &pulls) {
            std::memcpy(pulls.pull_area(), out.data(), out.size());
            pulls.begin_pull();
            for (int q = 0; q < h.procs(); ++q)
              std::memcpy(in.data() + static_cast<std::size_t>(q) * block, pulls.pull_source(q),
                          block);
            pulls.end_pull();
          } else {
            p->execute(out.data(), in.data());
          }
          MPI_Alltoall(out.data(), static_cast<int>(block), MPI_BYTE, want.data(),
                       static_cast<int>(block), MPI_BYTE, MPI_COMM_WORLD);
          h.expect(in == want, std::string(p == &pulls ? "pulled" : "pushed") +
                                   " through one window, round " + std::to_string(round) +
                                   ": as MPI_Alltoall");
        }
      }
      pulls.release_pull();  // the window shrinks back to what the push receives
      h.expect(pushes.scratch_bytes() + pulls.scratch_bytes() < held,
               "release_pull of the pull area shared: the window shrinks");
      a2a::test::expect_error(h, "share_pull_area with linear", "is not single-copy",
                              [&] { pulls.share_pull_area(plan); });
      a2a::test::expect_error(h, "share_pull_area into a plan that only pulls", "only pulls",
                              [&] { pushes.share_pull_area(shared); });
    }
    if (h.procs() > 2) {
      MPI_Comm half;
      MPI_Comm_split(MPI_COMM_WORLD, h.rank() % 2, h.procs() - h.rank(), &half);
      run_suite(h, half, "split");
      MPI_Comm_free(&half);
    }
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
