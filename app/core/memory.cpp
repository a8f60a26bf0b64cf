#include "core/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>

#include "a2a/buffer.hpp"
#include "a2a/error.hpp"

namespace a2a::app {
namespace {

constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();

// A cgroup memory limit (v2 memory.max, else v1 memory.limit_in_bytes), or kUnlimited.
std::uint64_t cgroup_limit() {
  for (const char* path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max") continue;
    try {
      const unsigned long long value = std::stoull(text);
      if (value > 0 && value < (1ULL << 62)) return value;
    } catch (...) {
    }
  }
  return kUnlimited;
}

std::uint64_t rlimit_of(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnlimited;
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

}  // namespace

std::uint64_t memory_per_rank(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  const std::uint64_t physical = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                                 static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
  const std::uint64_t node_memory = std::min(physical, cgroup_limit());
  return std::min({node_memory / static_cast<std::uint64_t>(on_node), rlimit_of(RLIMIT_AS),
                   rlimit_of(RLIMIT_DATA)});
}

std::string bytes_text(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

void check_memory(MPI_Comm comm, std::uint64_t bytes_per_rank, const std::string& what) {
  unsigned long long need[2] = {bytes_per_rank, 0};
  const std::uint64_t allowed = memory_per_rank(comm);
  need[1] = ~static_cast<unsigned long long>(allowed);  // the smallest allowance, via MAX
  MPI_Allreduce(MPI_IN_PLACE, need, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  const std::uint64_t most = need[0], smallest = ~need[1];
  if (most <= smallest / 10 * 8) return;
  throw Error(what + " needs about " + bytes_text(most) +
              " per rank (estimate), more than 80% of the " + bytes_text(smallest) +
              " a rank may use here");
}

void refuse_check_on_folded_buffers(bool verifies, const std::string& what) {
  if (!verifies || simulation_fold_threshold() == 0) return;
  throw Error(what +
              " cannot verify exchanges whose buffers SimGrid folds "
              "(smpi/auto-shared-malloc-thresh, scripts/simulate --shared-buffers): every rank "
              "writes the same memory");
}

}  // namespace a2a::app
