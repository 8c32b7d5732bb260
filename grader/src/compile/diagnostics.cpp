#include "compile/diagnostics.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace parlab::grader {

std::string map_paths(std::string log, const std::filesystem::path& staged_dir,
                      const std::filesystem::path& submission_dir) {
  const std::string from = staged_dir.string() + "/";
  const std::string to = submission_dir.string() + "/";
  for (std::size_t pos = 0; (pos = log.find(from, pos)) != std::string::npos; pos += to.size()) {
    log.replace(pos, from.size(), to);
  }
  return log;
}

std::vector<Diagnostic> parse_gcc_diagnostics(const std::string& log,
                                              const std::filesystem::path& staged_dir,
                                              const std::filesystem::path& submission_dir) {
  // file:line:col: severity: message   (gcc and clang both print this shape)
  static const std::regex line_re(R"(^(.+?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$)");
  // file(line): severity: message       (nvcc's front end, for device code)
  static const std::regex nvcc_re(R"(^(.+?)\((\d+)\): (catastrophic error|error|warning|note)(?: #\S+)?: (.*)$)");
  // GNU ld, whose errors a student meets as often as the compiler's (a function declared
  // but never written, or defined in two files): "[ld: ]file:line: undefined reference
  // to `f'", or "file:(.text+0x1c): ..." where the object has no line table.
  static const std::regex ld_re(
      R"(^(?:\S*ld: )?(.+?):(?:(\d+)|\([^)]*\)): ((?:undefined reference to|multiple definition of) .*)$)");
  // nvcc's front end on an error it finds at the end of the file (a missing "}"), with
  // no file named: the note after it names the file.
  static const std::regex nvcc_end_re(R"(^At end of source: (catastrophic error|error|warning)(?: #\S+)?: (.*)$)");
  std::vector<Diagnostic> out;
  std::istringstream in(map_paths(log, staged_dir, submission_dir));
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    Diagnostic d;
    if (std::regex_match(line, m, line_re)) {
      d.file = m[1];
      d.line = std::stoi(m[2]);
      d.column = std::stoi(m[3]);
      d.severity = m[4] == "fatal error" ? "error" : std::string(m[4]);
      d.message = m[5];
    } else if (std::regex_match(line, m, nvcc_re)) {
      d.file = m[1];
      d.line = std::stoi(m[2]);
      d.severity = m[3] == "catastrophic error" ? "error" : std::string(m[3]);
      d.message = m[4];
    } else if (std::regex_match(line, m, nvcc_end_re)) {
      d.severity = m[1] == "catastrophic error" ? "error" : std::string(m[1]);
      d.message = "at the end of the file: " + std::string(m[2]);
    } else if (std::regex_match(line, m, ld_re)) {
      d.file = m[1];
      d.line = m[2].matched ? std::stoi(m[2]) : 0;
      d.severity = "error";
      d.message = m[3];
    } else {
      continue;
    }
    // The linker reports a missing function once per call site: said once is enough.
    const bool repeated = std::any_of(out.begin(), out.end(), [&](const Diagnostic& e) {
      return e.file == d.file && e.line == d.line && e.column == d.column &&
             e.severity == d.severity && e.message == d.message;
    });
    if (!repeated) out.push_back(std::move(d));
  }
  // A diagnostic without a file takes the next one's (else the one before it).
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!out[i].file.empty()) continue;
    for (std::size_t j = i + 1; j < out.size() && out[i].file.empty(); ++j) out[i].file = out[j].file;
    for (std::size_t j = i; j-- > 0 && out[i].file.empty();) out[i].file = out[j].file;
  }
  return out;
}

}  // namespace parlab::grader
