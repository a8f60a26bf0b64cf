// execute() allocates nothing: this binary replaces the global operator new/delete with
// counting versions and counts the allocations made inside execute() for every registry
// entry (and its window, radix and q variants): fixed plans (uniform and vector) from their
// first call on; per-call exchanges (a2a::VectorExchange) once they have seen every layout
// once (their scratch grows on demand and is kept; selecting backends make their choices'
// exchanges on first use): a second pass over the same layouts allocates nothing. The transpose
// layer's Redistribution::execute as well. MPI's own internal allocations (C malloc) are not C++
// allocations and are not counted.
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/registry.hpp"
#include "a2a/transpose.hpp"
#include "checks.hpp"

namespace {
std::atomic<long> g_allocations{0};
std::atomic<bool> g_counting{false};
}  // namespace

void* operator new(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  return ::operator new(n);
}
void* operator new(std::size_t n, std::align_val_t a) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  const auto align = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(align, (n + align - 1) / align * align)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return ::operator new(n, a);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

namespace {

using a2a::test::Harness;

template <typename Body>
long allocations_in(Body&& body) {
  g_allocations = 0;
  g_counting = true;
  body();
  g_counting = false;
  return g_allocations.load();
}

// The variants every entry names for its tests (test_variants), where they apply here.
void add_variants(std::vector<std::string>& specs, a2a::Kind kind, int procs) {
  for (const auto& info : a2a::registry()) {
    if (!info.supports(kind) || !info.test_variants) continue;
    for (const std::string& spec : info.test_variants(kind, procs))
      if (!a2a::check_applicable(spec, MPI_COMM_WORLD, kind, kind == a2a::Kind::uniform ? 8 : 0))
        specs.push_back(spec);
  }
}

std::vector<std::string> uniform_specs(int procs) {
  std::vector<std::string> specs;
  for (const auto& info : a2a::registry()) {
    if (!info.supports(a2a::Kind::uniform)) continue;
    specs.push_back(info.name);
    if (info.param("window") != nullptr) specs.push_back(info.name + ":window=all");
  }
  add_variants(specs, a2a::Kind::uniform, procs);
  return specs;
}

std::vector<std::string> vector_specs(int procs) {
  std::vector<std::string> specs = a2a::algorithm_names(a2a::Kind::vector);
  add_variants(specs, a2a::Kind::vector, procs);
  return specs;
}

void run(Harness& h) {
  const int procs = h.procs(), rank = h.rank();
  const auto P = static_cast<std::size_t>(procs);
  for (std::size_t bytes : {1, 100, 4096}) {
    std::vector<std::byte> send(P * bytes, std::byte{1}), recv(P * bytes);
    for (const std::string& spec : uniform_specs(procs)) {
      a2a::Plan plan(spec, h.comm(), bytes);
      const long n = allocations_in([&] {
        for (int i = 0; i < 3; ++i)
          plan.execute(send.data(), recv.data());
      });
      h.expect(n == 0, plan.name() + " uniform " + std::to_string(bytes) +
                           " B: " + std::to_string(n) + " allocations in execute()");
    }
  }
  // Vector: sizes that shrink and grow again.
  std::vector<a2a::VectorLayout> layouts;
  for (std::size_t max_bytes : {4096, 64, 4096, 1}) {
    for (const char* dist : {"random", "hot", "equal"}) {
      layouts.push_back(a2a::test::vector_layout(dist, procs, rank, max_bytes, false));
    }
  }
  std::size_t send_extent = 0, recv_extent = 0;
  for (const auto& l : layouts) {
    send_extent = std::max(send_extent, l.send_extent());
    recv_extent = std::max(recv_extent, l.recv_extent());
  }
  std::vector<std::byte> send(send_extent + 1, std::byte{2}), recv(recv_extent + 1);
  for (const std::string& spec : vector_specs(procs)) {
    for (const auto& layout : layouts) {
      a2a::Plan plan(spec, h.comm(), layout);
      const long n = allocations_in([&] {
        for (int i = 0; i < 2; ++i)
          plan.execute(send.data(), recv.data());
      });
      h.expect(n == 0,
               plan.name() + " fixed vector: " + std::to_string(n) + " allocations in execute()");
    }
    a2a::VectorExchange exchange(spec, h.comm());
    for (const auto& layout : layouts)
      exchange.execute(send.data(), recv.data(), layout);  // scratch grows to what it needs
    const long n = allocations_in([&] {
      for (const auto& layout : layouts)
        exchange.execute(send.data(), recv.data(), layout);
    });
    h.expect(n == 0, exchange.name() + " per call: " + std::to_string(n) +
                         " allocations in execute() after warm-up");
  }
  // The transpose layer: a pencil redistribution made once, executed without allocating.
  const a2a::Box in{{0, a2a::block_start(12, procs, rank), 0},
                    {10, a2a::block_start(12, procs, rank + 1), 14}};
  const a2a::Box out{{0, 0, a2a::block_start(14, procs, rank)},
                     {10, 12, a2a::block_start(14, procs, rank + 1)}};
  for (const char* backend : {"mpi", "sloav", "tra_v", "pairwise"}) {
    a2a::Redistribution r(h.comm(), in, out, 16, backend);
    std::vector<std::byte> a(static_cast<std::size_t>(in.count()) * 16),
        b(static_cast<std::size_t>(out.count()) * 16);
    const long n = allocations_in([&] {
      for (int i = 0; i < 2; ++i)
        r.execute(a.data(), b.data());
    });
    h.expect(n == 0, std::string("Redistribution ") + backend + ": " + std::to_string(n) +
                         " allocations in execute()");
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    Harness h("test_alloc");
    run(h);
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
