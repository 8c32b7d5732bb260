// Reads sim's -n output with a regular expression per line kind (sim_runs.hpp).
// sim_text counts words where sim_c++ counts tokens.
#include "similarity/sim_runs.hpp"

#include <regex>
#include <sstream>

#include "core/errors.hpp"

namespace parlab::grader::similarity {

std::vector<SimRun> parse_sim_runs(std::string_view output) {
  static const std::regex file_line(R"(^File (.+): (\d+ (tokens|words), \d+ lines|new/old separator)$)");
  static const std::regex total_line(R"(^Total input: \d+ files \(\d+ new, \d+ old\), \d+ (tokens|words)$)");
  static const std::regex run_line(
      R"(^(.+): line (\d+)-(\d+)\s*\|(.+): line (\d+)-(\d+)\s*\[(\d+)\]$)");
  std::vector<SimRun> runs;
  std::istringstream in{std::string(output)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::smatch m;
    if (line.empty() || std::regex_match(line, file_line) || std::regex_match(line, total_line)) continue;
    if (!std::regex_match(line, m, run_line)) {
      throw EnvironmentError("similarity-tester output line " + std::to_string(number) +
                      " is not a file, total or run line: \"" + line.substr(0, 200) + "\"");
    }
    SimRun r;
    r.file_a = m[1];
    r.a_first = std::stoi(m[2]);
    r.a_last = std::stoi(m[3]);
    r.file_b = m[4];
    r.b_first = std::stoi(m[5]);
    r.b_last = std::stoi(m[6]);
    r.tokens = std::stoi(m[7]);
    // Trailing padding of the two-column layout is part of the first name's match.
    while (!r.file_a.empty() && r.file_a.back() == ' ') r.file_a.pop_back();
    if (r.a_first > r.a_last || r.b_first > r.b_last) {
      throw EnvironmentError("similarity-tester output line " + std::to_string(number) + " has a backwards line range");
    }
    runs.push_back(std::move(r));
  }
  return runs;
}

}  // namespace parlab::grader::similarity
