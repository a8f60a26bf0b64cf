// The selection table that `auto` and `random_auto` read (table=, A2A_TUNING) and `a2a tune`
// writes: its one reader, so that every program refuses a bad table with the same words.
#pragma once

#include <string>

namespace a2a {

// What a table argument names in messages: "built-in table" or the file's path.
std::string selection_table_origin(const std::string& table);
// The text of table `table` ("builtin": the table built into the library, else a file),
// checked to be a JSON object that nests no deeper than a2a accepts. Throws SpecError naming
// the origin and the fault.
std::string selection_table_text(const std::string& table);
// A2A_TUNING (the one variable that names a selection table), or "" where unset or empty.
std::string selection_table_from_environment();

}  // namespace a2a
