#include <algorithm>
#include <cstring>

#include "detail/radix.hpp"

namespace a2a::detail {

std::vector<RadixRound> radix_schedule(std::size_t procs, std::size_t radix) {
  std::vector<RadixRound> rounds;
  for (std::size_t unit = 1, x = 0; unit < procs; unit *= radix, ++x) {
    for (std::size_t z = 1; z < radix && z * unit < procs; ++z) {
      RadixRound round{x, z, z * unit, {}, {}};
      // Positions with digit x equal to z: the z-th unit of r^x positions in every group of
      // r^(x+1), the last group possibly cut short by P.
      for (std::size_t group = 0; group < procs; group += unit * radix) {
        const std::size_t first = group + z * unit;
        if (first >= procs) break;
        const std::size_t count = std::min(unit, procs - first);
        round.runs.emplace_back(first, count);
        for (std::size_t i = 0; i < count; ++i)
          round.positions.push_back(first + i);
      }
      rounds.push_back(std::move(round));
    }
    if (unit > procs / radix) break;  // unit * radix would pass P (or overflow)
  }
  return rounds;
}

std::size_t max_round_blocks(const std::vector<RadixRound>& schedule) {
  std::size_t most = 0;
  for (const auto& round : schedule)
    most = std::max(most, round.positions.size());
  return most;
}

std::vector<std::pair<std::size_t, std::size_t>> radix_windows(
    const std::vector<RadixRound>& schedule, std::size_t window) {
  std::vector<std::pair<std::size_t, std::size_t>> windows;
  for (std::size_t first = 0; first < schedule.size();) {
    std::size_t last = first + 1;
    while (last < schedule.size() && schedule[last].digit == schedule[first].digit &&
           (window == 0 || last - first < window)) {
      ++last;
    }
    windows.emplace_back(first, last);
    first = last;
  }
  return windows;
}

RadixExchange::RadixExchange(MPI_Comm comm, std::size_t rank, std::size_t procs, std::size_t radix,
                             std::size_t window, std::size_t element_bytes, int tag, bool reflected)
    : comm_(comm),
      rank_(rank),
      procs_(procs),
      element_(element_bytes),
      tag_(tag),
      schedule_(radix_schedule(procs, radix)),
      windows_(radix_windows(schedule_, window)) {
  for (const RadixRound& round : schedule_) {
    auto& pieces = pieces_.emplace_back();
    for (const auto& [first, count] : round.runs) {
      if (!reflected) {
        pieces.emplace_back(first, count);
        continue;
      }
      // Positions first+count-1 .. first live in slots lo .. hi (ascending, maybe wrapping).
      const std::size_t lo = (rank + procs - (first + count - 1) % procs) % procs;
      const std::size_t hi = (rank + procs - first) % procs;
      if (lo <= hi) {
        pieces.emplace_back(lo, count);
      } else {
        pieces.emplace_back(lo, procs - lo);
        pieces.emplace_back(0, hi + 1);
      }
    }
  }
  std::size_t most_rounds = 0;
  for (const auto& [first, last] : windows_) {
    std::size_t send_blocks = 0, recv_blocks = 0;
    for (std::size_t k = first; k < last; ++k) {
      recv_blocks += schedule_[k].positions.size();
      if (pieces_[k].size() > 1) send_blocks += schedule_[k].positions.size();
    }
    most_send_blocks_ = std::max(most_send_blocks_, send_blocks);
    most_recv_blocks_ = std::max(most_recv_blocks_, recv_blocks);
    most_rounds = std::max(most_rounds, last - first);
  }
  send_from_.resize(most_rounds);
  reserve(element_);
}

void RadixExchange::reserve(std::size_t element_bytes) {
  if (element_bytes <= staged_for_) return;
  send_tmp_.resize(most_send_blocks_ * element_bytes);
  recv_tmp_.resize(most_recv_blocks_ * element_bytes);
  requests_.reserve(2 * send_from_.size() *
                    message_pieces(max_round_blocks(schedule_) * element_bytes));
  staged_for_ = element_bytes;
}

RadixSent RadixExchange::run(std::byte* work, std::size_t element_bytes) {
  RadixSent sent;
  const std::size_t e = element_bytes;
  if (e == 0) return sent;
  reserve(e);
  for (const auto& [first, last] : windows_) {
    // Pack (or point at) every round's blocks, then post all receives and sends of the window.
    std::byte* out = send_tmp_.data();
    for (std::size_t k = first; k < last; ++k) {
      if (pieces_[k].size() == 1) {
        send_from_[k - first] = work + pieces_[k].front().first * e;
        continue;
      }
      send_from_[k - first] = out;
      for (const auto& [begin, count] : pieces_[k]) {
        std::memcpy(out, work + begin * e, count * e);
        out += count * e;
      }
    }
    std::byte* in = recv_tmp_.data();
    for (std::size_t k = first; k < last; ++k) {
      const RadixRound& round = schedule_[k];
      const std::size_t bytes = round.positions.size() * e;
      const int src = static_cast<int>((rank_ + procs_ - round.distance) % procs_);
      requests_.irecv(in, bytes, src, tag_, comm_);
      in += bytes;
    }
    for (std::size_t k = first; k < last; ++k) {
      const RadixRound& round = schedule_[k];
      const std::size_t bytes = round.positions.size() * e;
      const int dst = static_cast<int>((rank_ + round.distance) % procs_);
      requests_.isend(send_from_[k - first], bytes, dst, tag_, comm_);
      sent.rounds += 1;
      sent.messages += 1;
      sent.elements += round.positions.size();
      sent.bytes += bytes;
    }
    requests_.wait_all();
    sent.waits += 1;
    const std::byte* from = recv_tmp_.data();
    for (std::size_t k = first; k < last; ++k) {
      for (const auto& [begin, count] : pieces_[k]) {
        std::memcpy(work + begin * e, from, count * e);
        from += count * e;
      }
    }
  }
  return sent;
}

}  // namespace a2a::detail
