#include "grading/sanitizer_report.hpp"

#include <regex>

namespace parlab::grader {
namespace {

// Every line compute-sanitizer writes starts with this; the program's own output does not.
constexpr std::string_view kPrefix = "=========";

std::string basename_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct Location {
  std::string kernel, file;
  int line = 0;
};

// "kernel(args)+0xb0 in /stage/kernels.cu:28" (compute-sanitizer), or
// "0x00000170 in ./race.cu:4:test(int*, int*)" (older releases), or without -lineinfo
// "kernel(args)+0x4bd0" / "0x3b0 in void kernel(args)".
Location parse_location(const std::string& where) {
  static const std::regex file_line(R"( in (\S+):(\d+)(?::(.*))?$)");
  static const std::regex hazard_count(R"(\s*\[\d+ hazards?\]\s*$)");  // racecheck's, at the end
  const std::string text = std::regex_replace(where, hazard_count, "");
  Location loc;
  std::smatch m;
  std::string rest = text;
  if (std::regex_search(text, m, file_line)) {
    loc.file = basename_of(m[1].str());
    loc.line = std::stoi(m[2].str());
    if (m[3].matched) loc.kernel = m[3].str();
    rest = m.prefix().str();
  }
  if (loc.kernel.empty()) {
    if (const auto plus = rest.rfind("+0x"); plus != std::string::npos) {
      loc.kernel = rest.substr(0, plus);
    } else if (const auto in = rest.find(" in "); in != std::string::npos) {
      loc.kernel = rest.substr(in + 4);
    }
  }
  if (loc.kernel.rfind("void ", 0) == 0) loc.kernel = loc.kernel.substr(5);
  return loc;
}

std::string at(const std::string& file, int line) {
  return file.empty() ? "" : " at " + file + ":" + std::to_string(line);
}

std::string in_kernel(const SanitizerFinding& f) {
  std::string s = f.kernel.empty() ? "" : " in kernel " + f.kernel;
  if (!f.block.empty()) s += ", block " + f.block;
  if (!f.thread.empty()) s += ", thread " + f.thread;
  return s;
}

// What a finding's record said beyond its kind, gathered while reading it.
struct Details {
  std::string access;  // read | write | atomic
  std::string space;   // __global__ | __shared__ | __local__
  std::string bounds;  // "12 bytes past the end of a device allocation of 4000 bytes"
  std::string first_access, second_access;  // racecheck: Read | Write
  std::string hazards;
  std::string detail;  // synccheck's / the API error's own words
};

// Two writes on one line are threads updating one element; two writes on different lines
// are two statements whose order nothing fixes, which an atomic would not mend.
std::string race_advice(const SanitizerFinding& f, const Details& d) {
  if (d.first_access == "Write" && d.second_access == "Write") {
    if (f.file == f.other_file && f.line == f.other_line)
      return "Several threads write it on one line: make the update atomic (atomicAdd, ...) or "
             "give each thread its own element.";
    return "Two different writes with nothing ordering them: put a __syncthreads() between "
           "them, or let one thread write the element.";
  }
  return "Put a __syncthreads() between the write and the read.";
}

std::string message_of(const SanitizerFinding& f, const Details& d) {
  if (f.kind == "out_of_bounds" || f.kind == "misaligned") {
    const std::string what = d.space == "__shared__" ? "shared memory" : d.space == "__local__" ? "local memory" : "device memory";
    std::string m = "invalid memory " + (d.access.empty() ? std::string("access") : d.access) + in_kernel(f) +
                    at(f.file, f.line) + ": " +
                    (f.kind == "misaligned" ? "misaligned access to " + what
                                            : "out-of-bounds access to " + what);
    if (!d.bounds.empty()) m += ": the address is " + d.bounds;
    return m + " (compute-sanitizer memcheck; the GPU ran on without an error, the simulator stops here)";
  }
  if (f.kind == "shared_race") {
    const auto lower = [](std::string s) {
      if (!s.empty()) s[0] = static_cast<char>(s[0] - 'A' + 'a');
      return s;
    };
    return std::string(f.error ? "data race" : "possible data race (a warning)") + " on shared memory" +
           (f.kernel.empty() ? "" : " in kernel " + f.kernel) + ": a " + lower(d.first_access) +
           at(f.file, f.line) + " and a " + lower(d.second_access) + at(f.other_file, f.other_line) +
           ", with no barrier between them" + (d.hazards.empty() ? "" : " (" + d.hazards + ")") +
           " (compute-sanitizer racecheck). On a GPU these threads run at the same time, so the "
           "result depends on their timing. " + race_advice(f, d);
  }
  if (f.kind == "divergent_barrier") {
    return "barrier in divergent code" + in_kernel(f) + at(f.file, f.line) +
           ": not every thread of the " + (d.detail.find("warp") != std::string::npos ? "warp" : "block") +
           " reached this barrier (compute-sanitizer synccheck: " + d.detail +
           "). All threads of a block must reach the same __syncthreads(); keep every thread "
           "running through the barriers and guard the work instead of returning early.";
  }
  if (f.kind == "uninitialized_read") {
    return "read of uninitialized device memory" + in_kernel(f) + at(f.file, f.line) +
           ": the kernel read global memory that nothing wrote or copied (compute-sanitizer initcheck)";
  }
  if (f.kind == "uninitialized_copy") {
    return "a CUDA call (" + d.detail + ") copied " + d.bounds +
           " of device memory that nothing wrote or copied (compute-sanitizer initcheck): copy only "
           "what your kernels wrote, or set the memory first";
  }
  if (f.kind == "host_api_access") {
    return "a CUDA call accessed " + d.bounds + " of memory it should not (compute-sanitizer" +
           (d.detail.empty() ? std::string(")") : ": " + d.detail + ")");
  }
  if (f.kind == "api_error") return "a CUDA call failed under compute-sanitizer: " + d.detail;
  return "compute-sanitizer: " + d.detail + in_kernel(f) + at(f.file, f.line);
}

// The patterns of compute-sanitizer's records (their lines, the prefix removed).
struct Patterns {
  std::regex memcheck{R"(^Invalid (__global__|__shared__|__local__|__generic__)? ?(read|write|atomic)\b.*)"};
  std::regex race{R"(^(Error|ERROR|Warning|WARNING|WARN): Race reported between (Read|Write) access at ?(.*)$)"};
  std::regex race_other{R"(^and (Read|Write) access at ?(.*)$)"};
  std::regex hazards{R"(\[(\d+) hazards?\])"};
  std::regex barrier{R"(^Barrier error detected\.? ?(.*)$)"};
  std::regex uninit{R"(^Uninitialized __global__ memory read\b.*)"};
  // A copy or set by the runtime (initcheck: "... on access by cudaMemcpy source" follows).
  std::regex host_api{R"(^Host API memory access error at host access to \S+ of size (\d+) bytes?.*)"};
  std::regex uninit_by{R"(^Uninitialized access at \S+ on access by (\w+)(?: (source|destination))?.*)"};
  std::regex api{R"(^Program hit (\w+) \(error \d+\) due to \"([^\"]*)\" on CUDA API call to (\w+).*)"};
  std::regex summary{R"(^ERROR SUMMARY: (\d+) errors?)"};
  std::regex by_thread{R"(^by thread (\(\d+,\d+,\d+\)) in block (\(\d+,\d+,\d+\)))"};
  std::regex nearest{R"(^and is (\d+) bytes? (after|before) the nearest allocation at \S+ of size (\d+) bytes?)"};
};

const Patterns& patterns() {
  static const Patterns p;
  return p;
}

// Reads the report line by line: a line starts a record (a finding, or the summary) or
// adds to the finding before it.
class ReportParser {
 public:
  void line(const std::string& line) {
    if (!starts_record(line) && !report_.findings.empty()) continues_record(line);
  }

  SanitizerReport finish() {
    for (std::size_t i = 0; i < report_.findings.size(); ++i) {
      report_.findings[i].message = message_of(report_.findings[i], details_[i]);
    }
    return std::move(report_);
  }

 private:
  // Racecheck may put an access's location on the line after "... access at".
  enum class Want { nothing, first_access, second_access };

  void start(const std::string& kind) {
    report_.findings.push_back({});
    report_.findings.back().kind = kind;
    details_.push_back({});
    want_ = Want::nothing;
  }

  void set_location(const std::string& where, bool second) {
    SanitizerFinding* f = &report_.findings.back();
    const Location loc = parse_location(where);
    if (f->kernel.empty()) f->kernel = loc.kernel;
    (second ? f->other_file : f->file) = loc.file;
    (second ? f->other_line : f->line) = loc.line;
  }

  bool starts_record(const std::string& line) {
    const Patterns& p = patterns();
    std::smatch m;
    if (std::regex_match(line, m, p.summary)) {
      report_.error_summary = std::stol(m[1].str());
    } else if (std::regex_match(line, m, p.memcheck)) {
      start("out_of_bounds");
      details_.back().space = m[1].str();
      details_.back().access = m[2].str();
    } else if (std::regex_match(line, m, p.race)) {
      start("shared_race");
      report_.findings.back().error = m[1].str()[0] == 'E';
      details_.back().first_access = m[2].str();
      if (m[3].length() > 0) set_location(m[3].str(), false);
      else want_ = Want::first_access;
    } else if (std::regex_match(line, m, p.barrier)) {
      start("divergent_barrier");
      details_.back().detail = m[1].str();
    } else if (std::regex_match(line, m, p.uninit)) {
      start("uninitialized_read");
    } else if (std::regex_match(line, m, p.host_api)) {
      start("host_api_access");
      details_.back().bounds = m[1].str() + " bytes";
    } else if (std::regex_match(line, m, p.api)) {
      start("api_error");
      details_.back().detail = m[3].str() + " returned " + m[1].str() + " (" + m[2].str() + ")";
    } else {
      return false;  // the banner, a record this parser does not know, or more of one
    }
    return true;
  }

  void continues_record(const std::string& line) {
    const Patterns& p = patterns();
    std::smatch m;
    SanitizerFinding* f = &report_.findings.back();
    Details* d = &details_.back();
    if (std::regex_match(line, m, p.race_other) && f->kind == "shared_race") {
      if (d->second_access.empty()) {
        d->second_access = m[1].str();
        if (m[2].length() > 0) set_location(m[2].str(), true);
        else want_ = Want::second_access;
      }
      if (std::regex_search(line, m, p.hazards) && d->hazards.empty()) d->hazards = m[1].str() + " hazards";
    } else if (std::regex_search(line, m, p.hazards) && f->kind == "shared_race") {
      if (d->hazards.empty()) d->hazards = m[1].str() + " hazards";
    } else if (want_ != Want::nothing) {
      set_location(line, want_ == Want::second_access);
      want_ = Want::nothing;
    } else if (line.rfind("at ", 0) == 0 && f->file.empty() && f->kernel.empty()) {
      set_location(line.substr(3), false);
    } else if (std::regex_match(line, m, p.by_thread)) {
      if (f->thread.empty()) {
        f->thread = m[1].str();
        f->block = m[2].str();
      }
    } else if (std::regex_match(line, m, p.uninit_by) && f->kind == "host_api_access") {
      f->kind = "uninitialized_copy";
      d->detail = m[1].str() + (m[2].matched ? " " + m[2].str() : "");
    } else if (line.find("is misaligned") != std::string::npos && f->kind == "out_of_bounds") {
      f->kind = "misaligned";
    } else if (std::regex_search(line, m, p.nearest)) {
      d->bounds = m[1].str() + " bytes " + (m[2].str() == "after" ? "past the end of" : "before the start of") +
                  " the nearest allocation (cudaMalloc) of " + m[3].str() + " bytes";
    }
  }

  SanitizerReport report_;
  std::vector<Details> details_;
  Want want_ = Want::nothing;
};

}  // namespace

SanitizerReport parse_sanitizer_report(std::string_view text) {
  ReportParser parser;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    if (raw.substr(0, kPrefix.size()) != kPrefix) continue;
    std::string line(raw.substr(kPrefix.size()));
    line.erase(0, line.find_first_not_of(' '));
    if (!line.empty()) parser.line(line);
  }
  return parser.finish();
}

}  // namespace parlab::grader
