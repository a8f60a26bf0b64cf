// The results file layout (app/io/results): written with ResultsWriter, read back with the
// HDF5 C API alone: attribute types and values, nested groups, datasets.
#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "io/results.hpp"
#include "serial_checks.hpp"

namespace {

std::string string_attribute(hid_t object, const char* name) {
  hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  if (attr < 0) return "<missing>";
  hid_t type = H5Aget_type(attr);
  std::string value = "<not a variable-length string>";
  if (H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0) {
    char* text = nullptr;
    hid_t memory = H5Tcopy(H5T_C_S1);
    H5Tset_size(memory, H5T_VARIABLE);
    H5Tset_cset(memory, H5T_CSET_UTF8);
    if (H5Aread(attr, memory, &text) >= 0 && text != nullptr) value = text;
    H5free_memory(text);
    H5Tclose(memory);
  }
  H5Tclose(type);
  H5Aclose(attr);
  return value;
}

template <typename T>
bool scalar_attribute(hid_t object, const char* name, hid_t memory, H5T_class_t klass, T& out) {
  hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  if (attr < 0) return false;
  hid_t type = H5Aget_type(attr);
  const bool ok = H5Tget_class(type) == klass && H5Aread(attr, memory, &out) >= 0;
  H5Tclose(type);
  H5Aclose(attr);
  return ok;
}

template <typename T>
std::vector<T> read_dataset(hid_t file, const char* path, hid_t memory) {
  hid_t set = H5Dopen2(file, path, H5P_DEFAULT);
  if (set < 0) return {};
  hid_t space = H5Dget_space(set);
  hsize_t n = 0;
  std::vector<T> values;
  if (H5Sget_simple_extent_ndims(space) == 1) {
    H5Sget_simple_extent_dims(space, &n, nullptr);
    values.resize(n);
    H5Dread(set, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  }
  H5Sclose(space);
  H5Dclose(set);
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  a2a::test::SerialChecks check("results");
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("a2a-test-results-" + std::to_string(getpid())) / "nested" / "r.h5")
                               .string();
  const std::vector<double> times = {1.5, 2.25, 1e-3, 7e6};
  const std::vector<std::uint64_t> counts = {0, 1, std::uint64_t{1} << 40};
  {
    a2a::io::ResultsWriter w(path);  // creates the missing parent directories
    w.attributes("/", {{"format", "a2a-results-1"}, {"procs", 12}, {"deck_text", "a = \"ü\"\n"}});
    w.attributes("/experiments/00-x", {{"type", "bench"}, {"iters", 4}});
    w.attributes("/experiments/00-x/series/000", {{"label", "tra:r=4"},
                                                  {"bytes", std::uint64_t{1} << 33},
                                                  {"median_us", 2.5},
                                                  {"negative", -3},
                                                  {"passed", true},
                                                  {"sizes", {8, 16}}});
    w.dataset("/experiments/00-x/series/000/times_us", times);
    w.dataset("/experiments/00-x/series/000/radix", counts);
    w.attributes("/experiments/00-x", {{"iters", 5}});  // rewriting an attribute replaces it
    w.commit();                                         // the image reaches the disk only here
    w.attributes("/", {{"procs", 13}});                 // not committed: the file keeps 12
  }
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  check(file >= 0, "the file opens with the plain HDF5 API");
  if (file >= 0) {
    check(string_attribute(file, "format") == "a2a-results-1", "root string attribute");
    check(string_attribute(file, "deck_text") == "a = \"ü\"\n", "UTF-8 text survives");
    std::int64_t procs = 0;
    check(scalar_attribute(file, "procs", H5T_NATIVE_INT64, H5T_INTEGER, procs) && procs == 12,
          "root integer attribute");
    hid_t exp = H5Gopen2(file, "/experiments/00-x", H5P_DEFAULT);
    check(exp >= 0, "experiment group");
    std::int64_t iters = 0;
    check(scalar_attribute(exp, "iters", H5T_NATIVE_INT64, H5T_INTEGER, iters) && iters == 5,
          "rewritten attribute");
    check(string_attribute(exp, "type") == "bench", "experiment type");
    H5Gclose(exp);
    hid_t s = H5Gopen2(file, "/experiments/00-x/series/000", H5P_DEFAULT);
    check(s >= 0, "series group");
    std::int64_t bytes = 0, negative = 0;
    double median = 0;
    std::int8_t passed = 0;
    check(scalar_attribute(s, "bytes", H5T_NATIVE_INT64, H5T_INTEGER, bytes) &&
              bytes == (std::int64_t{1} << 33),
          "64-bit byte count (over 4 GiB)");
    check(
        scalar_attribute(s, "negative", H5T_NATIVE_INT64, H5T_INTEGER, negative) && negative == -3,
        "negative integer");
    check(scalar_attribute(s, "median_us", H5T_NATIVE_DOUBLE, H5T_FLOAT, median) && median == 2.5,
          "float attribute");
    check(scalar_attribute(s, "passed", H5T_NATIVE_INT8, H5T_INTEGER, passed) && passed == 1,
          "boolean as int8");
    check(string_attribute(s, "label") == "tra:r=4", "label");
    check(string_attribute(s, "sizes") == "[8,16]", "arrays as JSON text");
    H5Gclose(s);
    check(read_dataset<double>(file, "/experiments/00-x/series/000/times_us", H5T_NATIVE_DOUBLE) ==
              times,
          "float64 dataset read back exactly");
    check(read_dataset<std::uint64_t>(file, "/experiments/00-x/series/000/radix",
                                      H5T_NATIVE_UINT64) == counts,
          "uint64 dataset read back exactly");
    H5Fclose(file);
  }
  bool refused = false;
  try {
    a2a::io::ResultsWriter w("/proc/a2a-cannot-write-here/r.h5");
    w.commit();
  } catch (const std::exception&) {
    refused = true;
  }
  check(refused, "an unwritable path is an error");
  refused = false;
  try {
    a2a::io::ResultsWriter w("/dev/full");
  } catch (const std::exception&) {
    refused = true;
  }
  check(refused, "a device is refused");
  std::filesystem::remove_all(std::filesystem::path(path).parent_path().parent_path());
  const int code = check.finish();
  MPI_Finalize();
  return code;
}
