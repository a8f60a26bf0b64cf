// The run metadata of a results file (docs/decks.md, "Results files"): where, with what and from
// what the results came. Collective (gathers the host names).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/session.hpp"

namespace a2a::app {

// The MPI library's version string (MPI_Get_library_version), trailing blanks removed, and its
// short name: the first line up to its first comma ("Open MPI v4.1.4"). Local.
std::string mpi_library_version();
std::string mpi_library_name();

nlohmann::json run_metadata(const Session& session, const std::string& deck_file,
                            const std::string& deck_title, const std::string& deck_text,
                            const std::string& command_line);

}  // namespace a2a::app
