#pragma once
// Code address -> "file:line" of the student's source, for race reports: addr2line
// on the running executable (built with -g1 in the check build). Inlined frames of
// the simulator's and the standard library's headers are skipped, so the line is the
// student's. Slow (a process per new address) but only run for a new report.
#include <string>

namespace parlab_sim::detail {

// "lab.cu:42", or "an unknown line" when the executable has no line information or
// addr2line is missing.
std::string source_line_of(const void* code_address);

}  // namespace parlab_sim::detail
