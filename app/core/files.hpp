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

// What a signal leaves behind. From the first call on, SIGINT, SIGTERM and SIGHUP remove the
// temporary file of a replace_file in progress and the lock files of the OutputLocks alive,
// write the last message given here to stderr, then take their default course (the exit
// status reports the signal). Only async-signal-safe calls run in the handler; the message is
// formatted here, outside it. A SIGKILL cannot be caught: then the lock file stays, and the
// next run that locks it takes it over (flock is released with the process).
void on_signal_say(const std::string& message);

}  // namespace a2a::app
