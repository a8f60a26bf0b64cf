// Parallel HDF5 for distributed 3D arrays: every rank reads or writes its own box (a
// hyperslab), collectively (MPI-IO). Layout, for other tools: a dataset of 64-bit IEEE floats
// with dimensions (n0, n1, n2) in C order for real data and (n0, n1, n2, 2) for complex data,
// the last dimension being (real, imaginary); global index (i, j, k) is element [i][j][k].
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>

#include "a2a/transpose.hpp"

namespace a2a::io {

// Opens (create = true: creates or truncates) a file collectively.
class File {
 public:
  File(MPI_Comm comm, const std::string& path, bool create);
  ~File();
  File(const File&) = delete;
  std::int64_t id() const { return id_; }
  const std::string& path() const { return path_; }
  // A string attribute on the root group.
  void set_attribute(const std::string& name, const std::string& value);

 private:
  std::int64_t id_ = -1;
  std::string path_;
};

// T is float or double; components 1 (real) or 2 (complex as (re, im) pairs).
template <typename T>
void write_box(File& file, const std::string& dataset, const std::array<std::int64_t, 3>& grid,
               const Box& box, const T* data, int components);
// Checks that the dataset has exactly the expected shape (else a2a::Error naming both).
template <typename T>
void read_box(File& file, const std::string& dataset, const std::array<std::int64_t, 3>& grid,
              const Box& box, T* data, int components);

}  // namespace a2a::io
