#include "core/files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "a2a/error.hpp"

namespace a2a::app {
namespace {

// Paths for the signal handler: fixed buffers (no allocation in it), each published by a flag
// set after its text is written and cleared before it changes.
struct SignalPath {
  char text[4096] = {};
  volatile std::sig_atomic_t set = 0;
  void publish(const std::string& path) {
    set = 0;
    const std::size_t n = std::min(path.size(), sizeof text - 1);
    std::memcpy(text, path.data(), n);
    text[n] = '\0';
    set = n == path.size();  // a path too long to hold is not removed (never a wrong one)
  }
};
SignalPath g_partial;      // replace_file's temporary file, while it is written
SignalPath g_locks[4];     // the lock files held (a run holds one or two)
SignalPath g_messages[2];  // the message, double-buffered
volatile std::sig_atomic_t g_message = -1;
std::atomic<bool> g_handler_installed{false};

void on_signal(int sig) {
  if (g_partial.set) ::unlink(g_partial.text);
  for (const SignalPath& lock : g_locks) {
    if (lock.set) ::unlink(lock.text);
  }
  const int m = g_message;
  if (m >= 0 && g_messages[m].set) {
    [[maybe_unused]] const ssize_t n =
        ::write(2, g_messages[m].text, std::strlen(g_messages[m].text));
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_handler() {
  if (g_handler_installed.exchange(true)) return;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP})
    std::signal(sig, on_signal);
}

}  // namespace

void on_signal_say(const std::string& message) {
  const int next = g_message == 0 ? 1 : 0;
  g_messages[next].publish(message);
  g_message = next;
  install_handler();
}

void replace_file(const std::string& path, const char* data, std::size_t size, const char* what) {
  static std::atomic<unsigned> serial{0};
  const std::string part =
      path + ".part." + std::to_string(::getpid()) + "." + std::to_string(serial.fetch_add(1));
  auto fail = [&](const char* step) {
    const std::string reason = std::strerror(errno);
    ::unlink(part.c_str());
    throw Error(std::string("cannot write ") + what + " '" + path + "' (" + step + " " + part +
                    ": " + reason + ")",
                ErrorKind::resource);
  };
  g_partial.publish(part);  // a signal from here on removes it
  struct Unpublish {
    ~Unpublish() { g_partial.set = 0; }
  } unpublish;
  const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) fail("open");
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      ::close(fd);
      fail("write");
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL) {
    ::close(fd);
    fail("fsync");
  }
  if (::close(fd) != 0) fail("close");
  if (::rename(part.c_str(), path.c_str()) != 0) fail("rename");
}

OutputLock::OutputLock(const std::string& path) : lock_path_(path + ".lock") {
  // Locked, and still the file at that path (a releasing holder may have removed it between
  // our open and our lock): else try again with the new one.
  for (int attempt = 0; attempt < 100; ++attempt) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw Error("cannot create the lock file '" + lock_path_ + "': " + std::strerror(errno),
                  ErrorKind::resource);
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int why = errno;
      ::close(fd_);
      fd_ = -1;
      if (why == EWOULDBLOCK) {
        throw Error("'" + path + "' is being written by another a2a run (it holds " + lock_path_ +
                    "); wait for it or choose another output");
      }
      throw Error("cannot lock '" + lock_path_ + "': " + std::strerror(why), ErrorKind::resource);
    }
    struct stat held {
    }, named{};
    if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 &&
        held.st_ino == named.st_ino && held.st_dev == named.st_dev) {
      for (SignalPath& slot : g_locks) {
        if (!slot.set) {
          slot.publish(lock_path_);
          install_handler();
          break;
        }
      }
      return;
    }
    ::close(fd_);
    fd_ = -1;
  }
  throw Error("cannot lock '" + lock_path_ + "': it keeps being replaced", ErrorKind::resource);
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  for (SignalPath& slot : g_locks) {
    if (slot.set && lock_path_ == slot.text) slot.set = 0;
  }
  ::unlink(lock_path_.c_str());  // while still held: a waiting run then locks a new file
  ::close(fd_);
}

}  // namespace a2a::app
