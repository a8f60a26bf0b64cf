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
  }
  return rounds;
}

std::size_t max_round_blocks(const std::vector<RadixRound>& schedule) {
  std::size_t most = 0;
  for (const auto& round : schedule)
    most = std::max(most, round.positions.size());
  return most;
}

RadixExchange::RadixExchange(MPI_Comm comm, std::size_t rank, std::size_t procs, std::size_t radix,
                             std::size_t element_bytes, int tag)
    : comm_(comm),
      rank_(rank),
      procs_(procs),
      element_(element_bytes),
      tag_(tag),
      schedule_(radix_schedule(procs, radix)) {
  if (element_ == 0) return;
  const std::size_t most = max_round_blocks(schedule_) * element_;
  send_tmp_.resize(most);
  recv_tmp_.resize(most);
  requests_.reserve(2 * message_pieces(most));
}

RadixExchange::Sent RadixExchange::run(std::byte* work) {
  Sent sent;
  if (element_ == 0) return sent;
  const std::size_t e = element_;
  for (const RadixRound& round : schedule_) {
    std::byte* out = send_tmp_.data();
    for (const auto& [first, count] : round.runs) {
      std::memcpy(out, work + first * e, count * e);
      out += count * e;
    }
    const std::size_t bytes = round.positions.size() * e;
    const int dst = static_cast<int>((rank_ + round.distance) % procs_);
    const int src = static_cast<int>((rank_ + procs_ - round.distance) % procs_);
    sendrecv(send_tmp_.data(), bytes, dst, recv_tmp_.data(), bytes, src, tag_, comm_, requests_);
    const std::byte* in = recv_tmp_.data();
    for (const auto& [first, count] : round.runs) {
      std::memcpy(work + first * e, in, count * e);
      in += count * e;
    }
    sent.rounds += 1;
    sent.elements += round.positions.size();
    sent.bytes += bytes;
  }
  return sent;
}

}  // namespace a2a::detail
