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
#include "detail/mpi_entry.hpp"
#include "detail/p2p.hpp"
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

static std::size_t extent_of(const std::vector<std::size_t>& counts,
                             const std::vector<std::size_t>& displs) {
  std::size_t extent = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0) extent = std::max(extent, displs[i] + counts[i]);
  }
  return extent;
}

std::size_t VectorLayout::send_extent() const {
  return extent_of(send_counts, send_displs);
}
std::size_t VectorLayout::recv_extent() const {
  return extent_of(recv_counts, recv_displs);
}

namespace detail {

PlanState::~PlanState() = default;
ExchangeState::~ExchangeState() = default;

// The plans' private duplicate of a user communicator: made once, kept as an attribute of
// the user's communicator and freed with it. Plans on one communicator may share it: they
// execute in the same order on every rank (collective semantics), never use wildcards, and
// MPI's non-overtaking rule keeps one plan's messages from matching another's. Their messages
// never meet the caller's, which travel on the caller's communicator. Errors on it return
// codes (MPI_ERRORS_RETURN), which a2a turns into exceptions and the C API into return codes,
// whatever handler the caller's communicator has.
using PrivateCommRef = std::shared_ptr<PrivateComm>;

static int free_duplicate(MPI_Comm, int, void* value, void*) {
  auto* ref = static_cast<PrivateCommRef*>(value);
  (*ref)->alive = false;
  MPI_Comm_free(&(*ref)->comm);
  delete ref;
  return MPI_SUCCESS;
}

void require_alive(const PrivateComm& owner, const char* what) {
  if (!owner.alive) {
    throw Error(std::string(what) +
                ": the communicator it was made on has been freed (MPI_Comm_free); make it "
                "again on a live communicator");
  }
}

static PrivateCommRef private_duplicate(MPI_Comm comm) {
  // Made once, also when several threads make their first plans at once.
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_duplicate, &k, nullptr);
    return k;
  }();
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, keyval, &value, &found);
  if (found) return *static_cast<PrivateCommRef*>(value);
  auto ref = std::make_shared<PrivateComm>();
  check_mpi(MPI_Comm_dup(comm, &ref->comm), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(ref->comm, MPI_ERRORS_RETURN);
  MPI_Comm_set_attr(comm, keyval, new PrivateCommRef(ref));
  return ref;
}

// Counts and displacements whose sums do not fit: a block past the end of memory (a count of
// (size_t)-1, a negative number through an unsigned type). "" when every block ends below 2^63.
static std::string check_extents(const std::size_t* sc, const std::size_t* sd,
                                 const std::size_t* rc, const std::size_t* rd, std::size_t n) {
  constexpr std::size_t limit = std::size_t{1} << 63;
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& [counts, displs, side] :
         {std::tuple{sc, sd, "send"}, std::tuple{rc, rd, "receive"}}) {
      if (counts[i] >= limit || displs[i] >= limit || counts[i] + displs[i] >= limit) {
        return std::string(side) + " count " + std::to_string(counts[i]) + " at displacement " +
               std::to_string(displs[i]) + " for rank " + std::to_string(i) +
               " reaches past 2^63 bytes (a negative number passed as size_t?)";
      }
    }
  }
  return {};
}

static std::string check_layout(const VectorLayout& layout, int procs) {
  const auto n = static_cast<std::size_t>(procs);
  if (layout.send_counts.size() != n || layout.send_displs.size() != n ||
      layout.recv_counts.size() != n || layout.recv_displs.size() != n) {
    return "vector layout: counts and displacements must have one entry per rank (" +
           std::to_string(procs) + ")";
  }
  if (std::string error = check_extents(layout.send_counts.data(), layout.send_displs.data(),
                                        layout.recv_counts.data(), layout.recv_displs.data(), n);
      !error.empty()) {
    return "vector layout: " + error;
  }
  // Receive regions may not overlap (MPI leaves that undefined; we reject it).
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return layout.recv_displs[a] < layout.recv_displs[b];
  });
  std::size_t end = 0;
  std::size_t owner = n;
  for (std::size_t i : order) {
    if (layout.recv_counts[i] == 0) continue;
    if (owner != n && layout.recv_displs[i] < end) {
      return "vector layout: the receive regions of peers " + std::to_string(owner) + " and " +
             std::to_string(i) + " overlap";
    }
    end = layout.recv_displs[i] + layout.recv_counts[i];
    owner = i;
  }
  return {};
}

static std::string check_counts_match(const Context& ctx) {
  static_assert(sizeof(unsigned long long) == sizeof(std::size_t));
  std::vector<std::size_t> incoming(ctx.layout.send_counts.size());
  A2A_MPI_ALLTOALL(ctx.layout.send_counts.data(), 1, MPI_UNSIGNED_LONG_LONG, incoming.data(), 1,
                   MPI_UNSIGNED_LONG_LONG, ctx.comm);
  for (std::size_t i = 0; i < incoming.size(); ++i) {
    if (incoming[i] != ctx.layout.recv_counts[i]) {
      return "vector layout: rank " + std::to_string(i) + " sends " + std::to_string(incoming[i]) +
             " bytes to rank " + std::to_string(ctx.rank) + ", which expects " +
             std::to_string(ctx.layout.recv_counts[i]);
    }
  }
  return {};
}

Failure validate_failure(std::string_view text, Context& ctx) {
  try {
    const Spec spec = Spec::parse(text);
    const AlgorithmInfo* info = find_algorithm(spec.name);
    if (info == nullptr) {
      std::string known;
      for (const auto& a : registry())
        known += (known.empty() ? "" : ", ") + a.name;
      return {ErrorKind::spec, "unknown backend '" + spec.name + "' (known: " + known + ")"};
    }
    ctx.algorithm = info;
    if (!info->supports(ctx.kind)) {
      return {ErrorKind::unsupported,
              "backend '" + info->name + "' does not support the " + to_string(ctx.kind) + " (" +
                  (ctx.kind == Kind::uniform ? "Alltoall" : "Alltoallv") + ") kind"};
    }
    for (const auto& [key, value] : spec.params) {
      if (info->param(key) == nullptr) {
        std::string known;
        for (const auto& p : info->params)
          known += (known.empty() ? "" : ", ") + p.name;
        return {ErrorKind::spec, "backend '" + info->name + "': unknown parameter '" + key +
                                     "' (parameters: " + (known.empty() ? "none" : known) + ")"};
      }
    }
    ctx.params.clear();
    ctx.resolved.clear();
    ctx.given.clear();
    for (const auto& kv : spec.params)
      ctx.given.push_back(kv.first);
    for (const auto& p : info->params) {
      const std::string* given = spec.find(p.name);
      ctx.params.emplace_back(p.name, given ? *given : p.default_value);
    }
    if (ctx.kind == Kind::vector && !ctx.per_call) {
      if (std::string error = check_layout(ctx.layout, ctx.procs); !error.empty()) {
        return {ErrorKind::argument, error};
      }
    }
    if (ctx.per_call && !info->build_exchange) {
      return {ErrorKind::unsupported,
              "backend '" + info->name + "' has no per-call Alltoallv form"};
    }
    if (info->validate) info->validate(ctx);
  } catch (const Error& e) {
    return {e.kind(), e.what()};
  }
  return {};
}

std::string validate(std::string_view text, Context& ctx) {
  return validate_failure(text, ctx).message;
}

// Ranks that resolved different backends or shapes would deadlock: every rank compares what it
// resolved with rank 0, and the first rank that differs names both.
static std::string compare_with_root(MPI_Comm comm, int rank, const std::string& mine) {
  std::string root = mine;
  unsigned long long length = root.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  root.resize(length);
  MPI_Bcast(root.data(), static_cast<int>(length), MPI_CHAR, 0, comm);
  if (root == mine) return {};
  return "ranks disagree on the backend or exchange shape: rank 0 has '" + root + "', rank " +
         std::to_string(rank) + " has '" + mine + "'";
}

std::unique_ptr<PlanState> make_plan_state(std::string_view spec, MPI_Comm comm, Kind kind,
                                           std::size_t block_bytes, VectorLayout layout) {
  if (comm == MPI_COMM_NULL) throw Error("a2a::Plan: communicator is MPI_COMM_NULL");
  int inter = 0;
  MPI_Comm_test_inter(comm, &inter);
  if (inter) throw Error("a2a::Plan: inter-communicators are not supported");
  Context ctx;
  MPI_Comm_rank(comm, &ctx.rank);
  MPI_Comm_size(comm, &ctx.procs);
  ctx.kind = kind;
  ctx.block_bytes = block_bytes;
  ctx.layout = std::move(layout);

  agree_or_throw(comm, validate_failure(spec, ctx));
  const std::string resolved = ctx.resolved_name();
  const std::string shape = kind == Kind::uniform
                                ? "uniform, " + std::to_string(block_bytes) + " B blocks"
                                : std::string("vector");
  agree_or_throw(
      comm, {ErrorKind::spec, compare_with_root(comm, ctx.rank, resolved + " (" + shape + ")")});

  auto state = std::make_unique<PlanState>();
  state->owner = private_duplicate(comm);
  state->comm = state->owner->comm;
  ctx.comm = state->comm;
  if (kind == Kind::vector) {
    // What each peer will send here must be what this rank expects to receive, or some rank
    // would wait forever (or truncate): one small exchange of counts at plan time catches it.
    agree_or_throw(state->comm, {ErrorKind::argument, check_counts_match(ctx)});
  }
  Failure build_failure;
  try {
    if (ctx.algorithm->build) {
      state->impl = ctx.algorithm->build(ctx);
    } else {
      state->impl =
          std::make_unique<FixedLayoutPlan>(ctx.algorithm->build_exchange(ctx), ctx.layout);
    }
  } catch (...) {
    build_failure = current_failure("backend '" + ctx.algorithm->name + "': ");
  }
  agree_or_throw(state->comm, build_failure);

  state->kind = kind;
  state->procs = ctx.procs;
  const std::string delegate = state->impl->delegate_name();
  // build() may have resolved deferred parameters (tra2's q=node): name the plan after it.
  state->name = ctx.resolved_name() + (delegate.empty() ? "" : "->" + delegate);
  const std::string delegate_label = state->impl->delegate_label();
  state->label = ctx.label() + (delegate_label.empty() ? "" : "->" + delegate_label);
  state->send_extent = ctx.layout.send_extent();
  state->recv_extent = ctx.layout.recv_extent();
  return state;
}

std::unique_ptr<ExchangeState> make_exchange_state(std::string_view spec, MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error("a2a::VectorExchange: communicator is MPI_COMM_NULL");
  int inter = 0;
  MPI_Comm_test_inter(comm, &inter);
  if (inter) throw Error("a2a::VectorExchange: inter-communicators are not supported");
  Context ctx;
  MPI_Comm_rank(comm, &ctx.rank);
  MPI_Comm_size(comm, &ctx.procs);
  ctx.kind = Kind::vector;
  ctx.per_call = true;
  agree_or_throw(comm, validate_failure(spec, ctx));
  const std::string resolved = ctx.resolved_name();
  agree_or_throw(
      comm, {ErrorKind::spec, compare_with_root(comm, ctx.rank, resolved + " (per-call vector)")});

  auto state = std::make_unique<ExchangeState>();
  state->owner = private_duplicate(comm);
  state->comm = state->owner->comm;
  state->procs = ctx.procs;
  state->rank = ctx.rank;
  ctx.comm = state->comm;
  Failure build_failure;
  try {
    state->impl = ctx.algorithm->build_exchange(ctx);
  } catch (...) {
    build_failure = current_failure("backend '" + ctx.algorithm->name + "': ");
  }
  agree_or_throw(state->comm, build_failure);
  state->name = ctx.resolved_name();
  state->label = ctx.label();
  if (const char* env = std::getenv("A2A_CHECK_COUNTS"); env != nullptr && *env != '\0') {
    state->check_counts = std::string(env) != "0";
  }
  return state;
}

std::size_t global_max_count(MPI_Comm comm, const std::size_t* counts, int procs) {
  unsigned long long most = 0;
  for (int i = 0; i < procs; ++i)
    most = std::max<unsigned long long>(most, counts[i]);
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  return static_cast<std::size_t>(most);
}

}  // namespace detail

VectorExchange::VectorExchange(std::string_view spec, MPI_Comm comm)
    : state_(detail::make_exchange_state(spec, comm)) {}
VectorExchange::VectorExchange(VectorExchange&&) noexcept = default;
VectorExchange& VectorExchange::operator=(VectorExchange&&) noexcept = default;
VectorExchange::~VectorExchange() = default;

void VectorExchange::set_check_counts(bool on) {
  state_->check_counts = on;
}

void VectorExchange::execute(const void* send, const std::size_t* send_counts,
                             const std::size_t* send_displs, void* recv,
                             const std::size_t* recv_counts, const std::size_t* recv_displs) {
  detail::ExchangeState& s = *state_;
  detail::require_alive(*s.owner, "a2a::VectorExchange::execute");
  if (std::string error = detail::check_extents(send_counts, send_displs, recv_counts, recv_displs,
                                                static_cast<std::size_t>(s.procs));
      !error.empty()) {
    throw Error("a2a::VectorExchange::execute: " + error);  // this rank's arguments
  }
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
  const auto n = static_cast<std::size_t>(state_->procs);
  if (layout.send_counts.size() != n || layout.send_displs.size() != n ||
      layout.recv_counts.size() != n || layout.recv_displs.size() != n) {
    throw Error("a2a::VectorExchange: the layout must have one count and displacement per rank (" +
                std::to_string(n) + ")");
  }
  execute(send, layout.send_counts.data(), layout.send_displs.data(), recv,
          layout.recv_counts.data(), layout.recv_displs.data());
}

int VectorExchange::procs() const {
  return state_->procs;
}
std::string VectorExchange::name() const {
  const std::string delegate = state_->impl->delegate_name();
  return delegate.empty() ? state_->name : state_->name + "->" + delegate;
}
std::string VectorExchange::label() const {
  const std::string delegate = state_->impl->delegate_label();
  return delegate.empty() ? state_->label : state_->label + "->" + delegate;
}
const Counters& VectorExchange::counters() const {
  return state_->counters;
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

namespace detail {
namespace {

// One side of an MPI_Alltoallv-style call in elements of a datatype.
struct TypedSide {
  std::vector<int> counts, displs;
  MPI_Datatype type = MPI_DATATYPE_NULL;  // our own duplicate
  TypeShape shape;
  bool staged = false;  // packed through MPI_Pack/MPI_Unpack
};

// A plan over packed bytes for datatypes that are not plain bytes in order: the send blocks
// are packed peer after peer before the exchange, the received ones unpacked after it.
class StagedPlan final : public PlanImpl {
 public:
  StagedPlan(std::unique_ptr<PlanImpl> inner, TypedSide send, TypedSide recv,
             const VectorLayout& packed)
      : inner_(std::move(inner)),
        send_(std::move(send)),
        recv_(std::move(recv)),
        layout_(packed),
        send_stage_(send_.staged ? packed.send_extent() : 0),
        recv_stage_(recv_.staged ? packed.recv_extent() : 0) {}
  ~StagedPlan() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    MPI_Type_free(&send_.type);
    MPI_Type_free(&recv_.type);
  }
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    inner_->execute(stage(send), recv_.staged ? recv_stage_.data() : recv, c);
    unstage(recv);
  }
  void start(const std::byte* send, std::byte* recv, Counters& c) override {
    inner_->start(stage(send), recv_.staged ? recv_stage_.data() : recv, c);
    recv_at_ = recv;
  }
  void finish(Counters& c) override {
    inner_->finish(c);
    unstage(recv_at_);
  }
  bool overlaps() const override { return inner_->overlaps(); }
  std::string delegate_name() const override { return inner_->delegate_name(); }
  std::string delegate_label() const override { return inner_->delegate_label(); }

 private:
  // The send buffer the inner plan reads: the caller's, or its blocks packed peer after peer.
  const std::byte* stage(const std::byte* send) {
    if (!send_.staged) return send;
    for (std::size_t i = 0; i < send_.counts.size(); ++i) {
      pack_elements(send + static_cast<MPI_Aint>(send_.displs[i]) * send_.shape.extent,
                    static_cast<std::size_t>(send_.counts[i]), send_.type, send_.shape,
                    send_stage_.data() + layout_.send_displs[i]);
    }
    return send_stage_.data();
  }
  void unstage(std::byte* recv) {
    if (!recv_.staged) return;
    for (std::size_t i = 0; i < recv_.counts.size(); ++i) {
      unpack_elements(recv_stage_.data() + layout_.recv_displs[i],
                      static_cast<std::size_t>(recv_.counts[i]), recv_.type, recv_.shape,
                      recv + static_cast<MPI_Aint>(recv_.displs[i]) * recv_.shape.extent);
    }
  }

  std::unique_ptr<PlanImpl> inner_;
  TypedSide send_, recv_;
  VectorLayout layout_;
  ByteBuffer send_stage_, recv_stage_;
  std::byte* recv_at_ = nullptr;  // between start() and finish()
};

}  // namespace
}  // namespace detail

Plan Plan::from_alltoallv(std::string_view spec, MPI_Comm comm, const int* send_counts,
                          const int* send_displs, MPI_Datatype send_type, const int* recv_counts,
                          const int* recv_displs, MPI_Datatype recv_type) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  std::string error;
  VectorLayout layout;
  // The byte layout of one side: straight into the caller's buffer when the type is plain
  // bytes (data at displacement * extent + true_lb), else packed peer after peer (staged).
  auto convert = [&](const int* counts, const int* displs, MPI_Datatype type,
                     std::vector<std::size_t>& byte_counts, std::vector<std::size_t>& byte_displs,
                     const char* side) {
    detail::TypedSide t;
    t.shape = detail::type_shape(type);
    std::size_t packed = 0;
    for (int i = 0; i < procs; ++i) {
      if (counts[i] < 0) {
        error = std::string(side) + " count of peer " + std::to_string(i) + " is negative";
        return t;
      }
      t.counts.push_back(counts[i]);
      t.displs.push_back(displs[i]);
      const MPI_Aint at = static_cast<MPI_Aint>(displs[i]) * t.shape.extent + t.shape.true_lb;
      t.staged = t.staged || !t.shape.dense || (counts[i] > 0 && at < 0);
      byte_counts.push_back(static_cast<std::size_t>(counts[i]) * t.shape.size);
      byte_displs.push_back(static_cast<std::size_t>(std::max<MPI_Aint>(at, 0)));
      packed += byte_counts.back();
    }
    if (t.staged) {  // packed peer after peer
      packed = 0;
      for (std::size_t i = 0; i < byte_counts.size(); ++i) {
        byte_displs[i] = packed;
        packed += byte_counts[i];
      }
    }
    MPI_Type_dup(type, &t.type);
    return t;
  };
  detail::TypedSide send =
      convert(send_counts, send_displs, send_type, layout.send_counts, layout.send_displs, "send");
  detail::TypedSide recv;
  if (error.empty()) {
    recv = convert(recv_counts, recv_displs, recv_type, layout.recv_counts, layout.recv_displs,
                   "recv");
  }
  error = detail::agree_on_error(comm, error);
  auto release = [](detail::TypedSide& t) {
    if (t.type != MPI_DATATYPE_NULL) MPI_Type_free(&t.type);
  };
  if (!error.empty()) {
    release(send);
    release(recv);
    throw Error("a2a::Plan::from_alltoallv: " + error);
  }
  const bool staged = send.staged || recv.staged;
  Plan plan = [&] {
    try {
      return Plan(spec, comm, layout);
    } catch (...) {
      release(send);
      release(recv);
      throw;
    }
  }();
  if (staged) {
    plan.state_->impl = std::make_unique<detail::StagedPlan>(
        std::move(plan.state_->impl), std::move(send), std::move(recv), layout);
  } else {
    release(send);
    release(recv);
  }
  return plan;
}

Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

void Plan::execute(const void* send, void* recv) {
  detail::require_alive(*state_->owner, "a2a::Plan::execute");
  if (state_->phase != detail::PlanState::Phase::idle) {
    // A staged plan's buffers, or the in-flight messages, would be overwritten.
    throw Error(
        "a2a::Plan::execute: an exchange of this plan is in progress (start() without "
        "finish(), or a single-copy exchange not ended)");
  }
  state_->counters = Counters{};
  state_->impl->execute(static_cast<const std::byte*>(send), static_cast<std::byte*>(recv),
                        state_->counters);
}

void Plan::start(const void* send, void* recv) {
  using Phase = detail::PlanState::Phase;
  detail::require_alive(*state_->owner, "a2a::Plan::start");
  if (state_->phase != Phase::idle) {
    throw Error("a2a::Plan::start: the previous start() was not finished");
  }
  state_->counters = Counters{};
  state_->impl->start(static_cast<const std::byte*>(send), static_cast<std::byte*>(recv),
                      state_->counters);
  state_->phase = Phase::split;
}

void Plan::finish() {
  if (state_->phase != detail::PlanState::Phase::split) {
    throw Error("a2a::Plan::finish: no exchange was started");
  }
  detail::require_alive(*state_->owner, "a2a::Plan::finish");
  state_->phase = detail::PlanState::Phase::idle;
  state_->impl->finish(state_->counters);
}

bool Plan::overlaps() const {
  return state_->impl->overlaps();
}

namespace {

using Phase = detail::PlanState::Phase;

// The plan's shared memory for a single-copy call, checked: the plan is single-copy, and
// `phase` is what is in progress (idle for the calls that begin one). Peer, where given, is
// in range.
detail::SingleCopy& single_copy(detail::PlanState& s, const char* call, Phase phase, int peer = 0) {
  detail::SingleCopy* shared = s.impl->single_copy();
  const std::string what = std::string("a2a::Plan::") + call + ": ";
  detail::require_alive(*s.owner, ("a2a::Plan::" + std::string(call)).c_str());
  if (shared == nullptr) throw Error(what + "'" + s.name + "' is not single-copy");
  if (s.phase != phase) {
    throw Error(what + (phase == Phase::idle   ? "an exchange is in progress"
                        : phase == Phase::push ? "no begin_direct()"
                                               : "no begin_pull()"));
  }
  if (peer < 0 || peer >= s.procs)
    throw Error(what + "peer " + std::to_string(peer) + " out of range");
  return *shared;
}

}  // namespace

bool Plan::direct() const {
  return state_->impl->single_copy() != nullptr;
}

void Plan::begin_direct() {
  detail::SingleCopy& shared = single_copy(*state_, "begin_direct", Phase::idle);
  state_->counters = Counters{};
  shared.begin_direct(state_->counters);
  state_->phase = Phase::push;
}

std::byte* Plan::direct_target(int peer) {
  return single_copy(*state_, "direct_target", Phase::push, peer).direct_target(peer);
}

const std::byte* Plan::end_direct() {
  detail::SingleCopy& shared = single_copy(*state_, "end_direct", Phase::push);
  state_->phase = Phase::idle;
  return shared.end_direct(state_->counters);
}

void Plan::prepare_pull() {
  single_copy(*state_, "prepare_pull", Phase::idle).prepare_pull();
}

std::byte* Plan::pull_area() {
  std::byte* area = single_copy(*state_, "pull_area", Phase::idle).pull_area();
  if (area == nullptr && state_->send_extent > 0) {
    throw Error("a2a::Plan::pull_area: no prepare_pull()");
  }
  return area;
}

void Plan::begin_pull() {
  detail::SingleCopy& shared = single_copy(*state_, "begin_pull", Phase::idle);
  state_->counters = Counters{};
  shared.begin_pull(state_->counters);
  state_->phase = Phase::pull;
}

const std::byte* Plan::pull_source(int peer) {
  return single_copy(*state_, "pull_source", Phase::pull, peer).pull_source(peer);
}

void Plan::end_pull() {
  detail::SingleCopy& shared = single_copy(*state_, "end_pull", Phase::pull);
  state_->phase = Phase::idle;
  shared.end_pull(state_->counters);
}

Kind Plan::kind() const {
  return state_->kind;
}
int Plan::procs() const {
  return state_->procs;
}
const std::string& Plan::name() const {
  return state_->name;
}
const std::string& Plan::label() const {
  return state_->label;
}
const Counters& Plan::counters() const {
  return state_->counters;
}
std::size_t Plan::send_extent() const {
  return state_->send_extent;
}
std::size_t Plan::recv_extent() const {
  return state_->recv_extent;
}

}  // namespace a2a
