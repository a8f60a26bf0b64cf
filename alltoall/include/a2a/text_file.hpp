// Reading a text file named by a user (a deck, a selection table, FFTW wisdom, a model fit's
// records): only a regular file, and never more than a stated size. A path to a device
// (/dev/zero, /dev/full), a FIFO, a socket or a directory is refused by name before a byte is
// read, so it can neither fill memory nor block; a regular file larger than the bound is
// refused too, without reading it. Used for every text file a2a reads from outside.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

#include "a2a/error.hpp"

namespace a2a {

// The bound of text files a2a reads: far above any deck, table or wisdom it writes.
inline constexpr std::size_t kTextFileLimit = std::size_t{256} << 20;

// Why `path` cannot be read as a text file of at most `limit` bytes, naming it as `what`
// ("deck", "--wisdom"); "" when it can. `missing_ok`: a path that does not exist is not a
// problem (the caller treats it as absent).
inline std::string text_file_problem(const std::string& path, const std::string& what,
                                     std::size_t limit = kTextFileLimit, bool missing_ok = false) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT && missing_ok) return {};
    return "cannot read " + what + " '" + path + "': " + std::strerror(errno);
  }
  if (S_ISDIR(st.st_mode)) return what + " '" + path + "' is a directory, not a file";
  if (!S_ISREG(st.st_mode)) {
    const char* kind = S_ISFIFO(st.st_mode)   ? "a FIFO"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    return what + " '" + path + "' is " + kind + "; a2a reads regular files only";
  }
  if (static_cast<unsigned long long>(st.st_size) > limit) {
    return what + " '" + path + "' has " + std::to_string(st.st_size) +
           " bytes; a2a reads at most " + std::to_string(limit) + " from such a file";
  }
  return {};
}

// The whole of `path`, a regular file of at most `limit` bytes; std::nullopt when it does not
// exist and `missing_ok`. Throws a2a::Error naming `what` otherwise (text_file_problem's
// message, or the read's error). Opened without blocking and checked again on the open file,
// so a path swapped for a FIFO between the two checks cannot block it either.
inline std::optional<std::string> read_text_file(const std::string& path, const std::string& what,
                                                 std::size_t limit = kTextFileLimit,
                                                 bool missing_ok = false) {
  if (std::string problem = text_file_problem(path, what, limit, missing_ok); !problem.empty()) {
    throw Error(problem);
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT && missing_ok) return std::nullopt;
    throw Error("cannot read " + what + " '" + path + "': " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(what + " '" + path + "' is not a regular file; a2a reads regular files only");
  }
  std::string text;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw Error(what + " '" + path + "': " + why);
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > limit) {
      ::close(fd);
      throw Error(what + " '" + path + "' grew past " + std::to_string(limit) +
                  " bytes while being read");
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace a2a
