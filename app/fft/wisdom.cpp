#include "fft/wisdom.hpp"

#ifdef A2A_WITH_FFTW_MPI
#include <fftw3-mpi.h>
#endif
#include <fftw3.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <vector>

#include "a2a/agree.hpp"
#include "a2a/error.hpp"
#include "a2a/fft.hpp"
#include "a2a/text_file.hpp"
#include "core/files.hpp"

namespace a2a::fft {
namespace {

// The CPU's model and feature flags (FFTW's codelets and timings depend on both).
std::string cpu_identity() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model, flags;
  while (std::getline(in, line) && (model.empty() || flags.empty())) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, line.find_first_of(" \t"));
    if (key == "model" && line.rfind("model name", 0) == 0 && model.empty()) {
      model = line.substr(colon + 1);
    } else if ((key == "flags" || key == "Features") && flags.empty()) {
      flags = line.substr(colon + 1);
    }
  }
  return model + "|" + flags;
}

std::string hex(std::size_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016zx", value);
  return text;
}

// Every rank's wisdom merged on rank 0 (each planned its own shapes), as strings.
void merge_on_root(MPI_Comm comm, bool single) {
  char* mine = single ? fftwf_export_wisdom_to_string() : fftw_export_wisdom_to_string();
  const int length = static_cast<int>(std::strlen(mine) + 1);
  int rank = 0, procs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &procs);
  std::vector<int> lengths(static_cast<std::size_t>(procs)), displs(lengths.size());
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<char> text;
  if (rank == 0) {
    long long total = 0;
    for (std::size_t p = 0; p < lengths.size(); ++p) {
      displs[p] = static_cast<int>(total);
      total += lengths[p];
    }
    text.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine, length, MPI_CHAR, text.data(), lengths.data(), displs.data(), MPI_CHAR, 0,
              comm);
  std::free(mine);
  for (std::size_t at = 0; at < text.size(); at += std::strlen(text.data() + at) + 1) {
    single ? fftwf_import_wisdom_from_string(text.data() + at)
           : fftw_import_wisdom_from_string(text.data() + at);
  }
}

// `text` with its header's configuration signature replaced by this process's. FFTW refuses
// wisdom whose signature (a hash of the planner's registered solvers) is not its own, and
// fftw_mpi_init adds FFTW-MPI's solvers: wisdom written without them (fftw-wisdom, an a2a
// process that ran no FFTW-MPI transform) would never import into a process that has called it
// (a deck after its first baseline, or after importing a cache written with them). The solvers
// it names keep their names and indices, so its entries stay valid; if one names a solver this
// process lacks, FFTW still refuses the whole file.
std::string with_own_signature(const std::string& text, bool single) {
  char* own = single ? fftwf_export_wisdom_to_string() : fftw_export_wisdom_to_string();
  const std::string mine(own);
  std::free(own);
  const auto header = [](const std::string& t) { return t.substr(0, t.find('\n')); };
  const auto prefix = [](const std::string& line) { return line.substr(0, line.find(" #x")); };
  const std::string theirs = header(text), ours = header(mine);
  if (prefix(theirs) != prefix(ours)) return text;  // another FFTW version or precision
  return ours + text.substr(theirs.size());
}

// Imports FILE (double) or FILE.float (single); true when it is absent or is wisdom. A path
// that is not a regular file, or one too large for wisdom, throws (a2a/text_file.hpp).
bool import(const std::string& path, bool single, bool& exists) {
  const std::optional<std::string> read = read_text_file(path, "FFTW wisdom", kTextFileLimit, true);
  exists = read.has_value();
  if (!exists) return true;
  const std::string& text = *read;
  const auto import_text = [single](const std::string& t) {
    return (single ? fftwf_import_wisdom_from_string(t.c_str())
                   : fftw_import_wisdom_from_string(t.c_str())) != 0;
  };
  if (import_text(text)) return true;
#ifdef A2A_WITH_FFTW_MPI
  // Wisdom naming FFTW-MPI's solvers imports only after fftw_mpi_init.
  if (!single) {
    fftw_mpi_init();
    if (import_text(text)) return true;
  }
#endif
  return import_text(with_own_signature(text, single));
}

// Rank 0's string on every rank.
std::string from_root(MPI_Comm comm, std::string text) {
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  text.resize(length);
  if (length > 0) MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, comm);
  return text;
}

// The ways a2a chose (ways.hpp) kept in FILE.ways: rank 0 reads it, every rank imports the
// same text. Returns why it cannot be read ("" when it can, or is absent).
std::string import_ways(MPI_Comm comm, const std::string& path) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string text, problem;
  if (rank == 0) {
    try {
      text = read_text_file(path, "a2a's ways", kTextFileLimit, true).value_or("");
    } catch (const Error& e) {
      problem = e.what();
    }
  }
  problem = from_root(comm, problem);
  if (problem.empty()) ways::import_text(from_root(comm, text));
  return problem;
}

void warn(MPI_Comm comm, const std::string& text) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) std::fprintf(stderr, "a2a: warning: %s\n", text.c_str());
}

}  // namespace

unsigned fftw_flags_of(const std::string& plan) {
  if (plan == "measure") return FFTW_MEASURE;
  if (plan == "patient") return FFTW_PATIENT;
  if (plan == "wisdom-only") return FFTW_MEASURE | FFTW_WISDOM_ONLY;
  return FFTW_ESTIMATE;
}

std::string wisdom_cache_path() {
  std::string dir;
  if (const char* d = std::getenv("A2A_WISDOM_DIR"); d != nullptr && *d != '\0') {
    dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') {
    dir = std::string(x) + "/a2a";
  } else if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
    dir = std::string(h) + "/.cache/a2a";
  } else {
    return {};
  }
  std::string version = fftw_version;  // "fftw-3.3.10-sse2-avx" and the like
  for (char& c : version) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
  }
  // FFTW-MPI's solvers are part of the planner's configuration (see with_own_signature): builds
  // with and without FFTW-MPI keep separate caches.
#ifdef A2A_WITH_FFTW_MPI
  const std::string solvers = "|fftw-mpi";
#else
  const std::string solvers;
#endif
  const std::size_t key = std::hash<std::string>{}(std::string(fftw_version) + "|" + fftw_cc + "|" +
                                                   cpu_identity() + solvers);
  return dir + "/" + version + "-" + hex(key) + ".wisdom";
}

Wisdom::Wisdom(MPI_Comm comm, const std::string& option, const std::string& plan) : comm_(comm) {
  if (option == "auto") {
    if (plan == "wisdom-only") throw Error("--fftw-plan wisdom-only needs --wisdom FILE");
    cache_ = true;
    file_ = wisdom_cache_path();
    if (file_.empty()) {
      warn(comm, "no cache directory for FFTW wisdom (set HOME, XDG_CACHE_HOME or A2A_WISDOM_DIR)");
      return;
    }
  } else if (option != "none") {
    file_ = option;
  }
  if (file_.empty()) {
    if (plan == "wisdom-only") throw Error("--fftw-plan wisdom-only needs --wisdom FILE");
    return;
  }
  bool exists = false, exists_float = false;
  int bad = 0;
  std::string unreadable;
  try {
    bad = !import(file_, false, exists);
    bad |= !import(file_ + ".float", true, exists_float);
    if (!exists && !exists_float && plan == "wisdom-only") {
      unreadable = "'" + file_ + "': no such file (nor '" + file_ +
                   ".float'); --fftw-plan wisdom-only plans only from an existing wisdom file";
    }
  } catch (const Error& e) {
    unreadable = e.what();
  }
  // A device, a FIFO or an oversized file: the same error (or, for the cache, the same warning)
  // on every rank.
  if (unreadable = agree_on_error(comm_, unreadable); !unreadable.empty()) {
    if (!cache_) throw Error("--wisdom: " + unreadable);
    warn(comm, unreadable + ": planning without the wisdom cache, and not saving it");
    file_.clear();
    return;
  }
  // Rank 0 reads a2a's ways; its error is every rank's.
  if (const std::string problem = import_ways(comm_, file_ + ".ways"); !problem.empty()) {
    if (!cache_) throw Error("--wisdom: " + problem);
    warn(comm, problem + ": timing the local transforms' ways again");
  }
  found_ = exists || exists_float;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, comm_);
  if (!bad) return;
  if (!cache_) throw Error("--wisdom " + file_ + ": not FFTW wisdom (or not this FFTW's)");
  warn(comm, "the FFTW wisdom cache " + file_ +
                 " is not this FFTW's wisdom: planning without "
                 "it (it is rewritten after planning)");
  found_ = false;
}

void Wisdom::save() const {
  if (file_.empty()) return;
  // What the file holds now (another job may have added plans since we read it), then every
  // rank's: one merged wisdom on rank 0.
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  if (rank == 0) {
    bool exists = false;
    import(file_, false, exists);
    import(file_ + ".float", true, exists);
  }
  merge_on_root(comm_, false);
  merge_on_root(comm_, true);
  std::string failure;
  if (rank == 0) {
    try {
      if (cache_) {
        std::error_code ignored;
        std::filesystem::create_directories(std::filesystem::path(file_).parent_path(), ignored);
      }
      for (const bool single : {false, true}) {
        char* text = single ? fftwf_export_wisdom_to_string() : fftw_export_wisdom_to_string();
        const std::string content = text;
        std::free(text);
        app::replace_file(single ? file_ + ".float" : file_, content.data(), content.size(),
                          "FFTW wisdom");
      }
      // a2a's own choices beside them, merged the same way (another job's kept).
      if (auto theirs = read_text_file(file_ + ".ways", "a2a's ways", kTextFileLimit, true))
        ways::import_text(*theirs);
      const std::string chosen = ways::export_text();
      app::replace_file(file_ + ".ways", chosen.data(), chosen.size(), "a2a's ways");
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  unsigned long long length = failure.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm_);
  saved_ = length == 0;
  if (length == 0) return;
  failure.resize(length);
  MPI_Bcast(failure.data(), static_cast<int>(length), MPI_CHAR, 0, comm_);
  if (!cache_) throw Error("--wisdom " + file_ + ": " + failure);
  warn(comm_, "the FFTW wisdom cache was not saved: " + failure);
}

}  // namespace a2a::fft
