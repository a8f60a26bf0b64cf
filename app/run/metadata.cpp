#include "run/metadata.hpp"

#include <mpi.h>

#include <ctime>
#include <set>
#include <vector>
#ifdef A2A_WITH_FFTW
#include <fftw3.h>
#endif
#ifdef A2A_WITH_HDF5
#include "io/results.hpp"
#endif

#ifndef A2A_GIT_COMMIT
#define A2A_GIT_COMMIT "unknown"
#endif

namespace a2a::app {

std::string mpi_library_version() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string lib(library);
  while (!lib.empty() && (lib.back() == '\n' || lib.back() == ' '))
    lib.pop_back();
  return lib;
}

std::string mpi_library_name() {
  const std::string lib = mpi_library_version();
  return lib.substr(0, lib.find_first_of("\n,"));
}

nlohmann::json run_metadata(const Session& session, const std::string& deck_file,
                            const std::string& deck_title, const std::string& deck_text,
                            const std::string& command_line) {
  int length = 0, major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  MPI_Get_processor_name(host, &length);
  std::vector<char> hosts(static_cast<std::size_t>(session.procs) * MPI_MAX_PROCESSOR_NAME);
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
             0, session.comm);
  MPI_Comm node;
  MPI_Comm_split_type(session.comm, MPI_COMM_TYPE_SHARED, session.rank, MPI_INFO_NULL, &node);
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  int per_node[2] = {on_node, -on_node};
  MPI_Allreduce(MPI_IN_PLACE, per_node, 2, MPI_INT, MPI_MAX, session.comm);
  std::set<std::string> unique;
  for (int p = 0; p < session.procs; ++p)
    unique.insert(std::string(&hosts[static_cast<std::size_t>(p) * MPI_MAX_PROCESSOR_NAME]));
  std::string host_list;
  for (const auto& h : unique)
    host_list += (host_list.empty() ? "" : ",") + h;
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  nlohmann::json m = {{"format", "a2a-results-1"},
                      {"deck", deck_file},
                      {"deck_title", deck_title},
                      {"deck_text", deck_text},
                      {"created", stamp},
                      {"command", command_line},
                      {"procs", session.procs},
                      {"nodes", static_cast<int>(unique.size())},
                      {"ranks_per_node_max", per_node[0]},
                      {"ranks_per_node_min", -per_node[1]},
                      {"hostnames", host_list},
                      {"mpi_library", mpi_library_version()},
                      {"mpi_version", std::to_string(major) + "." + std::to_string(minor)},
                      {"a2a_version", A2A_VERSION},
                      {"git_commit", A2A_GIT_COMMIT},
                      {"compiler", std::string("g++/clang ") + __VERSION__}};
#ifdef A2A_WITH_FFTW
  m["fftw_version"] = std::string(fftw_version);
#endif
#ifdef A2A_WITH_HDF5
  m["hdf5_version"] = io::hdf5_version();
#endif
  return m;
}

}  // namespace a2a::app
