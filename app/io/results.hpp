// The results file of `a2a run` (HDF5, written by rank 0 alone with
// the serial driver). Groups carry JSON-like attributes (strings as variable-length UTF-8,
// integers as int64, reals as float64, booleans as int8 0/1); datasets are 1D float64 or
// uint64. The layout is documented in the README ("Results files").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace a2a::io {

class ResultsWriter {
 public:
  // Creates (truncates) the file and its parent directories. Throws a2a::Error.
  explicit ResultsWriter(const std::string& path);
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;

  // Creates the group (and its parents) if needed and sets every scalar key of `attributes`;
  // arrays and objects are stored as their JSON text.
  void attributes(const std::string& group, const nlohmann::json& attributes);
  void dataset(const std::string& path, const std::vector<double>& values);
  void dataset(const std::string& path, const std::vector<std::uint64_t>& values);
  const std::string& path() const { return path_; }

 private:
  std::int64_t group(const std::string& path);  // opened or created; caller closes
  std::int64_t file_ = -1;
  std::string path_;
};

// The library versions behind the file's run metadata.
std::string hdf5_version();

}  // namespace a2a::io
