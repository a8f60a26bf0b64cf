// Plan's single-copy calls (direct and pull): the caller writes into, or reads from, the
// peers' shared memory of a single-copy plan (shared_window), each call checked against the
// plan's phase.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "a2a/alltoall.hpp"
#include "a2a/buffer.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "detail/datatype.hpp"
#include "detail/messages.hpp"
#include "detail/mpi_entry.hpp"
#include "detail/plan.hpp"

namespace a2a {

namespace {

using Phase = detail::PlanState::Phase;

// The plan's shared memory for a single-copy call, checked: the plan is single-copy, and
// `phase` is what is in progress (idle for the calls that begin one). Peer, where given, is
// in range. `call` is the call's full name; no string is made but for an error (direct_target
// runs once per peer and exchange).
detail::SingleCopy& single_copy(detail::PlanState& s, const char* call, Phase phase, int peer = 0) {
  detail::SingleCopy* shared = s.impl->single_copy();
  detail::require_alive(*s.owner, call);
  if (shared == nullptr) throw Error(std::string(call) + ": '" + s.name + "' is not single-copy");
  if (s.phase != phase) {
    throw Error(std::string(call) + (phase == Phase::idle   ? ": an exchange is in progress"
                                     : phase == Phase::push ? ": no begin_direct()"
                                                            : ": no begin_pull()"));
  }
  if (peer < 0 || peer >= s.procs)
    throw Error(std::string(call) + ": peer " + std::to_string(peer) + " out of range");
  return *shared;
}

// Two plans that are to share memory: both single-copy, idle and on the same ranks, checked
// before any collective call (alike on every rank).
std::pair<detail::SingleCopy&, detail::SingleCopy&> sharing(detail::PlanState& a,
                                                            detail::PlanState& b, const char* call,
                                                            bool same_ranks) {
  detail::SingleCopy& mine = single_copy(a, call, Phase::idle);
  detail::SingleCopy& theirs = single_copy(b, call, Phase::idle);
  if (!same_ranks) throw Error(std::string(call) + ": the plans' communicators differ");
  return {mine, theirs};
}

}  // namespace

bool Plan::direct() const {
  return live().impl->single_copy() != nullptr;
}

void Plan::begin_direct(bool peers_have_read) {
  detail::SingleCopy& shared = single_copy(live(), "a2a::Plan::begin_direct", Phase::idle);
  live().counters = Counters{};
  shared.begin_direct(live().counters, peers_have_read);
  live().phase = Phase::push;
}

std::byte* Plan::direct_target(int peer) {
  return single_copy(live(), "a2a::Plan::direct_target", Phase::push, peer).direct_target(peer);
}

const std::byte* Plan::end_direct() {
  detail::SingleCopy& shared = single_copy(live(), "a2a::Plan::end_direct", Phase::push);
  live().phase = Phase::idle;
  return shared.end_direct(live().counters);
}

void Plan::prepare_pull() {
  single_copy(live(), "a2a::Plan::prepare_pull", Phase::idle).prepare_pull();
}

std::byte* Plan::pull_area() {
  std::byte* area = single_copy(live(), "a2a::Plan::pull_area", Phase::idle).pull_area();
  if (area == nullptr && live().send_extent > 0) {
    throw Error("a2a::Plan::pull_area: no prepare_pull()");
  }
  return area;
}

void Plan::begin_pull() {
  detail::SingleCopy& shared = single_copy(live(), "a2a::Plan::begin_pull", Phase::idle);
  live().counters = Counters{};
  shared.begin_pull(live().counters);
  live().phase = Phase::pull;
}

const std::byte* Plan::pull_source(int peer) {
  return single_copy(live(), "a2a::Plan::pull_source", Phase::pull, peer).pull_source(peer);
}

void Plan::end_pull() {
  detail::SingleCopy& shared = single_copy(live(), "a2a::Plan::end_pull", Phase::pull);
  live().phase = Phase::idle;
  shared.end_pull(live().counters);
}

void Plan::pull_only() {
  if (!direct()) return;
  single_copy(live(), "a2a::Plan::pull_only", Phase::idle).pull_only();
}

void Plan::release_pull() {
  if (!direct()) return;
  single_copy(live(), "a2a::Plan::release_pull", Phase::idle).release_pull();
}

bool Plan::same_ranks(const Plan& other) const {
  int same = MPI_UNEQUAL;
  MPI_Comm_compare(live().comm, other.live().comm, &same);
  return same == MPI_IDENT || same == MPI_CONGRUENT;
}

void Plan::share_receive_window(Plan& other) {
  auto [mine, theirs] =
      sharing(live(), other.live(), "a2a::Plan::share_receive_window", same_ranks(other));
  mine.share_receive_window(theirs);
}

void Plan::share_pull_area(Plan& other) {
  auto [mine, theirs] =
      sharing(live(), other.live(), "a2a::Plan::share_pull_area", same_ranks(other));
  mine.share_pull_area(theirs);
}

}  // namespace a2a
