#include "detail/vector_radix.hpp"

#include <algorithm>
#include <cstring>

#include "a2a/error.hpp"

namespace a2a::detail {

VectorRadixExchange::VectorRadixExchange(MPI_Comm comm, std::size_t rank, std::size_t procs,
                                         std::size_t radix, int tag)
    : comm_(comm),
      rank_(rank),
      procs_(procs),
      tag_(tag),
      schedule_(radix_schedule(procs, radix)),
      eit_(procs),
      slot_offset_(procs) {
  requests_.reserve(64);
}

const std::byte* VectorRadixExchange::data_of(const Entry& e) const {
  switch (e.where) {
    case Where::input:
      return e.input;
    case Where::arena:
      return arena_.data() + e.offset;
    case Where::overflow:
      return overflow_.data() + e.offset;
  }
  return nullptr;
}

VectorRadixExchange::Element VectorRadixExchange::element(std::size_t position) const {
  const Entry& e = eit_[position];
  return {data_of(e), e.bytes};
}

std::size_t VectorRadixExchange::allocate_overflow(std::size_t bytes) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < bytes) continue;
    const std::size_t offset = it->first, rest = it->second - bytes;
    free_.erase(it);
    if (rest > 0) free_[offset + bytes] = rest;
    return offset;
  }
  // No free interval fits: grow, absorbing a free interval that ends the buffer.
  std::size_t offset = overflow_.size();
  if (!free_.empty()) {
    auto last = std::prev(free_.end());
    if (last->first + last->second == overflow_.size()) {
      offset = last->first;
      free_.erase(last);
    }
  }
  overflow_.resize(offset + bytes);
  return offset;
}

void VectorRadixExchange::release_overflow(std::size_t offset, std::size_t bytes) {
  if (bytes == 0) return;
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && offset + bytes == next->first) {  // merge with the following
    bytes += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {  // merge with the preceding
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += bytes;
      return;
    }
  }
  free_[offset] = bytes;
}

VectorRadixExchange::Sent VectorRadixExchange::run(const std::vector<Element>& input) {
  // The EIT starts on the caller's input; the arena mirrors its layout (slot i has the size of
  // input element i). All overflow space is free again.
  std::size_t arena_bytes = 0;
  for (std::size_t i = 0; i < procs_; ++i) {
    eit_[i] = Entry{Where::input, 0, input[i].bytes, input[i].data};
    slot_offset_[i] = arena_bytes;
    arena_bytes += input[i].bytes;
  }
  if (arena_.size() < arena_bytes) arena_.resize(arena_bytes);
  free_.clear();
  if (!overflow_.empty()) free_[0] = overflow_.size();

  Sent sent;
  for (const RadixRound& round : schedule_) {
    const std::size_t k = round.positions.size();
    const std::size_t header = k * sizeof(std::uint64_t);
    // Merge: lengths first, then the data of every element whose digit x is z.
    std::uint64_t send_bytes = header;
    for (std::size_t i : round.positions)
      send_bytes += eit_[i].bytes;
    if (send_msg_.size() < send_bytes) send_msg_.resize(send_bytes);
    std::byte* out = send_msg_.data() + header;
    for (std::size_t n = 0; n < k; ++n) {
      const Entry& e = eit_[round.positions[n]];
      const std::uint64_t length = e.bytes;
      std::memcpy(send_msg_.data() + n * sizeof(std::uint64_t), &length, sizeof length);
      if (e.bytes > 0) std::memcpy(out, data_of(e), e.bytes);
      out += e.bytes;
    }
    const int dst = static_cast<int>((rank_ + round.distance) % procs_);
    const int src = static_cast<int>((rank_ + procs_ - round.distance) % procs_);
    // Phase 1: the size of the merged message. Phase 2: the message.
    std::uint64_t recv_bytes = 0;
    sendrecv(&send_bytes, sizeof send_bytes, dst, &recv_bytes, sizeof recv_bytes, src, tag_, comm_,
             requests_);
    if (recv_msg_.size() < recv_bytes) recv_msg_.resize(recv_bytes);
    sendrecv(send_msg_.data(), send_bytes, dst, recv_msg_.data(), recv_bytes, src, tag_ + 1, comm_,
             requests_);
    // The sent elements' storage is free; place each received one in its slot if it fits.
    for (std::size_t i : round.positions) {
      Entry& e = eit_[i];
      if (e.where == Where::overflow) release_overflow(e.offset, e.bytes);
    }
    const std::byte* in = recv_msg_.data() + header;
    for (std::size_t n = 0; n < k; ++n) {
      const std::size_t i = round.positions[n];
      std::uint64_t length = 0;
      std::memcpy(&length, recv_msg_.data() + n * sizeof(std::uint64_t), sizeof length);
      Entry& e = eit_[i];
      e.bytes = length;
      e.input = nullptr;
      if (length <= input[i].bytes) {
        e.where = Where::arena;
        e.offset = slot_offset_[i];
        if (length > 0) std::memcpy(arena_.data() + e.offset, in, length);
      } else {
        e.where = Where::overflow;
        e.offset = allocate_overflow(length);
        std::memcpy(overflow_.data() + e.offset, in, length);
      }
      in += length;
    }
    sent.rounds += 1;
    sent.messages += 2;
    sent.elements += k;
    sent.bytes += send_bytes + sizeof send_bytes;
  }
  return sent;
}

}  // namespace a2a::detail

namespace a2a::detail {
namespace {

constexpr int kVectorRadixTag = 4646;

class VectorRadixPlan final : public PlanImpl {
 public:
  VectorRadixPlan(const Context& ctx, std::size_t radix)
      : rank_(static_cast<std::size_t>(ctx.rank)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        layout_(ctx.layout),
        input_(procs_),
        exchange_(ctx.comm, rank_, procs_, radix, kVectorRadixTag) {}

  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    const std::size_t p = rank_, n = procs_;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t dst = (p + i) % n;
      input_[i] = {send + layout_.send_displs[dst], layout_.send_counts[dst]};
    }
    const VectorRadixExchange::Sent sent = exchange_.run(input_);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t src = (p + n - i) % n;
      const VectorRadixExchange::Element e = exchange_.element(i);
      if (e.bytes != layout_.recv_counts[src]) {
        throw Error("vector radix exchange: " + std::to_string(e.bytes) +
                    " bytes arrived from rank " + std::to_string(src) + ", " +
                    std::to_string(layout_.recv_counts[src]) + " expected");
      }
      if (e.bytes > 0) std::memcpy(recv + layout_.recv_displs[src], e.data, e.bytes);
    }
    c.rounds += sent.rounds;
    c.messages_sent += sent.messages;
    c.blocks_sent += sent.elements;
    c.bytes_sent += sent.bytes;
  }

 private:
  std::size_t rank_, procs_;
  VectorLayout layout_;
  std::vector<VectorRadixExchange::Element> input_;
  VectorRadixExchange exchange_;
};

}  // namespace

std::unique_ptr<PlanImpl> make_vector_radix_plan(const Context& ctx, std::size_t radix) {
  return std::make_unique<VectorRadixPlan>(ctx, radix);
}

std::size_t global_max_count(const Context& ctx) {
  unsigned long long most = 0;
  for (std::size_t count : ctx.layout.send_counts)
    most = std::max<unsigned long long>(most, count);
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, ctx.comm);
  return static_cast<std::size_t>(most);
}

}  // namespace a2a::detail
