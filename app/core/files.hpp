// Files a2a writes for its user (results, selection tables, wisdom): replaced atomically, and
// claimed by one run at a time.
#pragma once

#include <cstddef>
#include <string>

namespace a2a::app {

// Writes `size` bytes to a temporary file beside `path` (a name of this process's own, so two
// writers never share it), syncs it and renames it over `path`: readers see the old file or
// the new one, never a part. Throws a2a::Error naming `what` ("results file"), the step and
// the system error; the temporary file is removed then.
void replace_file(const std::string& path, const char* data, std::size_t size,
                  const char* what = "file");

// An advisory lock (flock on PATH.lock) held for as long as the object lives: a second run
// writing the same output is refused at its start with a clear error, instead of the two
// overwriting each other's results. The lock file is removed when released.
class OutputLock {
 public:
  explicit OutputLock(const std::string& path);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace a2a::app
