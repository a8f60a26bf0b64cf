// What every plan is made of (detail/plan.hpp): the plans' private duplicate of the caller's
// communicator, the spec and layout validated on every rank and the verdict agreed (one error,
// with its kind, on every rank), and the plan and exchange states built from the registry.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <tuple>

#include "a2a/agree.hpp"
#include "a2a/alltoall.hpp"
#include "a2a/buffer.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "detail/datatype.hpp"
#include "detail/messages.hpp"
#include "detail/mpi_entry.hpp"
#include "detail/plan.hpp"

namespace a2a {
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

}  // namespace detail

CommunicatorWatch::CommunicatorWatch(MPI_Comm comm) : owner_(detail::private_duplicate(comm)) {}

void CommunicatorWatch::require_alive(const char* what) const {
  detail::require_alive(*owner_, what);
}

void CommunicatorWatch::require_agreed(const char* what, const std::string& problem) const {
  detail::require_alive(*owner_, what);
  if (std::string agreed = detail::agree_on_error(owner_->comm, problem); !agreed.empty()) {
    throw Error(std::move(agreed));
  }
}

namespace detail {

// Counts and displacements whose sums do not fit: a block past the end of memory (a count of
// (size_t)-1, a negative number through an unsigned type). "" when every block ends below 2^63.
std::string check_extents(const std::size_t* sc, const std::size_t* sd, const std::size_t* rc,
                          const std::size_t* rd, std::size_t n) {
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
  const std::string root = root_value(comm, mine);
  if (root == mine) return {};
  return "ranks disagree on the backend or exchange shape: rank 0 has '" + root + "', rank " +
         std::to_string(rank) + " has '" + mine + "'";
}

std::unique_ptr<PlanState> make_plan_state(std::string_view spec, MPI_Comm comm, Kind kind,
                                           std::size_t block_bytes, VectorLayout layout) {
  require_intracommunicator(comm, "a2a::Plan");
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
  require_intracommunicator(comm, "a2a::VectorExchange");
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

std::size_t global_max_count(const Context& ctx) {
  return global_max_count(ctx.comm, ctx.layout.send_counts.data(),
                          static_cast<int>(ctx.layout.send_counts.size()));
}

}  // namespace detail

}  // namespace a2a
