#pragma once
// NVIDIA compute-sanitizer's text report (memcheck, racecheck, synccheck, initcheck),
// read into findings worded like the simulator's (docs/simulation.md, "Findings"), so a
// bug reads the same whichever machine graded it. Pure: text in, findings out.
//
// The text comes from the submission's process tree, so it decides nothing on its own:
// the verdict is compute-sanitizer's exit code (--error-exitcode), which the submission
// cannot set; these findings only say what and where (docs/gpu.md, "Correctness under
// compute-sanitizer").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parlab::grader {

struct SanitizerFinding {
  // out_of_bounds | misaligned | shared_race | divergent_barrier | uninitialized_read |
  // api_error | other
  std::string kind;
  bool error = true;       // racecheck's warnings are not errors
  std::string kernel;      // as the report names it ("vector_add(const float *, ...)")
  std::string file;        // the source file's name (no folder), empty when not reported
  int line = 0;
  std::string other_file;  // a race's second access
  int other_line = 0;
  std::string thread;      // "(3,0,0)", empty when not reported
  std::string block;
  std::string message;     // the simulator's words, with file:line
};

struct SanitizerReport {
  std::vector<SanitizerFinding> findings;
  std::optional<long> error_summary;  // "ERROR SUMMARY: N errors", when present
};

SanitizerReport parse_sanitizer_report(std::string_view text);

}  // namespace parlab::grader
