// sloavx: SLOAV for hierarchical multicore systems, Xu et al., "SLOAVx: Scalable LOgarithmic
// AlltoallV Algorithm for Hierarchical Multicore Systems" (CCGrid 2013), section IV (Fig. 4).
// Per node (topology layer: real nodes, or emulated with q), local rank 0 is the group leader
// and the node's ranks form a binomial tree rooted at it.
//   (1) gather: every rank sends the sizes of its subtree up the tree (its per-destination
//       counts and what it will receive from each node); the leader computes where each rank
//       writes and sends the offsets down; each rank writes its blocks straight into the
//       leader's MPI-3 shared window (MPI_Win_allocate_shared) and reports up the tree that
//       its subtree is written (a modified Gatherv into shared memory).
//   (2) the leaders cut the node's data into N partitions, one per destination node, and run
//       SLOAV (radix-2 two-phase rounds with the element index table) among themselves.
//   (3) scatter: the leader places the received partitions in a second shared window and sends
//       every rank, down the tree, the offsets at which to read its blocks (a modified
//       Scatterv); each rank copies them out.
// Cost: ceil(log2 Q) tree levels up and down (4 sweeps of small messages), plus
// ceil(log2 N) SLOAV rounds of 2 messages among the N leaders only: the network sees
// O(N log N) messages instead of SLOAV's O(P log P).
// Needs uniform nodes of Q consecutive ranks that share memory.
#include <climits>
#include <cstring>

#include "a2a/topology.hpp"
#include "detail/algorithms.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

constexpr int kUpTag = 4747, kDownTag = 4748, kLeaderTag = 4750;

// A shared-memory window of `bytes` owned by local rank 0, mapped into every node rank.
class SharedArea {
 public:
  SharedArea(MPI_Comm node, std::size_t bytes, bool owner) {
    std::byte* mine = nullptr;
    check_mpi(MPI_Win_allocate_shared(static_cast<MPI_Aint>(owner ? bytes : 0), 1, MPI_INFO_NULL,
                                      node, &mine, &win_),
              "MPI_Win_allocate_shared");
    MPI_Aint size = 0;
    int unit = 1;
    MPI_Win_shared_query(win_, 0, &size, &unit, &base_);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  }
  ~SharedArea() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);
  }
  SharedArea(const SharedArea&) = delete;
  std::byte* data() const { return static_cast<std::byte*>(base_); }
  // Orders this rank's loads and stores with the other ranks' around a message handshake.
  void sync() const { MPI_Win_sync(win_); }

 private:
  MPI_Win win_ = MPI_WIN_NULL;
  void* base_ = nullptr;
};

class SloavxPlan final : public PlanImpl {
 public:
  SloavxPlan(const Context& ctx, NodeTopology topology)
      : topo_(std::move(topology)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        q_(static_cast<std::size_t>(topo_.ranks_per_node())),
        n_(static_cast<std::size_t>(topo_.nodes())),
        local_(static_cast<std::size_t>(topo_.local_rank())),
        node_(static_cast<std::size_t>(topo_.node())),
        layout_(ctx.layout),
        row_(procs_ + n_) {
    // Binomial tree on local ranks: the parent clears the lowest set bit; the subtree of l is
    // [l, l + lowbit(l)) cut at Q.
    const std::size_t low = local_ == 0 ? q_ : (local_ & (~local_ + 1));
    subtree_ = std::min(low, q_ - local_);
    if (local_ != 0) parent_ = static_cast<int>(local_ - low);
    for (std::size_t step = 1; step < low && local_ + step < q_; step *= 2) {
      children_.push_back(local_ + step);
    }
    up_.resize(subtree_ * row_);
    down_.resize(subtree_ * (1 + n_));
    send_total_ = 0;
    for (std::size_t c : layout_.send_counts)
      send_total_ += c;
    for (std::size_t c : layout_.recv_counts)
      recv_total_ += c;
    // Window capacities: the node's send and receive totals (fixed by the plan's layout).
    unsigned long long totals[2] = {send_total_, recv_total_};
    MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, topo_.node_comm());
    gather_ = std::make_unique<SharedArea>(topo_.node_comm(), totals[0], local_ == 0);
    scatter_ = std::make_unique<SharedArea>(topo_.node_comm(), totals[1], local_ == 0);
    if (local_ == 0) {
      partitions_.resize(totals[0]);
      block_at_.resize(q_ * procs_);
      input_.resize(n_);
      leaders_ = std::make_unique<VectorRadixExchange>(topo_.port_comm(), node_, n_, 2, kLeaderTag);
    }
  }

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    const MPI_Comm node = topo_.node_comm();
    const std::size_t P = procs_, Q = q_, N = n_;
    // (1a) Sizes up the tree: per rank of the subtree, its P send counts and its N per-node
    // receive totals.
    std::uint64_t* mine = up_.data();
    for (std::size_t d = 0; d < P; ++d)
      mine[d] = layout_.send_counts[d];
    for (std::size_t m = 0; m < N; ++m) {
      std::uint64_t from_node = 0;
      for (std::size_t l = 0; l < Q; ++l)
        from_node += layout_.recv_counts[m * Q + l];
      mine[P + m] = from_node;
    }
    for (std::size_t child : children_) {
      const std::size_t span = std::min(child & (~child + 1), Q - child);
      recv_words(up_.data() + (child - local_) * row_, span * row_, child, kUpTag, node, c);
    }
    if (parent_ >= 0) send_words(up_.data(), subtree_ * row_, parent(), kUpTag, node, c);

    // (1b) Write offsets down: the leader assigns every rank its region of the gather area.
    if (local_ == 0) {
      std::uint64_t offset = 0;
      for (std::size_t l = 0; l < Q; ++l) {
        down_[l * (1 + N)] = offset;
        for (std::size_t d = 0; d < P; ++d)
          offset += up_[l * row_ + d];
      }
    } else {
      recv_words(down_.data(), subtree_ * (1 + N), parent(), kDownTag, node, c);
    }
    for (std::size_t child : children_) {
      const std::size_t span = std::min(child & (~child + 1), Q - child);
      send_words(down_.data() + (child - local_) * (1 + N), span * (1 + N), child, kDownTag, node,
                 c);
    }
    // (1c) Write this rank's blocks, in destination order, into the leader's window; then
    // report the subtree written.
    std::byte* out = gather_->data() + down_[0];
    for (std::size_t d = 0; d < P; ++d) {
      if (layout_.send_counts[d] == 0) continue;
      std::memcpy(out, send + layout_.send_displs[d], layout_.send_counts[d]);
      out += layout_.send_counts[d];
    }
    gather_->sync();
    for (std::size_t child : children_)
      recv_words(nullptr, 0, child, kUpTag, node, c);
    if (parent_ >= 0) send_words(nullptr, 0, parent(), kUpTag, node, c);

    if (local_ == 0) lead(c);

    // (3) Read offsets down; then copy this rank's blocks out of the scatter window.
    if (parent_ >= 0) recv_words(down_.data(), subtree_ * (1 + N), parent(), kDownTag, node, c);
    for (std::size_t child : children_) {
      const std::size_t span = std::min(child & (~child + 1), Q - child);
      send_words(down_.data() + (child - local_) * (1 + N), span * (1 + N), child, kDownTag, node,
                 c);
    }
    scatter_->sync();
    for (std::size_t m = 0; m < N; ++m) {
      const std::byte* in = scatter_->data() + down_[1 + m];
      for (std::size_t l = 0; l < Q; ++l) {
        const std::size_t s = m * Q + l;
        if (layout_.recv_counts[s] == 0) continue;
        std::memcpy(recv + layout_.recv_displs[s], in, layout_.recv_counts[s]);
        in += layout_.recv_counts[s];
      }
    }
  }

 private:
  // (2) The leader: cut the node's data into per-node partitions, run SLOAV among leaders,
  // place the results in the scatter window and compute every rank's read offsets.
  void lead(Counters& c) {
    const std::size_t P = procs_, Q = q_, N = n_;
    gather_->sync();
    const std::byte* gathered = gather_->data();
    // Partition m, destination-major: for local destination j, for local source l, the block
    // from (node_, l) to (m, j), so each destination's blocks end up contiguous.
    // Where each local source's block for each destination starts in the gather window.
    for (std::size_t l = 0; l < Q; ++l) {
      const std::uint64_t* counts = up_.data() + l * row_;
      std::uint64_t at = down_[l * (1 + N)];
      for (std::size_t d = 0; d < P; ++d) {
        block_at_[l * P + d] = at;
        at += counts[d];
      }
    }
    std::byte* out = partitions_.data();
    for (std::size_t i = 0; i < N; ++i) {
      const std::size_t m = (node_ + i) % N;
      std::byte* start = out;
      for (std::size_t j = 0; j < Q; ++j) {
        for (std::size_t l = 0; l < Q; ++l) {
          const std::size_t bytes = up_[l * row_ + m * Q + j];
          if (bytes > 0) std::memcpy(out, gathered + block_at_[l * P + m * Q + j], bytes);
          out += bytes;
        }
      }
      input_[i] = {start, static_cast<std::size_t>(out - start)};
    }
    const VectorRadixExchange::Sent sent = leaders_->run(input_);
    // Element i came from node node_ - i. Lay the partitions out by source node, and give
    // rank j of this node, for each source node m, the offset of its segment.
    std::size_t offset = 0;
    std::vector<std::size_t>& where = partition_offset_;
    where.assign(N, 0);
    for (std::size_t i = 0; i < N; ++i) {
      const std::size_t m = (node_ + N - i) % N;
      const VectorRadixExchange::Element e = leaders_->element(i);
      if (e.bytes > 0) std::memcpy(scatter_->data() + offset, e.data, e.bytes);
      where[m] = offset;
      offset += e.bytes;
    }
    for (std::size_t m = 0; m < N; ++m) {
      std::uint64_t segment = where[m];
      for (std::size_t j = 0; j < Q; ++j) {
        down_[j * (1 + N) + 1 + m] = segment;
        segment += up_[j * row_ + P + m];
      }
    }
    scatter_->sync();
    c.rounds_inter += sent.rounds;
    c.rounds += sent.rounds;
    c.messages_sent += sent.messages;
    c.blocks_sent += sent.elements;
    c.bytes_sent += sent.bytes;
  }

  std::size_t parent() const { return static_cast<std::size_t>(parent_); }

  // One tree message (a bare notification when words == 0).
  void send_words(const std::uint64_t* data, std::size_t words, std::size_t to, int tag,
                  MPI_Comm comm, Counters& c) {
    const int peer = static_cast<int>(to);
    if (words == 0) {
      MPI_Send(nullptr, 0, MPI_BYTE, peer, tag, comm);
    } else {
      requests_.isend(data, words * sizeof(std::uint64_t), peer, tag, comm);
      requests_.wait_all();
    }
    c.messages_sent += 1;
    c.rounds_intra += 1;
    c.rounds += 1;
  }
  void recv_words(std::uint64_t* data, std::size_t words, std::size_t from, int tag, MPI_Comm comm,
                  Counters&) {
    const int peer = static_cast<int>(from);
    if (words == 0) {
      MPI_Recv(nullptr, 0, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE);
      return;
    }
    requests_.irecv(data, words * sizeof(std::uint64_t), peer, tag, comm);
    requests_.wait_all();
  }

  NodeTopology topo_;
  std::size_t procs_, q_, n_, local_, node_;
  VectorLayout layout_;
  std::size_t row_;  // words per rank in the up sweep: P counts + N per-node totals
  std::size_t subtree_ = 1, send_total_ = 0, recv_total_ = 0;
  int parent_ = -1;
  std::vector<std::size_t> children_;
  std::vector<std::uint64_t> up_, down_;
  std::unique_ptr<SharedArea> gather_, scatter_;
  std::vector<std::byte> partitions_;
  std::vector<std::uint64_t> block_at_;  // leader: gather-window offset of block (l, d)
  std::vector<VectorRadixExchange::Element> input_;
  std::vector<std::size_t> partition_offset_;
  std::unique_ptr<VectorRadixExchange> leaders_;
  Requests requests_;
};

}  // namespace

AlgorithmInfo describe_sloavx() {
  AlgorithmInfo info;
  info.name = "sloavx";
  info.kinds = static_cast<unsigned>(Kind::vector);
  info.params = {ranks_per_node_info()};
  info.summary = "node leaders gather into shared memory, SLOAV among leaders, scatter back";
  info.source = "SLOAVx paper (Xu et al. 2013), section IV";
  info.cost = "4 log2 Q tree sweeps in the node; 2 ceil(log2 N) messages per leader";
  info.validate = [](Context& ctx) {
    ctx.ranks_per_node_param("q");  // q = node is resolved when the plan is built
  };
  info.build = [](Context& ctx) -> std::unique_ptr<PlanImpl> {
    NodeTopology topology = plan_topology(ctx);
    // The node's ranks must share memory (an emulated node may not span real nodes).
    MPI_Comm shared = MPI_COMM_NULL;
    MPI_Comm_split_type(topology.node_comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    int shared_size = 0;
    MPI_Comm_size(shared, &shared_size);
    MPI_Comm_free(&shared);
    int all_shared = shared_size == topology.ranks_per_node();
    MPI_Allreduce(MPI_IN_PLACE, &all_shared, 1, MPI_INT, MPI_LAND, ctx.comm);
    if (!all_shared) {
      ctx.fail("not applicable: the ranks of an (emulated) node do not share memory");
    }
    return std::make_unique<SloavxPlan>(ctx, std::move(topology));
  };
  return info;
}

}  // namespace a2a::detail
