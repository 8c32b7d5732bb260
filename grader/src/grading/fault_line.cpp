#include "grading/fault_line.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include "util/program_on_path.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

constexpr std::size_t kAddr2lineOutputCap = 64 * 1024;

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// True when the regular file `path` has at least `line` lines (read up to there only).
bool has_line(const fs::path& path, unsigned long line) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec)) || ec) return false;
  std::ifstream in(path);
  std::string text;
  unsigned long count = 0;
  while (count < line && std::getline(in, text)) ++count;
  return count == line;
}

std::string hex(std::uint64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

}  // namespace

std::string student_place(const std::string& addr2line_output, const fs::path& stage) {
  const std::string root = stage.lexically_normal().string() + "/";
  std::istringstream lines(addr2line_output);
  std::string line;
  while (std::getline(lines, line)) {
    if (const std::size_t note = line.find(" ("); note != std::string::npos) line.resize(note);
    const std::size_t colon = line.rfind(':');
    if (colon == std::string::npos) continue;
    const std::string number = line.substr(colon + 1);
    if (!all_digits(number) || std::strtoul(number.c_str(), nullptr, 10) == 0) continue;
    const std::string file = fs::path(line.substr(0, colon)).lexically_normal().string();
    if (file.compare(0, root.size(), root) != 0) continue;  // not the submission's
    std::string relative = file.substr(root.size());
    if (relative.empty() || relative.rfind("..", 0) == 0) continue;
    if (relative.rfind("sim/", 0) == 0) {
      // A rewritten copy, stage/sim/matmul.cu.cpp: all its lines but the first two are
      // the original's (`#line 1 "<stage>/matmul.cu"`), and g++'s DWARF 5 line table
      // says so (file 1), but binutils 2.40's addr2line names file 1 with the copy's
      // own name (file 0) when the code is not inlined. The line is the original's,
      // where it has that line.
      constexpr std::string_view kCopy = ".cu.cpp";
      if (relative.size() <= 4 + kCopy.size() ||
          relative.compare(relative.size() - kCopy.size(), kCopy.size(), kCopy) != 0) {
        continue;
      }
      relative = relative.substr(4, relative.size() - 4 - kCopy.size() + 3);  // "matmul.cu"
      if (!has_line(stage / relative, std::strtoul(number.c_str(), nullptr, 10))) continue;
    }
    return relative + ":" + number;
  }
  return {};
}

std::string with_fault_place(const std::string& message, const std::string& place) {
  if (place.empty()) return message;
  constexpr std::string_view kInKernel = " in a kernel";
  if (const std::size_t at = message.find(kInKernel); at != std::string::npos) {
    std::string out = message;
    out.insert(at + kInKernel.size(), " at " + place);
    return out;
  }
  // "host code read device memory: ..." names its place as a kernel's fault does.
  if (message.rfind("host code ", 0) == 0) {
    if (const std::size_t colon = message.find(':'); colon != std::string::npos) {
      std::string out = message;
      out.insert(colon, " at " + place);
      return out;
    }
  }
  std::size_t end = message.find_first_of(":(");
  if (end == std::string::npos) end = message.size();
  if (end > 0 && message[end - 1] == ' ') --end;
  std::string out = message;
  out.insert(end, " (at " + place + ")");
  return out;
}

std::string fault_place_of(GradingContext& ctx, const fs::path& program,
                           std::uint64_t code_offset, const std::string& run_name) {
  std::error_code ec;
  const std::uint64_t bytes = fs::file_size(program, ec);
  if (ec || code_offset == 0 || code_offset >= bytes) return {};
  const std::optional<fs::path> tool = program_on_path("addr2line");  // binutils, beside g++
  if (!tool) return {};
  RunRequest req;
  req.executable = *tool;
  req.args = {"-i", "-e", program.string(), hex(code_offset)};
  req.work_dir = ctx.runs_root() / (run_name + "-fault-line");
  req.env = {{"PATH", "/usr/bin:/bin"}, {"LANG", "C"}, {"LC_ALL", "C"}};
  req.limits.wall_seconds = 30;
  req.limits.cpu_seconds = 30;
  req.limits.output_bytes = kAddr2lineOutputCap;
  req.view.read_only = {program.parent_path()};
  req.view.read_write = {req.work_dir};
  fs::create_directories(req.work_dir);
  const RunResult run = ctx.runner.run(req);
  fs::remove_all(req.work_dir, ec);
  if (run.outcome != RunOutcome::ok) return {};
  return student_place(run.stdout_text, program.parent_path().parent_path() / "src");
}

void add_fault_place(GradingContext& ctx, const TaskRun& run, TestResult& r) {
  if (run.ok() || ctx.executable.empty() || !run.stop) return;
  const std::string place = fault_place_of(ctx, ctx.executable, run.stop->code_offset, run.run_name);
  r.message = with_fault_place(r.message, place);
}

}  // namespace parlab::grader
