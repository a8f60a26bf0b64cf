// Shared exchange checks: run a plan and compare its output, byte for byte, with MPI's own
// collective and with the closed-form pattern; check the send buffer is untouched.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/randomized.hpp"
#include "core/distribution.hpp"
#include "core/pattern.hpp"
#include "harness.hpp"

namespace a2a::test {

// Every byte inverted: a second exchange's data, told apart from the first's.
inline std::vector<std::byte> inverted(std::vector<std::byte> bytes) {
  for (std::byte& b : bytes)
    b = ~b;
  return bytes;
}

// The split-phase form (Plan::start/finish) with two plans of the same spec in flight at once
// on one communicator, the second on inverted data: each must get its own exchange's bytes.
// `blocks(recv)` inverts the received blocks of a buffer (the gaps stay as they were).
template <typename Invert>
void check_split_phase(Harness& h, Plan& first, Plan& second, const std::vector<std::byte>& send,
                       const std::vector<std::byte>& reference, Invert blocks,
                       const std::string& at) {
  const std::vector<std::byte> other = inverted(send);
  std::vector<std::byte> a(reference.size(), std::byte{0x5A}), b = a;
  first.start(send.data(), a.data());
  second.start(other.data(), b.data());
  first.finish();
  second.finish();
  h.expect(a == reference, at + ": start/finish equals the reference (first in flight)");
  std::vector<std::byte> expected = reference;
  blocks(expected);
  h.expect(b == expected, at + ": start/finish equals the reference (second in flight)");
}

// Plans `spec` for a uniform exchange of `bytes` per peer on comm, executes it `repeats` times
// and checks each result. Returns the plan (for its counters).
inline Plan check_uniform_exchange(Harness& h, MPI_Comm comm, const std::string& spec,
                                   std::size_t bytes, const std::string& where = "",
                                   int repeats = 2) {
  int rank = 0, procs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  const auto P = static_cast<std::size_t>(procs);
  std::vector<std::byte> send(P * bytes), expected(P * bytes), reference(P * bytes);
  for (std::size_t d = 0; d < P; ++d) {
    fill_pattern(send.data() + d * bytes, bytes, rank, static_cast<int>(d));
    fill_pattern(expected.data() + d * bytes, bytes, static_cast<int>(d), rank);
  }
  MPI_Alltoall(send.data(), static_cast<int>(bytes), MPI_BYTE, reference.data(),
               static_cast<int>(bytes), MPI_BYTE, comm);
  const std::string at =
      where + " P=" + std::to_string(procs) + " " + spec + " bytes=" + std::to_string(bytes);
  h.expect(reference == expected, at + ": MPI_Alltoall matches the pattern");
  const std::vector<std::byte> send_copy = send;
  Plan plan(spec, comm, bytes);
  for (int repeat = 0; repeat < repeats; ++repeat) {
    std::vector<std::byte> recv(P * bytes, std::byte{0x5A});
    plan.execute(send.data(), recv.data());
    h.expect(recv == reference,
             at + ": equals MPI_Alltoall (run " + std::to_string(repeat + 1) + ")");
    h.expect(send == send_copy, at + ": send buffer unchanged");
  }
  Plan second(spec, comm, bytes);
  check_split_phase(
      h, plan, second, send, reference, [](auto& r) { r = inverted(r); }, at);
  return plan;
}

// This rank's layout for a distribution (app/core/distribution.hpp); blocks 3 bytes apart,
// with `reversed` the send side in reverse peer order and the receive side forward.
inline VectorLayout vector_layout(const std::string& dist, int procs, int rank,
                                  std::size_t max_bytes, bool reversed) {
  return distribution_layout(dist, procs, rank, max_bytes, reversed, !reversed, 5, 3);
}

// A vector exchange's inputs and MPI_Alltoallv's answer, checked against the pattern.
struct VectorCase {
  std::vector<std::byte> send, reference;
};

inline VectorCase vector_case(Harness& h, MPI_Comm comm, const VectorLayout& layout,
                              const std::string& at) {
  int rank = 0, procs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  const auto P = static_cast<std::size_t>(procs);
  VectorCase v;
  v.send.assign(layout.send_extent() + 7, std::byte{0});
  for (std::size_t d = 0; d < P; ++d) {
    fill_pattern(v.send.data() + layout.send_displs[d], layout.send_counts[d], rank,
                 static_cast<int>(d));
  }
  v.reference.assign(layout.recv_extent() + 7, std::byte{0x5A});
  std::vector<int> sc(P), sd(P), rc(P), rd(P);
  for (std::size_t p = 0; p < P; ++p) {
    sc[p] = static_cast<int>(layout.send_counts[p]);
    sd[p] = static_cast<int>(layout.send_displs[p]);
    rc[p] = static_cast<int>(layout.recv_counts[p]);
    rd[p] = static_cast<int>(layout.recv_displs[p]);
  }
  MPI_Alltoallv(v.send.data(), sc.data(), sd.data(), MPI_BYTE, v.reference.data(), rc.data(),
                rd.data(), MPI_BYTE, comm);
  for (std::size_t s = 0; s < P; ++s) {
    std::vector<std::byte> block(layout.recv_counts[s]);
    fill_pattern(block.data(), block.size(), static_cast<int>(s), rank);
    h.expect(std::equal(block.begin(), block.end(),
                        v.reference.begin() + static_cast<std::ptrdiff_t>(layout.recv_displs[s])),
             at + ": MPI_Alltoallv matches the pattern");
  }
  return v;
}

// Plans `spec` for the vector layout on comm and checks the result against MPI_Alltoallv (the
// gaps between receive blocks must stay untouched) and against the pattern.
inline void check_vector_exchange(Harness& h, MPI_Comm comm, const std::string& spec,
                                  const VectorLayout& layout, const std::string& where) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  const std::string at = where + " P=" + std::to_string(procs) + " " + spec;
  VectorCase v = vector_case(h, comm, layout, at);
  const std::vector<std::byte> send_copy = v.send;
  Plan plan(spec, comm, layout);
  std::vector<std::byte> recv(v.reference.size(), std::byte{0x5A});
  plan.execute(v.send.data(), recv.data());
  h.expect(recv == v.reference, at + ": equals MPI_Alltoallv (gaps untouched)");
  h.expect(v.send == send_copy, at + ": send buffer unchanged");
  // The split phase of the others is their execute() (the uniform tests cover it), and a
  // second plan per layout would double this suite's time.
  if (!plan.overlaps()) return;
  Plan second(spec, comm, layout);
  auto blocks = [&](std::vector<std::byte>& r) {
    for (std::size_t p = 0; p < layout.recv_counts.size(); ++p) {
      for (std::size_t i = 0; i < layout.recv_counts[p]; ++i)
        r[layout.recv_displs[p] + i] = ~r[layout.recv_displs[p] + i];
    }
  };
  check_split_phase(h, plan, second, v.send, v.reference, blocks, at);
}

// One call of a per-call exchange with this layout, checked the same way.
inline void check_vector_call(Harness& h, MPI_Comm comm, VectorExchange& exchange,
                              const VectorLayout& layout, const std::string& where) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  const std::string at = where + " P=" + std::to_string(procs) + " per-call " + exchange.name();
  VectorCase v = vector_case(h, comm, layout, at);
  const std::vector<std::byte> send_copy = v.send;
  std::vector<std::byte> recv(v.reference.size(), std::byte{0x5A});
  exchange.execute(v.send.data(), recv.data(), layout);
  h.expect(recv == v.reference, at + ": equals MPI_Alltoallv (gaps untouched)");
  h.expect(v.send == send_copy, at + ": send buffer unchanged");
}

}  // namespace a2a::test
