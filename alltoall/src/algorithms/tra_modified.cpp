// tra_modified: TRA without the final rotation, after Traff, Rougier, Hunold, "Implementing a
// classic: zero-copy all-to-all communication with MPI datatypes" (ICS 2014), the "modified
// Bruck" in the configurable-alltoall paper's related work (section II).
// The rounds are TRA's, but block position i of rank p lives in receive slot (p - i) mod P
// instead of a scratch array. The initial step therefore stores S[(p + i) mod P] at slot
// (p - i) mod P (a rotation "in a different order, anticipating the final block order"); when
// the rounds end, slot j holds the block from rank j and no final rotation is needed.
// Cost: the same K rounds and D blocks as TRA (Propositions 1-4); one local copy pass fewer
// and no P S scratch buffer.
#include <cstring>

#include "detail/algorithms.hpp"
#include "detail/p2p.hpp"
#include "detail/radix.hpp"

namespace a2a::detail {
namespace {

constexpr int kModifiedTag = 4444;

class ModifiedTraPlan final : public PlanImpl {
 public:
  ModifiedTraPlan(const Context& ctx, std::size_t radix)
      : comm_(ctx.comm),
        rank_(static_cast<std::size_t>(ctx.rank)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        block_(ctx.block_bytes),
        schedule_(radix_schedule(procs_, radix)) {
    if (block_ == 0 || procs_ == 1) return;
    const std::size_t most = max_round_blocks(schedule_);
    send_tmp_.resize(most * block_);
    recv_tmp_.resize(most * block_);
    requests_.reserve(2 * message_pieces(most * block_));
    // This rank's receive-buffer offset of every position, per round.
    for (const RadixRound& round : schedule_) {
      auto& offsets = slot_offsets_.emplace_back();
      for (std::size_t i : round.positions)
        offsets.push_back(slot(i) * block_);
    }
  }

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    const std::size_t p = rank_, n = procs_, b = block_;
    if (b == 0) return;
    for (std::size_t i = 0; i < n; ++i) {
      std::memcpy(recv + slot(i) * b, send + ((p + i) % n) * b, b);
    }
    for (std::size_t k = 0; k < schedule_.size(); ++k) {
      const RadixRound& round = schedule_[k];
      const auto& offsets = slot_offsets_[k];
      std::byte* out = send_tmp_.data();
      for (std::size_t offset : offsets) {
        std::memcpy(out, recv + offset, b);
        out += b;
      }
      const std::size_t bytes = offsets.size() * b;
      const int dst = static_cast<int>((p + round.distance) % n);
      const int src = static_cast<int>((p + n - round.distance) % n);
      sendrecv(send_tmp_.data(), bytes, dst, recv_tmp_.data(), bytes, src, kModifiedTag, comm_,
               requests_);
      const std::byte* in = recv_tmp_.data();
      for (std::size_t offset : offsets) {
        std::memcpy(recv + offset, in, b);
        in += b;
      }
      c.rounds += 1;
      c.messages_sent += 1;
      c.blocks_sent += offsets.size();
      c.bytes_sent += bytes;
    }
  }

 private:
  std::size_t slot(std::size_t position) const { return (rank_ + procs_ - position) % procs_; }

  MPI_Comm comm_;
  std::size_t rank_, procs_, block_;
  std::vector<RadixRound> schedule_;
  std::vector<std::vector<std::size_t>> slot_offsets_;
  std::vector<std::byte> send_tmp_, recv_tmp_;
  Requests requests_;
};

}  // namespace

AlgorithmInfo describe_tra_modified() {
  AlgorithmInfo info;
  info.name = "tra_modified";
  info.kinds = static_cast<unsigned>(Kind::uniform);
  info.params = {radix_param_info()};
  info.summary = "TRA without the final rotation (modified Bruck)";
  info.source = "Traff et al. ICS 2014 (modified Bruck); configurable-alltoall paper, II";
  info.cost = "same K rounds and D blocks as tra; no final rotation";
  info.validate = [](Context& ctx) { ctx.radix_param("r", ctx.procs, "P"); };
  info.build = [](const Context& ctx) -> std::unique_ptr<PlanImpl> {
    return std::make_unique<ModifiedTraPlan>(ctx, std::stoull(ctx.resolved.front().second));
  };
  return info;
}

}  // namespace a2a::detail
