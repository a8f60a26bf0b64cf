#include "hdf5_array.hpp"

#include <hdf5.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "a2a/error.hpp"

namespace a2a::io {
namespace {

template <typename T>
hid_t memory_type() {
  return std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
}

std::vector<hsize_t> dims_of(const std::array<std::int64_t, 3>& grid, int components) {
  std::vector<hsize_t> d(grid.begin(), grid.end());
  if (components == 2) d.push_back(2);
  return d;
}

// Selects this rank's box (none if empty) in the file space; returns the matching memory space.
hid_t select(hid_t file_space, const Box& box, int components) {
  std::vector<hsize_t> start(box.lo.begin(), box.lo.end()), count(3);
  for (int d = 0; d < 3; ++d)
    count[static_cast<std::size_t>(d)] = static_cast<hsize_t>(box.extent(d));
  if (components == 2) {
    start.push_back(0);
    count.push_back(2);
  }
  if (box.empty()) {
    H5Sselect_none(file_space);
    hid_t mem = H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr);
    H5Sselect_none(mem);
    return mem;
  }
  H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
  return H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr);
}

hid_t collective() {
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  return dxpl;
}

bool g_left_open = false;

}  // namespace

bool hdf5_file_left_open() {
  return g_left_open;
}

namespace {

// Rank 0's check of a file about to be read: "" if it is a regular file (a directory or a
// device would otherwise reach MPI-IO, which prints its own errors first).
std::string read_preflight(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return "cannot open HDF5 file '" + path + "': " + std::strerror(errno);
  }
  if (S_ISDIR(st.st_mode)) return "'" + path + "' is a directory, not an HDF5 file";
  if (!S_ISREG(st.st_mode)) return "'" + path + "' is not a regular file";
  return {};
}

// Rank 0's check of a file about to be created: "" if it can take `bytes`.
std::string preflight(const std::string& path, std::uint64_t bytes) {
  struct stat st {};
  const bool existed = ::stat(path.c_str(), &st) == 0;
  if (existed && !S_ISREG(st.st_mode)) return "'" + path + "' is not a regular file";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT, 0644);
  if (fd < 0) return "cannot create '" + path + "': " + std::strerror(errno);
  int error = 0;
  if (bytes > 0) {
    error = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
    if (error == EOPNOTSUPP || error == EINVAL) error = 0;  // cannot tell: let HDF5 try
  }
  ::close(fd);
  if (error == 0) return {};
  if (!existed) ::unlink(path.c_str());
  return "cannot write " + std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB to '" + path +
         "': " + std::strerror(error);
}

}  // namespace

File::File(MPI_Comm comm, const std::string& path, bool create, std::uint64_t reserve_bytes)
    : comm_(comm), path_(path) {
  {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    std::string why;
    if (rank == 0) why = create ? preflight(path, reserve_bytes) : read_preflight(path);
    unsigned long long length = why.size();
    MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
    why.resize(length);
    MPI_Bcast(why.data(), static_cast<int>(length), MPI_CHAR, 0, comm);
    if (!why.empty()) throw Error(why);
  }
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported by us, once
  id_ = create ? H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
               : H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl);
  H5Pclose(fapl);
  int ok = id_ >= 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
  if (!ok) {
    if (id_ >= 0) H5Fclose(id_);
    throw Error("cannot " + std::string(create ? "create" : "open") + " HDF5 file '" + path + "'");
  }
}

File::~File() {
  if (id_ >= 0 && H5Fclose(id_) < 0) g_left_open = true;
}

void File::set_attribute(const std::string& name, const std::string& value) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.size() + 1);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(id_, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attr, type, value.c_str());
  H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
}

template <typename T>
void write_box(File& file, const std::string& dataset, const std::array<std::int64_t, 3>& grid,
               const Box& box, const T* data, int components) {
  const auto dims = dims_of(grid, components);
  hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  hid_t set = H5Dcreate2(file.id(), dataset.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT,
                         H5P_DEFAULT, H5P_DEFAULT);
  if (set < 0) {
    H5Sclose(space);
    throw Error("cannot create dataset '" + dataset + "' in '" + file.path() + "'");
  }
  hid_t mem = select(space, box, components);
  hid_t dxpl = collective();
  const herr_t status = H5Dwrite(set, memory_type<T>(), mem, space, dxpl, data);
  H5Pclose(dxpl);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(set);
  int ok = status >= 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, file.comm());
  if (!ok) throw Error("cannot write dataset '" + dataset + "' of '" + file.path() + "'");
}

template <typename T>
void read_box(File& file, const std::string& dataset, const std::array<std::int64_t, 3>& grid,
              const Box& box, T* data, int components) {
  hid_t set = H5Dopen2(file.id(), dataset.c_str(), H5P_DEFAULT);
  if (set < 0) throw Error("'" + file.path() + "' has no dataset '" + dataset + "'");
  // Floating-point values only: say what the dataset holds otherwise.
  const hid_t stored = H5Dget_type(set);
  const H5T_class_t type_class = H5Tget_class(stored);
  H5Tclose(stored);
  if (type_class != H5T_FLOAT) {
    H5Dclose(set);
    const char* held = type_class == H5T_STRING     ? "strings"
                       : type_class == H5T_INTEGER  ? "integers"
                       : type_class == H5T_COMPOUND ? "compound values"
                                                    : "values that are not floating-point";
    throw Error("dataset '" + dataset + "' of '" + file.path() + "' holds " + held +
                ", expected floating-point numbers");
  }
  hid_t space = H5Dget_space(set);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> have(static_cast<std::size_t>(std::max(rank, 0)));
  H5Sget_simple_extent_dims(space, have.data(), nullptr);
  const auto want = dims_of(grid, components);
  if (have != want) {
    auto text = [](const std::vector<hsize_t>& d) {
      if (d.empty()) return std::string("a scalar");
      std::string s;
      for (hsize_t x : d)
        s += (s.empty() ? "" : "x") + std::to_string(x);
      return s;
    };
    H5Sclose(space);
    H5Dclose(set);
    throw Error("wrong grid: dataset '" + dataset + "' of '" + file.path() + "' is " + text(have) +
                ", expected " + text(want) +
                (components == 2 ? " (complex: last dimension re, im)" : " (real)"));
  }
  hid_t mem = select(space, box, components);
  hid_t dxpl = collective();
  const herr_t status = H5Dread(set, memory_type<T>(), mem, space, dxpl, data);
  H5Pclose(dxpl);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(set);
  if (status < 0) throw Error("cannot read dataset '" + dataset + "' of '" + file.path() + "'");
}

template void write_box<double>(File&, const std::string&, const std::array<std::int64_t, 3>&,
                                const Box&, const double*, int);
template void write_box<float>(File&, const std::string&, const std::array<std::int64_t, 3>&,
                               const Box&, const float*, int);
template void read_box<double>(File&, const std::string&, const std::array<std::int64_t, 3>&,
                               const Box&, double*, int);
template void read_box<float>(File&, const std::string&, const std::array<std::int64_t, 3>&,
                              const Box&, float*, int);

}  // namespace a2a::io
