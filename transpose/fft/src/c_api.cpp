// The C API of a2a::fft (a2a/fft.h): handles over BoxFft<double> or BoxFft<float>.
#include "a2a/fft.h"

#include <fftw3.h>

#include <cstdint>
#include <memory>
#include <string>

#include "a2a/agree.hpp"
#include "a2a/box_c.hpp"
#include "a2a/c_status.hpp"
#include "a2a/error.hpp"
#include "a2a/fft/box_fft.hpp"

struct a2a_fft_s {
  std::unique_ptr<a2a::fft::BoxFft<double>> d;
  std::unique_ptr<a2a::fft::BoxFft<float>> f;
  std::string description;
};

namespace {

// The C options as BoxFft's; "" or why they cannot be (local).
std::string convert(const a2a_fft_options& c, a2a::fft::BoxOptions& o) {
  for (std::size_t d = 0; d < 3; ++d) {
    o.n[d] = c.n[d];
    if (c.kinds[d] < A2A_FFT_DFT || c.kinds[d] > A2A_FFT_NONE) {
      return "a2a_fft_create: kinds[" + std::to_string(d) + "] = " + std::to_string(c.kinds[d]) +
             " is not one of A2A_FFT_DFT ... A2A_FFT_NONE";
    }
    o.kinds[d] = static_cast<a2a::fft::Kind>(c.kinds[d]);
  }
  for (std::size_t d = 0; d < 3; ++d) {
    o.in_order[d] = c.in_order[d];
    o.out_order[d] = c.out_order[d];
  }
  o.in = a2a::box_of(c.in);
  o.out = a2a::box_of(c.out);
  o.r2c = c.r2c != 0;
  o.batch = c.batch;
  o.batch_layout = c.batch_contiguous != 0 ? a2a::fft::BatchLayout::contiguous
                                           : a2a::fft::BatchLayout::interleaved;
  o.backend = c.backend != nullptr ? c.backend : "auto";
  o.fftw_flags = c.fftw_flags;
  o.external_workspace = c.external_workspace != 0;
  o.r2c_padded = c.r2c_padded != 0;
  o.agree_on_calls = c.local_call_checks == 0;
  return "";
}

// Checked by the plan's call, with its other arguments, on every rank at once.
a2a::fft::Scaling scaling_of(int s) {
  static_assert(A2A_FFT_SCALE_NONE == static_cast<int>(a2a::fft::Scaling::none) &&
                A2A_FFT_SCALE_FULL == static_cast<int>(a2a::fft::Scaling::full) &&
                A2A_FFT_SCALE_SYMMETRIC == static_cast<int>(a2a::fft::Scaling::symmetric));
  return static_cast<a2a::fft::Scaling>(s);
}

// Runs forward or backward on the plan of its precision, with the pointer types its sides have.
template <typename Plan>
void run(Plan& p, bool forward, const void* in, std::size_t in_bytes, void* out,
         std::size_t out_bytes, a2a::fft::Scaling s, void* ws) {
  using R = typename Plan::Complex::value_type;
  using C = typename Plan::Complex;
  const bool from_complex = forward ? p.complex_input() : p.complex_output();
  const bool to_complex = forward ? p.complex_output() : p.complex_input();
  if (forward) {
    if (from_complex) {
      p.forward(static_cast<const C*>(in), static_cast<C*>(out), s, ws, in_bytes, out_bytes);
    } else if (to_complex) {
      p.forward(static_cast<const R*>(in), static_cast<C*>(out), s, ws, in_bytes, out_bytes);
    } else {
      p.forward(static_cast<const R*>(in), static_cast<R*>(out), s, ws, in_bytes, out_bytes);
    }
  } else if (!from_complex) {
    p.backward(static_cast<const R*>(in), static_cast<R*>(out), s, ws, in_bytes, out_bytes);
  } else if (to_complex) {
    p.backward(static_cast<const C*>(in), static_cast<C*>(out), s, ws, in_bytes, out_bytes);
  } else {
    p.backward(static_cast<const C*>(in), static_cast<R*>(out), s, ws, in_bytes, out_bytes);
  }
}

int execute(a2a_fft fft, bool forward, const void* in, std::size_t in_bytes, void* out,
            std::size_t out_bytes, int scaling, void* ws) {
  return a2a::c_api::guarded([&] {
    if (fft == nullptr) throw a2a::Error("a2a_fft: the plan is NULL");
    const a2a::fft::Scaling s = scaling_of(scaling);
    if (fft->d) {
      run(*fft->d, forward, in, in_bytes, out, out_bytes, s, ws);
    } else {
      run(*fft->f, forward, in, in_bytes, out, out_bytes, s, ws);
    }
  });
}

template <typename Get>
auto query(a2a_fft fft, Get get) {
  return fft == nullptr ? decltype(get(*fft->d)){} : fft->d ? get(*fft->d) : get(*fft->f);
}

}  // namespace

extern "C" {

void a2a_fft_options_default(a2a_fft_options* o) {
  if (o == nullptr) return;
  *o = a2a_fft_options{};
  o->kinds[0] = o->kinds[1] = o->kinds[2] = A2A_FFT_DFT;
  for (int d = 0; d < 3; ++d)
    o->in_order[d] = o->out_order[d] = d;
  o->batch = 1;
  o->backend = "auto";
  o->fftw_flags = FFTW_ESTIMATE;
}

int a2a_fft_create(MPI_Comm comm, const a2a_fft_options* options, a2a_fft* fft) {
  return a2a::c_api::guarded([&] {
    if (fft != nullptr) *fft = nullptr;
    a2a::require_intracommunicator(comm, "a2a_fft_create");
    // A null pointer or a bad enumerator on one rank is agreed on before the collective plan.
    a2a::fft::BoxOptions o;
    std::string problem = options == nullptr || fft == nullptr
                              ? "a2a_fft_create: the options or the handle is NULL"
                              : convert(*options, o);
    if (problem = a2a::agree_on_error(comm, problem); !problem.empty()) throw a2a::Error(problem);
    auto made = std::make_unique<a2a_fft_s>();
    if (options->single_precision != 0) {
      made->f = std::make_unique<a2a::fft::BoxFft<float>>(comm, o);
    } else {
      made->d = std::make_unique<a2a::fft::BoxFft<double>>(comm, o);
    }
    made->description = query(made.get(), [](auto& p) { return p.describe(); });
    *fft = made.release();
  });
}

int a2a_fft_create_f(MPI_Fint comm, const a2a_fft_options* o, a2a_fft* fft) {
  MPI_Comm c = MPI_COMM_NULL;
  if (const int code = a2a::c_api::comm_from_fortran(comm, c, fft)) return code;
  return a2a_fft_create(c, o, fft);
}

int a2a_fft_forward(a2a_fft fft, const void* in, void* out, int scaling, void* workspace) {
  return execute(fft, true, in, SIZE_MAX, out, SIZE_MAX, scaling, workspace);
}

int a2a_fft_backward(a2a_fft fft, const void* in, void* out, int scaling, void* workspace) {
  return execute(fft, false, in, SIZE_MAX, out, SIZE_MAX, scaling, workspace);
}

int a2a_fft_forward_sized(a2a_fft fft, const void* in, size_t in_bytes, void* out, size_t out_bytes,
                          int scaling, void* workspace) {
  return execute(fft, true, in, in_bytes, out, out_bytes, scaling, workspace);
}

int a2a_fft_backward_sized(a2a_fft fft, const void* in, size_t in_bytes, void* out,
                           size_t out_bytes, int scaling, void* workspace) {
  return execute(fft, false, in, in_bytes, out, out_bytes, scaling, workspace);
}

int64_t a2a_fft_input_elements(a2a_fft fft) {
  return static_cast<int64_t>(query(fft, [](auto& p) { return p.input_elements(); }));
}

int64_t a2a_fft_output_elements(a2a_fft fft) {
  return static_cast<int64_t>(query(fft, [](auto& p) { return p.output_elements(); }));
}

int a2a_fft_complex_input(a2a_fft fft) {
  return query(fft, [](auto& p) { return p.complex_input(); }) ? 1 : 0;
}

int a2a_fft_complex_output(a2a_fft fft) {
  return query(fft, [](auto& p) { return p.complex_output(); }) ? 1 : 0;
}

size_t a2a_fft_workspace_bytes(a2a_fft fft) {
  return query(fft, [](auto& p) { return p.workspace_bytes(); });
}
size_t a2a_fft_memory_bytes(a2a_fft fft) {
  return query(fft, [](auto& p) { return p.memory_bytes(); });
}

const char* a2a_fft_describe(a2a_fft fft) {
  return fft != nullptr ? fft->description.c_str() : nullptr;
}

int a2a_fft_free(a2a_fft* fft) {
  return a2a::c_api::guarded([&] {
    if (fft == nullptr) return;
    delete *fft;
    *fft = nullptr;
  });
}

int a2a_fft_slab_box(const int64_t n[3], int procs, int rank, a2a_box* box) {
  return a2a::c_api::guarded([&] {
    if (n == nullptr || box == nullptr) throw a2a::Error("a2a_fft_slab_box: n or box is NULL");
    *box = a2a::c_box_of(a2a::fft::slab_box({n[0], n[1], n[2]}, procs, rank));
  });
}

int a2a_fft_slab_box_along(const int64_t n[3], int axis, int procs, int rank, a2a_box* box) {
  return a2a::c_api::guarded([&] {
    if (n == nullptr || box == nullptr) {
      throw a2a::Error("a2a_fft_slab_box_along: n or box is NULL");
    }
    *box = a2a::c_box_of(a2a::fft::slab_box({n[0], n[1], n[2]}, procs, rank, axis));
  });
}

int a2a_fft_pencil_box(const int64_t n[3], int axis, int procs, int rank, a2a_box* box) {
  return a2a::c_api::guarded([&] {
    if (n == nullptr || box == nullptr) throw a2a::Error("a2a_fft_pencil_box: n or box is NULL");
    if (axis < 0 || axis > 2) {
      throw a2a::Error("a2a_fft_pencil_box: axis " + std::to_string(axis) + " is not 0, 1 or 2");
    }
    *box = a2a::c_box_of(a2a::fft::pencil_box({n[0], n[1], n[2]}, axis, procs, rank));
  });
}

}  // extern "C"
