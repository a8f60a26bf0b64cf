// Check counting for the tests that run without MPI.
#pragma once

#include <cstdio>
#include <string>

namespace a2a::test {

class SerialChecks {
 public:
  explicit SerialChecks(const char* name) : name_(name) {}
  void operator()(bool ok, const std::string& what) {
    ++checks_;
    if (!ok && ++failures_ <= 25) std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  }
  // Prints "<name>: N passed, N failed"; returns the exit code.
  int finish() const {
    std::printf("%s: %llu passed, %llu failed\n", name_, checks_ - failures_, failures_);
    return failures_ == 0 ? 0 : 1;
  }

 private:
  const char* name_;
  unsigned long long checks_ = 0, failures_ = 0;
};

}  // namespace a2a::test
