#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "a2a/agree.hpp"
#include "a2a/registry.hpp"
#include "a2a/spec.hpp"
#include "a2a/transpose.hpp"

namespace a2a {

__extension__ using Wide = __int128;  // exact products of two int64 values

std::int64_t Box::count() const {
  // In 128 bits: extents of boxes as large as everything() would overflow 64. Saturates at
  // the largest int64 (boxes given to a Redistribution are checked far below that).
  Wide n = 1;
  for (std::size_t d = 0; d < 3; ++d) {
    const Wide e = static_cast<Wide>(hi[d]) - lo[d];
    if (e <= 0) return 0;
    n *= e;
    if (n > std::numeric_limits<std::int64_t>::max()) n = std::numeric_limits<std::int64_t>::max();
  }
  return static_cast<std::int64_t>(n);
}

Box Box::intersect(const Box& other) const {
  Box b;
  for (std::size_t d = 0; d < 3; ++d) {
    b.lo[d] = std::max(lo[d], other.lo[d]);
    b.hi[d] = std::max(b.lo[d], std::min(hi[d], other.hi[d]));
  }
  return b;
}

Box Box::everything() {
  constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t highest = std::numeric_limits<std::int64_t>::max();
  return Box{{lowest, lowest, lowest}, {highest, highest, highest}};
}

std::int64_t block_start(std::int64_t n, int parts, int index) {
  if (n < 0 || parts < 1 || index < 0 || index > parts) {
    throw Error("a2a::block_start: needs n >= 0, parts >= 1 and 0 <= index <= parts (n=" +
                std::to_string(n) + ", parts=" + std::to_string(parts) +
                ", index=" + std::to_string(index) + ")");
  }
  return static_cast<std::int64_t>(static_cast<Wide>(n) * index / parts);  // no overflow
}

namespace {

// Why a caller's box cannot be redistributed ("" if it can): its bytes must be addressable as
// MPI_Aint (and std::size_t) without overflow.
std::string box_problem(const char* which, const Box& b, std::size_t element_bytes) {
  Wide bytes = static_cast<Wide>(element_bytes);
  for (std::size_t d = 0; d < 3; ++d) {
    const Wide e = static_cast<Wide>(b.hi[d]) - b.lo[d];
    if (e <= 0) return {};  // empty
    bytes *= e;
    if (bytes > std::numeric_limits<std::int64_t>::max()) break;
  }
  if (bytes <= std::numeric_limits<std::int64_t>::max()) return {};
  std::string text = std::string("the ") + which + " box [";
  for (std::size_t d = 0; d < 3; ++d)
    text += (d ? ", " : "") + std::to_string(b.lo[d]) + ":" + std::to_string(b.hi[d]);
  return text + ") of " + std::to_string(element_bytes) +
         "-byte elements holds more than 2^63 - 1 bytes";
}

}  // namespace

std::vector<Box> all_boxes(MPI_Comm comm, const Box& mine) {
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  std::vector<std::int64_t> flat(6 * static_cast<std::size_t>(procs));
  const std::int64_t me[6] = {mine.lo[0], mine.lo[1], mine.lo[2],
                              mine.hi[0], mine.hi[1], mine.hi[2]};
  MPI_Allgather(me, 6, MPI_INT64_T, flat.data(), 6, MPI_INT64_T, comm);
  std::vector<Box> boxes(static_cast<std::size_t>(procs));
  for (std::size_t p = 0; p < boxes.size(); ++p) {
    for (std::size_t d = 0; d < 3; ++d) {
      boxes[p].lo[d] = flat[6 * p + d];
      boxes[p].hi[d] = flat[6 * p + 3 + d];
    }
  }
  return boxes;
}

Plan Redistribution::make_plan(MPI_Comm comm, const std::vector<Piece>& send,
                               const std::vector<Piece>& recv, std::size_t element_bytes,
                               std::string_view backend, bool& uniform) {
  VectorLayout layout;
  for (const Piece& p : send) {
    layout.send_counts.push_back(static_cast<std::size_t>(p.box.count()) * element_bytes);
    layout.send_displs.push_back(p.offset);
  }
  for (const Piece& p : recv) {
    layout.recv_counts.push_back(static_cast<std::size_t>(p.box.count()) * element_bytes);
    layout.recv_displs.push_back(p.offset);
  }
  // Uniform when every count of every rank is the same (then the pieces are laid out in
  // rank order with equal sizes, exactly MPI_Alltoall's layout).
  unsigned long long lo_hi[2] = {~0ULL, 0};
  for (std::size_t c : layout.send_counts) {
    lo_hi[0] = std::min<unsigned long long>(lo_hi[0], c);
    lo_hi[1] = std::max<unsigned long long>(lo_hi[1], c);
  }
  unsigned long long global[2] = {lo_hi[0], ~lo_hi[1]};
  MPI_Allreduce(MPI_IN_PLACE, global, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
  // A uniform exchange is also a vector one: vector-only backends (sloav) serve it as such.
  const AlgorithmInfo* info = find_algorithm(Spec::parse(backend).name);
  uniform = global[0] == ~global[1] && (info == nullptr || info->supports(Kind::uniform));
  if (uniform) return Plan(backend, comm, static_cast<std::size_t>(global[0]));
  return Plan(backend, comm, std::move(layout));
}

Redistribution::Redistribution(MPI_Comm comm, const Box& in, const Box& out,
                               std::size_t element_bytes, std::string_view backend)
    : Redistribution(comm, in, out, Box::everything(), element_bytes, backend) {}

Redistribution::Redistribution(MPI_Comm comm, const Box& in, const Box& out, const Box& within,
                               std::size_t element_bytes, std::string_view backend)
    : Redistribution(comm, in, out, within, element_bytes, 1, backend,
                     agreed_pieces(comm, in, out, within, element_bytes, 1)) {}

Redistribution::Redistribution(MPI_Comm comm, const Box& in, const Box& out,
                               std::size_t element_bytes, std::size_t fields,
                               std::string_view backend)
    : Redistribution(comm, in, out, Box::everything(), element_bytes, fields, backend,
                     agreed_pieces(comm, in, out, Box::everything(), element_bytes, fields)) {}

Redistribution::Pieces Redistribution::agreed_pieces(MPI_Comm comm, const Box& in, const Box& out,
                                                     const Box& within, std::size_t element_bytes,
                                                     std::size_t fields) {
  // Checked and agreed on before any arithmetic on the boxes: every rank throws alike.
  require_intracommunicator(comm, "a2a::Redistribution");
  // Every rank's counts for its peers are theirs only where all give the same sizes.
  unsigned long long sizes[4] = {element_bytes, fields, ~0ULL - element_bytes, ~0ULL - fields};
  MPI_Allreduce(MPI_IN_PLACE, sizes, 4, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
  const bool same_sizes = sizes[0] == ~0ULL - sizes[2] && sizes[1] == ~0ULL - sizes[3];
  std::string problem = element_bytes == 0 ? "element_bytes is 0" : "";
  if (problem.empty() && fields == 0) problem = "fields is 0";
  if (problem.empty() && !same_sizes) {
    problem = "the ranks gave different element sizes or field counts";
  }
  if (problem.empty() && element_bytes > std::numeric_limits<std::int64_t>::max() / fields) {
    problem = std::to_string(fields) + " fields of " + std::to_string(element_bytes) +
              "-byte elements: more than 2^63 - 1 bytes per point";
  }
  // A point's bytes: its element in every field (each piece's fields lie one after another).
  element_bytes *= fields;
  if (problem.empty()) problem = box_problem("input", in, element_bytes);
  if (problem.empty()) problem = box_problem("output", out, element_bytes);
  if (problem = agree_on_error(comm, problem); !problem.empty()) {
    throw Error("a2a::Redistribution: " + problem);
  }
  Pieces pieces;
  MPI_Comm_rank(comm, &pieces.rank);
  const std::vector<Box> ins = all_boxes(comm, in), outs = all_boxes(comm, out);
  const Box in_part = in.intersect(within), out_part = out.intersect(within);
  std::size_t offset = 0;
  for (const Box& b : outs) {
    pieces.send.push_back({in_part.intersect(b), offset});
    offset += static_cast<std::size_t>(pieces.send.back().box.count()) * element_bytes;
  }
  offset = 0;
  for (const Box& b : ins) {
    pieces.recv.push_back({out_part.intersect(b), offset});
    offset += static_cast<std::size_t>(pieces.recv.back().box.count()) * element_bytes;
  }
  // The input boxes must not overlap, nor the output boxes (each rank checks its own against
  // all others: O(P)); then every input element goes somewhere exactly once and every output
  // element comes from somewhere exactly once iff the counts add up.
  bool disjoint = true, same_within = true;
  for (const Box& w : all_boxes(comm, within))
    same_within = same_within && w == within;
  for (std::size_t j = 0; j < ins.size(); ++j) {
    if (j == static_cast<std::size_t>(pieces.rank)) continue;
    disjoint = disjoint && in.intersect(ins[j]).empty() && out.intersect(outs[j]).empty();
  }
  std::int64_t sent = 0, received = 0;
  for (const Piece& p : pieces.send)
    sent += p.box.count();
  for (const Piece& p : pieces.recv)
    received += p.box.count();
  int ok[2] = {same_within, disjoint && sent == in_part.count() && received == out_part.count()};
  MPI_Allreduce(MPI_IN_PLACE, ok, 2, MPI_INT, MPI_LAND, comm);
  if (!ok[0]) throw Error("a2a::Redistribution: the ranks gave different chunks (within)");
  if (!ok[1]) {
    throw Error(
        "a2a::Redistribution: the input and output boxes do not cover the same indices exactly "
        "once");
  }
  return pieces;
}

Redistribution::Redistribution(MPI_Comm comm, const Box& in, const Box& out, const Box& within,
                               std::size_t element_bytes, std::size_t fields,
                               std::string_view backend, Pieces pieces)
    : in_(in),
      out_(out),
      element_(element_bytes),
      fields_(fields),
      rank_(pieces.rank),
      send_pieces_(std::move(pieces.send)),
      recv_pieces_(std::move(pieces.recv)),
      plan_(make_plan(comm, send_pieces_, recv_pieces_, element_bytes * fields, backend, uniform_)),
      send_in_order_(in_place(in_, send_pieces_)),
      recv_in_order_(in_place(out_, recv_pieces_)),
      // A single-copy plan reads and writes the arrays itself (execute_direct): no buffers.
      send_is_input_(!plan_.direct() && send_in_order_),
      recv_is_output_(!plan_.direct() && recv_in_order_),
      buffers_(std::make_shared<ExchangeBuffers>()) {
  const bool packs = !send_is_input_ && !plan_.direct();
  const bool unpacks = !recv_is_output_ && !plan_.direct();
  recv_area_ = packs ? 1 : 0;
  if (packs) send_buffer().resize(plan_.send_extent());
  if (unpacks) recv_buffer().resize(plan_.recv_extent());
  if (!plan_.direct()) return;
  // Pull where the whole input array is the send layout, on every rank.
  int whole = in_.intersect(within) == in_ && send_in_order_;
  MPI_Allreduce(MPI_IN_PLACE, &whole, 1, MPI_INT, MPI_LAND, comm);
  pulls_ = whole != 0;  // its window only where asked for: it is as large as the input
}

void Redistribution::prepare_pull() {
  if (!pulls_) throw Error("a2a::Redistribution::prepare_pull: this one cannot pull (pulls())");
  if (pull_ready_) return;
  plan_.prepare_pull();
  pull_ready_ = true;
}

void Redistribution::pull_only() {
  prepare_pull();
  plan_.pull_only();
  pull_only_ = true;
}

void Redistribution::release_pull() {
  if (pull_only_) throw Error("a2a::Redistribution::release_pull: it only pulls (pull_only())");
  if (pull_ready_) plan_.release_pull();
  pull_ready_ = false;
  pulls_ = false;
}

// Both single-copy on the same ranks, and `other` still receives (it does not only pull).
bool Redistribution::can_share_into(const Redistribution& other) const {
  return plan_.direct() && other.plan_.direct() && !other.pull_only_ &&
         plan_.same_ranks(other.plan_);
}

bool Redistribution::share_window(Redistribution& other) {
  if (pull_only_ || !can_share_into(other)) return false;
  plan_.share_receive_window(other.plan_);
  return true;
}

bool Redistribution::share_pull_area(Redistribution& other) {
  if (!pulls_ || !can_share_into(other)) return false;
  prepare_pull();
  plan_.share_pull_area(other.plan_);
  return true;
}

void Redistribution::share_with(Redistribution& other) {
  if (other.in_flight_) {  // growing its buffers would move them under its exchange
    throw Error("a2a::Redistribution::share_with: the other is between start() and finish()");
  }
  share_buffers(other.buffers_);
  share_window(other);
}

// True when every piece already sits in the array where the packed buffer would hold it: each
// piece is one contiguous run of the row-major array (full along the faster axes, one index
// along the slower ones) at its packed offset. Then packing (or unpacking) is the identity and
// execute() hands the array itself to the exchange: one pass less. With several fields only
// where a piece is the whole array (the array's fields and the piece's then lie alike).
bool Redistribution::in_place(const Box& array_box, const std::vector<Piece>& pieces) const {
  for (const Piece& p : pieces) {
    const Box& b = p.box;
    if (b.empty()) continue;
    if (fields_ > 1 && b.count() != array_box.count()) return false;
    int partial = -1;  // the fastest axis the piece does not span fully
    for (int d = 2; d >= 0 && partial < 0; --d) {
      if (b.extent(d) != array_box.extent(d)) partial = d;
    }
    for (int d = 0; d < partial; ++d) {
      if (b.extent(d) != 1) return false;
    }
    std::size_t start = 0;
    for (std::size_t d = 0; d < 3; ++d) {
      start = start * static_cast<std::size_t>(array_box.extent(static_cast<int>(d))) +
              static_cast<std::size_t>(b.lo[d] - array_box.lo[d]);
    }
    if (start * element_ != p.offset) return false;
  }
  return true;
}

// Copies a piece between an array over array_box and its packed row-major form at `packed`,
// field after field.
void Redistribution::copy(const Box& array_box, const Box& b, const std::byte* from, std::byte* to,
                          bool into_array) const {
  if (b.empty()) return;
  const auto e = element_;
  const std::size_t array_field = static_cast<std::size_t>(array_box.count()) * e;
  const std::size_t piece_field = static_cast<std::size_t>(b.count()) * e;
  for (std::size_t f = 0; f < fields_; ++f) {
    copy_field(array_box, b, from + f * (into_array ? piece_field : array_field),
               to + f * (into_array ? array_field : piece_field), into_array);
  }
}

void Redistribution::copy_field(const Box& array_box, const Box& b, const std::byte* from,
                                std::byte* to, bool into_array) const {
  const auto e = element_;
  const auto n1 = static_cast<std::size_t>(array_box.extent(1));
  const auto n2 = static_cast<std::size_t>(array_box.extent(2));
  // One memcpy per contiguous run: where the piece spans the array's whole last axis its rows
  // along axis 1 are one run (a 2D matrix is a box one element thick), and where it spans
  // axes 1 and 2 the whole piece is.
  const bool whole2 = b.lo[2] == array_box.lo[2] && b.hi[2] == array_box.hi[2];
  const bool whole12 = whole2 && b.lo[1] == array_box.lo[1] && b.hi[1] == array_box.hi[1];
  const std::int64_t rows_per_run = whole2 ? b.extent(1) : 1;
  const std::int64_t planes_per_run = whole12 ? b.extent(0) : 1;
  const std::size_t run = static_cast<std::size_t>(planes_per_run * rows_per_run * b.extent(2)) * e;
  std::size_t packed = 0;
  for (std::int64_t i = b.lo[0]; i < b.hi[0]; i += planes_per_run) {
    for (std::int64_t j = b.lo[1]; j < b.hi[1]; j += rows_per_run) {
      const std::size_t at = ((static_cast<std::size_t>(i - array_box.lo[0]) * n1 +
                               static_cast<std::size_t>(j - array_box.lo[1])) *
                                  n2 +
                              static_cast<std::size_t>(b.lo[2] - array_box.lo[2])) *
                             e;
      if (into_array)
        std::memcpy(to + at, from + packed, run);
      else
        std::memcpy(to + packed, from + at, run);
      packed += run;
    }
  }
}

void Redistribution::pack(const void* in, void* send) const {
  for (const Piece& p : send_pieces_) {
    copy(in_, p.box, static_cast<const std::byte*>(in), static_cast<std::byte*>(send) + p.offset,
         false);
  }
}

void Redistribution::exchange(const void* send, void* recv) {
  plan_.execute(send, recv);
}

void Redistribution::unpack(const void* recv, void* out) const {
  for (const Piece& p : recv_pieces_) {
    copy(out_, p.box, static_cast<const std::byte*>(recv) + p.offset, static_cast<std::byte*>(out),
         true);
  }
}

std::pair<const void*, void*> Redistribution::prepare(const void* in, void* out) {
  // The arrays are the buffers where packing or unpacking is the identity, unless both are
  // and they overlap: the exchange must not read and write the same memory, so then the
  // input is packed as usual.
  const auto in_at = reinterpret_cast<std::uintptr_t>(in);
  const auto out_at = reinterpret_cast<std::uintptr_t>(out);
  const std::size_t point = element_ * fields_;
  const bool overlap = in_at < out_at + static_cast<std::size_t>(out_.count()) * point &&
                       out_at < in_at + static_cast<std::size_t>(in_.count()) * point;
  const bool recv_direct = recv_is_output_;
  const bool send_direct = send_is_input_ && !(recv_direct && overlap);
  void* recv = recv_direct ? out : recv_buffer().data();
  if (send_direct) return {in, recv};
  std::vector<std::byte>& send = send_buffer();
  if (send.size() < plan_.send_extent()) send.resize(plan_.send_extent());  // once, if ever
  const double t0 = MPI_Wtime();
  pack(in, send.data());
  times_.pack_s += MPI_Wtime() - t0;
  return {send.data(), recv};
}

void Redistribution::complete(void* out) {
  if (recv_is_output_) return;
  const double t0 = MPI_Wtime();
  unpack(recv_buffer().data(), out);
  times_.unpack_s += MPI_Wtime() - t0;
}

// A single-copy plan (shared_window): each piece goes from the input array straight into the
// peer's memory, and this rank's pieces from its own straight into the output array. Two
// passes over the data; the exchange between them is a barrier.
const std::byte* Redistribution::execute_direct(const void* in, void* out, bool unpack_it) {
  if (pull_only_) {  // the input is the send layout (pulls()): into the window, then pulled
    const double t0 = MPI_Wtime();
    std::byte* window = plan_.send_extent() > 0 ? plan_.pull_area() : nullptr;
    if (window != nullptr && window != in) std::memcpy(window, in, plan_.send_extent());
    times_.pack_s += MPI_Wtime() - t0;
    pull_into(out);
    return nullptr;
  }
  const double t0 = MPI_Wtime();
  plan_.begin_direct();
  const double t1 = MPI_Wtime();
  const auto peers = send_pieces_.size();
  for (std::size_t k = 0; k < peers; ++k) {  // from the next rank on, as the plan's own copy
    const std::size_t q = (static_cast<std::size_t>(rank_) + k) % peers;
    if (send_pieces_[q].box.empty()) continue;
    copy(in_, send_pieces_[q].box, static_cast<const std::byte*>(in),
         plan_.direct_target(static_cast<int>(q)), false);
  }
  const double t2 = MPI_Wtime();
  const std::byte* received = plan_.end_direct();
  const double t3 = MPI_Wtime();
  if (unpack_it) unpack(received, out);
  times_.exchange_s += (t1 - t0) + (t3 - t2);
  times_.pack_s += t2 - t1;
  times_.unpack_s += MPI_Wtime() - t3;
  return received;
}

void Redistribution::execute_from_window(void* out) {
  if (!pull_ready_) throw Error("a2a::Redistribution::execute_from_window: no prepare_pull()");
  require_output("a2a::Redistribution::execute_from_window", out);  // the input: the window
  pull_into(out);
  ++times_.calls;
  ++times_.packs_skipped;
}

void Redistribution::pull_into(void* out) {
  const double t0 = MPI_Wtime();
  plan_.begin_pull();
  const double t1 = MPI_Wtime();
  for (std::size_t k = 0; k < recv_pieces_.size(); ++k) {  // from the next rank on
    const std::size_t s = (static_cast<std::size_t>(rank_) + k) % recv_pieces_.size();
    if (recv_pieces_[s].box.empty()) continue;
    copy(out_, recv_pieces_[s].box, plan_.pull_source(static_cast<int>(s)),
         static_cast<std::byte*>(out), true);
  }
  const double t2 = MPI_Wtime();
  plan_.end_pull();
  times_.exchange_s += (t1 - t0) + (MPI_Wtime() - t2);
  times_.unpack_s += t2 - t1;
}

void Redistribution::begin_fill(bool peers_have_read) {
  if (!plan_.direct()) throw Error("a2a::Redistribution::begin_fill: not a single-copy backend");
  const double t0 = MPI_Wtime();
  plan_.begin_direct(peers_have_read);
  times_.exchange_s += MPI_Wtime() - t0;
}

const void* Redistribution::end_fill(void* out) {
  const double t0 = MPI_Wtime();
  const std::byte* received = plan_.end_direct();
  const double t1 = MPI_Wtime();
  times_.exchange_s += t1 - t0;
  ++times_.calls;
  ++times_.packs_skipped;
  if (recv_in_order_ || out == nullptr) {
    ++times_.unpacks_skipped;
    return received;
  }
  unpack(received, out);
  times_.unpack_s += MPI_Wtime() - t1;
  return out;
}

void Redistribution::begin_read() {
  if (!pull_ready_) throw Error("a2a::Redistribution::begin_read: no prepare_pull()");
  const double t0 = MPI_Wtime();
  plan_.begin_pull();
  times_.exchange_s += MPI_Wtime() - t0;
}

void Redistribution::end_read() {
  const double t0 = MPI_Wtime();
  plan_.end_pull();
  times_.exchange_s += MPI_Wtime() - t0;
  ++times_.calls;
  ++times_.packs_skipped;
  ++times_.unpacks_skipped;
}

void Redistribution::require_input(const char* what, const void* in) const {
  require_data(what, "input array", in, static_cast<std::size_t>(in_.count()) * element_ * fields_);
}
void Redistribution::require_output(const char* what, const void* out) const {
  require_data(what, "output array", out,
               static_cast<std::size_t>(out_.count()) * element_ * fields_);
}

const void* Redistribution::execute_in_window(const void* in, void* out) {
  if (!plan_.direct() || !recv_in_order_ || pull_only_) {
    execute(in, out);
    return out;
  }
  require_input("a2a::Redistribution::execute_in_window", in);  // the output: the window
  const std::byte* received = execute_direct(in, out, false);
  ++times_.calls;
  ++times_.unpacks_skipped;
  return received;
}

void Redistribution::execute(const void* in, void* out) {
  require_input("a2a::Redistribution::execute", in);
  require_output("a2a::Redistribution::execute", out);
  if (plan_.direct()) {
    execute_direct(in, out);
    ++times_.calls;
    return;
  }
  const auto [send, recv] = prepare(in, out);
  const double t0 = MPI_Wtime();
  exchange(send, recv);
  times_.exchange_s += MPI_Wtime() - t0;
  complete(out);
  ++times_.calls;
}

void Redistribution::share_buffers(const std::shared_ptr<ExchangeBuffers>& shared) {
  if (!shared) throw Error("a2a::Redistribution::share_buffers: no buffers given");
  // Its exchange reads and writes its buffers until finish(): they may not move now.
  if (in_flight_) throw Error("a2a::Redistribution::share_buffers: between start() and finish()");
  if (shared == buffers_) return;
  auto grow = [](std::vector<std::byte>& to, const std::vector<std::byte>& mine) {
    if (to.size() < mine.size()) to.resize(mine.size());
  };
  for (std::size_t a = 0; a < 2; ++a)
    grow(shared->areas[a], buffers_->areas[a]);
  buffers_ = shared;
}

std::size_t Redistribution::held_bytes(const std::vector<const Redistribution*>& group) {
  std::vector<const ExchangeBuffers*> counted;
  std::size_t bytes = 0;
  for (const Redistribution* r : group) {
    bytes += r->plan_.scratch_bytes();
    const ExchangeBuffers* b = r->buffers_.get();
    if (std::find(counted.begin(), counted.end(), b) != counted.end()) continue;
    counted.push_back(b);
    bytes += b->areas[0].capacity() + b->areas[1].capacity();
  }
  return bytes;
}

void Redistribution::start(const void* in, void* out) {
  require_input("a2a::Redistribution::start", in);
  require_output("a2a::Redistribution::start", out);
  if (plan_.direct()) {  // nothing is left in flight: all of it happens here
    execute_direct(in, out);
    return;
  }
  const auto [send, recv] = prepare(in, out);
  const double t0 = MPI_Wtime();
  plan_.start(send, recv);
  times_.exchange_s += MPI_Wtime() - t0;
  started_out_ = out;
  in_flight_ = true;
}

void Redistribution::finish() {
  if (plan_.direct()) {
    ++times_.calls;
    return;
  }
  const double t0 = MPI_Wtime();
  plan_.finish();
  in_flight_ = false;
  times_.exchange_s += MPI_Wtime() - t0;
  complete(started_out_);
  ++times_.calls;
}

namespace {
// Checked first: Transpose2d's members are computed from the communicator before its
// Redistribution (which checks it again) is made.
int procs_of(MPI_Comm comm) {
  require_intracommunicator(comm, "a2a::Transpose2d");
  int procs = 1;
  MPI_Comm_size(comm, &procs);
  return procs;
}
int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}
}  // namespace

Transpose2d::Transpose2d(MPI_Comm comm, std::int64_t rows, std::int64_t cols,
                         std::size_t element_bytes, std::string_view backend)
    : rows_(rows),
      element_(element_bytes),
      before_{block_start(rows, procs_of(comm), rank_of(comm)),
              block_start(rows, procs_of(comm), rank_of(comm) + 1)},
      after_{block_start(cols, procs_of(comm), rank_of(comm)),
             block_start(cols, procs_of(comm), rank_of(comm) + 1)},
      redistribution_(comm, Box{{before_.first, 0, 0}, {before_.second, cols, 1}},
                      Box{{0, after_.first, 0}, {rows, after_.second, 1}}, element_bytes, backend),
      columns_(static_cast<std::size_t>(rows * (after_.second - after_.first)) * element_bytes) {}

namespace {

// out (cols x rows) = transpose of in (rows x cols), both row-major with elements of `bytes`
// bytes, in tiles that stay in cache on both sides: the naive loop writes one element per
// cache line (and per page, for long rows) of the output. Bytes > 0 fixes the element size at
// compile time (the copy becomes a move); 0 takes `bytes`.
template <std::size_t Bytes>
void transpose_tiled(const std::byte* in, std::byte* out, std::int64_t rows, std::int64_t cols,
                     std::size_t bytes) {
  const std::size_t e = Bytes > 0 ? Bytes : bytes;
  constexpr std::int64_t tile = 32;
  for (std::int64_t r0 = 0; r0 < rows; r0 += tile) {
    const std::int64_t r1 = std::min(rows, r0 + tile);
    for (std::int64_t c0 = 0; c0 < cols; c0 += tile) {
      const std::int64_t c1 = std::min(cols, c0 + tile);
      for (std::int64_t c = c0; c < c1; ++c) {
        for (std::int64_t r = r0; r < r1; ++r) {
          std::memcpy(out + static_cast<std::size_t>(c * rows + r) * e,
                      in + static_cast<std::size_t>(r * cols + c) * e, Bytes > 0 ? Bytes : e);
        }
      }
    }
  }
}

}  // namespace

void Transpose2d::execute(const void* in, void* out) {
  // The received column blocks lie in rank order: with a single-copy backend they stay in the
  // window they arrived in, and the local transpose reads them there (no unpack).
  const auto* columns =
      static_cast<const std::byte*>(redistribution_.execute_in_window(in, columns_.data()));
  // columns: rows x width, row-major; out: width x rows.
  const std::int64_t width = after_.second - after_.first;
  auto* to = static_cast<std::byte*>(out);
  switch (element_) {
    case 4:
      transpose_tiled<4>(columns, to, rows_, width, element_);
      break;
    case 8:
      transpose_tiled<8>(columns, to, rows_, width, element_);
      break;
    case 16:
      transpose_tiled<16>(columns, to, rows_, width, element_);
      break;
    default:
      transpose_tiled<0>(columns, to, rows_, width, element_);
  }
}

}  // namespace a2a
