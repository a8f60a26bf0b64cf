#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "a2a/algorithm.hpp"
#include "a2a/alltoall.hpp"

namespace a2a::detail {

// The plans' private duplicate of a caller's communicator, shared by every plan and exchange
// made on it. When the caller frees its communicator, the duplicate is freed with it and
// `alive` turns false: a plan used afterwards is an error on every rank (each frees its own),
// not a call on a handle MPI may have given to another communicator.
struct PrivateComm {
  MPI_Comm comm = MPI_COMM_NULL;
  std::atomic<bool> alive{true};
};
// Throws (ErrorKind::argument) if the communicator `what` was made on has been freed.
void require_alive(const PrivateComm& owner, const char* what);

struct PlanState {
  MPI_Comm comm = MPI_COMM_NULL;  // the private duplicate of the caller's communicator
  std::shared_ptr<const PrivateComm> owner;
  Kind kind = Kind::uniform;
  int procs = 1;
  std::string name, label;
  std::size_t send_extent = 0, recv_extent = 0;
  bool typed = false;  // made by Plan::from_alltoallv: its buffers may be MPI_BOTTOM
  std::unique_ptr<PlanImpl> impl;
  Counters counters;
  // What is in progress: nothing, a split exchange (Plan::start .. finish), or a single-copy
  // one (Plan::begin_direct .. end_direct, begin_pull .. end_pull).
  enum class Phase { idle, split, push, pull };
  Phase phase = Phase::idle;
  ~PlanState();
};

// A per-call exchange (VectorExchange) with its private communicator.
struct ExchangeState {
  MPI_Comm comm = MPI_COMM_NULL;
  std::shared_ptr<const PrivateComm> owner;
  int procs = 1, rank = 0;
  std::string name, label;
  std::unique_ptr<ExchangeImpl> impl;
  Counters counters;
  bool check_counts = false;
  std::vector<std::size_t> incoming;  // the count check's scratch
  ~ExchangeState();
};

// A plan that runs another plan chosen when it was made (auto, random_auto, sloav's switch to
// linear); its name says what it delegates to.
class DelegatePlan final : public PlanImpl {
 public:
  explicit DelegatePlan(std::unique_ptr<PlanState> chosen) : chosen_(std::move(chosen)) {}
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    chosen_->impl->execute(send, recv, c);
  }
  void start(const std::byte* send, std::byte* recv, Counters& c) override {
    chosen_->impl->start(send, recv, c);
  }
  void finish(Counters& c) override { chosen_->impl->finish(c); }
  bool overlaps() const override { return chosen_->impl->overlaps(); }
  SingleCopy* single_copy() override { return chosen_->impl->single_copy(); }
  std::string delegate_name() const override { return chosen_->name; }
  std::string delegate_label() const override { return chosen_->label; }
  std::size_t scratch_bytes() const override { return chosen_->impl->scratch_bytes(); }

 private:
  std::unique_ptr<PlanState> chosen_;
};

// Parses spec and validates it for ctx (ctx.rank/procs/kind/layout set by the caller), filling
// ctx.algorithm, ctx.params and ctx.resolved. Returns the error message, or "" if valid. Local.
std::string validate(std::string_view spec, Context& ctx);

// The whole collective construction: validate on every rank, agree, duplicate the
// communicator, build. Throws the same SpecError/Error on every rank.
std::unique_ptr<PlanState> make_plan_state(std::string_view spec, MPI_Comm comm, Kind kind,
                                           std::size_t block_bytes, VectorLayout layout);
// The same for a per-call exchange (no layout).
std::unique_ptr<ExchangeState> make_exchange_state(std::string_view spec, MPI_Comm comm);

// The largest per-peer count of this call over all ranks: one 8-byte MPI_Allreduce (MAX).
std::size_t global_max_count(MPI_Comm comm, const std::size_t* counts, int procs);
// The same over a fixed layout's send counts (ctx.layout, collective over ctx.comm).
std::size_t global_max_count(const Context& ctx);

// Counts and displacements whose sums do not fit: a block past the end of memory (a count of
// (size_t)-1, a negative number through an unsigned type). "" when every block ends below 2^63.
std::string check_extents(const std::size_t* sc, const std::size_t* sd, const std::size_t* rc,
                          const std::size_t* rd, std::size_t n);

}  // namespace a2a::detail
