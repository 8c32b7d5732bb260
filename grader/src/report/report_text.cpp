// Shared report wording. Sentences here are what a student reads after a failure, so
// they name the array, the element, both values and the tolerance, and say what a
// run outcome means rather than echoing an enum.
#include "report/report_text.hpp"
#include "report/untrusted_text.hpp"
#include "util/number_format.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace parlab::grader::report_text {
namespace {

template <typename... Args>
std::string sprintf_string(const char* format, Args... args) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, format, args...);
  return buffer;
}

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

void append_facts_for_mismatch(const Mismatch& m, std::vector<std::string>& facts) {
  // The label comes from the submission's manifest: one escaped line.
  std::string where = untrusted_text::escape_line(m.array) + "[" + std::to_string(m.index) + "]";
  if (!m.label.empty()) where += " (" + untrusted_text::escape_line(m.label) + ")";
  const NumberPair values = format_number_pair(m.expected, m.got);
  std::string fact = "First mismatch: " + where + ": expected " + values.first + ", got " +
                     values.second;
  if (!m.tolerance.empty()) fact += ", tolerance " + untrusted_text::escape_line(m.tolerance);
  facts.push_back(std::move(fact));
  if (m.compared > 0) {
    facts.push_back(std::to_string(m.mismatches) + " of " + std::to_string(m.compared) +
                    " elements differ");
  }
}

void append_facts_for_measurement(const Measurement& m, std::vector<std::string>& facts) {
  if (m.counter) {  // a sim-mode counter check: no timing to show
    const CounterMeasurement& c = *m.counter;
    facts.push_back("Simulator counter: " + c.what + " " + format_number(c.value, 4) +
                    ", the reference's " + format_number(c.reference, 4) + " on the same data (" +
                    format_number(c.ratio, 3) + "x); full credit at " + format_number(c.full_at, 3) +
                    "x or less, none at " + format_number(c.zero_at, 3) + "x or more");
    return;
  }
  std::string speedup = "Speedup: " + format_ratio(m) + " (median of " +
                        std::to_string(m.ratios.size()) + " pairs";
  if (m.warmup_pairs > 0) {
    speedup += ", " + std::to_string(m.warmup_pairs) +
               (m.warmup_pairs == 1 ? " warm-up pair" : " warm-up pairs") + " excluded";
  }
  if (m.ratio_high > 0) {
    speedup += ", 95% CI " + format_number(m.ratio_low, 3) + "x to " +
               format_number(m.ratio_high, 3) + "x";
  }
  facts.push_back(speedup + ")");
  facts.push_back("Median times: " + m.baseline + " " + format_seconds(m.baseline_median_s) +
                  ", " + m.candidate + " " + format_seconds(m.candidate_median_s));
  facts.push_back("Thresholds: full credit at " + format_value(m.full_at) + "x, none at " +
                  format_value(m.zero_at) + "x" +
                  (m.cores > 0 ? " (scaled to " + std::to_string(m.cores) + " cores)" : ""));
  if (m.reference_ratio > 0) {
    // A gain test: what the reference itself gained here, and the lab's own full_at.
    facts.push_back("Reference gain: the reference's own " +
                    m.candidate.substr(m.candidate.find(':') + 1) + " reached " +
                    format_number(m.reference_ratio, 3) + "x against " + m.baseline + " here (" +
                    format_number(m.reference_ratio_low, 3) + "x at the low end of its 95% CI)" +
                    (m.spec_full_at > m.full_at
                         ? "; full credit is asked at a share of that gain (the lab asks " +
                               format_value(m.spec_full_at) + "x where the reference gains more)"
                         : ""));
  }
  if (m.candidate_cores > 0) {
    std::string observed = "Observed: " + format_number(m.candidate_cores, 2) +
                           (m.candidate_cores == 1 ? " core busy" : " cores busy");
    if (m.candidate_processes > 0) {
      observed += ", " + std::to_string(m.candidate_processes) +
                  (m.candidate_processes == 1 ? " process" : " processes");
    }
    if (m.candidate_threads > 0) {
      observed += ", " + std::to_string(m.candidate_threads) +
                  (m.candidate_threads == 1 ? " thread" : " threads");
    }
    if (m.work_spread > 0) observed += ", work spread over " + format_number(m.work_spread, 2);
    if (m.required_cores > 0) observed += " (this test needs " + format_number(m.required_cores, 2) + ")";
    facts.push_back(observed);
  }
  if (m.serial_speedup > 0) {
    facts.push_back("Against the serial reference: " + format_number(m.serial_speedup, 3) + "x");
  }
  if (!m.interference.empty()) {
    facts.push_back("Disturbed by: " + untrusted_text::escape_line(m.interference));
  }
  if (m.noisy) {
    facts.push_back("Noisy: the ratios still varied too much after re-measuring");
  }
}

std::string format_phase_time(double seconds) {
  if (seconds < 1e-3) return sprintf_string("%.1f us", seconds * 1e6);
  if (seconds < 1) return sprintf_string("%.3g ms", seconds * 1e3);
  return sprintf_string("%.3g s", seconds);
}

// GPU labs: kernel time and transfers side by side (the cost of moving data is a lesson).
void append_facts_for_phases(const std::vector<Phase>& phases, std::vector<std::string>& facts) {
  std::string line = "GPU time (median):";
  for (std::size_t i = 0; i < phases.size(); ++i) {
    std::string name = phases[i].name;
    std::replace(name.begin(), name.end(), '_', ' ');
    line += (i ? ", " : " ") + name + " " + format_phase_time(phases[i].seconds);
  }
  facts.push_back(line);
}

void append_facts_for_roofline(const Roofline& r, std::vector<std::string>& facts) {
  const char* peak = r.bound == RooflineBound::memory ? "copy bandwidth" : "cuBLAS SGEMM rate";
  facts.push_back(sprintf_string("Roofline: %.4g %s, %.0f%% of this GPU's measured %s (%.4g %s)",
                                 r.achieved, r.unit.c_str(), r.fraction * 100, peak, r.peak,
                                 r.unit.c_str()));
  if (!r.hint.empty()) facts.push_back("Hint: " + r.hint);
}

}  // namespace

std::string format_points(double points) {
  std::string s = sprintf_string("%.2f", points);
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

std::string format_value(double value) { return format_number(value); }

std::string format_seconds(double seconds) { return sprintf_string("%.4g s", seconds); }

std::string format_ratio(const Measurement& m) {
  if (m.counter) return counter_against_band(*m.counter);
  const double percent = m.spread * 100;
  // Below 1% a whole-number spread would read as a perfect "±0%".
  const std::string spread = percent < 1 ? sprintf_string("%.1f", percent)
                                         : sprintf_string("%.0f", percent);
  return sprintf_string("%.2fx", m.median_ratio) + " \xC2\xB1" + spread + "%";
}

std::string points_cell(const TestResult& t) {
  // Left out of the total: "- / 8", never "0 / 8", which reads as points lost.
  if (is_left_out(t)) return "- / " + format_points(t.max_points);
  return format_points(t.points) + " / " + format_points(t.max_points);
}

std::string total_line(const GradeResult& r) {
  return "Total: " + graded_summary(r);
}

std::string describe_outcome(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::ok: return "exited normally";
    case RunOutcome::nonzero_exit: return "exited with a non-zero status";
    case RunOutcome::crashed: return "crashed (killed by a signal)";
    case RunOutcome::timeout: return "ran past the wall-clock time limit and was stopped";
    case RunOutcome::cpu_limit: return "used more CPU time than allowed and was stopped";
    case RunOutcome::memory_limit: return "tried to use more memory than allowed";
    case RunOutcome::output_limit: return "wrote more output than allowed and was stopped";
    case RunOutcome::bad_output: return "exited normally, but its output files were missing or malformed";
    case RunOutcome::not_run: return "was not run";
  }
  return to_string(outcome);
}

std::string diagnostic_line(const Diagnostic& d) {
  // Compiler messages quote the submission's source: escaped, one line.
  std::string where = untrusted_text::escape_line(d.file);
  if (d.line > 0) {
    where += ":" + std::to_string(d.line);
    if (d.column > 0) where += ":" + std::to_string(d.column);
  }
  return where + ": " + untrusted_text::escape_line(d.severity) + ": " +
         untrusted_text::escape_line(d.message);
}

std::string device_line(const DeviceInfo& d) {
  if (d.mode == DeviceMode::gpu) {
    std::string line = d.name + " (" + d.detail + ")";
    if (d.bandwidth_gbs > 0) {
      line += sprintf_string("; measured peaks: %.0f GB/s copy, %.0f GFLOP/s cuBLAS SGEMM",
                             d.bandwidth_gbs, d.sgemm_gflops);
    }
    return line;
  }
  if (d.mode == DeviceMode::sim) return "simulator, on the CPU (" + d.detail + ")";
  return "none (" + d.detail + ")";
}

bool is_hidden(const TestResult& t) { return t.visibility == Visibility::hidden; }

std::string display_name(const TestResult& t) {
  return is_hidden(t) ? t.name + " (hidden)" : t.name;
}

TestDetails test_details(const TestResult& t, bool verbose) {
  TestDetails details;
  auto& facts = details.facts;
  if (is_hidden(t)) {
    if (t.outcome != RunOutcome::ok && t.outcome != RunOutcome::not_run) {
      facts.push_back("Run: " + describe_outcome(t.outcome));
    }
    // Say so only when something was actually withheld.
    if (t.mismatch || !t.stdout_tail.empty() || !t.stderr_tail.empty()) {
      facts.push_back("This is a hidden test: its data and outputs are not shown");
    }
    return details;
  }
  if (t.mismatch) append_facts_for_mismatch(*t.mismatch, facts);
  if (t.measurement) append_facts_for_measurement(*t.measurement, facts);
  if (t.roofline) append_facts_for_roofline(*t.roofline, facts);
  if (!t.phases.empty()) append_facts_for_phases(t.phases, facts);
  if (t.outcome != RunOutcome::ok && t.outcome != RunOutcome::not_run) {
    facts.push_back("Run: " + describe_outcome(t.outcome));
  }
  details.stdout_tail = printable(t.stdout_tail);
  details.stderr_tail = printable(t.stderr_tail);
  const bool something_happened =
      !facts.empty() || !details.stdout_tail.empty() || !details.stderr_tail.empty();
  // The dataset id reproduces a failure (`--seed`); alone it teaches nothing.
  if (!t.dataset.empty() && (something_happened || verbose)) {
    facts.push_back("Dataset: " + t.dataset);
  }
  if (verbose && t.outcome != RunOutcome::not_run) facts.push_back("Time: " + format_seconds(t.seconds));
  return details;
}

bool needs_details(const TestResult& t, bool verbose, std::size_t table_message_width) {
  if (verbose) return true;
  if (!is_hidden(t) && (!t.phases.empty() || t.roofline)) return true;  // GPU timings teach
  if (t.status == TestStatus::passed) return false;
  const TestDetails details = test_details(t, verbose);
  const bool message_cut = t.message.find('\n') != std::string::npos ||
                           display_width(t.message) > table_message_width;
  return !details.facts.empty() || !details.stdout_tail.empty() ||
         !details.stderr_tail.empty() || message_cut;
}

std::string plain_test_details(const TestResult& t, bool verbose) {
  const TestDetails details = test_details(t, verbose);
  std::string out;
  if (!t.message.empty()) out += untrusted_text::escape_controls(t.message) + "\n";
  for (const std::string& fact : details.facts) out += fact + "\n";
  if (!details.stdout_tail.empty()) out += "stdout (last lines):\n" + indent(details.stdout_tail, "  ");
  if (!details.stderr_tail.empty()) out += "stderr (last lines):\n" + indent(details.stderr_tail, "  ");
  return out;
}

std::string plain_build_report(const BuildResult& b, bool verbose) {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const Diagnostic& d : b.diagnostics) {
    errors += d.severity == "error";
    warnings += d.severity == "warning";
  }
  std::string out = b.ok ? "Build succeeded"
                    : !b.needs_gpu.empty() ? "Build not possible in the simulator: needs a GPU (" +
                                                 untrusted_text::escape_line(b.needs_gpu) + ")"
                                           : "Build FAILED";
  out += " (" + format_seconds(b.seconds);
  if (errors > 0) out += ", " + std::to_string(errors) + (errors == 1 ? " error" : " errors");
  if (warnings > 0) out += ", " + std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings");
  out += ")\n";
  for (const Diagnostic& d : b.diagnostics) out += diagnostic_line(d) + "\n";
  if (verbose && !b.command.empty()) out += "Command: " + b.command + "\n";
  const std::string log = printable(b.log);
  if ((!b.ok || verbose) && !log.empty()) out += "Compiler output (capped):\n" + indent(log, "  ");
  return out;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t n = untrusted_text::utf8_sequence_length(text);
    if (n == 0) {
      out += kReplacementCharacter;
      text.remove_prefix(1);
    } else {
      out += text.substr(0, n);
      text.remove_prefix(n);
    }
  }
  return out;
}

std::string printable(std::string_view text) {
  std::string out = untrusted_text::escape_controls(text);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::size_t display_width(std::string_view utf8) {
  std::size_t width = 0;
  for (char c : utf8) width += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return width;
}

std::string first_line_fitted(std::string_view text, std::size_t max_width) {
  const std::size_t newline = text.find('\n');
  const bool more_lines = newline != std::string_view::npos;
  std::string_view line = text.substr(0, newline);
  if (!more_lines && display_width(line) <= max_width) return std::string(line);
  const std::size_t keep = max_width > 3 ? max_width - 3 : 0;
  std::size_t bytes = 0;
  for (std::size_t width = 0; bytes < line.size(); ++bytes) {
    const bool starts_code_point = (static_cast<unsigned char>(line[bytes]) & 0xC0) != 0x80;
    if (starts_code_point && width++ == keep) break;
  }
  return std::string(line.substr(0, bytes)) + "...";
}

std::string indent(std::string_view text, std::string_view prefix) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (line.empty()) {
      out += "\n";  // no trailing spaces on blank lines
    } else {
      out += std::string(prefix) + std::string(line) + "\n";
    }
    start = end + 1;
  }
  return out;
}

bool is_left_out(const TestResult& t) { return !counts_in_graded_total(t.status); }

bool stopped_at_unsupported_feature(const TestResult& t) {
  return t.status == TestStatus::not_graded && t.message.rfind("not graded here: needs a GPU (", 0) == 0;
}

std::string not_graded_reason(const GradeResult& r, const TestResult& t) {
  if (!r.performance_enabled && t.kind == TestKind::performance) return "not measured (--no-perf)";
  if (t.message == kNotSelectedMessage) return "not selected (--only)";
  if (t.measurement && t.measurement->required_cores > r.host.cores && r.host.cores > 0) {
    return "need " + format_number(t.measurement->required_cores, 3) + " cores (" +
           std::to_string(r.host.cores) + " here)";
  }
  // The simulator stopped at a feature it does not run: which, and where.
  if (stopped_at_unsupported_feature(t)) {
    const std::string reason = untrusted_text::escape_line(t.message.substr(17));
    const std::size_t end = reason.rfind("): ");
    return first_line_fitted(end == std::string::npos ? reason : reason.substr(0, end + 1), 200);
  }
  if (r.device.mode == DeviceMode::sim || r.device.mode == DeviceMode::none) return "need a GPU";
  // Else the message's first clause, without a leading "not graded here:".
  std::string reason = untrusted_text::escape_line(t.message);
  for (const char* prefix : {"not graded here: ", "not graded: "}) {
    if (reason.rfind(prefix, 0) == 0) reason.erase(0, std::string_view(prefix).size());
  }
  reason = reason.substr(0, reason.find_first_of(";."));
  return reason.empty() ? "cannot be graded here" : first_line_fitted(reason, 60);
}

std::vector<std::string> left_out_sentences(const GradeResult& r) {
  // Not-graded points grouped by reason, in the order the reasons first appear.
  std::vector<std::pair<std::string, double>> groups;
  double inconclusive_points = 0;
  std::set<std::string> inconclusive_causes;
  for (const TestResult& t : r.tests) {
    if (t.status == TestStatus::inconclusive) {
      inconclusive_points += t.max_points;
      inconclusive_causes.insert(inconclusive_cause(t));
    }
    if (t.status != TestStatus::not_graded) continue;
    const std::string reason = not_graded_reason(r, t);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == reason; });
    if (it == groups.end()) {
      groups.emplace_back(reason, t.max_points);
    } else {
      it->second += t.max_points;
    }
  }
  std::vector<std::string> out;
  for (const auto& [reason, points] : groups) {
    if (reason == "need a GPU") {
      out.push_back(format_points(points) + " points of GPU tests need a GPU");
    } else if (reason.rfind("need", 0) == 0 || reason.rfind("not measured", 0) == 0) {
      out.push_back(format_points(points) + " points " + reason);
    } else {
      out.push_back(format_points(points) + " points not graded here (" + reason + ")");
    }
  }
  if (inconclusive_points > 0) {
    out.push_back(format_points(inconclusive_points) + " points inconclusive (" +
                  (inconclusive_causes.size() == 1 ? *inconclusive_causes.begin() : "see each test") +
                  "): re-run");
  }
  return out;
}

std::string graded_summary(const GradeResult& r) {
  std::string text = format_points(r.score) + " / ";
  const std::vector<std::string> left_out = left_out_sentences(r);
  if (left_out.empty() || r.graded_max_score >= r.max_score) {
    return text + format_points(r.max_score);
  }
  text += format_points(r.graded_max_score) + " graded here (" + format_points(r.max_score) +
          " in all)";
  for (const std::string& s : left_out) text += "; " + s;
  return text;
}

std::string rerun_command(const GradeResult& r) {
  std::string command = "grade " + r.lab_id;
  if (r.reference_mode) {
    command += " --reference";
  } else if (!r.submission.empty()) {
    command += " " + untrusted_text::escape_line(r.submission);
  }
  // The C++ track is the default; another is named (the reference holds both).
  if (r.track != Track::cpp) command += std::string(" --language ") + to_string(r.track);
  return command + " --seed " + std::to_string(r.fresh_seed);
}

std::string counter_against_band(const CounterMeasurement& c) {
  return format_number(c.value, 4) + " (" + format_number(c.ratio, 3) + "x the reference's; full at " +
         format_number(c.full_at, 3) + "x, none at " + format_number(c.zero_at, 3) + "x)";
}

std::string ratio_against_band(const Measurement& m) {
  if (m.counter) return counter_against_band(*m.counter);
  return format_number(m.median_ratio, 3) + "x (none at " + format_number(m.zero_at, 3) +
         "x, full at " + format_number(m.full_at, 3) + "x)";
}

std::string inconclusive_cause(const TestResult& t) {
  // The grader's own sentences (grading/performance_test.cpp, performance_verdict.cpp):
  // a busy machine is only one of the reasons, and the student should read the real one.
  if (t.message.rfind("inconclusive: the reference", 0) == 0) return "the reference failed on this machine";
  if (t.message.find("; inconclusive: the ratios stayed too spread out") != std::string::npos ||
      t.message.find("; inconclusive: the speedup over a 1-worker run") != std::string::npos)
    return "too noisy to judge";
  if (t.message.find("; inconclusive: on this machine, now, the reference's own") != std::string::npos ||
      t.message.find("; inconclusive: the reference's own speedup") != std::string::npos)
    return "the reference's own gain too small here";
  return "machine busy";
}

std::string short_reason(const GradeResult& r, const TestResult& t) {
  const std::string message = untrusted_text::escape_controls(t.message);
  switch (t.status) {
    case TestStatus::not_graded:  // the grader's own sentence ("not graded here: ...")
      return message.empty() ? not_graded_reason(r, t) : untrusted_text::escape_line(message);
    case TestStatus::inconclusive: {
      if (inconclusive_cause(t) != "machine busy") return inconclusive_cause(t) + ": re-run";
      if (t.measurement && !t.measurement->interference.empty()) {
        return "machine busy: re-run (" + untrusted_text::escape_line(t.measurement->interference) + ")";
      }
      return "machine busy: re-run";
    }
    case TestStatus::passed:
    case TestStatus::partial:
      if (t.measurement && (t.measurement->median_ratio > 0 || t.measurement->counter))
        return ratio_against_band(*t.measurement);
      return t.status == TestStatus::passed ? "" : first_line_fitted(message, 200);
    case TestStatus::failed:
    case TestStatus::skipped:
      if (t.outcome != RunOutcome::ok && t.outcome != RunOutcome::not_run) {
        return describe_outcome(t.outcome);
      }
      if (t.mismatch && !is_hidden(t)) {
        const NumberPair values = format_number_pair(t.mismatch->expected, t.mismatch->got);
        return untrusted_text::escape_line(t.mismatch->array) + "[" +
               std::to_string(t.mismatch->index) + "]: expected " + values.first + ", got " +
               values.second;
      }
      if (t.measurement && ((t.measurement->median_ratio > 0 && t.measurement->timing_trusted) ||
                            t.measurement->counter)) {
        return ratio_against_band(*t.measurement);
      }
      return first_line_fitted(message, 200);
  }
  return message;
}

bool ran_any_test(const GradeResult& r) {
  return std::any_of(r.tests.begin(), r.tests.end(),
                     [](const TestResult& t) { return t.outcome != RunOutcome::not_run; });
}

// The linker's errors name a symbol, often from another file (the lab's driver calls
// the function the student never wrote): the step is about the symbol, not that file.
static std::string link_step(const std::string& message) {
  static const std::string undefined = "undefined reference to ";
  static const std::string twice = "multiple definition of ";
  if (message.rfind(undefined, 0) == 0)
    return "write the missing definition (" + untrusted_text::escape_line(message) + ")";
  if (message.rfind(twice, 0) == 0)
    return "keep one definition of " +
           untrusted_text::escape_line(message.substr(twice.size(), message.find(';') - twice.size()));
  return "";
}

// No "above" or "below": the console says it last, the HTML page first.
std::string next_step(const GradeResult& r) {
  if (!r.build.ok && !r.build.needs_gpu.empty())
    return "nothing to fix for the simulator: grade " + r.lab_id + " on a machine with a GPU";
  if (!r.build.ok) {
    for (const Diagnostic& d : r.build.diagnostics) {
      if (d.severity != "error") continue;
      if (const std::string link = link_step(d.message); !link.empty())
        return link + ", then run grade " + r.lab_id + " again";
      std::string where = std::filesystem::path(d.file).filename().string();
      if (d.line > 0) where += ":" + std::to_string(d.line);
      return "fix the build error in " + untrusted_text::escape_line(where) +
             ", then run grade " + r.lab_id + " again";
    }
    return "fix the build (the compiler's output is in this report), then run grade " + r.lab_id + " again";
  }
  for (const TestKind kind : {TestKind::correctness, TestKind::performance}) {
    for (const TestResult& t : r.tests) {
      if (t.kind == kind && t.status == TestStatus::failed && t.outcome != RunOutcome::not_run) {
        return "fix " + display_name(t) + " first (see its details)";
      }
    }
  }
  for (const TestResult& t : r.tests) {
    if (t.status == TestStatus::partial && t.measurement && t.measurement->counter) {
      const CounterMeasurement& c = *t.measurement->counter;
      return "lower " + c.what + " in " + display_name(t) + ": " + format_number(c.ratio, 3) +
             "x the reference's now, full credit at " + format_number(c.full_at, 3) + "x";
    }
    if (t.status == TestStatus::partial && t.measurement) {
      return "speed up " + display_name(t) + ": " + format_number(t.measurement->median_ratio, 3) +
             "x now, full credit at " + format_number(t.measurement->full_at, 3) + "x";
    }
  }
  for (const TestResult& t : r.tests) {
    if (t.status == TestStatus::inconclusive) return "re-run on a quieter machine: " + rerun_command(r);
  }
  for (const TestResult& t : r.tests) {
    if (t.message == kNotSelectedMessage)
      return "nothing to fix in the tests graded; for the whole lab: grade " + r.lab_id + " without --only";
  }
  for (const TestResult& t : r.tests) {
    if (t.status == TestStatus::not_graded) {
      return "nothing to fix here; the tests not graded here need " +
             std::string(not_graded_reason(r, t) == "need a GPU" ? "a machine with a GPU"
                                                                 : "another machine or mode");
    }
  }
  for (const TestResult& t : r.tests) {
    if (t.status != TestStatus::passed) return "see the tests that did not pass";
  }
  return "nothing: every test passed";
}

std::string wrap(std::string_view text, std::size_t width, std::string_view prefix) {
  std::string out;
  const std::size_t room = width > display_width(prefix) + 10 ? width - display_width(prefix) : 10;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view paragraph = text.substr(start, end - start);
    std::string line;
    std::size_t line_width = 0;
    auto flush = [&] {
      out += line.empty() ? "\n" : std::string(prefix) + line + "\n";
      line.clear();
      line_width = 0;
    };
    std::size_t pos = 0;
    bool any = false;
    while (pos < paragraph.size()) {
      while (pos < paragraph.size() && paragraph[pos] == ' ') ++pos;
      if (pos >= paragraph.size()) break;
      std::size_t word_end = paragraph.find(' ', pos);
      if (word_end == std::string_view::npos) word_end = paragraph.size();
      std::string_view word = paragraph.substr(pos, word_end - pos);
      pos = word_end;
      any = true;
      while (display_width(word) > room) {  // a long token: cut it across lines
        if (!line.empty()) flush();
        const std::string head = first_line_fitted(word, room + 3);
        const std::string cut = head.substr(0, head.size() - 3);
        line = cut;
        flush();
        word.remove_prefix(cut.size());
      }
      const std::size_t w = display_width(word);
      if (line_width > 0 && line_width + 1 + w > room) flush();
      if (line_width > 0) {
        line += ' ';
        ++line_width;
      }
      line += word;
      line_width += w;
    }
    if (!line.empty() || !any) flush();
    if (end == text.size()) break;
    start = end + 1;
  }
  while (out.size() >= 2 && out.ends_with("\n\n")) out.pop_back();
  return out;
}

}  // namespace parlab::grader::report_text
