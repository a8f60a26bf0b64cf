// The public plan classes: VectorLayout, Plan (uniform and vector, blocking and split) and
// VectorExchange (counts per call). Their state is made in plan_state.cpp; datatypes in
// staged_plan.cpp; the single-copy calls in plan_single_copy.cpp.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <tuple>

#include "a2a/alltoall.hpp"
#include "a2a/buffer.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "detail/datatype.hpp"
#include "detail/messages.hpp"
#include "detail/mpi_entry.hpp"
#include "detail/plan.hpp"

namespace a2a {

const char* to_string(Kind kind) {
  return kind == Kind::uniform ? "uniform" : "vector";
}

VectorLayout VectorLayout::uniform(int procs, std::size_t block_bytes) {
  VectorLayout layout;
  const auto n = static_cast<std::size_t>(procs);
  layout.send_counts.assign(n, block_bytes);
  layout.recv_counts.assign(n, block_bytes);
  layout.send_displs.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    layout.send_displs[i] = i * block_bytes;
  layout.recv_displs = layout.send_displs;
  return layout;
}

// The bytes a buffer must span for n blocks of counts[i] bytes at displs[i].
static std::size_t extent_of(const std::size_t* counts, const std::size_t* displs, std::size_t n) {
  std::size_t extent = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (counts[i] > 0) extent = std::max(extent, displs[i] + counts[i]);
  }
  return extent;
}

// A NULL buffer where this rank's layout has bytes (not for plans over MPI datatypes, whose NULL
// is MPI_BOTTOM with the displacements as addresses).
static void require_buffers(const detail::PlanState& s, const char* what, const void* send,
                            const void* recv) {
  if (s.typed) return;
  require_data(what, "send buffer", send, s.send_extent);
  require_data(what, "receive buffer", recv, s.recv_extent);
}

std::size_t VectorLayout::send_extent() const {
  return extent_of(send_counts.data(), send_displs.data(), send_counts.size());
}
std::size_t VectorLayout::recv_extent() const {
  return extent_of(recv_counts.data(), recv_displs.data(), recv_counts.size());
}

VectorExchange::VectorExchange(std::string_view spec, MPI_Comm comm)
    : state_(detail::make_exchange_state(spec, comm)) {}
VectorExchange::VectorExchange(VectorExchange&&) noexcept = default;
VectorExchange& VectorExchange::operator=(VectorExchange&&) noexcept = default;
VectorExchange::~VectorExchange() = default;

void VectorExchange::set_check_counts(bool on) {
  live().check_counts = on;
}

void VectorExchange::execute(const void* send, const std::size_t* send_counts,
                             const std::size_t* send_displs, void* recv,
                             const std::size_t* recv_counts, const std::size_t* recv_displs) {
  detail::ExchangeState& s = live();
  detail::require_alive(*s.owner, "a2a::VectorExchange::execute");
  if (std::string error = detail::check_extents(send_counts, send_displs, recv_counts, recv_displs,
                                                static_cast<std::size_t>(s.procs));
      !error.empty()) {
    throw Error("a2a::VectorExchange::execute: " + error);  // this rank's arguments
  }
  // A NULL buffer where this rank has bytes (the extent only then: the call's usual path adds no
  // pass over the counts). MPI_BOTTOM with absolute addresses never comes here as NULL: the
  // interposer hands over the type's true lower bound (and refuses a NULL of a relative type).
  const auto n = static_cast<std::size_t>(s.procs);
  if (send == nullptr)
    require_data("a2a::VectorExchange::execute", "send buffer", send,
                 extent_of(send_counts, send_displs, n));
  if (recv == nullptr)
    require_data("a2a::VectorExchange::execute", "receive buffer", recv,
                 extent_of(recv_counts, recv_displs, n));
  if (s.check_counts) {
    // What each peer sends here must be what this rank expects: one Alltoall of the counts.
    static_assert(sizeof(unsigned long long) == sizeof(std::size_t));
    s.incoming.resize(static_cast<std::size_t>(s.procs));
    detail::check_mpi(A2A_MPI_ALLTOALL(send_counts, 1, MPI_UNSIGNED_LONG_LONG, s.incoming.data(), 1,
                                       MPI_UNSIGNED_LONG_LONG, s.comm),
                      "MPI_Alltoall");
    std::string error;
    for (int i = 0; i < s.procs && error.empty(); ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (s.incoming[k] != recv_counts[k]) {
        error = "a2a::VectorExchange: rank " + std::to_string(i) + " sends " +
                std::to_string(s.incoming[k]) + " bytes to rank " + std::to_string(s.rank) +
                ", which expects " + std::to_string(recv_counts[k]);
      }
    }
    detail::agree_or_throw(s.comm, {ErrorKind::argument, error});
  }
  s.counters = Counters{};
  s.impl->execute(static_cast<const std::byte*>(send), static_cast<std::byte*>(recv),
                  detail::LayoutView{send_counts, send_displs, recv_counts, recv_displs},
                  s.counters);
}

void VectorExchange::execute(const void* send, void* recv, const VectorLayout& layout) {
  const auto n = static_cast<std::size_t>(live().procs);
  if (layout.send_counts.size() != n || layout.send_displs.size() != n ||
      layout.recv_counts.size() != n || layout.recv_displs.size() != n) {
    throw Error("a2a::VectorExchange: the layout must have one count and displacement per rank (" +
                std::to_string(n) + ")");
  }
  execute(send, layout.send_counts.data(), layout.send_displs.data(), recv,
          layout.recv_counts.data(), layout.recv_displs.data());
}

int VectorExchange::procs() const {
  return live().procs;
}
std::string VectorExchange::name() const {
  const std::string delegate = live().impl->delegate_name();
  return delegate.empty() ? live().name : live().name + "->" + delegate;
}
std::string VectorExchange::label() const {
  const std::string delegate = live().impl->delegate_label();
  return delegate.empty() ? live().label : live().label + "->" + delegate;
}
const Counters& VectorExchange::counters() const {
  return live().counters;
}
std::size_t VectorExchange::scratch_bytes() const {
  const detail::ExchangeState& s = live();
  return s.impl->scratch_bytes() + s.incoming.capacity() * sizeof(std::size_t);
}

detail::PlanState& Plan::live() const {
  if (!state_)
    throw Error("a2a::Plan: used after being moved from (std::move); use the plan it was moved to");
  return *state_;
}

detail::ExchangeState& VectorExchange::live() const {
  if (!state_) {
    throw Error(
        "a2a::VectorExchange: used after being moved from (std::move); use the exchange it was "
        "moved to");
  }
  return *state_;
}

Plan::Plan(std::unique_ptr<detail::PlanState> state) : state_(std::move(state)) {}

Plan::Plan(std::string_view spec, MPI_Comm comm, std::size_t block_bytes) {
  int procs = 1;
  if (comm != MPI_COMM_NULL) MPI_Comm_size(comm, &procs);
  state_ = detail::make_plan_state(spec, comm, Kind::uniform, block_bytes,
                                   VectorLayout::uniform(procs, block_bytes));
}

Plan::Plan(std::string_view spec, MPI_Comm comm, VectorLayout layout)
    : state_(detail::make_plan_state(spec, comm, Kind::vector, 0, std::move(layout))) {}

Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

void Plan::execute(const void* send, void* recv) {
  detail::require_alive(*live().owner, "a2a::Plan::execute");
  require_buffers(live(), "a2a::Plan::execute", send, recv);
  if (live().phase != detail::PlanState::Phase::idle) {
    // A staged plan's buffers, or the in-flight messages, would be overwritten.
    throw Error(
        "a2a::Plan::execute: an exchange of this plan is in progress (start() without "
        "finish(), or a single-copy exchange not ended)");
  }
  live().counters = Counters{};
  live().impl->execute(static_cast<const std::byte*>(send), static_cast<std::byte*>(recv),
                       live().counters);
}

void Plan::start(const void* send, void* recv) {
  using Phase = detail::PlanState::Phase;
  detail::require_alive(*live().owner, "a2a::Plan::start");
  if (live().phase != Phase::idle) {
    throw Error("a2a::Plan::start: the previous start() was not finished");
  }
  require_buffers(live(), "a2a::Plan::start", send, recv);
  live().counters = Counters{};
  live().impl->start(static_cast<const std::byte*>(send), static_cast<std::byte*>(recv),
                     live().counters);
  live().phase = Phase::split;
}

void Plan::finish() {
  if (live().phase != detail::PlanState::Phase::split) {
    throw Error("a2a::Plan::finish: no exchange was started");
  }
  detail::require_alive(*live().owner, "a2a::Plan::finish");
  live().phase = detail::PlanState::Phase::idle;
  live().impl->finish(live().counters);
}

bool Plan::overlaps() const {
  return live().impl->overlaps();
}

Kind Plan::kind() const {
  return live().kind;
}
int Plan::procs() const {
  return live().procs;
}
const std::string& Plan::name() const {
  return live().name;
}
const std::string& Plan::label() const {
  return live().label;
}
const Counters& Plan::counters() const {
  return live().counters;
}
std::size_t Plan::send_extent() const {
  return live().send_extent;
}
std::size_t Plan::recv_extent() const {
  return live().recv_extent;
}
std::size_t Plan::scratch_bytes() const {
  return live().impl->scratch_bytes();
}

}  // namespace a2a
