// How deeply the arrays and tables of a JSON or TOML text nest, found by one scan before the
// text reaches a parser that recurses once per level (nlohmann::json, toml11): a file of
// 100,000 nested brackets would otherwise overflow the stack instead of being refused. Used
// for every file from outside: selection tables, decks, tuning tables, benchmark records.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace a2a {

// The deepest nesting of [ ] and { } outside strings (and, for TOML, comments), and the line
// where it first goes past `limit` (0 if it never does).
struct Nesting {
  std::size_t depth = 0;
  std::size_t line_past_limit = 0;
};

inline Nesting nesting(std::string_view text, bool toml, std::size_t limit) {
  Nesting out;
  std::size_t depth = 0, line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (toml && c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '"' || (toml && c == '\'')) {
      // A string: basic ("..." with escapes), literal ('...'), or TOML's multi-line forms.
      const bool triple = toml && text.substr(i, 3) == std::string(3, c);
      const std::string end = triple ? std::string(3, c) : std::string(1, c);
      i += end.size();
      while (i < text.size() && text.substr(i, end.size()) != end) {
        if (text[i] == '\\' && c == '"') ++i;
        if (i < text.size() && text[i] == '\n') ++line;
        ++i;
      }
      i += end.size() - 1;
    } else if (c == '[' || c == '{') {
      if (++depth > out.depth) out.depth = depth;
      if (depth > limit && out.line_past_limit == 0) out.line_past_limit = line;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return out;
}

// The deepest nesting a2a accepts in the files it reads: far beyond any real table or deck.
inline constexpr std::size_t kMaxNesting = 64;

// "" if `text` nests no deeper than kMaxNesting, else why it is refused (naming `what` and
// the line).
inline std::string nesting_problem(std::string_view text, bool toml, const std::string& what) {
  const Nesting n = nesting(text, toml, kMaxNesting);
  if (n.line_past_limit == 0) return {};
  return what + ", line " + std::to_string(n.line_past_limit) + ": arrays or tables nest " +
         std::to_string(n.depth) + " deep; at most " + std::to_string(kMaxNesting) +
         " levels are accepted";
}

}  // namespace a2a
