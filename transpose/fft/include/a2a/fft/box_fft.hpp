// BoxFft: a distributed 3D transform of data the caller has already distributed, in any brick
// boxes (heFFTe's contract: each rank gives the box it holds and the box it wants back; the
// boxes of all ranks tile the grid, some may be empty), with a transform kind per axis: the DFT,
// DCT and DST types I-IV (FFTW's REDFT and RODFT kinds) or none; complex, real-to-complex or
// real-to-real data; a batch of fields, sharing each reshape's exchange or (contiguous fields
// with large messages) one field at a time; double or float.
//
// The plan is made once, collectively: the logic (which boxes, which reshapes, which 1D
// transforms in which order; box_plan.hpp, plain data) is computed from every rank's boxes,
// then each reshape becomes an a2a::Redistribution over any backend and each transform an FFTW
// plan over the box's lines. Executions allocate nothing. The order of the axes is chosen so
// that an axis the boxes already hold whole is transformed where it lies and the last axis is
// one the output boxes hold whole: boxes that are pencils or slabs on both sides cost no more
// reshapes than a hand-written pencil or slab FFT. Where every rank's boxes and the output's
// axis order are exactly Fft3d's (its slab with the transposed or natural spectrum, its square
// pencil; DFTs, one field, the plan's own workspace), the plan runs Fft3d, the tuned path, and
// describe() says so.
#pragma once

#include <fftw3.h>
#include <mpi.h>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "a2a/transpose.hpp"

namespace a2a::fft {

// The transform along one axis. dct1..dct4 are FFTW's REDFT00, REDFT10, REDFT01, REDFT11 and
// dst1..dst4 its RODFT00, RODFT10, RODFT01, RODFT11, unnormalized as FFTW's (SciPy's
// dctn/dstn with norm=None give the same numbers). `none` leaves the axis alone.
enum class Kind { dft, dct1, dct2, dct3, dct4, dst1, dst2, dst3, dst4, none };
// Scaling of one call: none; full, by 1/N (N the product over the transformed axes of n for a
// DFT, 2(n - 1) for DCT-I, 2(n + 1) for DST-I and 2n for the others: FFTW's logical sizes), so
// that forward with none then backward with full returns the input; symmetric, 1/sqrt(N) each
// way.
enum class Scaling { none, full, symmetric };
// How a batch of fields lies in the caller's arrays: interleaved (the field index fastest: each
// grid point holds `batch` values in a row, FFTW's howmany with unit stride) or contiguous (one
// whole box of field 0, then one of field 1, ...: separate arrays back to back). Interleaved
// fields share each exchange (one message per peer carries every field). Contiguous fields
// share them where one field's messages are small, and otherwise, or where the plan has no
// exchange, run one at a time through a plan of one field (the tuned path where the boxes are
// Fft3d's): one field's largest message to a peer at most 16 KiB, or 4 KiB on one node where
// one field runs the tuned path; in place, only where every rank's field takes as many bytes in
// as out. describe() begins "each of the B fields in turn" where they go one at a time.
enum class BatchLayout { interleaved, contiguous };

struct BoxOptions {
  std::array<std::int64_t, 3> n{0, 0, 0};  // the global (real) grid
  // This rank's boxes, row-major (axis 2 fastest), over the grid: `in` of the input (for r2c
  // the real grid), `out` of the output (for r2c the spectrum's grid, n2/2 + 1 along axis 2).
  Box in, out;
  // The order of the axes in the caller's arrays, slowest first: {0, 1, 2} is row-major over
  // the box ([x][y][z]); {1, 0, 2} is [y][x][z], FFTW-MPI's FFTW_MPI_TRANSPOSED_OUT layout of a
  // slab's spectrum (out boxes split along y). Any permutation, on either side.
  std::array<int, 3> in_order{0, 1, 2}, out_order{0, 1, 2};
  std::array<Kind, 3> kinds{Kind::dft, Kind::dft, Kind::dft};
  // Real input: forward is real-to-complex along axis 2 (which must be a DFT axis), backward
  // complex-to-real. Without it, the data is complex where any axis is a DFT, else real.
  bool r2c = false;
  // r2c in FFTW's padded layout: the real input's rows along axis 2 hold 2 (n2/2 + 1) reals
  // (the last one or two unused), so that the spectrum fits the same array in place, as
  // FFTW's and FFTW-MPI's in-place r2c. Needs input boxes whole along axis 2.
  bool r2c_padded = false;
  int batch = 1;
  BatchLayout batch_layout = BatchLayout::interleaved;
  std::string backend = "auto";  // every reshape's exchange: any spec of `a2a list`
  unsigned fftw_flags = FFTW_ESTIMATE;
  // The caller gives the workspace with every call (workspace_bytes() of it); else the plan
  // allocates it once.
  bool external_workspace = false;
  // Each call agrees on its arguments with the other ranks first (one small allreduce), so that
  // one rank's bad argument is an error on every rank. false: each rank checks its own only,
  // without the allreduce (its latency per call: across nodes, where small grids feel it); one
  // rank's bad argument is then its error alone, and the others wait in the exchanges. The same
  // on every rank.
  bool agree_on_calls = true;
};

// Proposals for the boxes of rank `rank` of `procs`: slabs (split along `axis`, whole along the
// others: axis 1 gives FFTW-MPI's transposed spectrum its y-slabs), and pencils whole along
// `axis`, the two other axes split on the most square P1 x P2 process grid (P1 over the lower
// axis). Balanced splits (a2a::block_start); some ranks get empty boxes where P exceeds an
// extent.
Box slab_box(const std::array<std::int64_t, 3>& n, int procs, int rank, int axis = 0);
Box pencil_box(const std::array<std::int64_t, 3>& n, int axis, int procs, int rank);
// The most square P1 x P2 = procs, P1 <= P2.
std::array<int, 2> process_grid(int procs);
// The spectrum's grid of an r2c transform of grid n: n2/2 + 1 along axis 2.
std::array<std::int64_t, 3> r2c_grid(const std::array<std::int64_t, 3>& n);

template <typename Real>
class BoxFft {
 public:
  using Complex = std::complex<Real>;
  // Collective over comm. Throws a2a::Error, the same on every rank, for boxes that overlap,
  // leave holes or leave the grid, a batch below 1, a kind a size cannot have (DCT-I of length
  // 1), r2c without a DFT along axis 2, options that differ between ranks.
  BoxFft(MPI_Comm comm, const BoxOptions& options);
  ~BoxFft();
  BoxFft(const BoxFft&) = delete;
  BoxFft& operator=(const BoxFft&) = delete;

  const Box& input_box() const;
  const Box& output_box() const;
  // Elements (Real or Complex, times the batch) of this rank's input and output arrays (with
  // r2c_padded, the input's padded rows); an in-place call (in == out) needs the larger of the
  // two in bytes.
  std::size_t input_elements() const;
  std::size_t output_elements() const;
  // The data each side holds: true where it is complex (Complex*), false where real (Real*).
  bool complex_input() const;
  bool complex_output() const;
  // The work arrays' bytes (external_workspace: the caller's, the plan keeping none). Not the
  // exchanges' own buffers, which the plan keeps besides (docs/fft.md).
  std::size_t workspace_bytes() const;
  // Bytes the plan holds on this rank besides the caller's arrays (and the caller's workspace):
  // its work arrays, unless external_workspace, the exchanges' buffers and their backends'
  // scratch and shared-memory windows. Not FFTW's plans (their twiddles: lines, not boxes),
  // nor what the MPI library allocates itself. Local; it may differ between ranks.
  std::size_t memory_bytes() const;
  // What the plan does, in order: each reshape (the backend that runs it) and each transform.
  std::string describe() const;

  // Forward: input (input_box) to output (output_box); backward: output to input, the inverse
  // kinds (DCT-II <-> DCT-III, the others their own). `workspace`: workspace_bytes() of the
  // caller's, aligned as FFTW's arrays (a2a::fft::AlignedVector), with external_workspace,
  // else nullptr. The input of an out-of-place call is left untouched. The pointer types must
  // match the data (complex_input() / complex_output()), else a2a::Error. in_bytes and
  // out_bytes: the arrays' sizes where the caller knows them (the C and Fortran bindings pass
  // them): an array smaller than its side of the plan is then an error too. Every call agrees
  // on its arguments with the other ranks first (one small allreduce): one rank's bad argument
  // is the same a2a::Error on every rank, before any rank writes anything.
  static constexpr std::size_t unknown_bytes = static_cast<std::size_t>(-1);
  void forward(const Complex* in, Complex* out, Scaling scaling = Scaling::none,
               void* workspace = nullptr, std::size_t in_bytes = unknown_bytes,
               std::size_t out_bytes = unknown_bytes);
  void forward(const Real* in, Complex* out, Scaling scaling = Scaling::none,
               void* workspace = nullptr, std::size_t in_bytes = unknown_bytes,
               std::size_t out_bytes = unknown_bytes);
  void forward(const Real* in, Real* out, Scaling scaling = Scaling::none,
               void* workspace = nullptr, std::size_t in_bytes = unknown_bytes,
               std::size_t out_bytes = unknown_bytes);
  void backward(const Complex* in, Complex* out, Scaling scaling = Scaling::full,
                void* workspace = nullptr, std::size_t in_bytes = unknown_bytes,
                std::size_t out_bytes = unknown_bytes);
  void backward(const Complex* in, Real* out, Scaling scaling = Scaling::full,
                void* workspace = nullptr, std::size_t in_bytes = unknown_bytes,
                std::size_t out_bytes = unknown_bytes);
  void backward(const Real* in, Real* out, Scaling scaling = Scaling::full,
                void* workspace = nullptr, std::size_t in_bytes = unknown_bytes,
                std::size_t out_bytes = unknown_bytes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class BoxFft<double>;
extern template class BoxFft<float>;

}  // namespace a2a::fft
