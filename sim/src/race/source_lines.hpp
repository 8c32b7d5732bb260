#pragma once
// Code address -> "file:line" of the student's source, for race reports: addr2line
// on the running executable (built with -g1 in the check build). Inlined frames of
// the simulator's and the standard library's headers are skipped, so the line is the
// student's. Slow (a process per new address) but only run for a new report.
#include <string>
#include <vector>

namespace parlab_sim::detail {

// "lab.cu:42", or "an unknown line" when the executable has no line information or
// addr2line is missing.
std::string source_line_of(const void* code_address);

// Where each code address is, for the divergence counter (one addr2line run for all of
// them; answers cached): `library` when the innermost frame of the address is in the
// simulator's or the standard library's headers (their branches are not the student's:
// a GPU has no such code), `line` the student's line as source_line_of gives it.
struct CodeLocation {
  bool library = false;
  std::string line;
};
std::vector<CodeLocation> code_locations_of(const std::vector<const void*>& code_addresses);

// True for a file of the simulator's headers or the standard library's.
bool is_library_file(const std::string& file);

}  // namespace parlab_sim::detail
