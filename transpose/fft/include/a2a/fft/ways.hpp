// The ways of running the local transforms that a2a chose by timing at plan time (columns.hpp's
// panels or strided plan, planes.hpp's plane ways), remembered as FFTW remembers its measured
// plans: process-wide, and kept with the wisdom file (FILE.ways beside FILE, wisdom.hpp), so
// that every launch on the same machine with the same wisdom runs the ways of the first one
// that timed them, instead of timing them again under whatever load it meets. A key names
// everything a choice depends on (the grid, the process grid, the transform, the precision,
// the planner, the stage); a value is the way's name. One line per choice: "key = way".
#pragma once

#include <optional>
#include <string>

namespace a2a::fft::ways {

// The remembered way for key, if any.
std::optional<std::string> recall(const std::string& key);
// Every rank of the plan's communicator remembers the same choice (the trials agree).
void remember(const std::string& key, const std::string& way);
// The store as text, its lines sorted; and text added to it (a line that is not "key = way"
// is skipped; a key already remembered keeps its way).
std::string export_text();
void import_text(const std::string& text);
void forget_all();  // the tests
// FFTW's planner in `fftw_flags` as a key's word: "estimate", "measure", "patient" or
// "exhaustive" (wisdom-only runs MEASURE's plans: "measure").
std::string planner_name(unsigned fftw_flags);

}  // namespace a2a::fft::ways
