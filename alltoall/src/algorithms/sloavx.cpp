// sloavx: SLOAV for hierarchical multicore systems, Xu et al., "SLOAVx: Scalable LOgarithmic
// AlltoallV Algorithm for Hierarchical Multicore Systems" (CCGrid 2013), section IV (Fig. 4).
// Per node (topology layer: real nodes, or emulated with q), local rank 0 is the group leader
// and the node's ranks form a binomial tree rooted at it.
//   (1) gather: every rank sends the sizes of its subtree up the tree (its per-destination
//       counts and what it will receive from each node); the leader computes where each rank
//       writes and reads and sends the offsets down; each rank writes its blocks straight into
//       the leader's MPI-3 shared window (MPI_Win_allocate_shared) and reports up the tree that
//       its subtree is written (a modified Gatherv into shared memory).
//   (2) the leaders cut the node's data into N partitions, one per destination node, and run
//       SLOAV (radix-2 two-phase rounds with the element index table) among themselves.
//   (3) scatter: the received partitions land in a second shared window; the leader tells the
//       tree that they are there and each rank copies its blocks out (a modified Scatterv).
// Cost: ceil(log2 Q) tree levels up and down (a size sweep, an offset sweep and two
// notification sweeps of the tree), plus ceil(log2 N) SLOAV rounds of 2 messages among the N
// leaders only: the network sees O(N log N) messages instead of SLOAV's O(P log P).
//
// Per call (VectorExchange) it runs as above; the read offsets travel down with the write
// offsets (the leader knows every partition's size from the size sweep), and the shared
// windows grow on demand (made once per communicator). A fixed layout does the sweeps, the
// window sizes and the leaders' SLOAV planning once: each rank writes its blocks straight into
// the partition layout (no leader copy), the leaders exchange planned rounds (no size phase),
// and a call is two notification sweeps and the data.
// `r` (default 2, the paper's SLOAV) and `window` (default 1) are the leaders' radix and
// rounds in flight. Needs uniform nodes of Q consecutive ranks that share memory.
#include <climits>
#include <cstring>

#include "a2a/topology.hpp"
#include "detail/algorithms.hpp"
#include "detail/shared_areas.hpp"
#include "detail/tags.hpp"
#include "detail/vector_radix.hpp"

namespace a2a::detail {
namespace {

// A shared-memory area owned by local rank 0 (the node's leader), mapped into every rank.
class SharedArea {
 public:
  SharedArea(MPI_Comm node, bool owner) : areas_(node, size_of(node)), owner_(owner) {}
  // Collective over the node: an area of `bytes` (the leader's; the others give 0).
  void allocate(std::size_t bytes) {
    areas_.allocate(owner_ ? bytes : 0);
    capacity_ = bytes;
  }
  std::byte* data() const { return areas_.area(0); }
  std::size_t capacity() const { return capacity_; }
  // Orders this rank's loads and stores with the other ranks' around a message handshake.
  void sync() const { areas_.sync(); }

 private:
  static int size_of(MPI_Comm comm) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    return size;
  }
  SharedAreas areas_;
  bool owner_;
  std::size_t capacity_ = 0;
};

// What both forms share: the node's tree, the windows, the leaders' engine and the node layout.
class Sloavx {
 public:
  Sloavx(const Context& ctx, NodeTopology topology, std::size_t radix, std::size_t window)
      : topo_(std::move(topology)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        q_(static_cast<std::size_t>(topo_.ranks_per_node())),
        n_(static_cast<std::size_t>(topo_.nodes())),
        local_(static_cast<std::size_t>(topo_.local_rank())),
        node_(static_cast<std::size_t>(topo_.node())),
        gather_(topo_.node_comm(), local_ == 0),
        scatter_(topo_.node_comm(), local_ == 0) {
    // Binomial tree on local ranks: the parent clears the lowest set bit; the subtree of l is
    // [l, l + lowbit(l)) cut at Q.
    const std::size_t low = local_ == 0 ? q_ : (local_ & (~local_ + 1));
    subtree_ = std::min(low, q_ - local_);
    if (local_ != 0) parent_ = static_cast<int>(local_ - low);
    for (std::size_t step = 1; step < low && local_ + step < q_; step *= 2) {
      children_.push_back(local_ + step);
    }
    requests_.reserve(2 * (children_.size() + 1) * 4);
    up_words_.resize(children_.size());
    if (local_ == 0) {
      leaders_ = std::make_unique<VectorRadixExchange>(topo_.port_comm(), node_, n_, radix, window,
                                                       tag::sloavx_leaders);
      input_.resize(n_);
      output_.resize(n_);
      part_in_.resize(2 * n_);
      part_out_.resize(2 * n_);
    }
  }

 protected:
  // The leader holds the node's windows and the leaders' engine; the others, nothing large.
  std::size_t held_bytes() const {
    if (local_ != 0) return 0;
    return gather_.capacity() + scatter_.capacity() + leaders_->scratch_bytes();
  }
  std::size_t span(std::size_t child) const { return std::min(child & (~child + 1), q_ - child); }

  // Rows of `width` words for every rank of the subtree, own row first: the children's rows
  // arrive, then the whole subtree goes to the parent.
  void sweep_up(std::uint64_t* rows, std::size_t width, Counters& c) {
    const MPI_Comm node = topo_.node_comm();
    for (std::size_t child : children_) {
      requests_.irecv(rows + (child - local_) * width, span(child) * width * 8,
                      static_cast<int>(child), tag::sloavx_up, node);
    }
    wait(c);
    if (parent_ >= 0) {
      requests_.isend(rows, subtree_ * width * 8, parent_, tag::sloavx_up, node);
      sent(c);
      wait(c);
    }
  }
  // The leader's rows (all Q) travel down: each rank gets its subtree's and passes them on.
  void sweep_down(std::uint64_t* rows, std::size_t width, Counters& c) {
    const MPI_Comm node = topo_.node_comm();
    if (parent_ >= 0) {
      requests_.irecv(rows, subtree_ * width * 8, parent_, tag::sloavx_down, node);
      wait(c);
    }
    for (std::size_t child : children_) {
      requests_.isend(rows + (child - local_) * width, span(child) * width * 8,
                      static_cast<int>(child), tag::sloavx_down, node);
      sent(c);
    }
    wait(c);
  }
  // Notifications, one word each (Requests sends no empty message): the subtree is done (up) /
  // the leader is done (down).
  void notify_up(Counters& c) {
    const MPI_Comm node = topo_.node_comm();
    for (std::size_t k = 0; k < children_.size(); ++k) {
      requests_.irecv(&up_words_[k], sizeof(int), static_cast<int>(children_[k]), tag::sloavx_up,
                      node);
    }
    wait(c);
    if (parent_ >= 0) {
      requests_.isend(&done_, sizeof done_, parent_, tag::sloavx_up, node);
      sent(c);
      wait(c);
    }
  }
  // The leader's word travels down: 0, or 1 when its exchange failed (the node's ranks then
  // fail with it instead of reading partitions that did not arrive whole).
  int notify_down(Counters& c, int failed = 0) {
    const MPI_Comm node = topo_.node_comm();
    if (parent_ >= 0) {
      requests_.irecv(&failed, sizeof failed, parent_, tag::sloavx_down, node);
      wait(c);
    }
    for (std::size_t child : children_) {
      requests_.isend(&failed, sizeof failed, static_cast<int>(child), tag::sloavx_down, node);
      sent(c);
    }
    wait(c);
    return failed;
  }

  // The leader's node layout from the up rows (row l: P send counts, then N receive totals):
  // partition m (to node m) in the gather window, destination-major (j, then source l), and
  // the partition from node m in the scatter window, with rank j's segment at
  // read(j, m). part_in_/part_out_ hold (offset, bytes) per node.
  template <typename Write, typename Read>
  void layout_node(const std::uint64_t* up, std::size_t width, Write write, Read read,
                   std::size_t& gather_bytes, std::size_t& scatter_bytes) {
    const std::size_t P = procs_, Q = q_, N = n_;
    std::size_t at = 0;
    for (std::size_t m = 0; m < N; ++m) {
      part_in_[2 * m] = at;
      for (std::size_t j = 0; j < Q; ++j) {
        for (std::size_t l = 0; l < Q; ++l) {
          write(l, m * Q + j, at);
          at += up[l * width + m * Q + j];
        }
      }
      part_in_[2 * m + 1] = at - part_in_[2 * m];
    }
    gather_bytes = at;
    at = 0;
    for (std::size_t m = 0; m < N; ++m) {
      part_out_[2 * m] = at;
      for (std::size_t j = 0; j < Q; ++j) {
        read(j, m, at);
        at += up[j * width + P + m];
      }
      part_out_[2 * m + 1] = at - part_out_[2 * m];
    }
    scatter_bytes = at;
  }

  // This rank's up row: its P send counts and, per node, the bytes it receives from there.
  void own_row(std::uint64_t* row, const LayoutView& l) const {
    for (std::size_t d = 0; d < procs_; ++d)
      row[d] = l.send_counts[d];
    for (std::size_t m = 0; m < n_; ++m) {
      std::uint64_t from_node = 0;
      for (std::size_t j = 0; j < q_; ++j)
        from_node += l.recv_counts[m * q_ + j];
      row[procs_ + m] = from_node;
    }
  }

  // (3) This rank's blocks out of the scatter window: from node m, sources in order.
  void read_out(std::byte* recv, const LayoutView& l, const std::uint64_t* read_at) const {
    for (std::size_t m = 0; m < n_; ++m) {
      const std::byte* in = scatter_.data() + read_at[m];
      for (std::size_t s = m * q_; s < (m + 1) * q_; ++s) {
        if (l.recv_counts[s] == 0) continue;
        std::memcpy(recv + l.recv_displs[s], in, l.recv_counts[s]);
        in += l.recv_counts[s];
      }
    }
  }

  void leaders_counted(const RadixSent& s, Counters& c) const {
    s.add_to(c);
    c.rounds_inter += s.rounds;
  }

  void sent(Counters& c) {
    c.messages_sent += 1;
    c.rounds_intra += 1;
    c.rounds += 1;
  }
  void wait(Counters& c) {
    if (requests_.pending() == 0) return;
    requests_.wait_all();
    c.waits += 1;
  }

  NodeTopology topo_;
  std::vector<int> up_words_;  // the children's "done" words
  int done_ = 0;
  std::size_t procs_, q_, n_, local_, node_;
  std::size_t subtree_ = 1;
  int parent_ = -1;
  std::vector<std::size_t> children_;
  SharedArea gather_, scatter_;
  std::unique_ptr<VectorRadixExchange> leaders_;  // leaders only
  std::vector<VectorRadixExchange::Element> input_;
  std::vector<VectorRadixExchange::Output> output_;
  std::vector<std::size_t> part_in_, part_out_;  // leader: (offset, bytes) per node
  Requests requests_;
};

// Fixed layout: sweeps, window sizes and the leaders' rounds planned once.
class SloavxPlan final : public PlanImpl, private Sloavx {
 public:
  SloavxPlan(const Context& ctx, NodeTopology topology, std::size_t radix, std::size_t window)
      : Sloavx(ctx, std::move(topology), radix, window), layout_(ctx.layout) {
    const std::size_t P = procs_, N = n_, up_width = P + N, down_width = P + N;
    Counters ignored;
    std::vector<std::uint64_t> up(subtree_ * up_width), down(subtree_ * down_width);
    own_row(up.data(), LayoutView::of(layout_));
    sweep_up(up.data(), up_width, ignored);
    std::size_t gather_bytes = 0, scatter_bytes = 0;
    if (local_ == 0) {
      layout_node(
          up.data(), up_width,
          [&](std::size_t l, std::size_t d, std::size_t at) { down[l * down_width + d] = at; },
          [&](std::size_t j, std::size_t m, std::size_t at) { down[j * down_width + P + m] = at; },
          gather_bytes, scatter_bytes);
    }
    sweep_down(down.data(), down_width, ignored);
    write_at_.assign(down.begin(), down.begin() + static_cast<std::ptrdiff_t>(P));
    read_at_.assign(down.begin() + static_cast<std::ptrdiff_t>(P),
                    down.begin() + static_cast<std::ptrdiff_t>(P + N));
    gather_.allocate(gather_bytes);
    scatter_.allocate(scatter_bytes);
    if (local_ == 0) {
      std::vector<std::size_t> in_off(N), in_bytes(N), out_off(N), out_bytes(N);
      for (std::size_t i = 0; i < N; ++i) {
        const std::size_t to = (node_ + i) % N, from = (node_ + N - i) % N;
        in_off[i] = part_in_[2 * to];
        in_bytes[i] = part_in_[2 * to + 1];
        out_off[i] = part_out_[2 * from];
        out_bytes[i] = part_out_[2 * from + 1];
      }
      leaders_->plan(in_off.data(), in_bytes.data(), out_off.data(), out_bytes.data());
    }
  }

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    const LayoutView l = LayoutView::of(layout_);
    // (1) Every block straight into its partition; then the subtree reports up.
    for (std::size_t d = 0; d < procs_; ++d) {
      if (l.send_counts[d] == 0) continue;
      std::memcpy(gather_.data() + write_at_[d], send + l.send_displs[d], l.send_counts[d]);
    }
    gather_.sync();
    notify_up(c);
    // (2) The leaders' planned rounds, from the gather window into the scatter window.
    if (local_ == 0) {
      gather_.sync();
      leaders_counted(leaders_->run_planned(gather_.data(), scatter_.data()), c);
      scatter_.sync();
    }
    // (3) The leader says the partitions are there; each rank copies its blocks out.
    notify_down(c);
    scatter_.sync();
    read_out(recv, l, read_at_.data());
  }
  std::size_t scratch_bytes() const override { return held_bytes(); }

 private:
  VectorLayout layout_;
  std::vector<std::uint64_t> write_at_, read_at_;
};

// Per call: the paper's sweeps every call, windows grown on demand.
class SloavxExchange final : public ExchangeImpl, private Sloavx {
 public:
  SloavxExchange(const Context& ctx, NodeTopology topology, std::size_t radix, std::size_t window)
      : Sloavx(ctx, std::move(topology), radix, window),
        up_(subtree_ * up_width()),
        down_(subtree_ * down_width()) {
    if (local_ == 0) block_at_.resize(q_ * procs_);
  }

  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    const std::size_t P = procs_, Q = q_, W = down_width();
    // (1a) Sizes up the tree.
    own_row(up_.data(), l);
    sweep_up(up_.data(), up_width(), c);
    // (1b) The leader lays out the node: each rank writes its blocks in destination order
    // from one offset; the read offsets are known already (partition sizes from the sweep).
    if (local_ == 0) {
      std::size_t at = 0;
      for (std::size_t r = 0; r < Q; ++r) {
        down_[r * W + 2] = at;
        for (std::size_t d = 0; d < P; ++d) {
          block_at_[r * P + d] = at;
          at += up_[r * up_width() + d];
        }
      }
      std::size_t partitions = 0, scattered = 0;
      layout_node(
          up_.data(), up_width(), [](std::size_t, std::size_t, std::size_t) {},
          [&](std::size_t j, std::size_t m, std::size_t to) { down_[j * W + 3 + m] = to; },
          partitions, scattered);
      // Window capacities, the same words for every rank (they grow together).
      const auto grown = [](std::size_t need, std::size_t have) {
        return need <= have ? have : std::max(need, have + have / 2);
      };
      const std::size_t gather_cap = grown(at + partitions, gather_.capacity());
      const std::size_t scatter_cap = grown(scattered, scatter_.capacity());
      for (std::size_t r = 0; r < Q; ++r) {
        down_[r * W] = gather_cap;
        down_[r * W + 1] = scatter_cap;
      }
      partitions_at_ = at;  // the partitions follow the gathered blocks in the gather window
    }
    sweep_down(down_.data(), W, c);
    if (down_[0] != gather_.capacity()) gather_.allocate(down_[0]);
    if (down_[1] != scatter_.capacity()) scatter_.allocate(down_[1]);
    // (1c) This rank's blocks, in destination order, into the leader's window.
    std::byte* out = gather_.data() + down_[2];
    for (std::size_t d = 0; d < P; ++d) {
      if (l.send_counts[d] == 0) continue;
      std::memcpy(out, send + l.send_displs[d], l.send_counts[d]);
      out += l.send_counts[d];
    }
    gather_.sync();
    notify_up(c);
    Failure failure;
    if (local_ == 0) {
      try {
        lead(c);
      } catch (...) {
        failure = current_failure();  // finish the protocol first: the node waits for its leader
      }
    }
    const int failed = notify_down(c, failure ? 1 : 0);
    scatter_.sync();
    if (failed) {
      // The partitions are laid out by counts that disagree: no block can be trusted.
      for (std::size_t s = 0; s < P; ++s) {
        if (l.recv_counts[s] > 0) std::memset(recv + l.recv_displs[s], 0, l.recv_counts[s]);
      }
    } else {
      read_out(recv, l, down_.data() + 3);
    }
    if (failure) throw_error(failure.kind, failure.message);
    if (failed) {
      throw Error(
          "sloavx: the node's leader received partitions whose lengths disagree with "
          "the counts (mismatched Alltoallv counts; this rank's blocks are zero-filled)");
    }
  }
  std::size_t scratch_bytes() const override { return held_bytes(); }

 private:
  std::size_t up_width() const { return procs_ + n_; }
  std::size_t down_width() const { return 3 + n_; }  // capacities, write offset, read offsets

  // (2) The leader: cut the node's data into per-node partitions, run SLOAV among leaders
  // straight into the scatter window.
  void lead(Counters& c) {
    const std::size_t P = procs_, Q = q_, N = n_;
    gather_.sync();
    std::byte* gathered = gather_.data();
    std::byte* partitions = gathered + partitions_at_;
    for (std::size_t m = 0; m < N; ++m) {
      std::byte* out = partitions + part_in_[2 * m];
      for (std::size_t j = 0; j < Q; ++j) {
        for (std::size_t l = 0; l < Q; ++l) {
          const std::size_t bytes = up_[l * up_width() + m * Q + j];
          if (bytes > 0) std::memcpy(out, gathered + block_at_[l * P + m * Q + j], bytes);
          out += bytes;
        }
      }
    }
    for (std::size_t i = 0; i < N; ++i) {
      const std::size_t to = (node_ + i) % N, from = (node_ + N - i) % N;
      input_[i] = {partitions + part_in_[2 * to], part_in_[2 * to + 1]};
      output_[i] = {scatter_.data() + part_out_[2 * from], part_out_[2 * from + 1]};
    }
    const RadixSent s = leaders_->run(input_.data(), output_.data());
    leaders_counted(s, c);
    scatter_.sync();
  }

  std::vector<std::uint64_t> up_, down_;
  std::vector<std::uint64_t> block_at_;  // leader: gather-window offset of block (l, d)
  std::size_t partitions_at_ = 0;
};

// The node topology for sloavx, checked: nodes must share memory (needs_shared_nodes).
NodeTopology sloavx_topology(Context& ctx) {
  NodeTopology topology = plan_topology(ctx);
  if (const std::string why = shared_nodes_refusal(topology, ctx.comm); !why.empty())
    ctx.refuse(why);
  return topology;
}

// The leaders' radix, once N is known ('sqrt' and 'max' of N).
std::size_t leaders_radix(Context& ctx, const NodeTopology& topology) {
  return static_cast<std::size_t>(ctx.radix_param("r", topology.nodes(), "N"));
}

}  // namespace

AlgorithmInfo describe_sloavx() {
  AlgorithmInfo info;
  info.name = "sloavx";
  info.kinds = static_cast<unsigned>(Kind::vector);
  info.params = {ranks_per_node_info(),
                 {"r", "2", "the leaders' radix in [2, N]: 2 = the paper's SLOAV; 'sqrt', 'max'"},
                 window_param_info()};
  info.summary = "node leaders gather into shared memory, SLOAV among leaders, scatter back";
  info.source = "SLOAVx paper (Xu et al. 2013), section IV";
  info.cost = "4 log2 Q tree sweeps in the node; 2 ceil(log2 N) messages per leader";
  info.validate = [](Context& ctx) {
    ctx.ranks_per_node_param("q");  // q = node is resolved when the plan is built
    ctx.window_param("window");
    const std::string& r = ctx.raw("r");
    if (r != "sqrt" && r != "max") ctx.int_param("r", 2, INT_MAX);  // range checked with N
  };
  info.build = [](Context& ctx) -> std::unique_ptr<PlanImpl> {
    NodeTopology topology = sloavx_topology(ctx);
    const std::size_t radix = leaders_radix(ctx, topology);
    return std::make_unique<SloavxPlan>(ctx, std::move(topology), radix, resolved_window(ctx));
  };
  info.build_exchange = [](Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    NodeTopology topology = sloavx_topology(ctx);
    const std::size_t radix = leaders_radix(ctx, topology);
    return std::make_unique<SloavxExchange>(ctx, std::move(topology), radix, resolved_window(ctx));
  };
  info.needs_shared_nodes = true;  // its leaders' windows
  info.tuning_candidates = [](Kind, int procs) { return node_candidates("sloavx", procs); };
  // The node's gather and scatter areas: at worst one node of P ranks.
  info.scratch_buffers = [](int procs) { return 3 + 2.0 * procs; };
  info.test_variants = [](Kind, int) {
    return std::vector<std::string>{"sloavx:q=1",
                                    "sloavx:q=2",
                                    "sloavx:q=3",
                                    "sloavx:q=4",
                                    "sloavx:q=1,r=max,window=all",
                                    "sloavx:q=2,r=sqrt,window=2",
                                    "sloavx:q=1,window=all"};
  };
  return info;
}

}  // namespace a2a::detail
