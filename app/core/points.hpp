// Problem sizes that may be written relative to the number of ranks, as the papers do
// (configurable-alltoall Fig. 13: N = P^2 and N = 64 P^2 points): "1048576", "2^20", "P^2",
// "64P^2", "64*P^2", "16P". Every step is overflow-checked.
#pragma once

#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>

#include "a2a/error.hpp"

namespace a2a::app {

// The value of TEXT for PROCS ranks, in [1, max]; throws a2a::Error naming `what`.
inline std::int64_t parse_points(const std::string& text, int procs, std::int64_t max,
                                 const std::string& what) {
  const auto fail = [&](const std::string& why) -> std::int64_t {
    throw Error(what + " '" + text + "': " + why);
  };
  const char* p = text.data();
  const char* const end = text.data() + text.size();
  const auto skip_spaces = [&] {
    while (p != end && std::isspace(static_cast<unsigned char>(*p)))
      ++p;
  };
  const auto read_integer = [&](std::int64_t& value) {
    const auto [next, ec] = std::from_chars(p, end, value);
    if (ec == std::errc::result_out_of_range) fail("too large");
    if (ec != std::errc() || value < 0) return false;
    p = next;
    return true;
  };
  const auto power = [&](std::int64_t base, std::int64_t exponent) {
    std::int64_t result = 1;
    for (std::int64_t i = 0; i < exponent; ++i) {
      if (__builtin_mul_overflow(result, base, &result)) fail("too large");
    }
    return result;
  };
  const char* const syntax = "expected N, B^E, P^E, C*P^E or CP^E (C, B, E integers, P the ranks)";
  skip_spaces();
  std::int64_t coefficient = 1, value = 0;
  bool has_coefficient = read_integer(coefficient);
  skip_spaces();
  if (has_coefficient && p != end && *p == '^') {  // B^E
    ++p;
    std::int64_t exponent = 0;
    if (!read_integer(exponent)) fail(syntax);
    if (exponent > 1000) fail("too large");
    value = power(coefficient, exponent);
  } else {
    if (p != end && *p == '*') {
      if (!has_coefficient) fail(syntax);
      ++p;
      skip_spaces();
    }
    if (p != end && (*p == 'P' || *p == 'p')) {  // [C][*]P[^E]
      ++p;
      std::int64_t exponent = 1;
      if (p != end && *p == '^') {
        ++p;
        if (!read_integer(exponent)) fail(syntax);
        if (exponent > 1000) fail("too large");
      }
      if (__builtin_mul_overflow(coefficient, power(procs, exponent), &value)) fail("too large");
    } else if (has_coefficient) {
      value = coefficient;
    } else {
      fail(syntax);
    }
  }
  skip_spaces();
  if (p != end) fail(syntax);
  if (value < 1 || value > max) {
    fail("is " + std::to_string(value) + " (for P = " + std::to_string(procs) + "), outside [1, " +
         std::to_string(max) + "]");
  }
  return value;
}

}  // namespace a2a::app
