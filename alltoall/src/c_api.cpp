// The C API of a2a::alltoall (a2a/a2a.h): handles over a2a::Plan and a2a::VectorExchange.
#include "a2a/a2a.h"

#include <initializer_list>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "a2a/agree.hpp"
#include "a2a/alltoall.hpp"
#include "a2a/c_status.hpp"
#include "a2a/model.hpp"
#include "a2a/registry.hpp"
#include "detail/messages.hpp"

struct a2a_plan_s {
  a2a::Plan plan;
};
struct a2a_exchange_s {
  a2a::VectorExchange exchange;
  std::string name;
};

namespace a2a::c_api {
namespace {
thread_local std::string g_last_error;
}  // namespace

void set_last_error(const std::string& message) {
  g_last_error = message;
}

const char* last_error() {
  return g_last_error.c_str();
}

int status_of_current_exception() {
  // The kind travels with an error agreed across ranks, so every rank returns the same code.
  const detail::Failure failure = detail::current_failure();
  g_last_error = failure.message;
  switch (failure.kind) {
    case ErrorKind::spec:
      return A2A_ERR_SPEC;
    case ErrorKind::argument:
      return A2A_ERR_ARGUMENT;
    case ErrorKind::mpi:
      return A2A_ERR_MPI;
    case ErrorKind::unsupported:
      return A2A_ERR_UNSUPPORTED;
    case ErrorKind::resource:
      return A2A_ERR_RESOURCE;
    case ErrorKind::internal:
      return A2A_ERR_OTHER;
  }
  return A2A_ERR_OTHER;
}

}  // namespace a2a::c_api

namespace {

using a2a::c_api::guarded;

// A null pointer where one is needed: an argument error of this rank (a programming error).
void need(const void* p, const char* what) {
  if (p == nullptr) throw a2a::Error(std::string(what) + " is NULL");
}

// Arguments of a collective create checked on every rank and agreed on first: a NULL pointer
// on one rank is then the same error everywhere instead of a hang in the construction.
void agree_arguments(MPI_Comm comm,
                     std::initializer_list<std::pair<const void*, const char*>> needed) {
  a2a::require_intracommunicator(comm, "a2a");
  std::string error;
  for (const auto& [p, what] : needed) {
    if (p == nullptr && error.empty()) error = std::string(what) + " is NULL";
  }
  error = a2a::detail::agree_on_error(comm, error);
  if (!error.empty()) throw a2a::Error(error);
}

int procs_of(MPI_Comm comm) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  return procs;
}

a2a::VectorLayout layout_of(MPI_Comm comm, const std::size_t* send_counts,
                            const std::size_t* send_displs, const std::size_t* recv_counts,
                            const std::size_t* recv_displs) {
  const auto n = static_cast<std::size_t>(procs_of(comm));
  return {{send_counts, send_counts + n},
          {send_displs, send_displs + n},
          {recv_counts, recv_counts + n},
          {recv_displs, recv_displs + n}};
}

void put(a2a_counters* out, const a2a::Counters& c) {
  need(out, "counters");
  *out = {c.rounds, c.waits, c.messages_sent, c.blocks_sent, c.bytes_sent};
}

}  // namespace

extern "C" {

const char* a2a_last_error(void) {
  return a2a::c_api::last_error();
}

int a2a_plan_create_uniform(const char* spec, MPI_Comm comm, size_t block_bytes, a2a_plan* plan) {
  return guarded([&] {
    if (plan != nullptr) *plan = nullptr;
    agree_arguments(comm, {{plan, "plan"}, {spec, "spec"}});
    *plan = new a2a_plan_s{a2a::Plan(spec, comm, block_bytes)};
  });
}

int a2a_plan_create_uniform_f(const char* spec, MPI_Fint comm, size_t block_bytes, a2a_plan* plan) {
  MPI_Comm c = MPI_COMM_NULL;
  if (const int code = a2a::c_api::comm_from_fortran(comm, c, plan)) return code;
  return a2a_plan_create_uniform(spec, c, block_bytes, plan);
}

int a2a_plan_create_vector(const char* spec, MPI_Comm comm, const size_t* send_counts,
                           const size_t* send_displs, const size_t* recv_counts,
                           const size_t* recv_displs, a2a_plan* plan) {
  return guarded([&] {
    if (plan != nullptr) *plan = nullptr;
    agree_arguments(comm, {{plan, "plan"},
                           {spec, "spec"},
                           {send_counts, "send_counts"},
                           {send_displs, "send_displs"},
                           {recv_counts, "recv_counts"},
                           {recv_displs, "recv_displs"}});
    *plan = new a2a_plan_s{
        a2a::Plan(spec, comm, layout_of(comm, send_counts, send_displs, recv_counts, recv_displs))};
  });
}

int a2a_plan_create_vector_f(const char* spec, MPI_Fint comm, const size_t* send_counts,
                             const size_t* send_displs, const size_t* recv_counts,
                             const size_t* recv_displs, a2a_plan* plan) {
  MPI_Comm c = MPI_COMM_NULL;
  if (const int code = a2a::c_api::comm_from_fortran(comm, c, plan)) return code;
  return a2a_plan_create_vector(spec, c, send_counts, send_displs, recv_counts, recv_displs, plan);
}

int a2a_plan_create_vector_fn(const char* spec, MPI_Fint comm, size_t length,
                              const size_t* send_counts, const size_t* send_displs,
                              const size_t* recv_counts, const size_t* recv_displs,
                              a2a_plan* plan) {
  MPI_Comm c = MPI_COMM_NULL;
  if (const int code = a2a::c_api::comm_from_fortran(comm, c, plan)) return code;
  const int checked = guarded([&] {
    if (plan != nullptr) *plan = nullptr;
    a2a::require_intracommunicator(c, "a2a_plan_create_vector");
    const int procs = procs_of(c);
    std::string error;
    if (length < static_cast<std::size_t>(procs)) {
      error = "the count and displacement arrays hold " + std::to_string(length) +
              " entries; the communicator has " + std::to_string(procs) + " ranks";
    }
    error = a2a::detail::agree_on_error(c, error);
    if (!error.empty()) throw a2a::Error(error);
  });
  if (checked != A2A_SUCCESS) return checked;
  return a2a_plan_create_vector(spec, c, send_counts, send_displs, recv_counts, recv_displs, plan);
}

int a2a_plan_execute(a2a_plan plan, const void* send, void* recv) {
  return guarded([&] {
    need(plan, "plan");
    plan->plan.execute(send, recv);
  });
}

int a2a_plan_start(a2a_plan plan, const void* send, void* recv) {
  return guarded([&] {
    need(plan, "plan");
    plan->plan.start(send, recv);
  });
}

int a2a_plan_finish(a2a_plan plan) {
  return guarded([&] {
    need(plan, "plan");
    plan->plan.finish();
  });
}

int a2a_plan_overlaps(a2a_plan plan) {
  return plan != nullptr ? static_cast<int>(plan->plan.overlaps()) : -1;
}

const char* a2a_plan_name(a2a_plan plan) {
  return plan != nullptr ? plan->plan.name().c_str() : nullptr;
}

const char* a2a_plan_label(a2a_plan plan) {
  return plan != nullptr ? plan->plan.label().c_str() : nullptr;
}

int a2a_plan_counters(a2a_plan plan, a2a_counters* counters) {
  return guarded([&] {
    need(plan, "plan");
    put(counters, plan->plan.counters());
  });
}

size_t a2a_plan_send_extent(a2a_plan plan) {
  return plan != nullptr ? plan->plan.send_extent() : 0;
}

size_t a2a_plan_recv_extent(a2a_plan plan) {
  return plan != nullptr ? plan->plan.recv_extent() : 0;
}
size_t a2a_plan_scratch_bytes(a2a_plan plan) {
  return plan != nullptr ? plan->plan.scratch_bytes() : 0;
}

int a2a_plan_free(a2a_plan* plan) {
  return guarded([&] {
    if (plan == nullptr) return;
    delete *plan;
    *plan = nullptr;
  });
}

int a2a_exchange_create(const char* spec, MPI_Comm comm, a2a_exchange* exchange) {
  return guarded([&] {
    if (exchange != nullptr) *exchange = nullptr;
    agree_arguments(comm, {{exchange, "exchange"}, {spec, "spec"}});
    *exchange = new a2a_exchange_s{a2a::VectorExchange(spec, comm), {}};
  });
}

int a2a_exchange_create_f(const char* spec, MPI_Fint comm, a2a_exchange* exchange) {
  MPI_Comm c = MPI_COMM_NULL;
  if (const int code = a2a::c_api::comm_from_fortran(comm, c, exchange)) return code;
  return a2a_exchange_create(spec, c, exchange);
}

int a2a_exchange_execute(a2a_exchange exchange, const void* send, const size_t* send_counts,
                         const size_t* send_displs, void* recv, const size_t* recv_counts,
                         const size_t* recv_displs) {
  return guarded([&] {
    need(exchange, "exchange");
    need(send_counts, "send_counts");
    need(send_displs, "send_displs");
    need(recv_counts, "recv_counts");
    need(recv_displs, "recv_displs");
    exchange->exchange.execute(send, send_counts, send_displs, recv, recv_counts, recv_displs);
  });
}

int a2a_exchange_execute_n(a2a_exchange exchange, const void* send, size_t length,
                           const size_t* send_counts, const size_t* send_displs, void* recv,
                           const size_t* recv_counts, const size_t* recv_displs) {
  const int checked = guarded([&] {
    need(exchange, "exchange");
    const auto procs = static_cast<std::size_t>(exchange->exchange.procs());
    if (length < procs) {
      throw a2a::Error("a2a_exchange_execute: the count and displacement arrays hold " +
                       std::to_string(length) + " entries; the communicator has " +
                       std::to_string(procs) + " ranks");
    }
  });
  if (checked != A2A_SUCCESS) return checked;
  return a2a_exchange_execute(exchange, send, send_counts, send_displs, recv, recv_counts,
                              recv_displs);
}

const char* a2a_exchange_name(a2a_exchange exchange) {
  if (exchange == nullptr) return nullptr;
  exchange->name = exchange->exchange.name();
  return exchange->name.c_str();
}

size_t a2a_exchange_scratch_bytes(a2a_exchange exchange) {
  return exchange != nullptr ? exchange->exchange.scratch_bytes() : 0;
}

int a2a_exchange_counters(a2a_exchange exchange, a2a_counters* counters) {
  return guarded([&] {
    need(exchange, "exchange");
    put(counters, exchange->exchange.counters());
  });
}

int a2a_exchange_free(a2a_exchange* exchange) {
  return guarded([&] {
    if (exchange == nullptr) return;
    delete *exchange;
    *exchange = nullptr;
  });
}

int a2a_algorithm_count(void) {
  return static_cast<int>(a2a::registry().size());
}

int a2a_algorithm_info(int index, const char** name, unsigned* kinds, const char** summary,
                       const char** source, const char** cost) {
  return guarded([&] {
    const auto& all = a2a::registry();
    if (index < 0 || static_cast<std::size_t>(index) >= all.size()) {
      throw a2a::Error("algorithm index " + std::to_string(index) + " is outside [0, " +
                       std::to_string(all.size()) + ")");
    }
    const a2a::AlgorithmInfo& info = all[static_cast<std::size_t>(index)];
    if (name != nullptr) *name = info.name.c_str();
    if (kinds != nullptr) *kinds = info.kinds;
    if (summary != nullptr) *summary = info.summary.c_str();
    if (source != nullptr) *source = info.source.c_str();
    if (cost != nullptr) *cost = info.cost.c_str();
  });
}

int a2a_model(uint64_t procs, uint64_t radix, uint64_t* digits, uint64_t* rounds,
              uint64_t* blocks) {
  return guarded([&] {
    if (procs < 1 || radix < 2) {
      throw a2a::SpecError("a2a_model: procs must be at least 1 and radix at least 2");
    }
    const a2a::model::RadixCost cost = a2a::model::tra_cost(procs, radix);
    if (digits != nullptr) *digits = cost.digits;
    if (rounds != nullptr) *rounds = cost.rounds;
    if (blocks != nullptr) *blocks = cost.blocks;
  });
}

}  // extern "C"
