// BoxFft's setup and execution: the logic (box_plan.cpp) turned into a list of operations per
// direction over four arrays (the caller's input and output, two work arrays), each a reshape
// (Redistribution), a transform (an FFTW plan over every line of the box along one axis, the
// batch and, for a real kind on complex data, the real and imaginary parts as FFTW's howmany
// dimensions; or, for the DCT/DST kinds FFTW runs line by line, a LineTransform that runs them
// through complex DFTs), a copy or the scaling. Transforms run on the work arrays; the first may
// read the caller's input and a last DCT/DST write the caller's output, and the caller's input is
// only ever read. A batch lies in the work arrays as in the caller's: each
// point's values in a row (interleaved), or field after field (contiguous: each field's lines
// then as unit-stride as a single transform's, and runs of passes go field by field, each field
// still in cache from the pass before); either way each reshape moves every field in one
// exchange.
#include "a2a/fft/box_fft.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "a2a/agree.hpp"
#include "a2a/error.hpp"
#include "a2a/fft/aligned.hpp"
#include "a2a/fft/fft3d.hpp"
#include "a2a/topology.hpp"
#include "box_plan.hpp"
#include "columns.hpp"
#include "extended_trig.hpp"
#include "fft3d_logic.hpp"
#include "fftw.hpp"
#include "half_length_dct4.hpp"
#include "line_panels.hpp"
#include "paired_trig.hpp"
#include "split_trig1.hpp"

namespace a2a::fft {

namespace {

constexpr int kCallerIn = 0, kCallerOut = 1, kWorkA = 2, kWorkB = 3;
// The work array that is not `array` (work array A for the caller's arrays).
int other_work_array(int array) {
  return array == kWorkA ? kWorkB : kWorkA;
}

fftw_r2r_kind r2r_kind(Kind k) {
  switch (k) {
    case Kind::dct1:
      return FFTW_REDFT00;
    case Kind::dct2:
      return FFTW_REDFT10;
    case Kind::dct3:
      return FFTW_REDFT01;
    case Kind::dct4:
      return FFTW_REDFT11;
    case Kind::dst1:
      return FFTW_RODFT00;
    case Kind::dst2:
      return FFTW_RODFT10;
    case Kind::dst3:
      return FFTW_RODFT01;
    default:
      return FFTW_RODFT11;
  }
}

std::string options_text(const BoxOptions& o) {
  std::string s;
  for (auto v : o.n)
    s += std::to_string(v) + " ";
  for (Kind k : o.kinds)
    s += std::string(logic::name(k)) + " ";
  for (int a : o.in_order)
    s += std::to_string(a);
  for (int a : o.out_order)
    s += std::to_string(a);
  return s + " " + std::to_string(o.r2c) + " " + std::to_string(o.batch) + " " +
         std::to_string(static_cast<int>(o.batch_layout)) + " " + o.backend + " " +
         std::to_string(o.fftw_flags) + " " + std::to_string(o.external_workspace) +
         std::to_string(o.r2c_padded) + std::to_string(o.agree_on_calls);
}

// Fft3d's options where every rank's boxes are exactly those of Fft3d's slab or pencil (the
// spectrum transposed, or natural) for these options, else none: such a plan runs on Fft3d, the
// tuned path (its local ways timed, its slab's transposes fused with its planes). From every
// rank's boxes (the same on every rank): no communication.
std::optional<Options> tuned_path(const BoxOptions& o, const std::vector<Box>& in_boxes,
                                  const std::vector<Box>& out_boxes) {
  const bool dft =
      std::all_of(o.kinds.begin(), o.kinds.end(), [](Kind k) { return k == Kind::dft; });
  if (!dft || o.batch != 1 || o.r2c_padded || o.external_workspace ||
      o.in_order != std::array<int, 3>{0, 1, 2}) {
    return std::nullopt;
  }
  const int procs = static_cast<int>(in_boxes.size());
  const std::array<int, 2> square = process_grid(procs);
  auto same = [](const Box& a, const Box& b) { return (a.empty() && b.empty()) || a == b; };
  for (const auto& [p1, p2] : {std::pair{procs, 1}, std::pair{square[0], square[1]}}) {
    for (const bool natural : {false, true}) {
      Options t;
      t.n = o.n;
      t.p1 = p1;
      t.p2 = p2;
      t.r2c = o.r2c;
      t.natural_spectrum = natural;
      t.backend = o.backend;
      t.fftw_flags = o.fftw_flags;
      bool matches = logic::options_problem(t, procs).empty();
      for (int r = 0; r < procs && matches; ++r) {
        const logic::Fft3dPlan plan = logic::plan_fft3d(t, procs, r);
        const Box& in = o.r2c ? plan.real_box : plan.boxes[0];
        const Box& out = plan.natural ? plan.boxes[0] : plan.boxes[2];
        const std::array<int, 3> order =
            plan.yxz ? std::array<int, 3>{1, 0, 2} : std::array<int, 3>{0, 1, 2};
        matches = same(in, in_boxes[static_cast<std::size_t>(r)]) &&
                  same(out, out_boxes[static_cast<std::size_t>(r)]) && order == o.out_order;
      }
      if (matches) return t;
    }
  }
  return std::nullopt;
}

// Whether a contiguous batch runs one field's plan on each field in turn rather than moving
// every field in each exchange. Merging fields saves messages and costs cache (three fields'
// arrays leave the caches one field's fit in), so it pays only where the messages are small:
// where one field's largest message to a peer is at most 16 KiB, or 4 KiB on one node where a
// field alone runs the tuned path (whose single-copy exchange is cheaper still). Those bounds
// are measured (`scripts/measure batch`). With no exchange there is nothing to merge. In place,
// field f's input and output then start at the same place, so every rank's field must take as many
// bytes in as out. largest_message: over every rank. The same answer on every rank.
bool fields_apart(const BoxOptions& one, const std::vector<Box>& in_boxes,
                  const std::vector<Box>& out_boxes, std::size_t in_bytes, std::size_t out_bytes,
                  std::size_t largest_message, bool one_node) {
  for (std::size_t r = 0; r < in_boxes.size(); ++r) {
    if (static_cast<std::size_t>(in_boxes[r].count()) * in_bytes !=
        static_cast<std::size_t>(out_boxes[r].count()) * out_bytes) {
      return false;
    }
  }
  const std::size_t merged_up_to =
      one_node && tuned_path(one, in_boxes, out_boxes) ? 4 << 10 : 16 << 10;
  return largest_message == 0 || largest_message > merged_up_to;
}

}  // namespace

template <typename Real>
struct BoxFft<Real>::Impl {
  using F = Fftw<Real>;
  using Dim = typename F::iodim64;

  // One operation of a direction, on the four arrays: the caller's input and output, two work
  // arrays.
  struct Op {
    enum Type { copy, reshape, transform, scale, to_internal, from_internal } type = copy;
    // trig: a DCT/DST through a LineTransform (PairedTrig, HalfLengthDct4, SplitTrig1,
    // ExtendedTrig), its scratch the other work array.
    // columns: a DFT along axis 0 or 1 through ColumnFfts' panels (make_columns).
    enum Call { dft, r2r, r2c, c2r, trig, columns } call = dft;
    int src = kCallerIn, dst = kCallerIn;
    Redistribution* exchange = nullptr;
    // Run field by field (copy, transform, scale, where its plan covers one field): a run of
    // such operations goes through one field before the next, each field's data then still in
    // cache from the operation before (a batch's fields together are as many times larger).
    // The bytes from one field to the next in src and dst.
    bool by_field = false;
    std::size_t src_field = 0, dst_field = 0;
    // A transform that applies the call's scaling itself (a LineTransform), or a copy that scales
    // as it copies.
    bool scales = false;
    // An FFTW transform reading the caller's input straight (its first: no copy before it),
    // planned from work array B: where the caller's array is not aligned as the work arrays
    // (FFTW's plans are only valid so), it is copied there first.
    bool reads_caller = false;
    // An FFTW plan out of place from a work array into the caller's output (a last c2r),
    // planned into the other work array, its stand-in: where the caller's array is not aligned
    // as that one, it runs into the stand-in and `dst_bytes` are copied out.
    std::size_t dst_bytes = 0;
    typename F::plan plan = nullptr;
    const LineTransform<Real>* lines = nullptr;
    // Whether the call runs FFTW on its own scratch only (any array of the caller's will do),
    // rather than an FFTW plan on arrays aligned as the ones it was made on.
    bool own_scratch() const { return call == trig || call == columns; }
    // columns: `column_ffts` on each of `slices` matrices, `slice` complex values apart.
    const ColumnFfts<Real>* column_ffts = nullptr;
    std::size_t slices = 0, slice = 0;
    int scratch = kWorkB;
    std::size_t bytes = 0;  // copy: all; scale: reals
    // to_internal / from_internal: between the caller's axis order (`order`) and padded rows
    // and the plan's own (row-major): each field's points, `unit` bytes each (a Real or a
    // Complex, times the batch where interleaved).
    std::size_t unit = 0;
    Box box;
    std::array<int, 3> order{0, 1, 2};
    std::size_t padded_row = 0;  // the caller's points per row along axis 2 (r2c in place)
  };
  // Where the data is while the operations are built: its array, this rank's box, its type.
  struct Where {
    int array = kCallerIn;
    Box box;
    bool real = false;
  };

  MPI_Comm comm = MPI_COMM_NULL;
  // The tuned path runs on communicators of its own: a call checks that the caller's is alive.
  std::optional<CommunicatorWatch> watch;
  BoxOptions o;
  int rank = 0, procs = 1;
  logic::Logic plan;
  std::vector<Box> in_boxes, out_boxes;
  std::vector<std::unique_ptr<Redistribution>> exchanges;
  std::vector<typename F::plan> plans;
  std::vector<std::unique_ptr<LineTransform<Real>>> trigs;
  std::vector<std::unique_ptr<ColumnFfts<Real>>> column_ffts;
  // Per step (forward's), the way of a DFT run through ColumnFfts ("panels of 32"), for
  // describe(); "" for FFTW's plan.
  std::vector<std::string> column_ways;
  std::vector<Op> forward_ops, backward_ops;
  std::size_t buffer_bytes = 0;  // each work array
  AlignedVector<Complex> work;   // both work arrays; planned on, then freed with external_workspace
  int planned_alignment = 0;     // FFTW's alignment of the arrays the plans were made on
  double full_scale = 1;         // 1/N
  bool complex_in = false, complex_out = false;
  std::string description;
  // The tuned path, where the boxes are Fft3d's (tuned_path): every call runs it instead.
  std::unique_ptr<Fft3d<Real>> tuned;
  // Elements (Real or Complex, times the batch) of this rank's input and output arrays.
  std::size_t input_elements() const {
    const auto batch = static_cast<std::size_t>(o.batch);
    if (o.r2c_padded && !o.in.empty()) {  // rows of 2 (n2/2 + 1) reals
      return static_cast<std::size_t>(o.in.extent(0) * o.in.extent(1) * 2 * (o.n[2] / 2 + 1)) *
             batch;
    }
    return static_cast<std::size_t>(o.in.count()) * batch;
  }
  std::size_t output_elements() const {
    return static_cast<std::size_t>(o.out.count()) * static_cast<std::size_t>(o.batch);
  }

  // The call's arrays that cannot hold their side of the plan: NULL where the side has elements,
  // or smaller than it where the caller gave sizes (unknown_bytes: not known). forward reads the
  // input side from `in`, backward the output side; an in-place call's one array holds the
  // larger side. "" where both can.
  std::string arrays_problem(bool forward, const void* in, const void* out, std::size_t in_bytes,
                             std::size_t out_bytes) const {
    const std::size_t input_side = input_elements() * (complex_in ? sizeof(Complex) : sizeof(Real));
    const std::size_t output_side =
        output_elements() * (complex_out ? sizeof(Complex) : sizeof(Real));
    const bool in_place = in == out;
    const std::size_t larger = std::max(input_side, output_side);
    struct Array {
      const char* name;
      const void* data;
      std::size_t given, needs;
      const char* side;
    };
    const Array arrays[2] = {{"input", in, in_bytes,
                              in_place  ? larger
                              : forward ? input_side
                                        : output_side,
                              forward ? "input" : "output"},
                             {"output", out, out_bytes,
                              in_place  ? larger
                              : forward ? output_side
                                        : input_side,
                              forward ? "output" : "input"}};
    for (const Array& a : arrays) {
      const bool null = a.data == nullptr && a.needs > 0;
      if (!null && (a.given == BoxFft<Real>::unknown_bytes || a.given >= a.needs)) continue;
      // (The message only where there is a problem: a call that has none builds no string.)
      return std::string("the ") + a.name + " array " +
             (null ? "is NULL" : "holds " + std::to_string(a.given) + " bytes") +
             ", where this rank's " + a.side + " side needs " + std::to_string(a.needs) + " bytes" +
             (in_place ? " (in place: the larger side's)" : "");
    }
    return {};
  }

  // What a call checks before any work: this rank's arguments (arrays of the plan's types, none
  // NULL where this rank's side holds elements, a scaling, the caller's workspace where the plan
  // takes one, aligned as FFTW's arrays), agreed on by every rank (one small allreduce), so that
  // one rank's bad argument is the same error on every rank instead of a hang in the exchanges
  // the others went on to; and the caller's communicator not freed.
  // input_complex, output_complex: the types the call gives the plan's input and output sides.
  void begin_call(bool forward, bool input_complex, bool output_complex, const void* in,
                  const void* out, Scaling scaling, const void* workspace, std::size_t in_bytes,
                  std::size_t out_bytes) const {
    const char* what = forward ? "a2a::fft::BoxFft::forward" : "a2a::fft::BoxFft::backward";
    auto kind = [](bool complex) { return complex ? "complex" : "real"; };
    std::string problem;
    if (input_complex != complex_in || output_complex != complex_out) {
      const bool input_wrong = input_complex != complex_in;
      problem = std::string("this plan's ") + (input_wrong ? "input" : "output") + " is " +
                kind(input_wrong ? complex_in : complex_out) + ": call it with " +
                kind(input_wrong ? complex_in : complex_out) + " arrays";
    } else if (scaling != Scaling::none && scaling != Scaling::full &&
               scaling != Scaling::symmetric) {
      problem = "scaling " + std::to_string(static_cast<int>(scaling)) +
                " is none of none (0), full (1) and symmetric (2)";
    } else if (std::string arrays = arrays_problem(forward, in, out, in_bytes, out_bytes);
               !arrays.empty()) {
      problem = std::move(arrays);
    } else if (o.external_workspace && buffer_bytes > 0 && workspace == nullptr) {
      problem = "the plan takes the caller's workspace (workspace_bytes()): none given";
    } else if (o.external_workspace && buffer_bytes > 0 &&
               F::alignment_of(workspace) != planned_alignment) {
      problem =
          "the workspace is not aligned as FFTW's arrays (use a2a::fft::AlignedVector or "
          "fftw_malloc)";
    }
    if (!problem.empty())
      problem = std::string(what) + ": " + problem + " (rank " + std::to_string(rank) + ")";
    if (o.agree_on_calls) {
      watch->require_agreed(what, problem);
    } else {
      watch->require_alive(what);
      if (!problem.empty()) throw Error(problem);
    }
  }
  // A contiguous batch run one field at a time (fields_apart): this plan of one field, called
  // on each field in turn.
  std::unique_ptr<BoxFft<Real>> per_field;
  AlignedVector<Complex> input_copy;  // run_per_field's, where the caller's arrays overlap

  template <bool Forward, typename In, typename Out>
  void run_per_field(const In* in, Out* out, Scaling scaling, void* workspace) {
    const auto in_count = static_cast<std::size_t>((Forward ? o.in : o.out).count());
    const auto out_count = static_cast<std::size_t>((Forward ? o.out : o.in).count());
    // Where the caller's arrays overlap without being one array, field f's output may reach
    // into another field's input before that field is read. The fields' exchanges go in one
    // order on every rank, whatever its arrays, so such a rank reads its input from a copy (kept
    // for the next call).
    const std::size_t fields = batch_size();
    if (static_cast<const void*>(in) != static_cast<const void*>(out) &&
        overlap(in, static_cast<std::int64_t>(fields * in_count), out,
                static_cast<std::int64_t>(fields * out_count))) {
      const std::size_t bytes = fields * in_count * sizeof(In);
      input_copy.resize((bytes + sizeof(Complex) - 1) / sizeof(Complex));
      std::memcpy(static_cast<void*>(input_copy.data()), in, bytes);
      in = reinterpret_cast<const In*>(input_copy.data());
    }
    for (std::size_t f = 0; f < fields; ++f) {
      per_field->impl_->template execute<Forward>(in + f * in_count, out + f * out_count, scaling,
                                                  workspace);
    }
  }

  // A call after begin_call: the batch's fields in turn (their one-field plan's calls need no
  // checks of their own), the tuned path, or the plan's operations.
  template <bool Forward, typename In, typename Out>
  void execute(const In* in, Out* out, Scaling scaling, void* workspace) {
    if (per_field) return run_per_field<Forward>(in, out, scaling, workspace);
    if constexpr (!std::is_same_v<Out, Real> || !std::is_same_v<In, Real>) {
      if (tuned) return run_tuned<Forward>(in, out, scaling);
    }
    run(Forward ? forward_ops : backward_ops, in, out, scaling, workspace);
  }

  // A call on the tuned path: Fft3d's forward is unscaled and its backward scaled by 1/N; any
  // other scaling is a pass over the result.
  template <bool Forward, typename In, typename Out>
  void run_tuned(const In* in, Out* out, Scaling scaling) {
    if constexpr (Forward) {
      tuned->forward(in, out);
    } else {
      tuned->backward(in, out);
    }
    const double factor = factor_of(scaling) / (Forward ? 1 : full_scale);
    scale(out, Forward ? o.out.count() : o.in.count(), static_cast<Real>(factor));
  }
  // What a call's scaling multiplies the transform by.
  double factor_of(Scaling scaling) const {
    return scaling == Scaling::none   ? 1
           : scaling == Scaling::full ? full_scale
                                      : std::sqrt(full_scale);
  }

  ~Impl() {
    for (auto p : plans)
      if (p != nullptr) F::destroy(p);
  }
  std::size_t batch_size() const { return static_cast<std::size_t>(o.batch); }
  // The batch in the work arrays, as in the caller's: field after field (apart) or each point's
  // values in a row. Where interleaved, the arrays hold one field whose points hold `batch`
  // values (to the reshapes and the relayouts).
  bool apart() const { return o.batch > 1 && o.batch_layout == BatchLayout::contiguous; }
  std::size_t fields() const { return apart() ? batch_size() : 1; }
  std::size_t per_point() const { return apart() ? 1 : batch_size(); }
  // One point's bytes in a field: a Real or a Complex, times the batch where interleaved.
  std::size_t point_bytes(bool real) const {
    return (real ? sizeof(Real) : sizeof(Complex)) * per_point();
  }
  // All fields' bytes at one point.
  std::size_t element_bytes(bool real) const { return point_bytes(real) * fields(); }
  std::size_t bytes_of(const Where& w) const {
    return static_cast<std::size_t>(w.box.count()) * element_bytes(w.real);
  }
  const Box& mine(const std::vector<Box>& boxes) const {
    return boxes[static_cast<std::size_t>(rank)];
  }

  // An FFTW plan over every line along `axes` of box b (one axis: its lines; more: the planes
  // or the box they span, a multidimensional DFT), and the batch (its `fields` fields where
  // apart, else each point's values; and for a real kind on complex data its two parts), in
  // place on `data` or, where `other` is given, from `data` into `other`; for r2c/c2r from `data`
  // into `other` between the real box `real_box` and the complex box b. nullptr for an empty
  // box; where FFTW makes none (wisdom only) `planned` turns false.
  typename F::plan make_plan(const Box& b, const Box& real_box, const std::vector<int>& axes,
                             Kind k, int sign, typename Op::Call call, bool real_data,
                             std::ptrdiff_t fields, std::byte* data, std::byte* other,
                             bool& planned) {
    if (b.empty()) return nullptr;
    const auto inner = static_cast<std::ptrdiff_t>(per_point());
    const bool two_parts = call == Op::r2r && !real_data;  // re and im as two real lines
    const std::ptrdiff_t parts = two_parts ? 2 : 1;
    auto strides = [&](const Box& box) {
      return std::array<std::ptrdiff_t, 3>{box.extent(1) * box.extent(2) * inner * parts,
                                           box.extent(2) * inner * parts, inner * parts};
    };
    const auto s = strides(b), sr = strides(real_box);
    const bool r2c = call == Op::r2c, c2r = call == Op::c2r;
    // In and out strides: r2c reads the real box and writes the complex one, c2r the reverse.
    const auto& is = r2c ? sr : s;
    const auto& os = c2r ? sr : s;
    std::vector<Dim> dims, how;
    for (std::size_t d = 0; d < 3; ++d) {
      const auto axis = static_cast<int>(d);
      if (std::find(axes.begin(), axes.end(), axis) == axes.end()) {
        how.push_back({b.extent(axis), is[d], os[d]});
      } else {
        dims.push_back({(r2c || c2r) ? real_box.extent(axis) : b.extent(axis), is[d], os[d]});
      }
    }
    const int dims_rank = static_cast<int>(dims.size());
    if (apart()) {  // the fields, one after another: r2c reads real ones and writes complex ones
      const std::ptrdiff_t field = b.count() * parts, real_field = real_box.count();
      how.push_back({fields, r2c ? real_field : field, c2r ? real_field : field});
    } else {  // each point's values in a row
      how.push_back({inner, parts, parts});
    }
    if (two_parts) how.push_back({2, 1, 1});
    const int h = static_cast<int>(how.size());
    auto* c = reinterpret_cast<typename F::complex*>(data);
    auto* r = reinterpret_cast<Real*>(data);
    typename F::plan p = nullptr;
    auto* c_out = other != nullptr ? reinterpret_cast<typename F::complex*>(other) : c;
    auto* r_out = other != nullptr ? reinterpret_cast<Real*>(other) : r;
    if (call == Op::dft) {
      p = F::guru64(dims_rank, dims.data(), h, how.data(), c, c_out, sign, o.fftw_flags);
    } else if (call == Op::r2r) {
      const auto kind = r2r_kind(k);
      p = F::guru64_r2r(dims_rank, dims.data(), h, how.data(), r, r_out, &kind, o.fftw_flags);
    } else if (r2c) {
      p = F::guru64_r2c(dims_rank, dims.data(), h, how.data(), r,
                        reinterpret_cast<typename F::complex*>(other), o.fftw_flags);
    } else {
      p = F::guru64_c2r(dims_rank, dims.data(), h, how.data(), c, reinterpret_cast<Real*>(other),
                        o.fftw_flags);
    }
    if (p == nullptr) planned = false;
    plans.push_back(p);
    return p;
  }

  // Box b's `fields` fields seen as [A][n][B] reals along `axis` (PairedTrig's view): A counts
  // the fields and the values before the axis, B the values after it (a point's batch where
  // interleaved) and a complex value's two parts.
  std::array<std::size_t, 3> lines_along(const Box& b, int axis, bool real_data,
                                         std::size_t fields) const {
    std::array<std::size_t, 3> v{fields, static_cast<std::size_t>(b.extent(axis)),
                                 per_point() * (real_data ? 1 : 2)};
    for (int d = 0; d < 3; ++d) {
      if (d != axis) v[d < axis ? 0 : 2] *= static_cast<std::size_t>(b.extent(d));
    }
    return v;
  }
  // Which LineTransform, if any, runs a transform of kind k along `axis` of box b rather than
  // FFTW's r2r (line by line): type IV of even length (HalfLengthDct4, each line its own DFT);
  // types I (SplitTrig1 at odd lengths, else ExtendedTrig), II and III (PairedTrig) where
  // the two lines they pair, whose values then share one DFT (a NaN or a huge value in one reaches
  // the other), are lines this plan mixes anyway: a complex value's real and imaginary parts (some
  // axis is a DFT), or, for one real field, neighbouring lines of a grid transformed along every
  // axis. Real batches and grids with an axis of kind none keep FFTW's r2r for types I, II and III.
  enum class Lines { fftw, half_length_dct4, split_trig1, extended, paired };
  Lines own_lines(Kind k, const Box& b, int axis, bool real_data) const {
    const auto n = static_cast<std::size_t>(b.extent(axis));
    if (HalfLengthDct4<Real>::serves(k, n)) return Lines::half_length_dct4;
    const Lines paired = SplitTrig1<Real>::serves(k, n)     ? Lines::split_trig1
                         : ExtendedTrig<Real>::serves(k, n) ? Lines::extended
                         : PairedTrig<Real>::serves(k)      ? Lines::paired
                                                            : Lines::fftw;
    const bool mixed_anyway =
        !real_data || (o.batch == 1 && std::none_of(o.kinds.begin(), o.kinds.end(),
                                                    [](Kind a) { return a == Kind::none; }));
    return mixed_anyway ? paired : Lines::fftw;
  }
  // The complex values of scratch the LineTransform `lines` along `axis` of b takes.
  std::size_t lines_scratch(Lines lines, Kind k, const Box& b, int axis, bool real_data) const {
    const auto [a, n, rest] = lines_along(b, axis, real_data, fields());
    return LinePanels<Real>::scratch_size(a, n, rest, line_scratch(lines, k));
  }
  // The complex values of scratch the LineTransform `lines` for kind k takes on a box
  // [A][n][B], as a function of A, n and B.
  static typename LinePanels<Real>::ScratchSize line_scratch(Lines lines, Kind k) {
    return [lines, k](std::size_t a, std::size_t n, std::size_t b) -> std::size_t {
      switch (lines) {
        case Lines::half_length_dct4:
          return HalfLengthDct4<Real>::scratch_size(a, n, b);
        case Lines::split_trig1:
          return SplitTrig1<Real>::scratch_size(k, a, n, b);
        case Lines::extended:
          return ExtendedTrig<Real>::scratch_size(k, a, n, b);
        case Lines::paired:
          return PairedTrig<Real>::scratch_size(a, n, b);
        case Lines::fftw:
          break;
      }
      return 0;
    };
  }
  // op.lines: the LineTransform `lines` for kind k along `axis` of box b (in panels where its
  // scratch would not stay in cache: LinePanels), its scratch the array at `scratch`.
  void make_trig(Op& op, Lines lines, const Box& b, int axis, Kind k, bool real_data,
                 std::size_t fields, std::byte* scratch, bool& planned) {
    if (b.empty()) return;
    const auto [a, n, rest] = lines_along(b, axis, real_data, fields);
    const unsigned flags = o.fftw_flags;
    const typename LinePanels<Real>::Make make =
        [lines, k, flags](std::size_t planes, std::size_t length, std::size_t values,
                          std::size_t ldx, Complex* z) -> std::unique_ptr<LineTransform<Real>> {
      if (lines == Lines::half_length_dct4)
        return std::make_unique<HalfLengthDct4<Real>>(k, planes, length, values, z, flags, ldx);
      if (lines == Lines::split_trig1)
        return SplitTrig1<Real>::make(k, planes, length, values, z, flags, ldx);
      if (lines == Lines::extended)
        return std::make_unique<ExtendedTrig<Real>>(k, planes, length, values, z, flags, ldx);
      return std::make_unique<PairedTrig<Real>>(k, planes, length, values, z, flags, ldx);
    };
    auto* z = reinterpret_cast<Complex*>(scratch);
    const auto size = line_scratch(lines, k);
    if (LinePanels<Real>::needed(a, n, rest, size)) {
      trigs.push_back(std::make_unique<LinePanels<Real>>(a, n, rest, z, size, make));
    } else {
      trigs.push_back(make(a, n, rest, 0, z));
    }
    if (!trigs.back()->planned()) planned = false;
    op.lines = trigs.back().get();
  }

  // The columns of box b's matrix along `axis`: the values after the axis, per field.
  std::int64_t columns_of(const Box& b, int axis) const {
    auto cols = static_cast<std::int64_t>(per_point());
    for (int d = axis + 1; d < 3; ++d)
      cols *= b.extent(d);
    return cols;
  }
  // Whether a step runs in one FFTW plan with its neighbours that do too (a run of them: a
  // multidimensional DFT). Where FFTW times its plans, the DFTs on the same boxes do (and an
  // r2c, the last axis of FFTW's multidimensional r2c): one plan of the planes or of the whole
  // box, which FFTW's planner may still run as lines where that is faster.
  bool joins(const logic::Step& step) const {
    return timed_plans(o.fftw_flags) && step.type == logic::Step::transform &&
           step.kind == Kind::dft;
  }
  // Whether a DFT along `axis` of box b runs through ColumnFfts' panels (make_columns), from the
  // box alone: any rank can tell for any other's.
  bool columns_fit(const Box& b, int axis) const {
    if (timed_plans(o.fftw_flags) || axis == 2 || b.empty()) return false;
    const std::int64_t cols = columns_of(b, axis);
    constexpr std::int64_t kInt = std::numeric_limits<int>::max();
    return cols >= 256 && (cols * static_cast<std::int64_t>(sizeof(Complex))) % 4096 == 0 &&
           cols <= kInt && b.extent(axis) <= kInt;
  }

  // op as a DFT along `axis` (0 or 1) of box b (`fields` fields one after another) through
  // ColumnFfts' panels (columns.hpp): each matrix [extent(axis)][values after the axis] copied
  // a few columns at a time into a compact scratch, transformed there, copied back. Only where
  // FFTW plans by estimate (the default: untimed, no MPI; measure finds its own blocking) and
  // its lines would lie a multiple of 4 KiB apart, 256 values or more: all in a few cache sets,
  // which FFTW's estimated plans pay for (a2a_local_ffts-like runs on an AMD EPYC: 512 lines of
  // 32 values 1024 apart 90 us strided, 54 us in panels; 64 x 4096 727 against 536 us; 96 x
  // 9216 17.5 against 4.0 ms; where the distance is not such a multiple, 64 x 4000 and 100 x
  // 10000, strided is faster). False otherwise: op is FFTW's plan.
  bool make_columns(Op& op, const Box& b, int axis, int sign, std::ptrdiff_t fields,
                    std::byte* trial) {
    if (!columns_fit(b, axis)) return false;
    const std::int64_t cols = columns_of(b, axis), len = b.extent(axis);
    std::int64_t slices = fields;
    for (int d = 0; d < axis; ++d)
      slices *= b.extent(d);
    auto* t = reinterpret_cast<Complex*>(trial);
    auto fft =
        std::make_unique<ColumnFfts<Real>>(len, cols, sign, o.fftw_flags, t, t, MPI_COMM_SELF);
    if (!fft->planned()) return false;
    op.call = Op::columns;
    op.column_ffts = fft.get();
    column_ffts.push_back(std::move(fft));
    op.slices = static_cast<std::size_t>(slices);
    op.slice = static_cast<std::size_t>(len * cols);
    return true;
  }

  // Marks op to run field by field (Op::by_field) where the fields lie apart and each starts as
  // aligned as the first (FFTW's plans, made on the first, then serve each).
  void by_fields(Op& op, std::size_t src_field, std::size_t dst_field) const {
    constexpr std::size_t kAlignment = 64;
    op.by_field = apart() && src_field % kAlignment == 0 && dst_field % kAlignment == 0;
    op.src_field = src_field;
    op.dst_field = dst_field;
  }
  void by_fields(Op& op, std::size_t field) const { by_fields(op, field, field); }

  // The operations of one direction from the logic (backward: the steps in reverse, inverse
  // kinds, c2r), planned on the work arrays a and b.
  std::vector<Op> build(bool forward, std::byte* a, std::byte* b, bool& planned) {
    std::vector<Op> ops;
    const auto& steps = plan.steps;
    const std::array<int, 3> start_order = forward ? o.in_order : o.out_order;
    const std::array<int, 3> end_order = forward ? o.out_order : o.in_order;
    // Where the caller's layout is not the plan's: converted on the way in and out.
    // FFTW's padded rows of an in-place r2c: on the real side (forward's start, backward's end).
    const std::size_t padded = o.r2c_padded ? static_cast<std::size_t>(2 * (o.n[2] / 2 + 1)) : 0;
    const bool relayout_start =
        start_order != std::array<int, 3>{0, 1, 2} || (forward && padded > 0);
    const bool relayout_end = end_order != std::array<int, 3>{0, 1, 2} || (!forward && padded > 0);
    std::byte* arrays[4] = {nullptr, nullptr, a, b};
    Where at{kCallerIn, mine(forward ? in_boxes : out_boxes), forward ? !complex_in : !complex_out};
    const Where end{kCallerOut, mine(forward ? out_boxes : in_boxes),
                    forward ? !complex_out : !complex_in};
    auto other_work = [&] { return other_work_array(at.array); };
    auto move = [&](typename Op::Type type, const Where& to, const std::array<int, 3>& order) {
      Op op;
      op.type = type;
      op.src = at.array;
      op.dst = to.array;
      op.unit = point_bytes(to.real);
      op.bytes = bytes_of(to);
      op.box = to.box;
      op.order = order;
      op.padded_row = (type == Op::to_internal) == forward ? padded : 0;
      if (type == Op::copy) by_fields(op, op.bytes / batch_size());
      ops.push_back(op);
      at = to;
    };
    // Whether the steps from `first` on (in this direction) are all transforms of `box` (no
    // reshape, no r2c or c2r) of one sort: FFTW's in place (trig false), or LineTransforms (trig
    // true: each runs in place on any array, through its scratch).
    auto to_end_all = [&](std::size_t first, const Box& box, bool trig) {
      for (std::size_t i = first; i < steps.size(); ++i) {
        const logic::Step& step = steps[forward ? i : steps.size() - 1 - i];
        const Kind kind = forward ? step.kind : logic::inverse(step.kind);
        if (step.type == logic::Step::reshape || step.r2c ||
            (own_lines(kind, box, step.axis, step.real) != Lines::fftw) != trig) {
          return false;
        }
      }
      return true;
    };
    if (relayout_start) move(Op::to_internal, {kWorkA, at.box, at.real}, start_order);
    std::size_t scale_at = 0;
    Where scaled;
    bool scale_in_copy = false;
    // A pass of its own that scales `bytes` of `array`, as ops[index].
    auto insert_scale = [&](std::size_t index, int array, std::size_t bytes) {
      Op scale;
      scale.type = Op::scale;
      scale.src = scale.dst = array;
      scale.bytes = bytes / sizeof(Real);
      by_fields(scale, bytes / batch_size());
      ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(index), scale);
    };
    // The scaling commutes with every step, and ColumnFfts' panels scale as they copy out: it
    // goes with the last DFT in this direction that runs in panels on every rank whose box is
    // not empty, no pass of its own. The same step on every rank (each element scaled once on
    // its way through the ranks), so chosen from every rank's boxes.
    std::size_t panel_step = steps.size();
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const std::size_t s = forward ? i : steps.size() - 1 - i;
      const logic::Step& step = steps[s];
      const Kind kind = forward ? step.kind : logic::inverse(step.kind);
      if (step.type == logic::Step::reshape || step.r2c || kind != Kind::dft) continue;
      const auto& boxes = s == 0 ? in_boxes : steps[s - 1].boxes;
      if (std::all_of(boxes.begin(), boxes.end(),
                      [&](const Box& box) { return box.empty() || columns_fit(box, step.axis); })) {
        panel_step = s;
      }
    }
    std::size_t panel_op = 0;  // the index in ops of panel_step's transform
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const std::size_t s = forward ? i : steps.size() - 1 - i;
      const logic::Step& step = steps[s];
      const Box& before = mine(s == 0 ? in_boxes : steps[s - 1].boxes);
      if (step.type == logic::Step::reshape) {
        const Box& to = forward ? mine(step.boxes) : before;
        exchanges.push_back(std::make_unique<Redistribution>(
            comm, at.box, to, point_bytes(step.real), fields(), logic::fused_auto(o.backend)));
        Op op;
        op.type = Op::reshape;
        op.exchange = exchanges.back().get();
        op.src = at.array;
        // Straight into the caller's output where nothing follows but FFTW's transforms in
        // place (they then run there: no copy at the end).
        op.dst = !relayout_end && to_end_all(i + 1, to, false) ? kCallerOut : other_work();
        ops.push_back(op);
        at = {op.dst, to, step.real};
        continue;
      }
      // This step and the next that join it (joins): one FFTW plan.
      std::vector<std::size_t> group{s};
      if (joins(step)) {
        while (i + 1 < steps.size() && joins(steps[forward ? i + 1 : steps.size() - 2 - i])) {
          ++i;
          group.push_back(forward ? i : steps.size() - 1 - i);
        }
      }
      std::vector<int> axes;
      std::size_t lead = s;  // the group's step that makes the op: its r2c, where one joins
      for (const std::size_t g : group) {
        axes.push_back(steps[g].axis);
        if (steps[g].r2c) lead = g;
      }
      const logic::Step& t = steps[lead];
      const Box& t_before = mine(lead == 0 ? in_boxes : steps[lead - 1].boxes);
      const Kind kind = forward ? t.kind : logic::inverse(t.kind);
      const int sign = forward ? FFTW_FORWARD : FFTW_BACKWARD;
      // The first transform reads the caller's input and writes a work array, no copy before
      // it, where it runs as fast so and leaves its input as it was: a LineTransform (two passes
      // anyway), an r2c (out of place anyway; not a c2r, which FFTW lets overwrite its input),
      // FFTW's DFTs of unit-stride lines (axis 2, one field or fields apart); FFTW's plans for
      // it are made out of place from the other work array (stand_in). Elsewhere a copy first,
      // then the plan in place.
      const Lines lines = t.r2c ? Lines::fftw : own_lines(kind, at.box, t.axis, t.real);
      const bool trig = lines != Lines::fftw;
      Op op;
      op.type = Op::transform;
      op.bytes = bytes_of(at);
      if (t.r2c) {  // r2c reads real fields and writes complex ones, c2r the reverse
        const std::size_t real_field = static_cast<std::size_t>(t_before.count()) * sizeof(Real);
        const std::size_t complex_field =
            static_cast<std::size_t>(mine(t.boxes).count()) * sizeof(Complex);
        by_fields(op, forward ? real_field : complex_field, forward ? complex_field : real_field);
      } else {
        by_fields(op, op.bytes / batch_size());
      }
      const auto fields = static_cast<std::ptrdiff_t>(op.by_field ? 1 : this->fields());
      // ColumnFfts' panels copy their columns out of any array into their own scratch and back
      // into another: like a LineTransform, they read the caller's input straight. (Only under
      // estimate: never for a group of steps, which only joins where FFTW times its plans.)
      const bool columns = !trig && !t.r2c && kind == Kind::dft &&
                           make_columns(op, at.box, t.axis, sign, fields, arrays[kWorkB]);
      if (columns && forward) column_ways[s] = op.column_ffts->name();
      // (Not a multidimensional plan: out of place it is slower than a copy, then in place.)
      const bool straight = trig || columns || (t.r2c && forward) ||
                            (!t.r2c && t.axis == 2 && per_point() == 1 && axes.size() == 1);
      if (at.array == kCallerIn && !straight) move(Op::copy, {kWorkA, at.box, at.real}, {0, 1, 2});
      op.src = op.dst = at.array;
      // In the caller's output: planned in place on work array B, its stand-in.
      std::byte* planned_src = at.array == kCallerOut ? arrays[kWorkB] : arrays[at.array];
      if (at.array == kCallerIn) {
        // LineTransforms to the end: into the caller's output, which they then transform in place
        // (no work array between them: one array fewer in cache).
        op.dst = trig && !relayout_end && to_end_all(i + 1, at.box, true) ? kCallerOut : kWorkA;
        if (!trig && !columns) {
          op.reads_caller = true;
          planned_src = arrays[kWorkB];
        }
      }
      if (t.r2c) {
        op.call = forward ? Op::r2c : Op::c2r;
        op.dst = other_work();
        // A c2r that ends backward writes the caller's output itself, no copy after it: it
        // reads a work array alone (FFTW's c2r overwrites its input, so never the caller's).
        if (!forward && i + 1 == steps.size() && !relayout_end &&
            (at.array == kWorkA || at.array == kWorkB)) {
          op.dst = kCallerOut;
          op.dst_bytes = static_cast<std::size_t>(t_before.count() * fields) * point_bytes(true);
        }
        op.plan = make_plan(mine(t.boxes), t_before, axes, kind, sign, op.call, false, fields,
                            planned_src, arrays[other_work()], planned);
        at = {op.dst, forward ? mine(t.boxes) : t_before, !forward};
      } else if (trig) {
        op.call = Op::trig;
        op.scratch = other_work_array(op.dst);
        make_trig(op, lines, at.box, t.axis, kind, t.real, static_cast<std::size_t>(fields),
                  arrays[op.scratch], planned);
        at.array = op.dst;
      } else if (columns) {
        at.array = op.dst;
      } else {
        op.call = kind == Kind::dft ? Op::dft : Op::r2r;
        op.plan = make_plan(at.box, at.box, axes, kind, sign, op.call, t.real, fields, planned_src,
                            op.dst == op.src ? nullptr : arrays[op.dst], planned);
        at.array = op.dst;
      }
      if (std::find(group.begin(), group.end(), panel_step) != group.end()) panel_op = ops.size();
      ops.push_back(op);
      scale_at = ops.size();
      scaled = at;
    }
    if (scale_at > 0 && ops[scale_at - 1].call == Op::trig) {
      // The last transform a LineTransform: it scales as it writes its lines, and where nothing
      // follows it writes them into the caller's output, with no copy after it.
      Op& last = ops[scale_at - 1];
      last.scales = true;
      if (scale_at == ops.size() && !relayout_end && at.array != kCallerOut) {
        last.dst = kCallerOut;
        at.array = kCallerOut;
      }
    } else if (panel_step < steps.size()) {
      // Here in the panels; where this rank's box is empty there is nothing to scale, and
      // where FFTW could not plan the panels (their fallback is its strided plan) in a pass
      // right after that transform.
      Op& panels = ops[panel_op];
      if (panels.call == Op::columns) {
        panels.scales = true;
      } else if (panels.plan != nullptr) {
        insert_scale(panel_op + 1, panels.dst, panels.bytes);
      }
    } else if (scale_at > 0 && scale_at == ops.size() && at.array != kCallerOut && !relayout_end) {
      scale_in_copy = true;     // the last transform ends the ops: the copy out scales as it goes
    } else if (scale_at > 0) {  // the scaling, after the last transform
      insert_scale(scale_at, scaled.array, bytes_of(scaled));
    }
    if (at.array != kCallerOut) move(relayout_end ? Op::from_internal : Op::copy, end, end_order);
    if (scale_in_copy) ops.back().scales = true;
    return ops;
  }

  void run(const std::vector<Op>& ops, const void* in, void* out, Scaling scaling,
           void* workspace) {
    std::byte* a = reinterpret_cast<std::byte*>(work.data());
    if (o.external_workspace) a = static_cast<std::byte*>(workspace);  // begin_call checked it
    std::byte* arrays[4] = {const_cast<std::byte*>(static_cast<const std::byte*>(in)),
                            static_cast<std::byte*>(out), a, a + buffer_bytes};
    const auto factor = static_cast<Real>(factor_of(scaling));
    for (std::size_t i = 0; i < ops.size();) {
      if (!ops[i].by_field) {
        run_op(ops[i], arrays, factor, 0);
        ++i;
        continue;
      }
      std::size_t end = i;  // a run of operations field by field: each field through all of them
      while (end < ops.size() && ops[end].by_field)
        ++end;
      for (std::size_t f = 0; f < batch_size(); ++f)
        for (std::size_t k = i; k < end; ++k)
          run_op(ops[k], arrays, factor, f);
      i = end;
    }
  }

  // Operation op; where it runs field by field (op.by_field), on field f only.
  void run_op(const Op& op, std::byte* const arrays[4], Real factor, std::size_t f) const {
    std::byte* src = arrays[op.src] + f * op.src_field;
    std::byte* dst = arrays[op.dst] + f * op.dst_field;
    const std::size_t share = op.by_field ? batch_size() : 1;  // of op.bytes
    switch (op.type) {
      case Op::copy:
        if (op.scales && factor != Real(1)) {
          scaled_copy(reinterpret_cast<const Real*>(src), reinterpret_cast<Real*>(dst),
                      op.bytes / share / sizeof(Real), factor);
        } else if (src != dst && op.bytes > 0) {
          std::memmove(dst, src, op.bytes / share);
        }
        break;
      case Op::reshape:
        op.exchange->execute(src, dst);
        break;
      case Op::transform:
        if (op.reads_caller && F::alignment_of(src) != planned_alignment) {
          std::byte* copy = arrays[kWorkB] + f * op.src_field;
          std::memcpy(copy, src, op.bytes / share);
          src = copy;
        }
        if (op.src == kCallerOut && !op.own_scratch() &&
            F::alignment_of(src) != planned_alignment) {
          // An FFTW plan in place in the caller's output, which is not aligned as the plan's
          // stand-in: on a copy in work array B (free once the last reshape has run), then back.
          std::byte* copy = arrays[kWorkB] + f * op.src_field;
          std::memcpy(copy, src, op.bytes / share);
          execute(op, copy, copy, arrays[op.scratch], Real(1));
          std::memcpy(src, copy, op.bytes / share);
          break;
        }
        if (op.dst_bytes > 0 && F::alignment_of(dst) != planned_alignment) {
          std::byte* stand_in = arrays[other_work_array(op.src)] + f * op.dst_field;
          execute(op, src, stand_in, arrays[op.scratch], Real(1));
          std::memcpy(dst, stand_in, op.dst_bytes);
          break;
        }
        execute(op, src, dst, arrays[op.scratch], op.scales ? factor : Real(1));
        break;
      case Op::scale:  // op.bytes counts reals here
        scale(reinterpret_cast<Real*>(src), static_cast<std::int64_t>(op.bytes / share), factor);
        break;
      case Op::to_internal:
      case Op::from_internal:
        relayout(op, src, dst, fields());
        break;
    }
  }

  // Between the caller's axis order and padded rows and the plan's (row-major over the box),
  // for each of `fields` fields (one after another on both sides), each point op.unit bytes.
  // Runs of the fastest axis are copied whole where both keep it fastest (FFTW-MPI's
  // transposed [y][x][z], for one).
  static void relayout(const Op& op, const std::byte* src, std::byte* dst, std::size_t fields) {
    switch (op.unit) {  // a point's size known to the compiler: its copies are single moves
      case 4:
        return relayout_as<4>(op, src, dst, fields);
      case 8:
        return relayout_as<8>(op, src, dst, fields);
      case 16:
        return relayout_as<16>(op, src, dst, fields);
      default:
        return relayout_as<0>(op, src, dst, fields);
    }
  }
  template <std::size_t Unit>
  static void relayout_as(const Op& op, const std::byte* src, std::byte* dst, std::size_t fields) {
    const std::size_t u = Unit != 0 ? Unit : op.unit;
    std::array<std::size_t, 3> e{};
    for (std::size_t d = 0; d < 3; ++d)
      e[d] = static_cast<std::size_t>(op.box.extent(static_cast<int>(d)));
    const std::size_t points = e[0] * e[1] * e[2];
    if (points == 0) return;
    // The caller's stride of each axis, in points (its fields, where apart, are not padded).
    std::array<std::size_t, 3> stride{};
    std::size_t s = 1;
    for (int k = 2; k >= 0; --k) {
      const auto axis = static_cast<std::size_t>(op.order[static_cast<std::size_t>(k)]);
      stride[axis] = s;
      s *= axis == 2 && op.padded_row > 0 ? op.padded_row : e[axis];
    }
    const bool into = op.type == Op::to_internal;
    const bool runs = op.order[2] == 2;  // z fastest on both sides
    for (std::size_t f = 0; f < fields; ++f) {
      for (std::size_t i0 = 0; i0 < e[0]; ++i0) {
        for (std::size_t i1 = 0; i1 < e[1]; ++i1) {
          const std::size_t mine_at = (f * points + (i0 * e[1] + i1) * e[2]) * u;
          const std::size_t theirs = (f * points + i0 * stride[0] + i1 * stride[1]) * u;
          if (runs) {
            std::memcpy(dst + (into ? mine_at : theirs), src + (into ? theirs : mine_at), e[2] * u);
          } else if (into) {
            strided_copy<Unit>(dst + mine_at, u, src + theirs, stride[2] * u, e[2], u);
          } else {
            strided_copy<Unit>(dst + theirs, stride[2] * u, src + mine_at, u, e[2], u);
          }
        }
      }
    }
  }
  // count values of u bytes (Unit, where not 0) from `from` (step apart) to `to` (step apart).
  template <std::size_t Unit>
  static void strided_copy(std::byte* to, std::size_t to_step, const std::byte* from,
                           std::size_t from_step, std::size_t count, std::size_t u) {
    for (std::size_t i = 0; i < count; ++i)
      std::memcpy(to + i * to_step, from + i * from_step, Unit != 0 ? Unit : u);
  }

  static void execute(const Op& op, std::byte* src, std::byte* dst, std::byte* scratch,
                      Real factor) {
    if (op.call == Op::trig) {  // from src into dst (maybe the same), through the scratch
      if (op.lines != nullptr) {
        op.lines->run(reinterpret_cast<const Real*>(src), reinterpret_cast<Real*>(dst),
                      reinterpret_cast<Complex*>(scratch), factor);
      }
      return;
    }
    if (op.call == Op::columns) {  // scaled as its panels are copied out, where op.scales
      auto* from = reinterpret_cast<const Complex*>(src);
      auto* to = reinterpret_cast<Complex*>(dst);
      for (std::size_t i = 0; i < op.slices; ++i)
        op.column_ffts->run(from + i * op.slice, to + i * op.slice, factor);
      return;
    }
    if (op.plan == nullptr) return;  // an empty box
    auto* cs = reinterpret_cast<typename F::complex*>(src);
    auto* cd = reinterpret_cast<typename F::complex*>(dst);
    auto* rs = reinterpret_cast<Real*>(src);
    auto* rd = reinterpret_cast<Real*>(dst);
    switch (op.call) {
      case Op::dft:
        F::execute(op.plan, cs, cd);
        break;
      case Op::r2r:
        F::execute_r2r(op.plan, rs, rd);
        break;
      case Op::r2c:
        F::execute_r2c(op.plan, rs, cd);
        break;
      case Op::c2r:
        F::execute_c2r(op.plan, cs, rd);
        break;
      case Op::trig:  // above
      case Op::columns:
        break;
    }
  }
};

template <typename Real>
BoxFft<Real>::BoxFft(MPI_Comm comm, const BoxOptions& options) : impl_(std::make_unique<Impl>()) {
  require_intracommunicator(comm, "a2a::fft::BoxFft");
  Impl& m = *impl_;
  m.watch.emplace(comm);
  m.comm = comm;
  m.o = options;
  MPI_Comm_size(comm, &m.procs);
  MPI_Comm_rank(comm, &m.rank);
  // Checked and agreed before any plan: every rank throws the same error, or none.
  const bool as_root = root_value(comm, options_text(options)) == options_text(options);
  m.in_boxes = all_boxes(comm, options.in);
  m.out_boxes = all_boxes(comm, options.out);
  std::string problem = logic::kinds_problem(options.n, options.kinds, options.r2c);
  if (problem.empty() && options.batch < 1) {
    problem = "a2a::fft: batch " + std::to_string(options.batch) + ": must be at least 1";
  }
  if (problem.empty()) problem = logic::size_problem(options.n, options.batch, sizeof(Complex));
  if (problem.empty() && options.r2c_padded) {
    const bool whole_z =
        options.in.empty() || (options.in.lo[2] == 0 && options.in.hi[2] == options.n[2]);
    if (!options.r2c) {
      problem = "a2a::fft: r2c_padded needs r2c";
    } else if (!whole_z) {
      problem = "a2a::fft: r2c_padded needs input boxes whole along axis 2 (FFTW's padded rows)";
    } else if (options.in_order != std::array<int, 3>{0, 1, 2} ||
               (options.batch > 1 && options.batch_layout == BatchLayout::contiguous)) {
      problem =
          "a2a::fft: r2c_padded needs row-major input (in_order 0, 1, 2) and an "
          "interleaved batch";
    }
  }
  for (const auto& [order, side] :
       {std::pair{options.in_order, "in_order"}, std::pair{options.out_order, "out_order"}}) {
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    if (problem.empty() && sorted != std::array<int, 3>{0, 1, 2}) {
      problem = std::string("a2a::fft: ") + side + " must be a permutation of 0, 1, 2";
    }
  }
  const logic::Grid spectrum = options.r2c ? r2c_grid(options.n) : options.n;
  if (problem.empty()) problem = logic::tiling_problem(m.in_boxes, options.n, "input");
  if (problem.empty()) problem = logic::tiling_problem(m.out_boxes, spectrum, "output");
  if (problem.empty() && !as_root) {
    problem = "a2a::fft: rank " + std::to_string(m.rank) + "'s options differ from rank 0's";
  }
  if (const std::string agreed = agree_on_error(comm, problem); !agreed.empty()) {
    throw Error(agreed);
  }
  const bool any_dft = std::any_of(options.kinds.begin(), options.kinds.end(),
                                   [](Kind k) { return k == Kind::dft; });
  m.complex_in = any_dft && !options.r2c;
  m.complex_out = any_dft;
  for (std::size_t d = 0; d < 3; ++d)
    m.full_scale /= logic::logical_size(options.kinds[d], options.n[d]);
  m.plan = logic::plan(options.n, m.in_boxes, m.out_boxes, options.kinds, options.r2c);
  if (m.apart()) {
    BoxOptions one = options;
    one.batch = 1;
    const bool one_node = ranks_sharing_memory(comm) == m.procs;
    // Each rank its own messages, then the largest of all: O(P) boxes a rank.
    auto largest = static_cast<unsigned long long>(
        logic::largest_message(m.plan, m.in_boxes, m.rank, sizeof(Real)));
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
    if (fields_apart(one, m.in_boxes, m.out_boxes, m.point_bytes(!m.complex_in),
                     m.point_bytes(!m.complex_out), static_cast<std::size_t>(largest), one_node)) {
      m.per_field = std::make_unique<BoxFft<Real>>(comm, one);
      m.description = "each of the " + std::to_string(options.batch) +
                      " fields in turn: " + m.per_field->describe();
      m.buffer_bytes = m.per_field->workspace_bytes() / 2;
      return;
    }
  }
  if (const std::optional<Options> tuned = tuned_path(options, m.in_boxes, m.out_boxes)) {
    m.tuned = std::make_unique<Fft3d<Real>>(comm, *tuned);
    const std::string local = m.tuned->local_transforms();
    m.description = "the tuned " + std::string(tuned->p2 == 1 ? "slab" : "pencil") + " path (" +
                    std::to_string(tuned->p1) + "x" + std::to_string(tuned->p2) +
                    " process grid): " + m.tuned->backends() +
                    (local.empty() ? "" : "; local transforms " + local);
    m.buffer_bytes =
        static_cast<std::size_t>(std::max(
            {m.tuned->input_box().count(), m.tuned->output_box().count(), std::int64_t{1}})) *
        sizeof(Complex);
    return;
  }
  // Each work array holds the largest box of any step in its type.
  std::size_t most = std::max(
      static_cast<std::size_t>(m.mine(m.in_boxes).count()) * m.element_bytes(!m.complex_in),
      static_cast<std::size_t>(m.mine(m.out_boxes).count()) * m.element_bytes(!m.complex_out));
  for (const logic::Step& step : m.plan.steps) {
    most = std::max(most, static_cast<std::size_t>(m.mine(step.boxes).count()) *
                              m.element_bytes(step.real && !step.r2c));
    const Box& b = m.mine(step.boxes);
    if (step.type == logic::Step::transform && !step.r2c) {
      const auto lines = m.own_lines(step.kind, b, step.axis, step.real);
      most = std::max(most,
                      m.lines_scratch(lines, step.kind, b, step.axis, step.real) * sizeof(Complex));
    }
  }
  m.buffer_bytes = (std::max<std::size_t>(most, 1) + 63) / 64 * 64;
  m.work.resize(2 * m.buffer_bytes / sizeof(Complex));
  auto* a = reinterpret_cast<std::byte*>(m.work.data());
  // Both work arrays (buffer_bytes a multiple of 64 apart) have it.
  m.planned_alignment = Impl::F::alignment_of(m.work.data());
  bool planned = true;
  m.column_ways.assign(m.plan.steps.size(), "");
  m.forward_ops = m.build(true, a, a + m.buffer_bytes, planned);
  m.backward_ops = m.build(false, a, a + m.buffer_bytes, planned);
  int all_planned = planned;
  MPI_Allreduce(MPI_IN_PLACE, &all_planned, 1, MPI_INT, MPI_LAND, comm);
  if (!all_planned) {
    throw Error((options.fftw_flags & FFTW_WISDOM_ONLY) != 0
                    ? "a2a::fft::BoxFft: FFTW_WISDOM_ONLY: the wisdom has no plan for its "
                      "transforms"
                    : "a2a::fft::BoxFft: FFTW could not plan its transforms");
  }
  // The reshapes run one after another (execute() alone): one pair of buffers serves every
  // exchange, and one receive window every single-copy one.
  for (const auto& exchange : m.exchanges)
    exchange->share_with(*m.exchanges.front());
  // Planned on these arrays; run on the caller's. (Not `work = {}`: that keeps the capacity.)
  if (options.external_workspace) AlignedVector<Complex>().swap(m.work);
  std::size_t exchange = 0;
  for (std::size_t i = 0; i < m.plan.steps.size(); ++i) {
    const logic::Step& step = m.plan.steps[i];
    if (!m.description.empty()) m.description += ", ";
    if (step.type == logic::Step::reshape) {
      m.description += "reshape (" + m.exchanges[exchange++]->plan().name() + ")";
    } else {
      // Steps run in one plan: "dft along axes 2 and 1", "dft along axes 2, 1 and 0".
      std::string axes = std::to_string(step.axis);
      std::size_t last = i;
      auto joined = [&](std::size_t k) {  // step k runs in the plan of step k - 1
        return k < m.plan.steps.size() && m.joins(m.plan.steps[k - 1]) && m.joins(m.plan.steps[k]);
      };
      while (joined(last + 1)) {
        ++last;
        const bool more = joined(last + 1);
        axes += (more ? ", " : " and ") + std::to_string(m.plan.steps[last].axis);
      }
      m.description += std::string(step.r2c ? "r2c" : logic::name(step.kind)) +
                       (last > i ? " along axes " : " along axis ") + axes;
      i = last;
      if (!m.column_ways[i].empty()) {
        m.description += " (" + m.column_ways[i] + ")";
      }
    }
  }
}

template <typename Real>
BoxFft<Real>::~BoxFft() = default;

template <typename Real>
const Box& BoxFft<Real>::input_box() const {
  return impl_->o.in;
}
template <typename Real>
const Box& BoxFft<Real>::output_box() const {
  return impl_->o.out;
}
template <typename Real>
std::size_t BoxFft<Real>::input_elements() const {
  return impl_->input_elements();
}
template <typename Real>
std::size_t BoxFft<Real>::output_elements() const {
  return impl_->output_elements();
}
template <typename Real>
bool BoxFft<Real>::complex_input() const {
  return impl_->complex_in;
}
template <typename Real>
bool BoxFft<Real>::complex_output() const {
  return impl_->complex_out;
}
template <typename Real>
std::size_t BoxFft<Real>::workspace_bytes() const {
  return 2 * impl_->buffer_bytes;
}
template <typename Real>
std::size_t BoxFft<Real>::memory_bytes() const {
  const Impl& m = *impl_;
  std::size_t bytes = held_bytes(m.work) + held_bytes(m.input_copy);
  if (m.per_field) return bytes + m.per_field->memory_bytes();
  if (m.tuned) return bytes + m.tuned->memory_bytes();
  for (const auto& columns : m.column_ffts)
    if (columns) bytes += columns->scratch_bytes();
  std::vector<const Redistribution*> exchanges;
  for (const auto& exchange : m.exchanges)
    exchanges.push_back(exchange.get());
  return bytes + Redistribution::held_bytes(exchanges);
}
template <typename Real>
std::string BoxFft<Real>::describe() const {
  return impl_->description;
}

template <typename Real>
void BoxFft<Real>::forward(const Complex* in, Complex* out, Scaling s, void* workspace,
                           std::size_t in_bytes, std::size_t out_bytes) {
  impl_->begin_call(true, true, true, in, out, s, workspace, in_bytes, out_bytes);
  impl_->template execute<true>(in, out, s, workspace);
}
template <typename Real>
void BoxFft<Real>::forward(const Real* in, Complex* out, Scaling s, void* workspace,
                           std::size_t in_bytes, std::size_t out_bytes) {
  impl_->begin_call(true, false, true, in, out, s, workspace, in_bytes, out_bytes);
  impl_->template execute<true>(in, out, s, workspace);
}
template <typename Real>
void BoxFft<Real>::forward(const Real* in, Real* out, Scaling s, void* workspace,
                           std::size_t in_bytes, std::size_t out_bytes) {
  impl_->begin_call(true, false, false, in, out, s, workspace, in_bytes, out_bytes);
  impl_->template execute<true>(in, out, s, workspace);
}
template <typename Real>
void BoxFft<Real>::backward(const Complex* in, Complex* out, Scaling s, void* workspace,
                            std::size_t in_bytes, std::size_t out_bytes) {
  impl_->begin_call(false, true, true, in, out, s, workspace, in_bytes, out_bytes);
  impl_->template execute<false>(in, out, s, workspace);
}
template <typename Real>
void BoxFft<Real>::backward(const Complex* in, Real* out, Scaling s, void* workspace,
                            std::size_t in_bytes, std::size_t out_bytes) {
  impl_->begin_call(false, false, true, in, out, s, workspace, in_bytes, out_bytes);
  impl_->template execute<false>(in, out, s, workspace);
}
template <typename Real>
void BoxFft<Real>::backward(const Real* in, Real* out, Scaling s, void* workspace,
                            std::size_t in_bytes, std::size_t out_bytes) {
  impl_->begin_call(false, false, false, in, out, s, workspace, in_bytes, out_bytes);
  impl_->template execute<false>(in, out, s, workspace);
}

template class BoxFft<double>;
template class BoxFft<float>;

}  // namespace a2a::fft
