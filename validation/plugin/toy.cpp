// toy: an algorithm that is not in a2a, added as a plugin (A2A_PLUGINS=.../liba2a_toy_plugin.so)
// to show, and test, that an algorithm is one file and one registry entry: with nothing else
// changed, `a2a list`, `a2a bench`, `a2a tune` and the interposer use it.
//
// Built a second time with A2A_TOY_BROKEN, it is `toy_broken`: the same exchange, then the block
// from the next rank overwritten with NaN bytes, so that the checks downstream (bench --check,
// the FFT experiments' verdicts) have a wrong result to catch.
//
// The algorithm: pairwise in reverse: P - 1 steps, step i sends to rank - i and receives from
// rank + i (MPI_Sendrecv of one block each), then the rank's own block. Cost: P - 1 rounds,
// (P - 1) S bytes. Counts in bytes as MPI_Alltoallv's; blocks above 2 GiB are not its concern.
#include <mpi.h>

#include <cstring>
#include <memory>
#include <vector>

#include "a2a/algorithm.hpp"
#include "a2a/registry.hpp"

namespace {

class ReversePairwise final : public a2a::detail::ExchangeImpl {
 public:
  explicit ReversePairwise(const a2a::detail::Context& ctx)
      : comm_(ctx.comm), rank_(ctx.rank), procs_(ctx.procs) {}
  void execute(const std::byte* send, std::byte* recv, const a2a::detail::LayoutView& l,
               a2a::Counters& c) override {
    for (int step = 1; step < procs_; ++step) {
      const int to = (rank_ - step + procs_) % procs_, from = (rank_ + step) % procs_;
      const auto t = static_cast<std::size_t>(to), f = static_cast<std::size_t>(from);
      MPI_Sendrecv(send + l.send_displs[t], static_cast<int>(l.send_counts[t]), MPI_BYTE, to, 77,
                   recv + l.recv_displs[f], static_cast<int>(l.recv_counts[f]), MPI_BYTE, from, 77,
                   comm_, MPI_STATUS_IGNORE);
      c.rounds += 1;
      c.messages_sent += 1;
      c.blocks_sent += 1;
      c.bytes_sent += l.send_counts[t];
    }
    const auto me = static_cast<std::size_t>(rank_);
    if (l.recv_counts[me] > 0) {
      std::memmove(recv + l.recv_displs[me], send + l.send_displs[me], l.recv_counts[me]);
    }
#ifdef A2A_TOY_BROKEN
    const auto next = static_cast<std::size_t>((rank_ + 1) % procs_);
    std::memset(recv + l.recv_displs[next], 0xff, l.recv_counts[next]);  // NaN doubles
#endif
  }

 private:
  MPI_Comm comm_;
  int rank_, procs_;
};

}  // namespace

// The plugin's one entry point: the algorithms it brings, appended to the registry.
extern "C" __attribute__((visibility("default"))) void a2a_plugin_algorithms(
    std::vector<a2a::AlgorithmInfo>* out) {
  a2a::AlgorithmInfo info;
#ifdef A2A_TOY_BROKEN
  info.name = "toy_broken";
  info.summary = "toy, then one received block overwritten (validation/plugin/toy.cpp)";
#else
  info.name = "toy";
  info.summary = "pairwise in reverse order (a plugin: validation/plugin/toy.cpp)";
#endif
  info.kinds = static_cast<unsigned>(a2a::Kind::uniform) | static_cast<unsigned>(a2a::Kind::vector);
  info.source = "a2a's test of plugins";
  info.cost = "P-1 rounds, (P-1) S bytes sent";
  info.build_exchange = [](const a2a::detail::Context& ctx) {
    return std::unique_ptr<a2a::detail::ExchangeImpl>(std::make_unique<ReversePairwise>(ctx));
  };
  info.tuning_candidates = [name = info.name](a2a::Kind, int) {
    return std::vector<std::string>{name};
  };
  out->push_back(std::move(info));
}
