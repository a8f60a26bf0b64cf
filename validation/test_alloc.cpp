// execute() allocates nothing: this binary replaces the global operator new/delete with
// counting versions and counts the allocations made inside execute() for every registry
// entry (and its window, radix and q variants): fixed plans (uniform and vector) from their
// first call on; per-call exchanges (a2a::VectorExchange) once they have seen every layout
// once (their scratch grows on demand and is kept; selecting backends make their choices'
// exchanges on first use): a second pass over the same layouts allocates nothing. The transpose
// layer's Redistribution::execute as well. MPI's own internal allocations (C malloc) are not C++
// allocations and are not counted.
//
// It also keeps the bytes live in both (the C++ heap, and shared-memory windows: this binary's
// MPI_Win_allocate_shared and MPI_Win_free pass through MPI's profiling interface), so that
// every plan's scratch_bytes() is checked against what making and running it really took.
#include <malloc.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "a2a/alltoall.hpp"
#include "a2a/registry.hpp"
#include "a2a/transpose.hpp"
#include "checks.hpp"
#ifdef A2A_TEST_FFT
#include <fftw3.h>

#include "a2a/fft/aligned.hpp"
#include "a2a/fft/box_fft.hpp"
#include "a2a/fft/fft3d.hpp"
#include "a2a/fft/ways.hpp"
#endif

namespace {
std::atomic<long> g_allocations{0};
std::atomic<bool> g_counting{false};
std::atomic<long long> g_live_bytes{0};    // operator new's blocks and shared windows, this rank
std::atomic<long long> g_window_bytes{0};  // the shared windows alone

void* counted(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  g_live_bytes += static_cast<long long>(malloc_usable_size(p));
  return p;
}
void release(void* p) {
  if (p == nullptr) return;
  g_live_bytes -= static_cast<long long>(malloc_usable_size(p));
  std::free(p);
}
// This rank's part of each live shared window (a fixed table: no allocation of its own).
std::array<std::pair<MPI_Win, MPI_Aint>, 256> g_windows{};
}  // namespace

extern "C" int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                       void* baseptr, MPI_Win* win) {
  const int code = PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win);
  if (code != MPI_SUCCESS) return code;
  // What MPI gave this rank (it may round up to pages).
  int rank = 0, unit = 0;
  void* base = nullptr;
  MPI_Comm_rank(comm, &rank);
  PMPI_Win_shared_query(*win, rank, &size, &unit, &base);
  for (auto& slot : g_windows) {
    if (slot.second != 0) continue;
    slot = {*win, size};
    g_live_bytes += size;
    g_window_bytes += size;
    break;
  }
  return code;
}
extern "C" int MPI_Win_free(MPI_Win* win) {
  for (auto& slot : g_windows) {
    if (slot.second == 0 || slot.first != *win) continue;
    g_live_bytes -= slot.second;
    g_window_bytes -= slot.second;
    slot = {};
    break;
  }
  return PMPI_Win_free(win);
}

void* operator new(std::size_t n) {
  return counted(std::malloc(n == 0 ? 1 : n));
}
void* operator new[](std::size_t n) {
  return ::operator new(n);
}
// Aligned blocks count the bytes asked for: glibc's aligned_alloc of a large block maps the
// alignment's worth more, which nobody touches. The block's start and size lie before it.
void* operator new(std::size_t n, std::align_val_t a) {
  const auto align = std::max(static_cast<std::size_t>(a), 2 * sizeof(std::size_t));
  auto* raw = static_cast<std::byte*>(std::malloc(n + align + 2 * sizeof(std::size_t)));
  if (raw == nullptr) throw std::bad_alloc();
  const auto at =
      (reinterpret_cast<std::uintptr_t>(raw) + 2 * sizeof(std::size_t) + align - 1) / align * align;
  const std::size_t header[2] = {reinterpret_cast<std::uintptr_t>(raw), n};
  std::memcpy(reinterpret_cast<void*>(at - sizeof header), header, sizeof header);
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  g_live_bytes += static_cast<long long>(n);
  return reinterpret_cast<void*>(at);
}
void release_aligned(void* p) {
  if (p == nullptr) return;
  std::size_t header[2];
  std::memcpy(header, reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(p) - sizeof header),
              sizeof header);
  g_live_bytes -= static_cast<long long>(header[1]);
  std::free(reinterpret_cast<void*>(header[0]));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return ::operator new(n, a);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  release_aligned(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  release_aligned(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  release_aligned(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  release_aligned(p);
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

// Every entry (and its window=all) that applies to this placement: across hosts the one-node
// ones (shared_window) do not (the registry's needs_one_node).
std::vector<std::string> uniform_specs(int procs) {
  std::vector<std::string> specs;
  for (const auto& info : a2a::registry()) {
    if (!info.supports(a2a::Kind::uniform) ||
        a2a::check_applicable(info.name, MPI_COMM_WORLD, a2a::Kind::uniform, 8))
      continue;
    specs.push_back(info.name);
    if (info.param("window") != nullptr) specs.push_back(info.name + ":window=all");
  }
  add_variants(specs, a2a::Kind::uniform, procs);
  return specs;
}

std::vector<std::string> vector_specs(int procs) {
  std::vector<std::string> specs;
  for (const std::string& name : a2a::algorithm_names(a2a::Kind::vector))
    if (!a2a::check_applicable(name, MPI_COMM_WORLD, a2a::Kind::vector, 0)) specs.push_back(name);
  add_variants(specs, a2a::Kind::vector, procs);
  return specs;
}

// Plan::scratch_bytes() (and VectorExchange's) is what making the plan and running it once
// took and kept on this rank: its heap blocks and its part of shared windows, less only its
// schedules and names (a few words per peer: `slack`). Blocks of 128 KiB, so that a buffer the
// report left out (at least one block) stands out of the slack.
void check_scratch(Harness& h) {
  const int procs = h.procs(), rank = h.rank();
  const auto P = static_cast<std::size_t>(procs);
  const long long slack = 16384 + 4096LL * procs;
  auto check = [&](const std::string& what, long long before, std::size_t reported) {
    const long long took = g_live_bytes.load() - before;
    const auto scratch = static_cast<long long>(reported);
    // Heap blocks come rounded up (malloc_usable_size): a few bytes, up to a page where mapped.
    h.expect(scratch <= took + 64 && took <= scratch + slack,
             what + ": scratch_bytes() " + std::to_string(scratch) + ", took " +
                 std::to_string(took) + " bytes");
  };
  const std::size_t block = 128 * 1024;
  std::vector<std::byte> send(P * block, std::byte{1}), recv(P * block);
  for (const std::string& spec : uniform_specs(procs)) {
    const long long before = g_live_bytes.load();
    a2a::Plan plan(spec, h.comm(), block);
    plan.execute(send.data(), recv.data());
    if (plan.direct()) plan.prepare_pull();  // its second window
    check(plan.name() + " uniform", before, plan.scratch_bytes());
  }
  const a2a::VectorLayout layout = a2a::test::vector_layout("random", procs, rank, block, false);
  send.resize(layout.send_extent() + 1);
  recv.resize(layout.recv_extent() + 1);
  for (const std::string& spec : vector_specs(procs)) {
    {
      const long long before = g_live_bytes.load();
      a2a::Plan plan(spec, h.comm(), layout);
      plan.execute(send.data(), recv.data());
      check(plan.name() + " fixed vector", before, plan.scratch_bytes());
    }
    const long long before = g_live_bytes.load();
    a2a::VectorExchange exchange(spec, h.comm());
    exchange.execute(send.data(), recv.data(), layout);
    check(exchange.name() + " per call", before, exchange.scratch_bytes());
  }
}

#ifdef A2A_TEST_FFT
// BoxFft: forward and backward allocate nothing, and memory_bytes() is what making the plan and
// running it took on this rank (its arrays are C++ allocations; FFTW's plans are not, and are
// not in memory_bytes() either), on each of its paths: the general one with a packing, a radix
// and the single-copy backend, the caller's workspace, r2c, real kinds, batches, the tuned ones
// (slab and pencil), and two reshapes sharing one window.
void check_fft_memory(Harness& h) {
  using a2a::fft::Kind;
  const int procs = h.procs(), rank = h.rank();
  const std::array<std::int64_t, 3> n{48, 40, 36};
  struct Case {
    std::string name;
    void (*change)(a2a::fft::BoxOptions&, int procs, int rank);
  };
  const std::vector<Case> cases = {
      {"slabs to x-pencils, pairwise", [](auto& o, int, int) { o.backend = "pairwise"; }},
      {"slabs to x-pencils, tra", [](auto& o, int, int) { o.backend = "tra_v"; }},
      {"slabs to x-pencils, auto", [](auto&, int, int) {}},
      {"external workspace",
       [](auto& o, int, int) {
         o.external_workspace = true;
         o.backend = "pairwise";
       }},
      {"r2c",
       [](auto& o, int p, int r) {
         o.r2c = true;
         o.out = a2a::fft::pencil_box(a2a::fft::r2c_grid(o.n), 0, p, r);
       }},
      {"dct2, dst3, dft",
       [](auto& o, int, int) {
         o.kinds = {Kind::dct2, Kind::dst3, Kind::dft};
       }},
      {"batch of 3, interleaved", [](auto& o, int, int) { o.batch = 3; }},
      {"batch of 3, contiguous",
       [](auto& o, int, int) {
         o.batch = 3;
         o.batch_layout = a2a::fft::BatchLayout::contiguous;
       }},
      {"the tuned slab",
       [](auto& o, int p, int r) {
         o.out = a2a::fft::slab_box(o.n, p, r, 1);
         o.out_order = {1, 0, 2};
       }},
      {"z-pencils to x-pencils (the tuned pencil)",
       [](auto& o, int p, int r) { o.in = a2a::fft::pencil_box(o.n, 2, p, r); }},
      {"z-pencils to y-pencils (two reshapes, one window)",
       [](auto& o, int p, int r) {
         o.in = a2a::fft::pencil_box(o.n, 2, p, r);
         o.out = a2a::fft::pencil_box(o.n, 1, p, r);
       }},
  };
  for (const Case& c : cases) {
    a2a::fft::BoxOptions o;
    o.n = n;
    o.in = a2a::fft::slab_box(n, procs, rank);
    o.out = a2a::fft::pencil_box(n, 0, procs, rank);
    c.change(o, procs, rank);
    // The arrays first, at the plan's sizes (a plan made only to learn them).
    std::size_t in_bytes = 0, out_bytes = 0, workspace_bytes = 0;
    {
      const a2a::fft::BoxFft<double> sizes(h.comm(), o);
      in_bytes = sizes.input_elements() * (sizes.complex_input() ? 16 : 8);
      out_bytes = sizes.output_elements() * (sizes.complex_output() ? 16 : 8);
      workspace_bytes = o.external_workspace ? sizes.workspace_bytes() : 0;
    }
    a2a::fft::AlignedVector<double> in(std::max<std::size_t>(in_bytes / 8, 1), 0.5),
        out(std::max<std::size_t>(out_bytes / 8, 1)),
        workspace(std::max<std::size_t>(workspace_bytes / 8, 1));
    void* ws = o.external_workspace ? workspace.data() : nullptr;
    const long long before = g_live_bytes.load();
    a2a::fft::BoxFft<double> fft(h.comm(), o);
    auto round_trip = [&] {
      auto* cin = reinterpret_cast<std::complex<double>*>(in.data());
      auto* cout = reinterpret_cast<std::complex<double>*>(out.data());
      if (fft.complex_input()) {
        fft.forward(cin, cout, a2a::fft::Scaling::none, ws);
        fft.backward(cout, cin, a2a::fft::Scaling::full, ws);
      } else if (fft.complex_output()) {
        fft.forward(in.data(), cout, a2a::fft::Scaling::none, ws);
        fft.backward(cout, in.data(), a2a::fft::Scaling::full, ws);
      } else {
        fft.forward(in.data(), out.data(), a2a::fft::Scaling::none, ws);
        fft.backward(out.data(), in.data(), a2a::fft::Scaling::full, ws);
      }
    };
    round_trip();
    const long long took = g_live_bytes.load() - before;
    const auto memory = static_cast<long long>(fft.memory_bytes());
    // Besides: the boxes of every rank, the plan's steps, the description, DCT twiddles.
    const long long slack = 65536 + 2048LL * procs;
    h.expect(memory <= took + 64 && took <= memory + slack,
             "BoxFft " + c.name + " (" + fft.describe() + "): memory_bytes() " +
                 std::to_string(memory) + ", took " + std::to_string(took) + " bytes");
    const long n_calls = allocations_in([&] {
      for (int i = 0; i < 2; ++i)
        round_trip();
    });
    h.expect(n_calls == 0, "BoxFft " + c.name + ": " + std::to_string(n_calls) +
                               " allocations in forward and backward");
  }
}

// A slab on one node (shared_window, MEASURE, the way back remembered): a way back that pushes
// receives into the forward's window, one that pulls keeps its send data there; one area, as
// large as the larger of this rank's boxes. This rank's live windows, as made.
void check_slab_windows(Harness& h) {
  const int procs = h.procs();
  MPI_Comm node;
  MPI_Comm_split_type(h.comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  int everywhere = node_size == procs ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_LAND, h.comm());
  if (procs < 2 || everywhere == 0) return;  // one rank, or ranks on several hosts
  const std::array<std::int64_t, 3> n{24, 30, 20};
  for (const bool r2c : {false, true}) {
    for (const char* back : {"push", "yes"}) {
      a2a::fft::Options o;
      o.n = n;
      o.p1 = procs;
      o.p2 = 1;
      o.r2c = r2c;
      o.backend = o.backend2 = "shared_window";
      o.fftw_flags = FFTW_MEASURE;
      a2a::fft::ways::forget_all();
      a2a::fft::ways::remember(std::string("double ") + (r2c ? "r2c " : "c2c ") + "24x30x20 on " +
                                   std::to_string(procs) + "x1 chunks 1 measure: fused backward",
                               back);
      const long long before = g_window_bytes.load();
      const a2a::fft::Fft3d<double> fft(h.comm(), o);
      const long long windows = g_window_bytes.load() - before;
      const std::string ways = fft.local_transforms();
      const bool pushed = ways.find("pushed") != std::string::npos;
      const auto in_bytes = static_cast<long long>(fft.input_box().count()) * 16;
      const auto out_bytes = static_cast<long long>(fft.output_box().count()) * 16;
      const long long page = 4096;  // what MPI may round an area up to
      const std::string what = std::string(r2c ? "r2c" : "c2c") + " slab (" + ways +
                               "): " + std::to_string(windows) + " bytes of windows, boxes " +
                               std::to_string(in_bytes) + " and " + std::to_string(out_bytes);
      h.expect(pushed == (back[0] == 'p'), what + ": the way back remembered runs");
      h.expect(windows >= out_bytes && windows <= std::max(in_bytes, out_bytes) + page,
               what + ": one window");
    }
  }
  a2a::fft::ways::forget_all();
}
#endif

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
  for (const char* backend : {"mpi", "sloav", "tra_v", "pairwise", "auto"}) {
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
    check_scratch(h);
#ifdef A2A_TEST_FFT
    check_fft_memory(h);
    check_slab_windows(h);
#endif
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
