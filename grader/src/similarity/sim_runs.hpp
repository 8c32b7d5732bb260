#pragma once
// The output of similarity-tester (sim_c++, sim_text) run with -n -e: one line per
// run of matching tokens, "a.cu: line 13-131 |b.cu: line 13-131 [1102]", after a header
// of "File x: N tokens, M lines" lines. Anything else is an error: a silent misreading
// would hide a copy or accuse an honest student.
#include <string>
#include <string_view>
#include <vector>

namespace parlab::grader::similarity {

struct SimRun {
  std::string file_a;
  int a_first = 0, a_last = 0;  // lines, 1-based, inclusive
  std::string file_b;
  int b_first = 0, b_last = 0;
  int tokens = 0;
};

// Throws EnvironmentError naming the line it could not read.
std::vector<SimRun> parse_sim_runs(std::string_view output);

}  // namespace parlab::grader::similarity
