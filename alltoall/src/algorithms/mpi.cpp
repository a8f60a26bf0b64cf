// mpi: the MPI library's own MPI_Alltoall / MPI_Alltoallv, the baseline every other backend is
// compared against. Cost: whatever the library chose (not counted: rounds = 0). Split phase
// (Plan::start/finish): MPI_Ialltoall / MPI_Ialltoallv / MPI_Ialltoallw and MPI_Wait.
// Counts are int in MPI-3, so blocks above INT_MAX bytes use a derived type of that size
// (uniform), and layouts with large counts or displacements use MPI_Alltoallw with one
// displaced byte type per peer (vector).
#include <climits>

#include "a2a/algorithm.hpp"
#include "detail/algorithms.hpp"
#include "detail/messages.hpp"
#include "detail/mpi_entry.hpp"

namespace a2a::detail {
namespace {

bool fits_int(const std::vector<std::size_t>& v) {
  for (std::size_t x : v) {
    if (x > static_cast<std::size_t>(INT_MAX)) return false;
  }
  return true;
}

std::vector<int> to_int(const std::vector<std::size_t>& v) {
  return std::vector<int>(v.begin(), v.end());
}

void count_logical(int rank, int procs, const std::size_t* send_counts, Counters& c) {
  for (int i = 0; i < procs; ++i) {
    const std::size_t bytes = send_counts[static_cast<std::size_t>(i)];
    if (i == rank || bytes == 0) continue;
    c.blocks_sent += 1;
    c.messages_sent += 1;
    c.bytes_sent += bytes;
  }
}
void count_logical(const Context& ctx, Counters& c) {
  count_logical(ctx.rank, ctx.procs, ctx.layout.send_counts.data(), c);
}

void wait(MPI_Request& request, Counters& c) {
  check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
  c.waits += 1;
}

class MpiUniform final : public PlanImpl {
 public:
  explicit MpiUniform(const Context& ctx) : ctx_(ctx) {
    if (ctx.block_bytes > static_cast<std::size_t>(INT_MAX)) {
      type_ = contiguous_bytes_type(ctx.block_bytes);
      count_ = 1;
    } else {
      count_ = static_cast<int>(ctx.block_bytes);
    }
  }
  ~MpiUniform() override {
    if (type_ != MPI_BYTE) MPI_Type_free(&type_);
  }
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    check_mpi(A2A_MPI_ALLTOALL(send, count_, type_, recv, count_, type_, ctx_.comm),
              "MPI_Alltoall");
    count_logical(ctx_, c);
  }
  void start(const std::byte* send, std::byte* recv, Counters& c) override {
    check_mpi(A2A_MPI_IALLTOALL(send, count_, type_, recv, count_, type_, ctx_.comm, &request_),
              "MPI_Ialltoall");
    count_logical(ctx_, c);
  }
  void finish(Counters& c) override { wait(request_, c); }
  bool overlaps() const override { return true; }

 private:
  Context ctx_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  MPI_Datatype type_ = MPI_BYTE;
  int count_ = 0;
};

class MpiVector final : public PlanImpl {
 public:
  explicit MpiVector(const Context& ctx) : ctx_(ctx) {
    const auto& l = ctx.layout;
    use_w_ = !(fits_int(l.send_counts) && fits_int(l.send_displs) && fits_int(l.recv_counts) &&
               fits_int(l.recv_displs));
    if (!use_w_) {
      send_counts_ = to_int(l.send_counts);
      send_displs_ = to_int(l.send_displs);
      recv_counts_ = to_int(l.recv_counts);
      recv_displs_ = to_int(l.recv_displs);
      return;
    }
    const auto n = static_cast<std::size_t>(ctx.procs);
    send_counts_.assign(n, 1);
    recv_counts_.assign(n, 1);
    send_displs_.assign(n, 0);
    recv_displs_.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      send_types_.push_back(displaced_bytes_type(l.send_counts[i], l.send_displs[i]));
      recv_types_.push_back(displaced_bytes_type(l.recv_counts[i], l.recv_displs[i]));
    }
  }
  ~MpiVector() override {
    for (auto& t : send_types_)
      MPI_Type_free(&t);
    for (auto& t : recv_types_)
      MPI_Type_free(&t);
  }
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    if (use_w_) {
      check_mpi(A2A_MPI_ALLTOALLW(send, send_counts_.data(), send_displs_.data(),
                                  send_types_.data(), recv, recv_counts_.data(),
                                  recv_displs_.data(), recv_types_.data(), ctx_.comm),
                "MPI_Alltoallw");
    } else {
      check_mpi(A2A_MPI_ALLTOALLV(send, send_counts_.data(), send_displs_.data(), MPI_BYTE, recv,
                                  recv_counts_.data(), recv_displs_.data(), MPI_BYTE, ctx_.comm),
                "MPI_Alltoallv");
    }
    count_logical(ctx_, c);
  }
  void start(const std::byte* send, std::byte* recv, Counters& c) override {
    if (use_w_) {
      check_mpi(A2A_MPI_IALLTOALLW(send, send_counts_.data(), send_displs_.data(),
                                   send_types_.data(), recv, recv_counts_.data(),
                                   recv_displs_.data(), recv_types_.data(), ctx_.comm, &request_),
                "MPI_Ialltoallw");
    } else {
      check_mpi(A2A_MPI_IALLTOALLV(send, send_counts_.data(), send_displs_.data(), MPI_BYTE, recv,
                                   recv_counts_.data(), recv_displs_.data(), MPI_BYTE, ctx_.comm,
                                   &request_),
                "MPI_Ialltoallv");
    }
    count_logical(ctx_, c);
  }
  void finish(Counters& c) override { wait(request_, c); }
  bool overlaps() const override { return true; }

 private:
  Context ctx_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  bool use_w_ = false;
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::vector<MPI_Datatype> send_types_, recv_types_;
};

// Per call: the counts converted to int (MPI-3's type) into kept arrays; a call whose counts or
// displacements do not fit an int goes through MPI_Alltoallw with displaced byte types made for
// that call.
class MpiExchange final : public ExchangeImpl {
 public:
  explicit MpiExchange(const Context& ctx)
      : comm_(ctx.comm),
        rank_(ctx.rank),
        procs_(ctx.procs),
        ints_(4 * static_cast<std::size_t>(ctx.procs)),
        types_(2 * static_cast<std::size_t>(ctx.procs), MPI_DATATYPE_NULL) {}

  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    const auto n = static_cast<std::size_t>(procs_);
    int* sc = ints_.data();
    int* sd = sc + n;
    int* rc = sd + n;
    int* rd = rc + n;
    bool fits = true;
    for (std::size_t i = 0; i < n && fits; ++i) {
      fits = l.send_counts[i] <= kIntMax && l.send_displs[i] <= kIntMax &&
             l.recv_counts[i] <= kIntMax && l.recv_displs[i] <= kIntMax;
      sc[i] = static_cast<int>(l.send_counts[i]);
      sd[i] = static_cast<int>(l.send_displs[i]);
      rc[i] = static_cast<int>(l.recv_counts[i]);
      rd[i] = static_cast<int>(l.recv_displs[i]);
    }
    if (fits) {
      check_mpi(A2A_MPI_ALLTOALLV(send, sc, sd, MPI_BYTE, recv, rc, rd, MPI_BYTE, comm_),
                "MPI_Alltoallv");
    } else {
      MPI_Datatype* st = types_.data();
      MPI_Datatype* rt = st + n;
      for (std::size_t i = 0; i < n; ++i) {
        sc[i] = rc[i] = 1;
        sd[i] = rd[i] = 0;
        st[i] = displaced_bytes_type(l.send_counts[i], l.send_displs[i]);
        rt[i] = displaced_bytes_type(l.recv_counts[i], l.recv_displs[i]);
      }
      const int code = A2A_MPI_ALLTOALLW(send, sc, sd, st, recv, rc, rd, rt, comm_);
      for (auto& t : types_)
        MPI_Type_free(&t);
      check_mpi(code, "MPI_Alltoallw");
    }
    count_logical(rank_, procs_, l.send_counts, c);
  }

 private:
  static constexpr std::size_t kIntMax = static_cast<std::size_t>(INT_MAX);
  MPI_Comm comm_;
  int rank_, procs_;
  std::vector<int> ints_;
  std::vector<MPI_Datatype> types_;
};

}  // namespace

AlgorithmInfo describe_mpi() {
  AlgorithmInfo info;
  info.name = "mpi";
  info.kinds = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  info.summary = "the MPI library's own MPI_Alltoall / MPI_Alltoallv (baseline)";
  info.source = "MPI standard; algorithm chosen by the MPI library";
  info.cost = "library-defined (not counted)";
  info.build = [](const Context& ctx) -> std::unique_ptr<PlanImpl> {
    if (ctx.kind == Kind::uniform) return std::make_unique<MpiUniform>(ctx);
    return std::make_unique<MpiVector>(ctx);
  };
  info.build_exchange = [](const Context& ctx) -> std::unique_ptr<ExchangeImpl> {
    return std::make_unique<MpiExchange>(ctx);
  };
  info.tuning_candidates = [](Kind, int) { return std::vector<std::string>{"mpi"}; };
  info.sends_direct = true;  // one call; the library's own schedule, counted as direct
  info.scratch_buffers = [](int) { return 1.0; };  // the counts' or types' staging
  info.always_tuned = static_cast<unsigned>(Kind::uniform) | static_cast<unsigned>(Kind::vector);
  return info;
}

}  // namespace a2a::detail
