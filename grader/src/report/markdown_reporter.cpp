// A Markdown report for pull-request comments, CI summaries and LMS pages: the
// console report's content with tables and code blocks. Text from the result is
// escaped so a message cannot break the table or inject HTML.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "report/markdown_text.hpp"
#include "report/report_text.hpp"
#include "report/untrusted_text.hpp"
#include "report/reporter.hpp"

namespace parlab::grader {
namespace {

using namespace report_text;
using namespace markdown_text;

std::string header(const GradeResult& r, bool verbose) {
  std::string out = "# " + md_escape(r.lab_id + ": " + r.lab_title) + "\n\n";
  out += "- **Submission:** " + md_code(r.submission) + "\n";
  if (r.reference_mode) {
    out += "- **Mode:** REFERENCE MODE (the reference solution graded as a submission)\n";
  }
  std::string host = r.host.hostname + ", " + std::to_string(r.host.cores) + " cores";
  if (!r.host.gpu.empty()) host += ", GPU: " + r.host.gpu;
  out += "- **Host:** " + md_escape(host) + "\n";
  if (r.device.mode != DeviceMode::host) out += "- **Device:** " + md_escape(device_line(r.device)) + "\n";
  if (verbose && !r.host.cpu_model.empty()) out += "- **CPU:** " + md_escape(r.host.cpu_model) + "\n";
  out += "- **Sandbox:** " + md_escape(r.host.sandbox) + "\n";
  if (ran_any_test(r)) {  // a rejected or unbuilt submission used no data: no seed to repeat
    const std::string seed = std::to_string(r.fresh_seed);
    out += "- **Fresh seed:** " + seed + " (repeat with `--seed " + seed + "`)\n";
  }
  if (!r.performance_enabled) out += "- **Performance:** not measured in this grading\n";
  out += "- **Grader:** parlab " + md_escape(r.grader_version) + ", started " +
         md_escape(r.started_at) + ", took " + format_seconds(r.seconds) + "\n";
  for (const std::string& note : r.notes) out += "\n> **Note:** " + md_cell(note) + "\n";
  return out;
}

std::string table(const GradeResult& r) {
  if (r.tests.empty()) return "No tests were run.\n";
  std::string out = "| Test | Status | Points | Ratio | Message |\n|---|---|---:|---:|---|\n";
  for (const TestResult& t : r.tests) {
    std::string name = md_code(t.name);
    if (is_hidden(t)) name += " (hidden)";
    out += "| " + name + " | " + to_string(t.status) + " | " + points_cell(t) + " | " +
           (t.measurement ? format_ratio(*t.measurement) : "") + " | " + md_cell(t.message) + " |\n";
  }
  return out;
}

// Blocks joined by one blank line, so sections never pile up empty lines.
std::string join_blocks(const std::vector<std::string>& blocks) {
  std::string out;
  for (const std::string& block : blocks) out += (out.empty() ? "" : "\n") + block;
  return out;
}

std::string test_section(const TestResult& t, bool verbose) {
  std::vector<std::string> blocks;
  blocks.push_back("### " + md_code(t.name) + (is_hidden(t) ? " (hidden)" : "") + ": " +
                   to_string(t.status) + ", " + points_cell(t) + "\n");
  const TestDetails d = test_details(t, verbose);
  // The message may quote the submission (its status.json message): fenced.
  if (!t.message.empty()) blocks.push_back(md_code_block(t.message));
  if (!d.facts.empty()) {
    std::string list;
    for (const std::string& fact : d.facts) list += "- " + md_escape(fact) + "\n";
    blocks.push_back(list);
  }
  if (!d.stdout_tail.empty()) blocks.push_back("stdout (last lines):\n\n" + md_code_block(d.stdout_tail));
  if (!d.stderr_tail.empty()) blocks.push_back("stderr (last lines):\n\n" + md_code_block(d.stderr_tail));
  return join_blocks(blocks);
}

std::string details(const GradeResult& r, bool verbose) {
  std::vector<std::string> sections;
  for (const TestResult& t : r.tests) {
    // Markdown tables hold the whole message, so only facts or tails earn an entry.
    if (needs_details(t, verbose, std::string::npos)) sections.push_back(test_section(t, verbose));
  }
  if (sections.empty()) return "";
  sections.insert(sections.begin(), "## Details\n");
  return "\n" + join_blocks(sections);
}

std::string build(const BuildResult& b, bool verbose) {
  if (b.ok && b.diagnostics.empty() && !verbose) return "";
  const std::string plain = plain_build_report(b, false);
  std::vector<std::string> blocks{"## Build\n", "**" + plain.substr(0, plain.find('\n')) + "**\n"};
  if (!b.diagnostics.empty()) {
    std::string lines;
    for (const Diagnostic& d : b.diagnostics) lines += diagnostic_line(d) + "\n";
    lines.pop_back();
    blocks.push_back(md_code_block(lines));
  }
  if (verbose && !b.command.empty()) blocks.push_back("Command: " + md_code(b.command) + "\n");
  const std::string log = printable(b.log);
  if ((!b.ok || verbose) && !log.empty()) {
    blocks.push_back("Compiler output (capped):\n\n" + md_code_block(log));
  }
  return "\n" + join_blocks(blocks);
}

class MarkdownReporter final : public Reporter {
 public:
  explicit MarkdownReporter(const ReportOptions& options) : options_(options) {}

  std::string render(const GradeResult& r) const override {
    std::string out = header(r, options_.verbose);
    out += "\n## Results\n\n" + table(r);
    out += "\n**" + total_line(r) + "**\n";
    out += details(r, options_.verbose);
    out += build(r.build, options_.verbose);
    return out;
  }

 private:
  ReportOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_markdown_reporter(const ReportOptions& options) {
  return std::make_unique<MarkdownReporter>(options);
}

}  // namespace parlab::grader
