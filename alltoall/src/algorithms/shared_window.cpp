// shared_window: the single-copy exchange of ranks that share memory (one node). Every rank's
// receive area is its part of an MPI-3 shared-memory window (MPI_Win_allocate_shared, mapped
// into every rank); each rank copies its block for peer q straight into q's area, at the
// offset q receives it, and after a barrier copies its own area out into the receive buffer.
// Not one of the papers' algorithms: it is the on-node transport under them. SLOAVx gathers a
// node's blocks the same way (sloavx-logarithmic-alltoallv.md, section IV, "a modified Gatherv
// into shared memory"); here every rank is its own leader. Point-to-point exchanges on one
// node copy each byte twice (through a bounce buffer) or pin the peer's pages per message
// (Open MPI's CMA, well below memcpy's bandwidth); this copies with memcpy once.
// A caller that packs (a2a::Redistribution) writes its pieces straight into the peers' areas
// (Plan::begin_direct), so the exchange itself moves nothing: pack, barrier, unpack. Or the
// other way round (Plan::begin_pull): the caller's send data lives in a second window and each
// rank reads its blocks from the peers' (the unpack reads the peers' memory). A plan used one
// way only frees the other way's window (Plan::pull_only, Plan::release_pull), and plans whose
// exchanges never overlap can receive into one window (Plan::share_receive_window), where one
// of them may also keep its pull area (Plan::share_pull_area).
// Cost: 0 messages, 2 barriers; every rank writes (P-1) S bytes into the peers' areas and
// copies (P-1) S out of its own (its own block goes straight to recv): every byte twice, where
// a point-to-point exchange copies it once through the kernel (CMA) or twice through a bounce
// buffer. So as a plain Alltoall it is rarely the fastest; fused with a pack it is one copy. Needs
// every rank of the communicator on one node; anything else is refused on every rank when the plan
// is built. Per call (VectorExchange) the receive offsets are not known to the senders: each rank
// writes its P receive displacements and the area it needs into a header of its own area, the
// first barrier publishes them, and the window grows (collectively, every rank sees every
// header) when a rank needs more than it has.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "a2a/algorithm.hpp"
#include "a2a/topology.hpp"
#include "detail/algorithms.hpp"
#include "detail/messages.hpp"
#include "detail/mpi_entry.hpp"
#include "detail/shared_areas.hpp"

namespace a2a::detail {
namespace {

void require_one_node(MPI_Comm comm) {
  if (const std::string why = one_node_refusal(comm); !why.empty()) {
    throw Error(why, ErrorKind::unsupported);
  }
}

void copy(std::byte* to, const std::byte* from, std::size_t bytes) {
  if (bytes > 0) std::memcpy(to, from, bytes);
}

// Blocks and bytes this rank writes into the peers' areas.
void count_writes(const LayoutView& l, int rank, int procs, Counters& c) {
  c.rounds = 1;
  c.waits += 2;
  for (int q = 0; q < procs; ++q) {
    const std::size_t bytes = l.send_counts[static_cast<std::size_t>(q)];
    if (q == rank || bytes == 0) continue;
    c.blocks_sent += 1;
    c.bytes_sent += bytes;
  }
}

// Where this rank's block for each peer q lies in q's area: at q's displacement for this rank
// (`mine`: this rank's displacement for each peer). Collective: one Alltoall of P words.
template <typename Byte>
std::vector<Byte*> peer_addresses(MPI_Comm comm, const SharedAreas& areas,
                                  const std::vector<std::size_t>& mine) {
  const std::vector<unsigned long long> words(mine.begin(), mine.end());
  std::vector<unsigned long long> theirs(words.size());
  // Through PMPI_ in the interposer's copy of the library, which would otherwise call itself.
  check_mpi(A2A_MPI_ALLTOALL(words.data(), 1, MPI_UNSIGNED_LONG_LONG, theirs.data(), 1,
                             MPI_UNSIGNED_LONG_LONG, comm),
            "MPI_Alltoall");
  std::vector<Byte*> at(theirs.size(), nullptr);
  for (std::size_t q = 0; q < at.size(); ++q) {
    std::byte* area = areas.area(static_cast<int>(q));
    if (area != nullptr) at[q] = area + theirs[q];
  }
  return at;
}

class SharedWindowPlan;

// A window of areas that plans on the same ranks whose exchanges never overlap use in turn:
// one plan's receive areas, or several's (Plan::share_receive_window), and perhaps a plan's
// pull area (Plan::share_pull_area). Each rank's area as large as the most any use needs.
struct Window {
  Window(MPI_Comm comm, int procs) : areas(comm, procs) {}
  struct Use {
    SharedWindowPlan* plan;
    bool pull;  // its send data (pull area), else what it receives
  };
  SharedAreas areas;
  std::vector<Use> users;  // the first counts it in its plan's scratch_bytes
};

// A fixed layout: the areas are sized and every target is known once, when it is built.
class SharedWindowPlan final : public PlanImpl, public SingleCopy {
 public:
  explicit SharedWindowPlan(const Context& ctx)
      : comm_(ctx.comm),
        rank_(ctx.rank),
        procs_(ctx.procs),
        layout_(ctx.layout),
        window_(std::make_shared<Window>(ctx.comm, ctx.procs)) {
    require_one_node(ctx.comm);
    window_->users.push_back({this, false});
    window_->areas.allocate(layout_.recv_extent());
    find_targets();
  }
  ~SharedWindowPlan() override {
    leave(window_, false);
    leave(pull_window_, true);
  }
  SharedWindowPlan(const SharedWindowPlan&) = delete;
  SharedWindowPlan& operator=(const SharedWindowPlan&) = delete;

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    if (pull_only_) {
      execute_by_pull(send, recv, c);
      return;
    }
    begin_direct(c, false);
    // From the next rank on, so that not every rank writes into one area at once; this rank's
    // own block goes straight from send to recv.
    for (int k = 1; k < procs_; ++k) {
      const auto q = static_cast<std::size_t>((rank_ + k) % procs_);
      copy(targets_[q], send + layout_.send_displs[q], layout_.send_counts[q]);
    }
    const auto me = static_cast<std::size_t>(rank_);
    copy(recv + layout_.recv_displs[me], send + layout_.send_displs[me], layout_.send_counts[me]);
    const std::byte* received = end_direct(c);
    for (std::size_t s = 0; s < targets_.size(); ++s) {
      if (s == me) continue;
      copy(recv + layout_.recv_displs[s], received + layout_.recv_displs[s],
           layout_.recv_counts[s]);
    }
  }
  SingleCopy* single_copy() override { return this; }
  void begin_direct(Counters& c, bool peers_have_read) override {
    if (pull_only_) throw Error("a2a::Plan::begin_direct: this plan only pulls (pull_only())");
    if (!peers_have_read) window_->areas.fence(comm_);  // every peer read what the last left it
    count_writes(LayoutView::of(layout_), rank_, procs_, c);
  }
  std::byte* direct_target(int peer) override { return targets_[static_cast<std::size_t>(peer)]; }
  const std::byte* end_direct(Counters&) override {
    window_->areas.fence(comm_);
    return window_->areas.area(rank_);
  }
  // Pull: the send data lives in a second window, and each rank reads its blocks from there.
  void prepare_pull() override {
    if (pull_window_) return;
    pull_window_ = std::make_shared<Window>(comm_, procs_);
    pull_window_->users.push_back({this, true});
    pull_window_->areas.allocate(layout_.send_extent());
    find_sources();
  }
  std::byte* pull_area() override {
    return pull_window_ ? pull_window_->areas.area(rank_) : nullptr;
  }
  void begin_pull(Counters& c) override {
    if (!pull_window_) throw Error("a2a::Plan::begin_pull: no prepare_pull()");
    pull_window_->areas.fence(comm_);  // every peer's send data is complete
    count_writes(LayoutView::of(layout_), rank_, procs_, c);
  }
  const std::byte* pull_source(int peer) override {
    return sources_[static_cast<std::size_t>(peer)];
  }
  void end_pull(Counters&) override { pull_window_->areas.fence(comm_); }
  // The receive areas go (with the last plan that shares them; shrunk to what the others
  // need where this one needed more); what was pushed is pulled.
  void pull_only() override {
    prepare_pull();
    leave_and_fit(window_, false);
    targets_.assign(targets_.size(), nullptr);
    pull_only_ = true;
  }
  void release_pull() override {
    if (pull_only_) throw Error("a2a::Plan::release_pull: this plan only pulls (pull_only())");
    leave_and_fit(pull_window_, true);
    sources_.clear();
  }
  // Both plans' users receive into one window from now on, grown (collectively) where a rank
  // needs more than it has; every user's targets found again where it moved or grew.
  void share_receive_window(SingleCopy& with) override {
    const char* call = "a2a::Plan::share_receive_window";
    SharedWindowPlan& other = peer_plan(with, call);
    if (pull_only_ || other.pull_only_)
      throw Error(std::string(call) + ": a plan that only pulls has no receive window");
    if (other.window_ == window_) return;
    std::vector<Window::Use> moving = window_->users;
    for (const Window::Use& u : moving)  // the old window goes with its last user
      (u.pull ? u.plan->pull_window_ : u.plan->window_) = other.window_;
    join(other.window_, moving);
  }
  // This plan's pull area moves into the other's receive window (its own pull window goes).
  void share_pull_area(SingleCopy& with) override {
    const char* call = "a2a::Plan::share_pull_area";
    SharedWindowPlan& other = peer_plan(with, call);
    if (other.pull_only_)
      throw Error(std::string(call) + ": a plan that only pulls has no receive window");
    prepare_pull();
    if (pull_window_ == other.window_) return;
    leave(pull_window_, true);  // its own pull window, which only it uses, is freed
    pull_window_ = other.window_;
    join(other.window_, {{this, true}});
  }
  std::size_t scratch_bytes() const override {
    auto counted = [this](const std::shared_ptr<Window>& w) {
      return w && w->users.front().plan == this ? w->areas.size(rank_) : 0;
    };
    return counted(window_) + (pull_window_ != window_ ? counted(pull_window_) : 0);
  }

 private:
  MPI_Comm comm_;
  int rank_, procs_;
  VectorLayout layout_;
  std::shared_ptr<Window> window_;       // receive areas; none after pull_only()
  std::shared_ptr<Window> pull_window_;  // prepare_pull(): the send data where peers pull it
  std::vector<std::byte*> targets_;
  std::vector<const std::byte*> sources_;
  bool pull_only_ = false;

  static SharedWindowPlan& peer_plan(SingleCopy& with, const char* call) {
    auto* other = dynamic_cast<SharedWindowPlan*>(&with);
    if (other == nullptr)
      throw Error(std::string(call) + ": the other plan is not shared_window's");
    return *other;
  }
  std::size_t need_of(const Window::Use& u) const {
    return u.pull ? u.plan->layout_.send_extent() : u.plan->layout_.recv_extent();
  }
  std::size_t most_needed(const Window& w) const {
    std::size_t need = 0;
    for (const Window::Use& u : w.users)
      need = std::max(need, need_of(u));
    return need;
  }
  // Collective: `moving` (already pointing at `into`) joins its users; the window grows where a
  // rank needs more than it has, and every use that moved (all, where it grew) finds its peers'
  // addresses again.
  void join(const std::shared_ptr<Window>& into, const std::vector<Window::Use>& moving) {
    into->users.insert(into->users.end(), moving.begin(), moving.end());
    if (!remake_if(*into, most_needed(*into) > into->areas.size(rank_)))
      for (const Window::Use& u : moving)
        u.plan->find_addresses(u.pull);
  }
  // This use leaves the window (freed with its last use).
  void leave(std::shared_ptr<Window>& w, bool pull) {
    if (!w) return;
    std::erase_if(w->users, [&](const Window::Use& u) { return u.plan == this && u.pull == pull; });
    w.reset();
  }
  // Collective: leave(), and the window made again where a rank has more than its users need.
  void leave_and_fit(std::shared_ptr<Window>& w, bool pull) {
    const std::shared_ptr<Window> left = w;
    leave(w, pull);
    if (left && !left->users.empty()) remake_if(*left, most_needed(*left) < left->areas.asked());
  }
  // Collective: where `here` holds on any rank, the window is made again as large as its users
  // need and every use finds its peers' addresses again; says whether.
  bool remake_if(Window& w, bool here) {
    int remake = here ? 1 : 0;
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &remake, 1, MPI_INT, MPI_LOR, comm_), "MPI_Allreduce");
    if (remake == 0) return false;
    w.areas.use_comm(comm_);
    w.areas.allocate(most_needed(w));
    for (const Window::Use& u : w.users)
      u.plan->find_addresses(u.pull);
    return true;
  }
  void find_addresses(bool pull) { pull ? find_sources() : find_targets(); }
  // This rank's block for q goes where q receives from this rank. Collective.
  void find_targets() {
    targets_ = peer_addresses<std::byte>(comm_, window_->areas, layout_.recv_displs);
  }
  // Where q keeps its block for this rank: q's send displacement for it. Collective.
  void find_sources() {
    sources_ = peer_addresses<const std::byte>(comm_, pull_window_->areas, layout_.send_displs);
  }
  // execute() without receive areas: every block but this rank's own through its pull area.
  void execute_by_pull(const std::byte* send, std::byte* recv, Counters& c) {
    const auto me = static_cast<std::size_t>(rank_);
    std::byte* area = pull_area();
    for (std::size_t q = 0; q < targets_.size(); ++q) {
      if (q != me)
        copy(area + layout_.send_displs[q], send + layout_.send_displs[q], layout_.send_counts[q]);
    }
    copy(recv + layout_.recv_displs[me], send + layout_.send_displs[me], layout_.send_counts[me]);
    begin_pull(c);
    for (int k = 1; k < procs_; ++k) {  // from the next rank on, as the push
      const auto s = static_cast<std::size_t>((rank_ + k) % procs_);
      copy(recv + layout_.recv_displs[s], sources_[s], layout_.recv_counts[s]);
    }
    end_pull(c);
  }
};

// Per call: each area starts with a header of 3P + 1 words: the owner's receive displacement
// and count for every peer, its send count to every peer, then the data bytes it needs; the
// data follows it. Counts that disagree (an erroneous Alltoallv) are seen by both sides: the
// writer writes no more than its receiver expects, the reader zero-fills what did not come,
// and both report it once the call is over (never another block's or another call's bytes).
class SharedWindowExchange final : public ExchangeImpl {
 public:
  explicit SharedWindowExchange(const Context& ctx)
      : rank_(ctx.rank),
        procs_(ctx.procs),
        header_(8 * (3 * static_cast<std::size_t>(ctx.procs) + 1)),
        areas_(ctx.comm, ctx.procs),
        header_words_(3 * static_cast<std::size_t>(ctx.procs) + 1),
        offsets_(static_cast<std::size_t>(ctx.procs)),
        expected_(static_cast<std::size_t>(ctx.procs)),
        sent_(static_cast<std::size_t>(ctx.procs)) {
    require_one_node(ctx.comm);
    areas_.allocate(header_);
  }
  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    const auto P = static_cast<std::size_t>(procs_);
    std::uint64_t need = 0;
    std::vector<std::uint64_t>& mine = header_words_;
    for (std::size_t s = 0; s < P; ++s) {
      mine[s] = l.recv_displs[s];
      mine[P + s] = l.recv_counts[s];
      mine[2 * P + s] = l.send_counts[s];
      if (l.recv_counts[s] > 0)
        need = std::max<std::uint64_t>(need, l.recv_displs[s] + l.recv_counts[s]);
    }
    mine[3 * P] = need;
    std::memcpy(areas_.area(rank_), mine.data(), header_);
    areas_.fence();  // publishes the headers; every peer has read its area of the last call
    bool grow = false;
    const auto me = static_cast<std::size_t>(rank_);
    for (int q = 0; q < procs_; ++q) {
      const auto k = static_cast<std::size_t>(q);
      const std::byte* header = areas_.area(q);
      std::uint64_t need_q = 0;
      std::memcpy(&offsets_[k], header + 8 * me, 8);
      std::memcpy(&expected_[k], header + 8 * (P + me), 8);
      std::memcpy(&sent_[k], header + 8 * (2 * P + me), 8);
      std::memcpy(&need_q, header + 8 * 3 * P, 8);
      grow = grow || header_ + need_q > areas_.size(q);
    }
    if (grow) {  // every rank read the same headers: all come here together
      const std::size_t have = areas_.size(rank_) - header_;
      areas_.allocate(header_ + std::max<std::size_t>(have, need + need / 4));
    }
    count_writes(l, rank_, procs_, c);
    std::string mismatch;
    for (int k = 1; k < procs_; ++k) {
      const auto q = static_cast<std::size_t>((rank_ + k) % procs_);
      const std::size_t bytes = std::min<std::size_t>(l.send_counts[q], expected_[q]);
      if (l.send_counts[q] != expected_[q] && mismatch.empty()) {
        mismatch = describe(rank_, q, l.send_counts[q], expected_[q]);
      }
      copy(areas_.area(static_cast<int>(q)) + header_ + offsets_[q], send + l.send_displs[q],
           bytes);
    }
    const std::size_t own = std::min(l.send_counts[me], l.recv_counts[me]);
    copy(recv + l.recv_displs[me], send + l.send_displs[me], own);
    if (own < l.recv_counts[me])
      std::memset(recv + l.recv_displs[me] + own, 0, l.recv_counts[me] - own);
    if (l.send_counts[me] != l.recv_counts[me] && mismatch.empty()) {
      mismatch = describe(rank_, me, l.send_counts[me], l.recv_counts[me]);
    }
    areas_.fence();
    const std::byte* received = areas_.area(rank_) + header_;
    for (std::size_t s = 0; s < P; ++s) {
      if (s == me) continue;
      const std::size_t bytes = std::min<std::size_t>(sent_[s], l.recv_counts[s]);
      copy(recv + l.recv_displs[s], received + l.recv_displs[s], bytes);
      if (bytes < l.recv_counts[s]) {
        std::memset(recv + l.recv_displs[s] + bytes, 0, l.recv_counts[s] - bytes);
      }
      if (sent_[s] != l.recv_counts[s] && mismatch.empty()) {
        mismatch = describe(static_cast<int>(s), me, sent_[s], l.recv_counts[s]);
      }
    }
    if (!mismatch.empty()) throw Error(mismatch);
  }
  std::size_t scratch_bytes() const override { return areas_.size(rank_); }

 private:
  static std::string describe(int from, std::size_t to, std::size_t sent, std::size_t expected) {
    return "shared_window: rank " + std::to_string(from) + " sends " + std::to_string(sent) +
           " bytes to rank " + std::to_string(to) + ", which expects " + std::to_string(expected) +
           " (mismatched Alltoallv counts; the block is zero-filled past what arrived)";
  }

  int rank_, procs_;
  std::size_t header_;
  SharedAreas areas_;
  std::vector<std::uint64_t> header_words_;  // this rank's header, staged
  std::vector<std::uint64_t> offsets_;       // where this rank writes in each peer's data
  std::vector<std::uint64_t> expected_;      // what each peer expects from this rank
  std::vector<std::uint64_t> sent_;          // what each peer sends this rank
};

}  // namespace

AlgorithmInfo describe_shared_window() {
  AlgorithmInfo info;
  info.name = "shared_window";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.summary = "one node: copy each block straight into the peer's MPI-3 shared window";
  info.source = "on-node single copy (MPI-3 shared memory; SLOAVx's shared gather, section IV)";
  info.cost = "0 messages, 2 barriers, (P-1) S bytes written into the peers, (P-1) S copied out";
  info.needs_one_node = true;
  info.build = [](Context& ctx) -> std::unique_ptr<PlanImpl> {
    return std::make_unique<SharedWindowPlan>(ctx);
  };
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<SharedWindowExchange>(ctx);
  };
  // One node only: the tuner drops it elsewhere.
  info.tuning_candidates = [](Kind, int) { return std::vector<std::string>{"shared_window"}; };
  return info;
}

}  // namespace a2a::detail
