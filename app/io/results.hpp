// The results file of `a2a run` and `a2a bench --output` (HDF5, written by rank 0 alone).
// Groups carry JSON-like attributes (strings as variable-length UTF-8, integers as int64,
// reals as float64, booleans as int8 0/1); datasets are 1D float64 or uint64. The layout is
// documented in docs/ (results files).
//
// The file is built in memory (HDF5's core driver) and commit() writes the whole image to a
// temporary file of its own and renames it over FILE, so the file on disk is always a complete
// HDF5 file
// holding everything committed so far, whatever stops the run (a signal, a crash in a later
// experiment, a full disk: then commit() throws and the previous image stays). HDF5 itself
// never writes to disk here, so a failed write is an a2a::Error, not a crash in HDF5.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/agree.hpp"
#include "core/files.hpp"

namespace a2a::io {

class ResultsWriter {
 public:
  // Creates the parent directories and the in-memory file; nothing is written until commit().
  // Throws if another run holds FILE (core/files.hpp: OutputLock).
  explicit ResultsWriter(const std::string& path);
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;

  // Creates the group (and its parents) if needed and sets every scalar key of `attributes`;
  // arrays and objects are stored as their JSON text.
  void attributes(const std::string& group, const nlohmann::json& attributes);
  // The layout's names, in this one place (docs/decks.md, "Results files"): experiment number
  // `index` named NAME is the group /experiments/NN-NAME, its k-th series EXPERIMENT/series/NNN.
  static std::string experiment_group(std::size_t index, const std::string& name);
  static std::string series_group(const std::string& experiment, std::size_t k);
  void dataset(const std::string& path, const std::vector<double>& values);
  void dataset(const std::string& path, const std::vector<std::uint64_t>& values);
  // Writes the image (atomically replacing FILE). Throws a2a::Error naming the system error.
  void commit();
  // commit(), unless the commits so far have taken a second in all and more than a tenth of the
  // time since the writer was made: the image grows with every experiment, so committing after
  // each of thousands of small ones would cost time quadratic in their number. Returns whether
  // it committed; the caller commits at the end in any case.
  bool commit_if_due();
  const std::string& path() const { return path_; }

 private:
  std::int64_t group(const std::string& path);  // opened or created; caller closes
  std::int64_t file_ = -1;
  std::string path_;
  double made_at_s_ = 0, committing_s_ = 0;  // steady-clock start, and the time spent in commit()
  app::OutputLock lock_;                     // one run writes a results file at a time
};

using app::on_root_agreed;  // core/agree.hpp

// Every series record of a results file: the attributes of each /experiments/*/series/* group
// as a JSON object (strings, integers, reals; booleans come back as 0/1). Serial, any rank.
// Throws a2a::Error when the file cannot be opened or is not a results file.
std::vector<nlohmann::json> read_series_records(const std::string& path);

// The library versions behind the file's run metadata.
std::string hdf5_version();

}  // namespace a2a::io
