// tra: tunable-radix all-to-all (TRA), Fan, Petruzza, Gilray, Kumar, "Configurable Algorithms
// for All-to-all Collectives", section III; radix-r Bruck poster (Fan, Kumar).
//   1. initial rotation   W[i] = S[(p + i) mod P]
//   2. rounds (x, z), x < w = ceil(log_r P), 1 <= z < r: send the blocks W[i] whose base-r
//      digit x is z to (p + z r^x) mod P, receive the same positions from (p - z r^x) mod P
//   3. final rotation     R[j] = W[(p - j) mod P]
// Cost (Propositions 1-4): K = w(r-1) - floor((r^w - P) / r^(w-1)) rounds and D blocks sent per
// rank, D = w (r-1) r^(w-1) when P = r^w; time alpha K + beta D S. r = 2 is Bruck (K = log2 P),
// r = P is spread-out (K = P-1, D = P-1); the paper's default r = ceil(sqrt P).
// Unlike the paper's code the send buffer is only read: W is a scratch buffer of the plan.
#include <cstring>

#include "detail/algorithms.hpp"
#include "detail/p2p.hpp"
#include "detail/radix.hpp"

namespace a2a::detail {
namespace {

constexpr int kTraTag = 4343;

class TraPlan final : public PlanImpl {
 public:
  TraPlan(const Context& ctx, std::size_t radix)
      : comm_(ctx.comm),
        rank_(static_cast<std::size_t>(ctx.rank)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        block_(ctx.block_bytes),
        schedule_(radix_schedule(procs_, radix)) {
    if (block_ == 0 || procs_ == 1) return;
    work_.resize(procs_ * block_);
    const std::size_t most = max_round_blocks(schedule_);
    send_tmp_.resize(most * block_);
    recv_tmp_.resize(most * block_);
    requests_.reserve(2 * message_pieces(most * block_));
  }

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    const std::size_t p = rank_, n = procs_, b = block_;
    if (b == 0) return;
    if (n == 1) {
      std::memcpy(recv, send, b);
      return;
    }
    // 1. W[i] = S[(p + i) mod P]: two contiguous pieces.
    std::memcpy(work_.data(), send + p * b, (n - p) * b);
    std::memcpy(work_.data() + (n - p) * b, send, p * b);
    // 2. The rounds.
    for (const RadixRound& round : schedule_) {
      std::byte* out = send_tmp_.data();
      for (const auto& [first, count] : round.runs) {
        std::memcpy(out, work_.data() + first * b, count * b);
        out += count * b;
      }
      const std::size_t bytes = round.positions.size() * b;
      const int dst = static_cast<int>((p + round.distance) % n);
      const int src = static_cast<int>((p + n - round.distance) % n);
      sendrecv(send_tmp_.data(), bytes, dst, recv_tmp_.data(), bytes, src, kTraTag, comm_,
               requests_);
      const std::byte* in = recv_tmp_.data();
      for (const auto& [first, count] : round.runs) {
        std::memcpy(work_.data() + first * b, in, count * b);
        in += count * b;
      }
      c.rounds += 1;
      c.messages_sent += 1;
      c.blocks_sent += round.positions.size();
      c.bytes_sent += bytes;
    }
    // 3. R[j] = W[(p - j) mod P]: position i holds the block from rank p - i.
    for (std::size_t j = 0; j < n; ++j) {
      std::memcpy(recv + j * b, work_.data() + ((p + n - j) % n) * b, b);
    }
  }

 private:
  MPI_Comm comm_;
  std::size_t rank_, procs_, block_;
  std::vector<RadixRound> schedule_;
  std::vector<std::byte> work_, send_tmp_, recv_tmp_;
  Requests requests_;
};

}  // namespace

std::unique_ptr<PlanImpl> make_tra_plan(const Context& ctx, std::size_t radix) {
  return std::make_unique<TraPlan>(ctx, radix);
}

AlgorithmInfo describe_tra() {
  AlgorithmInfo info;
  info.name = "tra";
  info.kinds = static_cast<unsigned>(Kind::uniform);
  info.params = {{"r", "sqrt", "radix in [2, P]; 'sqrt' = ceil(sqrt P), 'max' = P", true}};
  info.summary = "tunable-radix Bruck: initial rotation, (x, z) rounds, final rotation";
  info.source = "configurable-alltoall paper (Fan et al.), section III; radix-r Bruck poster";
  info.cost = "K = w(r-1) - floor((r^w-P)/r^(w-1)) rounds, D blocks (Propositions 1-4)";
  info.validate = [](Context& ctx) { ctx.radix_param("r", ctx.procs, "P"); };
  info.build = [](const Context& ctx) {
    return make_tra_plan(ctx, std::stoull(ctx.resolved.front().second));
  };
  return info;
}

}  // namespace a2a::detail
