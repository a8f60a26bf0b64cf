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
// `window` (beyond the paper; default 1 = its schedule): up to that many rounds of one digit
// posted together and completed with one wait ('all': the r-1 rounds of a digit at once).
#include <cstring>

#include "a2a/buffer.hpp"
#include "a2a/spec.hpp"
#include "detail/algorithms.hpp"
#include "detail/messages.hpp"
#include "detail/radix.hpp"
#include "detail/tags.hpp"

namespace a2a::detail {
namespace {

class TraPlan final : public PlanImpl {
 public:
  TraPlan(const Context& ctx, std::size_t radix, std::size_t window)
      : rank_(static_cast<std::size_t>(ctx.rank)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        block_(ctx.block_bytes),
        work_(procs_ > 1 ? procs_ * block_ : 0),
        exchange_(ctx.comm, rank_, procs_, radix, window, block_, tag::tra) {}

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
    exchange_.run(work_.data()).add_to(c);
    // 3. R[j] = W[(p - j) mod P]: position i holds the block from rank p - i.
    for (std::size_t j = 0; j < n; ++j) {
      std::memcpy(recv + j * b, work_.data() + ((p + n - j) % n) * b, b);
    }
  }
  std::size_t scratch_bytes() const override {
    return work_.capacity() + exchange_.scratch_bytes();
  }

 private:
  std::size_t rank_, procs_, block_;
  ByteBuffer work_;
  RadixExchange exchange_;
};

}  // namespace

std::unique_ptr<PlanImpl> make_tra_plan(const Context& ctx, std::size_t radix, std::size_t window) {
  return std::make_unique<TraPlan>(ctx, radix, window);
}

AlgorithmInfo describe_tra() {
  AlgorithmInfo info;
  info.name = "tra";
  info.kinds = static_cast<unsigned>(Kind::uniform);
  info.params = {radix_param_info(), window_param_info()};
  info.summary = "tunable-radix Bruck: initial rotation, (x, z) rounds, final rotation";
  info.source = "configurable-alltoall paper (Fan et al.), section III; radix-r Bruck poster";
  info.cost = "K = w(r-1) - floor((r^w-P)/r^(w-1)) rounds, D blocks (Propositions 1-4)";
  info.validate = [](Context& ctx) {
    ctx.radix_param("r", ctx.procs, "P");
    ctx.window_param("window");
  };
  info.build = [](const Context& ctx) {
    return make_tra_plan(ctx, std::stoull(ctx.resolved_value("r")), resolved_window(ctx));
  };
  // Every radix of the grid in one round at a time, and r = 2 and sqrt(P) with a digit's
  // rounds in flight together.
  info.tuning_candidates = [](Kind, int procs) {
    std::vector<std::string> out;
    for (std::uint64_t r : tuning_radices(procs))
      out.push_back("tra:r=" + std::to_string(r));
    for (std::string& spec : radix_candidates("tra", procs, ",window=all"))
      out.push_back(std::move(spec));
    return out;
  };
  info.model_radix = [](const std::string& resolved) -> std::uint64_t {
    return std::stoull(*Spec::parse(resolved).find("r"));
  };
  info.test_variants = [](Kind, int) { return std::vector<std::string>{"tra:r=max"}; };
  info.predicted = [](const model::CostModel& m, Kind kind, std::uint64_t procs,
                      std::uint64_t bytes) -> std::optional<std::pair<std::string, double>> {
    if (kind != Kind::uniform) return std::nullopt;
    const std::uint64_t r = model::best_radix(m, procs, bytes);
    return std::pair{"tra:r=" + std::to_string(r), m.tra_us(procs, r, bytes)};
  };
  return info;
}

}  // namespace a2a::detail
