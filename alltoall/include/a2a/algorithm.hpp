// The algorithm interface: what an algorithm implements (PlanImpl, ExchangeImpl) and what it is
// given (Context) when the registry validates and builds it. Built-in algorithms and plugins
// (A2A_PLUGINS) both include this installed header and a2a/registry.hpp, nothing else of a2a's.
// The names stay in a2a::detail: user code calls a2a::Plan and a2a::VectorExchange, never these.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/registry.hpp"
#include "a2a/topology.hpp"

namespace a2a::detail {

// What an algorithm sees when it is validated and built.
struct Context {
  const AlgorithmInfo* algorithm = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;  // the plan's own communicator; MPI_COMM_NULL while validating
  int rank = 0;
  int procs = 1;
  Kind kind = Kind::uniform;
  std::size_t block_bytes = 0;  // uniform kind
  VectorLayout layout;          // both kinds (the uniform layout for the uniform kind)
  bool per_call = false;        // a VectorExchange: no layout, the counts come with every call

  // Parameter values as written, defaults filled in, in the registry's order.
  std::vector<std::pair<std::string, std::string>> params;
  // Values after validation, every one explicit; they make up the resolved name.
  std::vector<std::pair<std::string, std::string>> resolved;

  const std::string& raw(const std::string& key) const;
  // Integer in [lo, hi]; throws SpecError naming the algorithm, key and range.
  long long int_param(const std::string& key, long long lo, long long hi);
  // A radix: an integer, "sqrt" (ceil(sqrt(n))) or "max" (n), in [2, max(2, n)].
  long long radix_param(const std::string& key, long long n, const char* what);
  // Ranks per node: 'node' (the real placement; 0 returned, resolved when the plan is built)
  // or an integer q dividing P (emulated nodes of q consecutive ranks).
  int ranks_per_node_param(const std::string& key);
  // Rounds of one digit in flight: an integer >= 1, or 'all' (returns 0: every round).
  std::size_t window_param(const std::string& key);
  // on|off (also true/false, 1/0).
  bool bool_param(const std::string& key);
  // Any text (already non-empty); recorded as resolved.
  std::string text_param(const std::string& key);
  void resolve(const std::string& key, std::string value);
  // A value recorded by resolve() during validation (for build()).
  const std::string& resolved_value(const std::string& key) const;
  std::string resolved_name() const;
  std::vector<std::pair<std::string, std::string>> ordered() const;
  std::string label() const;
  std::vector<std::string> given;  // keys written in the spec
  [[noreturn]] void fail(const std::string& message) const;
  // The backend cannot serve this exchange here (placement, P, kind): "not applicable: why",
  // an unsupported error rather than a bad spec.
  [[noreturn]] void refuse(const std::string& why) const;
};

// The `q` parameter of the node-aware algorithms.
ParamInfo ranks_per_node_info();
// The `r` parameter of the radix-r Bruck family (tra, tra_modified, tra_v, padded_bruck_v).
ParamInfo radix_param_info();
// The `window` parameter of the radix family (rounds of one digit in flight at once).
ParamInfo window_param_info();
// The resolved `window` parameter (after window_param): rounds in flight, 0 = all of a digit.
std::size_t resolved_window(const Context& ctx);
// Build time: the topology for the resolved `q` (collective), the real placement for
// q=node (then q is resolved to the real Q). Fails, on every rank, if hierarchical
// algorithms cannot use it.
NodeTopology plan_topology(Context& ctx);

// The shared memory of a single-copy plan, for a caller that fuses its own pass over the data
// with the exchange (Plan's direct and pull calls, which check the order of the calls).
// Push: begin_direct() returns once every peer has read its area (at once where the caller
// knows they have: peers_have_read, alike on every rank); the caller writes its block
// for q at direct_target(q); end_direct() returns this rank's received data (recv layout).
// Pull: after prepare_pull() (collective, once) the caller writes its send data into
// pull_area() (send layout); between begin_pull() and end_pull() it reads q's block for it at
// pull_source(q). pull_only() (collective) frees the push's memory: the pull calls and
// execute() (then through the pull area) go on working, the push calls throw. release_pull()
// (collective) frees what prepare_pull() made. share_receive_window(other) (collective) makes
// both plans, and those already sharing with either, receive into one window;
// share_pull_area(other) (collective) keeps this plan's pull area in other's receive window.
class SingleCopy {
 public:
  virtual ~SingleCopy() = default;
  virtual void begin_direct(Counters& counters, bool peers_have_read) = 0;
  virtual std::byte* direct_target(int peer) = 0;
  virtual const std::byte* end_direct(Counters& counters) = 0;
  virtual void prepare_pull() = 0;
  virtual std::byte* pull_area() = 0;
  virtual void begin_pull(Counters& counters) = 0;
  virtual const std::byte* pull_source(int peer) = 0;
  virtual void end_pull(Counters& counters) = 0;
  virtual void pull_only() = 0;
  virtual void release_pull() = 0;
  virtual void share_receive_window(SingleCopy& other) = 0;
  virtual void share_pull_area(SingleCopy& other) = 0;
};

// One algorithm's plan for a fixed exchange (uniform, or a vector layout known when it is
// made): built once, executed many times. Implementations do every fixed piece of work in the
// constructor (schedules, per-round sizes and offsets, scratch); execute() moves data only and
// does not allocate.
class PlanImpl {
 public:
  virtual ~PlanImpl() = default;
  virtual void execute(const std::byte* send, std::byte* recv, Counters& counters) = 0;
  // Split phase (Plan::start/finish): a plan that can leave its messages in flight overrides
  // all three; the others run the whole exchange in start().
  virtual void start(const std::byte* send, std::byte* recv, Counters& counters) {
    execute(send, recv, counters);
  }
  virtual void finish(Counters&) {}
  virtual bool overlaps() const { return false; }
  // Single-copy plans (shared_window) give the caller their shared memory (Plan::begin_direct,
  // Plan::begin_pull); the others have none.
  virtual SingleCopy* single_copy() { return nullptr; }
  // A plan that delegates (auto) names what it delegates to; "" keeps the spec's name.
  virtual std::string delegate_name() const { return {}; }
  virtual std::string delegate_label() const { return {}; }
  // Bytes of exchange data it holds on this rank besides the caller's buffers (Plan::
  // scratch_bytes): work and staging arrays, and this rank's part of shared-memory windows.
  virtual std::size_t scratch_bytes() const { return 0; }
};

// Per-peer byte counts and displacements of one call (MPI_Alltoallv's arguments, in bytes).
struct LayoutView {
  const std::size_t* send_counts = nullptr;
  const std::size_t* send_displs = nullptr;
  const std::size_t* recv_counts = nullptr;
  const std::size_t* recv_displs = nullptr;
  static LayoutView of(const VectorLayout& layout) {
    return {layout.send_counts.data(), layout.send_displs.data(), layout.recv_counts.data(),
            layout.recv_displs.data()};
  }
};

// One algorithm's per-call Alltoallv: made once per communicator, then executed with the counts
// of each call and nothing agreed beforehand (what MPI_Alltoallv does). Scratch grows on
// demand and is kept, so repeated calls of the same or smaller sizes do not allocate.
class ExchangeImpl {
 public:
  virtual ~ExchangeImpl() = default;
  virtual void execute(const std::byte* send, std::byte* recv, const LayoutView& layout,
                       Counters& counters) = 0;
  // Split phase, as PlanImpl's: the layout must stay valid until finish().
  virtual void start(const std::byte* send, std::byte* recv, const LayoutView& layout,
                     Counters& counters) {
    execute(send, recv, layout, counters);
  }
  virtual void finish(Counters&) {}
  virtual bool overlaps() const { return false; }
  // What a selecting exchange (auto, random_auto) ran last; "" for the others.
  virtual std::string delegate_name() const { return {}; }
  virtual std::string delegate_label() const { return {}; }
  // As PlanImpl's: what it holds now (scratch that grows on demand counts once grown).
  virtual std::size_t scratch_bytes() const { return 0; }
};

// A fixed-layout plan over a per-call exchange: the layout is kept and handed to every call.
// The default plan of the algorithms whose per-call form has no per-call cost to save.
class FixedLayoutPlan final : public PlanImpl {
 public:
  FixedLayoutPlan(std::unique_ptr<ExchangeImpl> exchange, VectorLayout layout)
      : exchange_(std::move(exchange)), layout_(std::move(layout)) {}
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    exchange_->execute(send, recv, LayoutView::of(layout_), c);
  }
  void start(const std::byte* send, std::byte* recv, Counters& c) override {
    exchange_->start(send, recv, LayoutView::of(layout_), c);
  }
  void finish(Counters& c) override { exchange_->finish(c); }
  bool overlaps() const override { return exchange_->overlaps(); }
  std::string delegate_name() const override { return exchange_->delegate_name(); }
  std::string delegate_label() const override { return exchange_->delegate_label(); }
  std::size_t scratch_bytes() const override { return exchange_->scratch_bytes(); }

 private:
  std::unique_ptr<ExchangeImpl> exchange_;
  VectorLayout layout_;
};

}  // namespace a2a::detail
