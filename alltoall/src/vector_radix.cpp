#include "detail/vector_radix.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "a2a/error.hpp"
#include "detail/tags.hpp"

namespace a2a::detail {
namespace {

constexpr std::uint32_t kEscape = 0xFFFFFFFFu;  // a length that does not fit 4 bytes follows
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// Lengths from this many bytes on are escaped: 2^32 - 1, or A2A_LENGTH_ESCAPE_BYTES if set
// smaller (tests set it small to run the escape path with small data).
std::size_t escape_from() {
  static const std::size_t limit = [] {
    std::size_t value = kEscape;
    if (const char* text = std::getenv("A2A_LENGTH_ESCAPE_BYTES"); text && *text) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(text, &end, 10);
      if (*end == '\0' && v > 0) value = std::min<std::size_t>(v, kEscape);
    }
    return value;
  }();
  return limit;
}

// Grows a scratch vector geometrically (per-call mode: allocate rarely, keep it).
void grow(ByteBuffer& v, std::size_t bytes) {
  if (v.size() < bytes) v.resize(std::max(bytes, v.size() + v.size() / 2));
}

std::string length_error(std::size_t got, std::size_t expected, std::size_t source) {
  return "vector radix exchange: " + std::to_string(got) + " bytes arrived from rank " +
         std::to_string(source) + ", " + std::to_string(expected) + " expected";
}

}  // namespace

VectorRadixExchange::VectorRadixExchange(MPI_Comm comm, std::size_t rank, std::size_t procs,
                                         std::size_t radix, std::size_t window,
                                         tag::VectorRadixTags tags)
    : comm_(comm),
      rank_(rank),
      procs_(procs),
      tags_(tags),
      schedule_(radix_schedule(procs, radix)),
      windows_(radix_windows(schedule_, window)),
      last_round_(procs, kNone),
      eit_(procs),
      slot_offset_(procs),
      slot_bytes_(procs) {
  for (const auto& [first, last] : windows_)
    most_window_rounds_ = std::max(most_window_rounds_, last - first);
  for (std::size_t k = 0; k < schedule_.size(); ++k) {
    for (std::size_t i : schedule_[k].positions)
      last_round_[i] = k;
  }
  free_.reserve(procs + 2);
  const std::size_t m = most_window_rounds_;
  size_out_.resize(m);
  size_in_.resize(m);
  wide_out_.resize(m);
  wide_in_.resize(m);
  msg_offset_in_.resize(m + 1);
  msg_offset_out_.resize(m + 1);
  send_from_.resize(m);
  recv_into_.resize(m);
  requests_.reserve(4 * m);
}

void VectorRadixExchange::reset_slots(const std::size_t* input_bytes) {
  std::size_t arena_bytes = 0;
  for (std::size_t i = 0; i < procs_; ++i) {
    slot_offset_[i] = arena_bytes;
    slot_bytes_[i] = i == 0 ? 0 : input_bytes[i];  // position 0 never moves
    arena_bytes += slot_bytes_[i];
  }
  if (arena_.size() < arena_bytes) arena_.resize(arena_bytes);
  free_.clear();
  if (!planning_ && !overflow_.empty()) free_.emplace_back(0, overflow_.size());
  overflow_used_ = 0;
}

std::size_t VectorRadixExchange::allocate_overflow(std::size_t bytes) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < bytes) continue;
    const std::size_t offset = it->first;
    if (it->second == bytes) {
      free_.erase(it);
    } else {
      it->first += bytes;
      it->second -= bytes;
    }
    return offset;
  }
  // Nothing fits: grow at the end, absorbing a free interval that ends the buffer.
  const std::size_t size = planning_ ? overflow_used_ : overflow_.size();
  std::size_t offset = size;
  if (!free_.empty() && free_.back().first + free_.back().second == size) {
    offset = free_.back().first;
    free_.pop_back();
  }
  if (planning_) {
    overflow_used_ = offset + bytes;
  } else {
    // Per call: grow geometrically and keep the rest free. Offsets stay valid.
    const std::size_t grown = std::max(offset + bytes, size + size / 2);
    overflow_.resize(grown);
    if (grown > offset + bytes) free_.emplace_back(offset + bytes, grown - offset - bytes);
  }
  return offset;
}

void VectorRadixExchange::release_overflow(std::size_t offset, std::size_t bytes) {
  if (bytes == 0) return;
  auto next = std::lower_bound(free_.begin(), free_.end(), std::make_pair(offset, std::size_t{0}));
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {  // merge with the preceding interval
      prev->second += bytes;
      if (next != free_.end() && prev->first + prev->second == next->first) {
        prev->second += next->second;
        free_.erase(next);
      }
      return;
    }
  }
  if (next != free_.end() && offset + bytes == next->first) {  // merge with the following
    next->first = offset;
    next->second += bytes;
    return;
  }
  free_.insert(next, {offset, bytes});
}

void VectorRadixExchange::place(std::size_t position, std::size_t bytes, std::size_t round,
                                Entry& entry) {
  if (last_round_[position] == round) {
    entry = {Where::output, 0, bytes, nullptr};
  } else if (bytes <= slot_bytes_[position]) {
    entry = {Where::arena, slot_offset_[position], bytes, nullptr};
  } else {
    entry = {Where::overflow, allocate_overflow(bytes), bytes, nullptr};
  }
}

const std::byte* VectorRadixExchange::data_of(const Entry& e, const std::byte* send_base) const {
  switch (e.where) {
    case Where::input:
      return e.input != nullptr ? e.input : send_base + e.offset;
    case Where::arena:
      return arena_.data() + e.offset;
    case Where::overflow:
      return overflow_.data() + e.offset;
    case Where::output:
      break;
  }
  return nullptr;
}

std::byte* VectorRadixExchange::target_of(const Piece& p, std::byte* recv_base) {
  switch (p.where) {
    case Where::arena:
      return arena_.data() + p.offset;
    case Where::overflow:
      return overflow_.data() + p.offset;
    case Where::output:
      return recv_base + p.offset;
    case Where::input:
      break;
  }
  return nullptr;
}

// The per-call wire format of one round's message: a 4-byte length per element (kEscape for
// one of `escape` bytes or more), then the escaped lengths as 8-byte values, then the elements'
// data, in the round's position order.

void VectorRadixExchange::merge_window(std::size_t first, std::size_t last) {
  const std::size_t escape = escape_from();
  std::size_t total_out = 0;
  for (std::size_t k = first; k < last; ++k) {
    std::size_t bytes = 0, escaped = 0;
    for (std::size_t i : schedule_[k].positions) {
      bytes += eit_[i].bytes;
      escaped += eit_[i].bytes >= escape;
    }
    const std::size_t msg = 4 * schedule_[k].positions.size() + 8 * escaped + bytes;
    msg_offset_out_[k - first] = total_out;
    total_out += msg;
    wide_out_[k - first] = msg;
    size_out_[k - first] = msg < escape ? static_cast<std::uint32_t>(msg) : kEscape;
  }
  msg_offset_out_[last - first] = total_out;
  grow(send_msg_, total_out);
  for (std::size_t k = first; k < last; ++k) {
    const auto& positions = schedule_[k].positions;
    std::byte* header = send_msg_.data() + msg_offset_out_[k - first];
    std::byte* wide = header + 4 * positions.size();
    std::size_t escaped = 0;
    for (std::size_t i : positions)
      escaped += eit_[i].bytes >= escape;
    std::byte* out = wide + 8 * escaped;
    for (std::size_t n = 0; n < positions.size(); ++n) {
      const Entry& e = eit_[positions[n]];
      const std::uint32_t length = e.bytes < escape ? static_cast<std::uint32_t>(e.bytes) : kEscape;
      std::memcpy(header + 4 * n, &length, 4);
      if (length == kEscape) {
        const std::uint64_t full = e.bytes;
        std::memcpy(wide, &full, 8);
        wide += 8;
      }
      if (e.bytes > 0) std::memcpy(out, data_of(e, nullptr), e.bytes);
      out += e.bytes;
    }
  }
}

void VectorRadixExchange::exchange_window(std::size_t first, std::size_t last, RadixSent& sent) {
  const auto source = [&](std::size_t k) {
    return static_cast<int>((rank_ + procs_ - schedule_[k].distance) % procs_);
  };
  const auto destination = [&](std::size_t k) {
    return static_cast<int>((rank_ + schedule_[k].distance) % procs_);
  };
  // Phase 1: the sizes (4 bytes, as in the paper; an 8-byte follow-up past 4 GiB).
  for (std::size_t k = first; k < last; ++k)
    requests_.irecv(&size_in_[k - first], 4, source(k), tags_.sizes, comm_);
  for (std::size_t k = first; k < last; ++k)
    requests_.isend(&size_out_[k - first], 4, destination(k), tags_.sizes, comm_);
  requests_.wait_all();
  sent.waits += 1;
  for (std::size_t k = first; k < last; ++k) {
    if (size_in_[k - first] == kEscape)
      requests_.irecv(&wide_in_[k - first], 8, source(k), tags_.wide_sizes, comm_);
    if (size_out_[k - first] == kEscape) {
      requests_.isend(&wide_out_[k - first], 8, destination(k), tags_.wide_sizes, comm_);
      sent.messages += 1;
    }
  }
  if (requests_.pending() > 0) {
    requests_.wait_all();
    sent.waits += 1;
  }
  // Phase 2: the merged messages.
  std::size_t total_in = 0;
  for (std::size_t k = first; k < last; ++k) {
    msg_offset_in_[k - first] = total_in;
    total_in += size_in_[k - first] == kEscape ? wide_in_[k - first] : size_in_[k - first];
  }
  msg_offset_in_[last - first] = total_in;
  grow(recv_msg_, total_in);
  for (std::size_t k = first; k < last; ++k) {
    const std::size_t bytes = msg_offset_in_[k - first + 1] - msg_offset_in_[k - first];
    requests_.irecv(recv_msg_.data() + msg_offset_in_[k - first], bytes, source(k), tags_.payload,
                    comm_);
  }
  for (std::size_t k = first; k < last; ++k) {
    const std::size_t bytes = msg_offset_out_[k - first + 1] - msg_offset_out_[k - first];
    requests_.isend(send_msg_.data() + msg_offset_out_[k - first], bytes, destination(k),
                    tags_.payload, comm_);
    sent.rounds += 1;
    sent.messages += 2;
    sent.elements += schedule_[k].positions.size();
    sent.bytes += bytes + 4;
  }
  requests_.wait_all();
  sent.waits += 1;
}

void VectorRadixExchange::place_window(std::size_t first, std::size_t last, const Output* output,
                                       std::string& mismatch) {
  // The sent elements' overflow space is free; place what arrived.
  for (std::size_t k = first; k < last; ++k) {
    for (std::size_t i : schedule_[k].positions) {
      if (eit_[i].where == Where::overflow) release_overflow(eit_[i].offset, eit_[i].bytes);
    }
  }
  for (std::size_t k = first; k < last; ++k) {
    const auto& positions = schedule_[k].positions;
    const std::byte* header = recv_msg_.data() + msg_offset_in_[k - first];
    const std::byte* wide = header + 4 * positions.size();
    std::size_t escaped = 0;
    for (std::size_t n = 0; n < positions.size(); ++n) {
      std::uint32_t length = 0;
      std::memcpy(&length, header + 4 * n, 4);
      escaped += length == kEscape;
    }
    const std::byte* in = wide + 8 * escaped;
    for (std::size_t n = 0; n < positions.size(); ++n) {
      const std::size_t i = positions[n];
      std::uint32_t length32 = 0;
      std::memcpy(&length32, header + 4 * n, 4);
      std::size_t length = length32;
      if (length32 == kEscape) {
        std::uint64_t full = 0;
        std::memcpy(&full, wide, 8);
        wide += 8;
        length = static_cast<std::size_t>(full);
      }
      Entry& e = eit_[i];
      place(i, length, k, e);
      if (e.where == Where::output) {
        // A length that disagrees (an erroneous Alltoallv): what came, then zeros; reported
        // once the rounds are over.
        const std::size_t expected = output[i].bytes, bytes = std::min(length, expected);
        if (bytes > 0) std::memcpy(output[i].data, in, bytes);
        if (expected > bytes) std::memset(output[i].data + bytes, 0, expected - bytes);
        if (length != expected && mismatch.empty()) {
          mismatch = length_error(length, expected, (rank_ + procs_ - i) % procs_);
        }
      } else if (length > 0) {
        std::memcpy(const_cast<std::byte*>(data_of(e, nullptr)), in, length);
      }
      in += length;
    }
  }
}

RadixSent VectorRadixExchange::run(const Element* input, const Output* output) {
  RadixSent sent;
  for (std::size_t i = 0; i < procs_; ++i)
    slot_bytes_[i] = input[i].bytes;  // reset_slots reads the lengths from here
  reset_slots(slot_bytes_.data());
  for (std::size_t i = 0; i < procs_; ++i)
    eit_[i] = {Where::input, 0, input[i].bytes, input[i].data};
  std::string mismatch;
  {
    const std::size_t own = std::min(input[0].bytes, output[0].bytes);
    if (own > 0) std::memmove(output[0].data, input[0].data, own);
    if (output[0].bytes > own) std::memset(output[0].data + own, 0, output[0].bytes - own);
    if (input[0].bytes != output[0].bytes) {
      mismatch = length_error(input[0].bytes, output[0].bytes, rank_);
    }
  }
  for (const auto& [first, last] : windows_) {
    merge_window(first, last);
    exchange_window(first, last, sent);
    place_window(first, last, output, mismatch);
  }
  if (!mismatch.empty()) throw Error(mismatch);
  return sent;
}

void VectorRadixExchange::plan(const std::size_t* input_offsets, const std::size_t* input_bytes,
                               const std::size_t* output_offsets, const std::size_t* output_bytes) {
  planning_ = true;
  reset_slots(input_bytes);
  for (std::size_t i = 0; i < procs_; ++i)
    eit_[i] = {Where::input, input_offsets[i], input_bytes[i], nullptr};
  std::string mismatch;
  input0_offset_ = input_offsets[0];
  output0_offset_ = output_offsets[0];
  own_bytes_ = input_bytes[0];
  if (input_bytes[0] != output_bytes[0]) {
    mismatch = length_error(input_bytes[0], output_bytes[0], rank_);
  }
  auto add = [](std::vector<Piece>& pieces, Where where, std::size_t offset, std::size_t bytes) {
    if (bytes == 0) return;
    if (!pieces.empty() && pieces.back().where == where &&
        pieces.back().offset + pieces.back().bytes == offset) {
      pieces.back().bytes += bytes;
      return;
    }
    pieces.push_back({where, offset, bytes});
  };
  planned_.assign(schedule_.size(), PlannedRound{});
  std::vector<std::uint64_t> out_lengths, in_lengths;
  std::vector<std::vector<std::uint64_t>> window_lengths(most_window_rounds_);
  for (const auto& [first, last] : windows_) {
    // The dry run: every round's element lengths, round by round (plan time only).
    for (std::size_t k = first; k < last; ++k) {
      const auto& positions = schedule_[k].positions;
      out_lengths.clear();
      for (std::size_t i : positions) {
        const Entry& e = eit_[i];
        out_lengths.push_back(e.bytes);
        add(planned_[k].pack, e.where, e.offset, e.bytes);
        planned_[k].send_bytes += e.bytes;
      }
      auto& lengths = window_lengths[k - first];
      lengths.resize(positions.size());
      const int dst = static_cast<int>((rank_ + schedule_[k].distance) % procs_);
      const int src = static_cast<int>((rank_ + procs_ - schedule_[k].distance) % procs_);
      sendrecv(out_lengths.data(), 8 * positions.size(), dst, lengths.data(), 8 * positions.size(),
               src, tags_.sizes, comm_, requests_);
    }
    for (std::size_t k = first; k < last; ++k) {
      for (std::size_t i : schedule_[k].positions) {
        if (eit_[i].where == Where::overflow) release_overflow(eit_[i].offset, eit_[i].bytes);
      }
    }
    for (std::size_t k = first; k < last; ++k) {
      const auto& positions = schedule_[k].positions;
      for (std::size_t n = 0; n < positions.size(); ++n) {
        const std::size_t i = positions[n];
        const auto length = static_cast<std::size_t>(window_lengths[k - first][n]);
        Entry& e = eit_[i];
        place(i, length, k, e);
        if (e.where == Where::output) {
          if (length != output_bytes[i] && mismatch.empty()) {
            mismatch = length_error(length, output_bytes[i], (rank_ + procs_ - i) % procs_);
          }
          e.offset = output_offsets[i];
        }
        add(planned_[k].unpack, e.where, e.offset, length);
        planned_[k].recv_bytes += length;
      }
    }
  }
  planning_ = false;
  overflow_.resize(overflow_used_);
  // Staging for the rounds that cannot be sent or received in place, per window.
  std::size_t most_out = 0, most_in = 0;
  for (const auto& [first, last] : windows_) {
    std::size_t out = 0, in = 0;
    for (std::size_t k = first; k < last; ++k) {
      const PlannedRound& r = planned_[k];
      if (r.pack.size() > 1) out += r.send_bytes;
      if (!(r.unpack.size() == 1 && r.unpack.front().where == Where::output)) in += r.recv_bytes;
    }
    most_out = std::max(most_out, out);
    most_in = std::max(most_in, in);
  }
  send_stage_.resize(most_out);
  recv_stage_.resize(most_in);
  std::size_t most_round = 0;
  for (const PlannedRound& r : planned_)
    most_round = std::max({most_round, r.send_bytes, r.recv_bytes});
  requests_.reserve(2 * most_window_rounds_ * std::max<std::size_t>(1, message_pieces(most_round)));
  if (!mismatch.empty()) throw Error(mismatch);
}

RadixSent VectorRadixExchange::run_planned(const std::byte* send_base, std::byte* recv_base) {
  RadixSent sent;
  if (own_bytes_ > 0) {
    std::memcpy(recv_base + output0_offset_, send_base + input0_offset_, own_bytes_);
  }
  for (const auto& [first, last] : windows_) {
    std::byte* out = send_stage_.data();
    std::byte* in = recv_stage_.data();
    for (std::size_t k = first; k < last; ++k) {
      const PlannedRound& r = planned_[k];
      if (r.pack.size() == 1) {
        const Piece& p = r.pack.front();
        send_from_[k - first] = data_of(Entry{p.where, p.offset, p.bytes, nullptr}, send_base);
      } else {
        send_from_[k - first] = out;
        for (const Piece& p : r.pack) {
          std::memcpy(out, data_of(Entry{p.where, p.offset, p.bytes, nullptr}, send_base), p.bytes);
          out += p.bytes;
        }
      }
      if (r.unpack.size() == 1 && r.unpack.front().where == Where::output) {
        recv_into_[k - first] = recv_base + r.unpack.front().offset;
      } else {
        recv_into_[k - first] = in;
        in += r.recv_bytes;
      }
    }
    for (std::size_t k = first; k < last; ++k) {
      const int src = static_cast<int>((rank_ + procs_ - schedule_[k].distance) % procs_);
      requests_.irecv(recv_into_[k - first], planned_[k].recv_bytes, src, tags_.payload, comm_);
    }
    for (std::size_t k = first; k < last; ++k) {
      const PlannedRound& r = planned_[k];
      const int dst = static_cast<int>((rank_ + schedule_[k].distance) % procs_);
      requests_.isend(send_from_[k - first], r.send_bytes, dst, tags_.payload, comm_);
      sent.rounds += 1;
      sent.messages += r.send_bytes > 0;
      sent.elements += schedule_[k].positions.size();
      sent.bytes += r.send_bytes;
    }
    if (requests_.pending() > 0) {
      requests_.wait_all();
      sent.waits += 1;
    }
    for (std::size_t k = first; k < last; ++k) {
      const PlannedRound& r = planned_[k];
      if (r.unpack.size() == 1 && r.unpack.front().where == Where::output) continue;
      const std::byte* from = recv_into_[k - first];
      for (const Piece& p : r.unpack) {
        std::memcpy(target_of(p, recv_base), from, p.bytes);
        from += p.bytes;
      }
    }
  }
  return sent;
}

namespace {

// Fixed layout: everything placed at plan time.
class VectorRadixPlan final : public PlanImpl {
 public:
  VectorRadixPlan(const Context& ctx, std::size_t radix, std::size_t window)
      : exchange_(ctx.comm, static_cast<std::size_t>(ctx.rank), static_cast<std::size_t>(ctx.procs),
                  radix, window, tag::vector_radix) {
    const auto p = static_cast<std::size_t>(ctx.rank), n = static_cast<std::size_t>(ctx.procs);
    const VectorLayout& l = ctx.layout;
    std::vector<std::size_t> in_off(n), in_bytes(n), out_off(n), out_bytes(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t dst = (p + i) % n, src = (p + n - i) % n;
      in_off[i] = l.send_displs[dst];
      in_bytes[i] = l.send_counts[dst];
      out_off[i] = l.recv_displs[src];
      out_bytes[i] = l.recv_counts[src];
    }
    exchange_.plan(in_off.data(), in_bytes.data(), out_off.data(), out_bytes.data());
  }
  void execute(const std::byte* send, std::byte* recv, Counters& c) override {
    exchange_.run_planned(send, recv).add_to(c);
  }
  std::size_t scratch_bytes() const override { return exchange_.scratch_bytes(); }

 private:
  VectorRadixExchange exchange_;
};

// Per call: the positions point into the caller's buffers (rotation by index, no copy).
class VectorRadixPerCall final : public ExchangeImpl {
 public:
  VectorRadixPerCall(const Context& ctx, std::size_t radix, std::size_t window)
      : rank_(static_cast<std::size_t>(ctx.rank)),
        procs_(static_cast<std::size_t>(ctx.procs)),
        input_(procs_),
        output_(procs_),
        exchange_(ctx.comm, rank_, procs_, radix, window, tag::vector_radix) {}

  void execute(const std::byte* send, std::byte* recv, const LayoutView& l, Counters& c) override {
    const std::size_t p = rank_, n = procs_;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t dst = (p + i) % n, src = (p + n - i) % n;
      input_[i] = {send + l.send_displs[dst], l.send_counts[dst]};
      output_[i] = {recv + l.recv_displs[src], l.recv_counts[src]};
    }
    exchange_.run(input_.data(), output_.data()).add_to(c);
  }
  std::size_t scratch_bytes() const override { return exchange_.scratch_bytes(); }

 private:
  std::size_t rank_, procs_;
  std::vector<VectorRadixExchange::Element> input_;
  std::vector<VectorRadixExchange::Output> output_;
  VectorRadixExchange exchange_;
};

}  // namespace

std::unique_ptr<PlanImpl> make_vector_radix_plan(const Context& ctx, std::size_t radix,
                                                 std::size_t window) {
  return std::make_unique<VectorRadixPlan>(ctx, radix, window);
}

std::unique_ptr<ExchangeImpl> make_vector_radix_exchange(const Context& ctx, std::size_t radix,
                                                         std::size_t window) {
  return std::make_unique<VectorRadixPerCall>(ctx, radix, window);
}

}  // namespace a2a::detail
