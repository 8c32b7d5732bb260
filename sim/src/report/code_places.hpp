#pragma once
// Where each hook call of a check build lies in the sources, worked out once per program
// by parlab-sim-code-places (sim/tools/code_places_tool.cpp), outside the program: the
// grader runs it after the build and hands the table to every run of that program in its
// settings (PARLAB_SIM_CODE_PLACES). A run then names a race's lines and tells the
// student's code blocks from the simulator's by looking them up, where it used to start
// addr2line at nearly every launch. An address the table does not hold (another object,
// a hook reached some other way, no table given) is still looked up with addr2line
// (report/source_lines).
//
// The table also holds the stretches of functions that have no line information at all
// (the simulator's own code, built without -g): an address there is the simulator's,
// whatever it is (a hook tail-called at a kernel's end records its caller's return
// address, in the simulator's lane start).
//
// The table's text format is defined once, for the runtime and the grader, in
// parlab_sim/code_places_table.hpp.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parlab_sim/code_places_table.hpp"
#include "report/source_lines.hpp"

namespace parlab_sim::detail {

struct CodePlace {
  std::uint64_t offset = 0;
  std::uint64_t end = 0;  // past the stretch it starts; 0: the one instruction at `offset`
  CodeLocation location;  // its line as addr2line gave it (see above)
};

// The table's text; a line holding ';' or a line break has them replaced by '?'.
std::string encode_code_places(const std::vector<CodePlace>& places);

// The entries of `text`, sorted by offset; a malformed entry (a stretch that ends before
// it starts included) is left out (its addresses fall back to addr2line), never half-read.
std::vector<CodePlace> decode_code_places(std::string_view text);

// The run's table, from its settings, at start-up before any code of the submission runs.
void load_code_places(std::string_view text);

// The entry for `offset` in the executable's image: the instruction's own, else a stretch
// holding it; nullptr when the table has neither.
const CodePlace* known_code_place(std::uint64_t offset);

}  // namespace parlab_sim::detail
