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

// Opens (create = true: creates or truncates) a file collectively. A file to create is checked
// first, on rank 0: it must be (or become) a regular file with room for `reserve_bytes`
// (posix_fallocate; a full disk or a file-size limit is an error on every rank before HDF5
// writes anything). Every write's status is agreed on by all ranks.
class File {
 public:
  File(MPI_Comm comm, const std::string& path, bool create, std::uint64_t reserve_bytes = 0);
  ~File();
  File(const File&) = delete;
  std::int64_t id() const { return id_; }
  MPI_Comm comm() const { return comm_; }
  const std::string& path() const { return path_; }
  // A string attribute on the root group.
  void set_attribute(const std::string& name, const std::string& value);

 private:
  std::int64_t id_ = -1;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::string path_;
};

// True when a file could not be closed (a write failed after the checks): HDF5 would crash
// trying again at MPI_Finalize, so the program must end with MPI_Abort instead.
bool hdf5_file_left_open();

// T is float or double; components 1 (real) or 2 (complex as (re, im) pairs).
template <typename T>
void write_box(File& file, const std::string& dataset, const std::array<std::int64_t, 3>& grid,
               const Box& box, const T* data, int components);
// Checks that the dataset has exactly the expected shape (else a2a::Error naming both).
template <typename T>
void read_box(File& file, const std::string& dataset, const std::array<std::int64_t, 3>& grid,
              const Box& box, T* data, int components);

}  // namespace a2a::io
