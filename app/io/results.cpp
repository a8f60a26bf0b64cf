#include "io/results.hpp"

#include <hdf5.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "a2a/error.hpp"
#include "core/files.hpp"

namespace a2a::io {
namespace {

void check(herr_t status, const std::string& what) {
  if (status < 0) throw Error("HDF5: " + what);
}

void put_string(hid_t where, const std::string& name, const std::string& value) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(where, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* text = value.c_str();
  const herr_t status = attr < 0 ? -1 : H5Awrite(attr, type, &text);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  check(status, "cannot write attribute '" + name + "'");
}

template <typename T>
void put_scalar(hid_t where, const std::string& name, hid_t type, T value) {
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(where, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t status = attr < 0 ? -1 : H5Awrite(attr, type, &value);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  check(status, "cannot write attribute '" + name + "'");
}

template <typename T>
void put_dataset(hid_t file, const std::string& path, hid_t type, const std::vector<T>& values) {
  const hsize_t n = values.size();
  hid_t space = H5Screate_simple(1, &n, nullptr);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  hid_t set = H5Dcreate2(file, path.c_str(), type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t status =
      set < 0 ? -1 : H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  if (set >= 0) H5Dclose(set);
  H5Pclose(lcpl);
  H5Sclose(space);
  check(status, "cannot write dataset '" + path + "'");
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

// The path, its parent directories made, checked to be a place for a regular file (before the
// lock beside it is taken).
static std::string prepared(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ignored;
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  std::error_code status_error;
  const auto status = std::filesystem::status(path, status_error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw Error("results file '" + path + "' exists and is not a regular file");
  }
  return path;
}

ResultsWriter::ResultsWriter(const std::string& path) : path_(prepared(path)), lock_(path_) {
  made_at_s_ = steady_seconds();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported by us, once
  // In memory (core driver, no backing store): commit() writes the image itself.
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_core(fapl, std::size_t{1} << 20, 0);
  file_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  if (file_ < 0) throw Error("cannot create results file '" + path + "' in memory");
}

ResultsWriter::~ResultsWriter() {
  if (file_ >= 0) H5Fclose(file_);
}

bool ResultsWriter::commit_if_due() {
  // Every time until the writes have taken a second in all (a usual deck: every experiment is
  // saved as it ends); from then on only while they stay within a tenth of the run.
  if (committing_s_ >= 1.0 && committing_s_ > 0.1 * (steady_seconds() - made_at_s_)) return false;
  commit();
  return true;
}

void ResultsWriter::commit() {
  const double started = steady_seconds();
  struct Account {
    double started;
    double& total;
    ~Account() { total += steady_seconds() - started; }
  } account{started, committing_s_};
  check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "cannot flush the results file image");
  const ssize_t size = H5Fget_file_image(file_, nullptr, 0);
  if (size < 0) throw Error("HDF5: cannot get the results file image");
  std::vector<char> image(static_cast<std::size_t>(size));
  if (H5Fget_file_image(file_, image.data(), image.size()) != size) {
    throw Error("HDF5: cannot get the results file image");
  }
  app::replace_file(path_, image.data(), image.size(), "results file");
}

std::int64_t ResultsWriter::group(const std::string& path) {
  if (path == "/") return H5Oopen(file_, "/", H5P_DEFAULT);
  if (H5Lexists(file_, path.c_str(), H5P_DEFAULT) > 0) {
    return H5Gopen2(file_, path.c_str(), H5P_DEFAULT);
  }
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  const hid_t g = H5Gcreate2(file_, path.c_str(), lcpl, H5P_DEFAULT, H5P_DEFAULT);
  H5Pclose(lcpl);
  if (g < 0) throw Error("HDF5: cannot create group '" + path + "'");
  return g;
}

void ResultsWriter::attributes(const std::string& path, const nlohmann::json& attributes) {
  const hid_t g = group(path);
  try {
    for (const auto& [key, value] : attributes.items()) {
      if (H5Aexists(g, key.c_str()) > 0) H5Adelete(g, key.c_str());
      if (value.is_string()) {
        put_string(g, key, value.get<std::string>());
      } else if (value.is_boolean()) {
        put_scalar<std::int8_t>(g, key, H5T_NATIVE_INT8, value.get<bool>() ? 1 : 0);
      } else if (value.is_number_unsigned()) {
        put_scalar<std::int64_t>(g, key, H5T_NATIVE_INT64,
                                 static_cast<std::int64_t>(value.get<std::uint64_t>()));
      } else if (value.is_number_integer()) {
        put_scalar<std::int64_t>(g, key, H5T_NATIVE_INT64, value.get<std::int64_t>());
      } else if (value.is_number_float()) {
        put_scalar<double>(g, key, H5T_NATIVE_DOUBLE, value.get<double>());
      } else if (!value.is_null()) {
        put_string(g, key, value.dump());
      }
    }
  } catch (...) {
    H5Oclose(g);
    throw;
  }
  H5Oclose(g);
}

void ResultsWriter::dataset(const std::string& path, const std::vector<double>& values) {
  put_dataset(file_, path, H5T_NATIVE_DOUBLE, values);
}

void ResultsWriter::dataset(const std::string& path, const std::vector<std::uint64_t>& values) {
  put_dataset(file_, path, H5T_NATIVE_UINT64, values);
}

namespace {

herr_t read_attribute(hid_t where, const char* name, const H5A_info_t*, void* data) {
  auto& record = *static_cast<nlohmann::json*>(data);
  const hid_t attr = H5Aopen(where, name, H5P_DEFAULT);
  if (attr < 0) return -1;
  const hid_t type = H5Aget_type(attr);
  herr_t status = 0;
  switch (H5Tget_class(type)) {
    case H5T_STRING: {
      const hid_t memory = H5Tcopy(H5T_C_S1);
      H5Tset_size(memory, H5T_VARIABLE);
      H5Tset_cset(memory, H5T_CSET_UTF8);
      char* text = nullptr;
      status = H5Aread(attr, memory, &text);
      if (status >= 0 && text != nullptr) {
        record[name] = std::string(text);
        H5free_memory(text);
      }
      H5Tclose(memory);
      break;
    }
    case H5T_INTEGER: {
      long long value = 0;
      status = H5Aread(attr, H5T_NATIVE_LLONG, &value);
      record[name] = value;
      break;
    }
    case H5T_FLOAT: {
      double value = 0;
      status = H5Aread(attr, H5T_NATIVE_DOUBLE, &value);
      record[name] = value;
      break;
    }
    default:
      break;  // not written by a2a: skipped
  }
  H5Tclose(type);
  H5Aclose(attr);
  return status;
}

struct Walk {
  hid_t file;
  std::string prefix;
  std::vector<std::string> names;
};

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* data) {
  static_cast<Walk*>(data)->names.emplace_back(name);
  return 0;
}

std::vector<std::string> children(hid_t file, const std::string& group) {
  Walk walk{file, group, {}};
  const hid_t id = H5Gopen2(file, group.c_str(), H5P_DEFAULT);
  if (id < 0) return {};
  hsize_t index = 0;
  H5Literate(id, H5_INDEX_NAME, H5_ITER_INC, &index, collect_name, &walk);
  H5Gclose(id);
  return walk.names;
}

}  // namespace

std::string ResultsWriter::experiment_group(std::size_t index, const std::string& name) {
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "/experiments/%02zu-", index);
  return prefix + name;
}

std::string ResultsWriter::series_group(const std::string& experiment, std::size_t k) {
  char index[32];
  std::snprintf(index, sizeof index, "/series/%03zu", k);
  return experiment + index;
}

std::vector<nlohmann::json> read_series_records(const std::string& path) {
  // Quiet: a file that is not HDF5 is our error message, not HDF5's stack trace.
  H5E_auto2_t handler = nullptr;
  void* handler_data = nullptr;
  H5Eget_auto2(H5E_DEFAULT, &handler, &handler_data);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) {
    H5Eset_auto2(H5E_DEFAULT, handler, handler_data);
    throw Error("cannot open '" + path + "' as an HDF5 results file");
  }
  std::vector<nlohmann::json> records;
  bool failed = false;
  for (const std::string& experiment : children(file, "/experiments")) {
    const std::string series = "/experiments/" + experiment + "/series";
    for (const std::string& one : children(file, series)) {
      nlohmann::json record = nlohmann::json::object();
      const hid_t group = H5Gopen2(file, (series + "/" + one).c_str(), H5P_DEFAULT);
      if (group < 0) continue;
      hsize_t index = 0;
      failed |= H5Aiterate2(group, H5_INDEX_NAME, H5_ITER_INC, &index, read_attribute, &record) < 0;
      H5Gclose(group);
      records.push_back(std::move(record));
    }
  }
  H5Fclose(file);
  H5Eset_auto2(H5E_DEFAULT, handler, handler_data);
  if (failed) throw Error("'" + path + "': an attribute could not be read");
  return records;
}

std::string hdf5_version() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
}

}  // namespace a2a::io
