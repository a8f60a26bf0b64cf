// a2a::transpose: redistribution of a 3D array between two box decompositions (slabs,
// pencils) over a communicator, through any registered all-to-all backend.
//
//   a2a::Box mine_before = ..., mine_after = ...;            // this rank's boxes
//   a2a::Redistribution r(row_comm, mine_before, mine_after, sizeof(std::complex<double>),
//                         "tra:r=sqrt");                     // collective, plan once
//   r.execute(x_pencil, y_pencil);                            // many times
//
// Arrays are row-major over their box (axis 2 fastest). Each rank sends to every peer the
// intersection of its input box with the peer's output box, packed in row-major order of that
// intersection, and unpacks what it receives the same way; pack(), exchange() and unpack()
// are separate steps (SpFFT style) around one a2a::Plan. When every pair exchanges the same
// number of bytes the exchange is uniform (MPI_Alltoall semantics, so uniform-only backends
// such as `tra` apply); otherwise it is a vector exchange with the exact per-peer counts,
// without padding (unless the backend itself pads). Made once, executed without allocating.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "a2a/alltoall.hpp"

namespace a2a {

// A half-open box [lo, hi) of global indices.
struct Box {
  std::array<std::int64_t, 3> lo{0, 0, 0}, hi{0, 0, 0};
  std::int64_t extent(int axis) const {
    return hi[static_cast<std::size_t>(axis)] - lo[static_cast<std::size_t>(axis)];
  }
  std::int64_t count() const;
  bool empty() const { return count() == 0; }
  Box intersect(const Box& other) const;
  bool operator==(const Box&) const = default;
  // Every index: slice one axis of it for Redistribution's `within`.
  static Box everything();
};

// The balanced split of n indices into `parts`: the first index of part `index`
// (n * index / parts, exact for any n). Throws a2a::Error unless n >= 0, parts >= 1 and
// 0 <= index <= parts.
std::int64_t block_start(std::int64_t n, int parts, int index);

// Collective over comm: every rank's box, in rank order (one MPI_Allgather).
std::vector<Box> all_boxes(MPI_Comm comm, const Box& mine);

// The buffers of redistributions that never run at once (Redistribution::share_buffers): two
// areas, each as large as the largest of theirs. A redistribution that needs one buffer (the
// other side in place) takes the first, one that needs two the first to send and the second to
// receive: a slab-to-pencil exchange (it packs) and its way back (it unpacks) share one.
struct ExchangeBuffers {
  std::array<std::vector<std::byte>, 2> areas;
};

class Redistribution {
 public:
  // Collective over comm: each rank gives its input and output boxes (the union of all input
  // boxes must equal the union of all output boxes; overlaps are an error).
  Redistribution(MPI_Comm comm, const Box& in, const Box& out, std::size_t element_bytes,
                 std::string_view backend = "auto");
  // One chunk of a pipelined transpose: moves only the elements inside `within` (the same box
  // on every rank); the arrays are still over in and out.
  Redistribution(MPI_Comm comm, const Box& in, const Box& out, const Box& within,
                 std::size_t element_bytes, std::string_view backend = "auto");
  // Several fields in one exchange (a batch of arrays on the same boxes): each array holds
  // `fields` arrays over its box one after another (field f starts f * box.count() elements
  // in), and each peer's message carries its piece of every field, field after field. One
  // exchange of fields times the bytes, where fields separate redistributions would make as
  // many. fields >= 1; fields = 1 is the constructor above.
  Redistribution(MPI_Comm comm, const Box& in, const Box& out, std::size_t element_bytes,
                 std::size_t fields, std::string_view backend = "auto");

  void pack(const void* in, void* send) const;
  void exchange(const void* send, void* recv);
  void unpack(const void* recv, void* out) const;
  // pack + exchange + unpack with the plan's own buffers. Where a side's pieces already lie
  // in the array in packed order (a slab's blocks in rank order), that side's copy is skipped
  // and the exchange reads from `in` or writes into `out` directly. With a single-copy backend
  // (`shared_window`, one node: Plan::begin_direct) the pack writes each piece straight into
  // the peer's memory and the unpack reads straight from this rank's: two passes in all.
  void execute(const void* in, void* out);
  // execute(), except where a single-copy backend (Plan::direct) delivers the pieces already
  // in output order (each source's piece one contiguous run of the output array, in rank
  // order: a slab's or a pencil's y -> x transpose): then the output stays where it arrived,
  // in this rank's part of the shared window, and that is returned, read only, valid until
  // this redistribution's next execute; `out` is untouched. Anywhere else `out`, filled. For
  // callers whose next pass can read from anywhere: it saves the unpack.
  const void* execute_in_window(const void* in, void* out);
  // The input array in shared memory, where a single-copy backend lets every peer read its
  // pieces straight from it (they lie in the input in rank order: a y -> x transpose's way
  // back, without chunks; pulls() says where, the same on every rank): prepare_pull()
  // (collective, once: it allocates the window, in_box() elements), then fill input_window()
  // (row-major) instead of an array of your own and call execute_from_window(out). One pass:
  // the unpack reads the peers' memory. input_window() is nullptr before prepare_pull(), where
  // this rank's input box is empty, and where pulls() is false.
  bool pulls() const { return pulls_; }
  void prepare_pull();
  void* input_window() { return pull_ready_ ? plan_.pull_area() : nullptr; }
  void execute_from_window(void* out);
  // For a caller that only pulls (collective, where pulls(); prepare_pull() first where not
  // yet): frees the single-copy plan's receive window, which only the push uses (Plan::
  // pull_only). execute() and start() go on working, through input_window() (a copy of the
  // input there, then execute_from_window); begin_fill() throws. The other way: a caller that
  // prepared the pull and will not use it frees its window with release_pull() (collective);
  // pulls() is false from then on.
  void pull_only();
  void release_pull();
  // Redistributions on the same ranks that run one after another (a transform's reshapes) may
  // receive into one shared window (Plan::share_receive_window; collective): where both are
  // single-copy on the same ranks and neither only pulls (pull_only: it has none), else
  // nothing; says which. What execute_in_window() or end_fill() return is then valid until the
  // next exchange of any of them; begin_fill(true) claims that every peer read what the last of
  // any of them left it.
  bool share_window(Redistribution& other);
  // The same for this one's input window (prepare_pull() first where not yet): it moves into
  // `other`'s receive window (Plan::share_pull_area; collective), where both are single-copy on
  // the same ranks, this one pulls() and `other` does not only pull, else nothing; says which.
  // What input_window() holds is then valid until the next exchange of either.
  bool share_pull_area(Redistribution& other);
  // Both at once, for redistributions that run one after another: this one packs into
  // `other`'s buffers (share_buffers) and receives into its window where it can (share_window).
  // Collective over this one's ranks.
  void share_with(Redistribution& other);
  // execute() in two steps (Plan::start/finish): start() packs and begins the exchange,
  // finish() completes it and unpacks. In between the caller may work on other memory; the
  // exchange progresses there only where the plan overlaps() (mpi, linear).
  void start(const void* in, void* out);
  void finish();
  // Local (not collective), at setup: from now on this redistribution packs and receives into
  // `shared`'s buffers (grown to its needs here) instead of its own, which it frees. For a
  // sequence of redistributions run one after another (a transform's reshapes, forward and
  // backward): the others' buffers must not be in use while this one runs (between its
  // start() and finish() none of them may run).
  void share_buffers(const std::shared_ptr<ExchangeBuffers>& shared);
  // Bytes of its own buffers (or, where shared, of the shared ones) it holds now.
  std::size_t buffer_bytes() const { return buffers_->areas[0].size() + buffers_->areas[1].size(); }
  // What a group of redistributions (a transform's) holds on this rank besides the caller's
  // arrays: their buffers, those they share counted once, and their plans' scratch
  // (Plan::scratch_bytes: a backend's work arrays, this rank's part of shared windows).
  static std::size_t held_bytes(const std::vector<const Redistribution*>& group);
  // The send buffer that pack() fills, for callers that fill it themselves (fusing the pack
  // with their own pass over the data) and hand it to exchange(): peer q's piece, the part
  // of `in` inside q's output box (global indices), starts send_offset(q) bytes in, row-major
  // over send_box(q).
  const Box& send_box(int peer) const {
    return send_pieces_.at(static_cast<std::size_t>(peer)).box;
  }
  std::size_t send_offset(int peer) const {
    return send_pieces_.at(static_cast<std::size_t>(peer)).offset;
  }
  const Box& recv_box(int peer) const {
    return recv_pieces_.at(static_cast<std::size_t>(peer)).box;
  }
  // Fused single-copy exchange, where direct() (shared_window on one node): the caller writes
  // each peer's piece itself, straight into the peer's memory, from wherever it has the data
  // (a transform's scratch in cache), instead of an input array that execute() would pack.
  // begin_fill() (collective) opens the window; fill_target(q) is where peer q's piece goes,
  // row-major over send_box(q); end_fill(out) (collective) returns this rank's received data:
  // in the window where receives_in_order() (read only, valid until this redistribution's next
  // exchange), else unpacked into `out`, which it returns; with out = nullptr, the window as
  // the senders filled it, unpacked or not (for callers whose senders lay out the receivers'
  // areas themselves, each piece at its offset). The pack pass is the caller's.
  // begin_fill(true), the same on every rank: the peers have read what the last exchange left
  // them (Plan::begin_direct), so it does not wait for them.
  bool direct() const { return plan_.direct(); }
  void begin_fill(bool peers_have_read = false);
  std::byte* fill_target(int peer) { return plan_.direct_target(peer); }
  const void* end_fill(void* out);
  // The pulling side's counterpart (pulls(): the caller has filled input_window()): between
  // begin_read() and end_read() (both collective) the caller reads peer s's piece for this rank
  // itself, row-major over recv_box(s), at read_source(s), into wherever it wants it.
  void begin_read();
  const std::byte* read_source(int peer) { return plan_.pull_source(peer); }
  void end_read();
  // Whether execute() skips the pack (the input array is the send buffer) or the unpack.
  bool packs_in_place() const { return send_is_input_; }
  bool unpacks_in_place() const { return recv_is_output_; }
  // Whether the received pieces lie in the output array in packed order (each source's piece
  // one contiguous run, in rank order), so that exchange() may receive into the output itself;
  // true even where execute() unpacks (a single-copy backend: it reads them from its window).
  bool receives_in_order() const { return recv_in_order_; }

  bool uniform() const { return uniform_; }
  const Plan& plan() const { return plan_; }
  std::size_t send_bytes() const { return plan_.send_extent(); }
  std::size_t recv_bytes() const { return plan_.recv_extent(); }

  // Where execute() spends its time, summed over calls since the last reset (this rank's clock:
  // three MPI_Wtime calls per execute): each phase is one pass over the data here, plus what
  // the backend copies inside the exchange.
  struct PhaseTimes {
    double pack_s = 0, exchange_s = 0, unpack_s = 0;
    std::uint64_t calls = 0;
    std::uint64_t unpacks_skipped = 0;  // calls of execute_in_window that left it in the window
    std::uint64_t packs_skipped = 0;    // calls of execute_from_window (the input was the send)
  };
  const PhaseTimes& phase_times() const { return times_; }
  void reset_phase_times() { times_ = {}; }

 private:
  bool can_share_into(const Redistribution& other) const;
  struct Piece {
    Box box;                 // the intersection, in global indices
    std::size_t offset = 0;  // in the send or receive buffer, bytes
  };
  // Every rank's piece for and from every peer, with the arguments checked and agreed on
  // first (collective): what the constructor builds the plan from.
  struct Pieces {
    int rank = 0;
    std::vector<Piece> send, recv;
  };
  static Pieces agreed_pieces(MPI_Comm comm, const Box& in, const Box& out, const Box& within,
                              std::size_t element_bytes, std::size_t fields);
  Redistribution(MPI_Comm comm, const Box& in, const Box& out, const Box& within,
                 std::size_t element_bytes, std::size_t fields, std::string_view backend,
                 Pieces pieces);
  static Plan make_plan(MPI_Comm comm, const std::vector<Piece>& send,
                        const std::vector<Piece>& recv, std::size_t element_bytes,
                        std::string_view backend, bool& uniform);
  void copy(const Box& array_box, const Box& piece, const std::byte* from, std::byte* to,
            bool into_array) const;
  void copy_field(const Box& array_box, const Box& piece, const std::byte* from, std::byte* to,
                  bool into_array) const;
  // Returns this rank's received data when it stays in the window (unpack = false).
  const std::byte* execute_direct(const void* in, void* out, bool unpack = true);
  void pull_into(void* out);  // execute_from_window's exchange and unpack
  bool in_place(const Box& array_box, const std::vector<Piece>& pieces) const;
  // Throws (this rank's argument error, before any exchange: a2a::require_data) where `in` or
  // `out` is NULL and this rank's box on that side holds elements.
  void require_input(const char* what, const void* in) const;
  void require_output(const char* what, const void* out) const;
  // Packs `in` unless that side is in place; returns the buffers the exchange reads and writes.
  std::pair<const void*, void*> prepare(const void* in, void* out);
  void complete(void* out);  // unpacks the receive buffer unless that side is in place

  Box in_, out_;
  std::size_t element_;
  std::size_t fields_ = 1;
  int rank_ = 0;                                  // in comm
  std::vector<Piece> send_pieces_, recv_pieces_;  // one per peer, in rank order
  bool uniform_ = false;
  Plan plan_;
  // The pieces lie in the arrays in packed order (see in_place): the sent ones in the input,
  // the received ones in the output.
  bool send_in_order_ = false, recv_in_order_ = false;
  // Where execute() uses the arrays as the exchange's buffers (in order, not single-copy).
  bool send_is_input_ = false, recv_is_output_ = false;
  bool pulls_ = false;       // input_window() can be had (prepare_pull)
  bool pull_ready_ = false;  // prepare_pull() made it
  bool pull_only_ = false;   // pull_only(): no receive window
  // Its send and receive buffers (empty on an in-place side), or shared ones; the receive
  // buffer is area recv_area_, the send buffer the other.
  std::shared_ptr<ExchangeBuffers> buffers_;
  std::size_t recv_area_ = 0;
  std::vector<std::byte>& send_buffer() { return buffers_->areas[1 - recv_area_]; }
  std::vector<std::byte>& recv_buffer() { return buffers_->areas[recv_area_]; }
  void* started_out_ = nullptr;  // the output array, between start() and finish()
  bool in_flight_ = false;       // between start() and finish() (not single-copy)
  PhaseTimes times_;
};

// The distributed 2D transpose of the six-step 1D FFT: a rows x cols row-major matrix with
// its rows split over the ranks (balanced blocks) becomes its cols x rows transpose with the
// rows split the same way. A redistribution (row split -> column split, through the backend)
// followed by a local transpose. Made once; execute() does not allocate.
class Transpose2d {
 public:
  Transpose2d(MPI_Comm comm, std::int64_t rows, std::int64_t cols, std::size_t element_bytes,
              std::string_view backend = "auto");
  // This rank's rows before ([first, last) of `rows`) and after ([first, last) of `cols`).
  std::pair<std::int64_t, std::int64_t> rows_before() const { return before_; }
  std::pair<std::int64_t, std::int64_t> rows_after() const { return after_; }
  void execute(const void* in, void* out);
  const Redistribution& redistribution() const { return redistribution_; }

 private:
  std::int64_t rows_;
  std::size_t element_;
  std::pair<std::int64_t, std::int64_t> before_, after_;
  Redistribution redistribution_;
  std::vector<std::byte> columns_;
};

}  // namespace a2a
