#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "a2a/alltoall.hpp"

namespace a2a::detail {

// The shared memory of a single-copy plan, for a caller that fuses its own pass over the data
// with the exchange (Plan's direct and pull calls, which check the order of the calls).
// Push: begin_direct() returns once every peer has read its area; the caller writes its block
// for q at direct_target(q); end_direct() returns this rank's received data (recv layout).
// Pull: after prepare_pull() (collective, once) the caller writes its send data into
// pull_area() (send layout); between begin_pull() and end_pull() it reads q's block for it at
// pull_source(q).
class SingleCopy {
 public:
  virtual ~SingleCopy() = default;
  virtual void begin_direct(Counters& counters) = 0;
  virtual std::byte* direct_target(int peer) = 0;
  virtual const std::byte* end_direct(Counters& counters) = 0;
  virtual void prepare_pull() = 0;
  virtual std::byte* pull_area() = 0;
  virtual void begin_pull(Counters& counters) = 0;
  virtual const std::byte* pull_source(int peer) = 0;
  virtual void end_pull(Counters& counters) = 0;
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

 private:
  std::unique_ptr<ExchangeImpl> exchange_;
  VectorLayout layout_;
};

}  // namespace a2a::detail
