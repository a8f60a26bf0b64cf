// a2a pingpong [--sizes MIN:MAX] [--iters N] [--format table|json]: the point-to-point latency
// and bandwidth of this machine or cluster, the two numbers a cost model or a SimGrid platform
// needs: rank 0 and its nearest peer on its own node (shared memory), and rank 0 and the first
// rank on another node (the network), each a blocking ping-pong (MPI_Send/MPI_Recv) per size.
// Time per message is half the median round trip; latency is the time of the smallest size,
// bandwidth the largest size over its time. The other ranks wait.
#include <algorithm>
#include <climits>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "a2a/buffer.hpp"
#include "a2a/error.hpp"
#include "commands.hpp"
#include "core/records.hpp"
#include "core/stats.hpp"

namespace a2a::app {
namespace {

struct PingpongOptions {
  std::string sizes = "1:4M";
  int iters = 100;
  std::string format = "table";
};

// The first rank on rank 0's node other than 0, and the first rank on another node (-1: none).
std::pair<int, int> peers(MPI_Comm comm) {
  int rank = 0, procs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int first = rank;  // the lowest rank of this node names it
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  std::vector<int> firsts(static_cast<std::size_t>(procs));
  MPI_Allgather(&first, 1, MPI_INT, firsts.data(), 1, MPI_INT, comm);
  int same = -1, other = -1;
  for (int p = 1; p < procs; ++p) {
    const bool on_zero = firsts[static_cast<std::size_t>(p)] == firsts[0];
    if (on_zero && same < 0) same = p;
    if (!on_zero && other < 0) other = p;
  }
  return {same, other};
}

// Half the round trip of `bytes` between 0 and peer, per iteration, in microseconds (rank 0's).
std::vector<double> pingpong(MPI_Comm comm, int peer, std::size_t bytes, int iters,
                             ByteBuffer& buffer) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> times;
  if (rank != 0 && rank != peer) return times;
  const int other = rank == 0 ? peer : 0;
  const int count = static_cast<int>(bytes);
  for (int i = -5; i < iters; ++i) {  // five untimed round trips first
    const double t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buffer.data(), count, MPI_BYTE, other, 7, comm);
      MPI_Recv(buffer.data(), count, MPI_BYTE, other, 7, comm, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer.data(), count, MPI_BYTE, other, 7, comm, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), count, MPI_BYTE, other, 7, comm);
    }
    if (i >= 0) times.push_back((MPI_Wtime() - t0) * 1e6 / 2);
  }
  return times;
}

}  // namespace

Runner setup_pingpong(CLI::App& app, const Session& session) {
  auto opt = std::make_shared<PingpongOptions>();
  auto* sub = app.add_subcommand(
      "pingpong", "Point-to-point latency and bandwidth within a node and between nodes (mpirun)");
  sub->add_option("--sizes,-s", opt->sizes, "message bytes: MIN:MAX (powers of two) or a,b,c")
      ->capture_default_str();
  sub->add_option("--iters,-n", opt->iters, "timed round trips per size")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  sub->add_option("--format", opt->format, "table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  return [session, opt]() {
    const std::vector<std::size_t> sizes = parse_sizes(opt->sizes);
    for (std::size_t s : sizes) {
      if (s > static_cast<std::size_t>(INT_MAX)) throw Error("--sizes: at most 2^31 - 1 bytes");
    }
    if (session.procs < 2) throw Error("pingpong needs at least 2 ranks");
    const auto [same, other] = peers(session.comm);
    ByteBuffer buffer(*std::max_element(sizes.begin(), sizes.end()));
    std::vector<nlohmann::json> records;
    for (const auto& [where, peer] :
         {std::pair{"intra-node", same}, std::pair{"inter-node", other}}) {
      if (peer < 0) continue;
      for (std::size_t bytes : sizes) {
        const std::vector<double> times = pingpong(session.comm, peer, bytes, opt->iters, buffer);
        if (!session.root()) continue;
        const double us = stats::median(times);
        records.push_back(
            {{"app", "pingpong"},
             {"pair", where},
             {"peer", peer},
             {"bytes", bytes},
             {"median_us", us},
             {"bandwidth_GBps", us > 0 ? static_cast<double>(bytes) / us / 1e3 : 0.0}});
      }
    }
    if (!session.root()) return 0;
    write_records(std::cout, records, {"pair", "peer", "bytes", "median_us", "bandwidth_GBps"},
                  parse_format(opt->format));
    if (opt->format == "table") {
      for (const char* where : {"intra-node", "inter-node"}) {
        const nlohmann::json* first = nullptr;
        const nlohmann::json* last = nullptr;
        for (const auto& r : records) {
          if (r["pair"] != where) continue;
          if (first == nullptr) first = &r;
          last = &r;
        }
        if (first == nullptr) {
          std::cout << "pingpong: " << where << ": no such pair of ranks\n";
          continue;
        }
        std::cout << "pingpong: " << where << " (rank 0 <-> " << (*first)["peer"] << "): latency "
                  << (*first)["median_us"].get<double>() << " us at " << (*first)["bytes"]
                  << " B, bandwidth " << (*last)["bandwidth_GBps"].get<double>() << " GB/s at "
                  << (*last)["bytes"] << " B\n";
      }
    }
    return 0;
  };
}

}  // namespace a2a::app
