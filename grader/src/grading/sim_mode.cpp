#include "grading/sim_mode.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "grading/child_run_files.hpp"
#include "grading/divergence_hint.hpp"
#include "grading/memory_hints.hpp"
#include "grading/sealed_report.hpp"

namespace parlab::grader {
namespace {

constexpr std::size_t kMaxFindings = 16;
constexpr std::size_t kMaxMessage = 1200;
constexpr std::size_t kMaxSummary = 200;
constexpr std::uint64_t kFindingsFileCap = 256 << 10;

// The memory-access and divergence hints are made by the grader from the run's counted
// facts (grading/memory_hints, divergence_hint), never taken from the runtime's findings
// channel.
bool is_made_by_grader(const std::string& kind) {
  return kind == kUncoalescedAccessKind || kind == kBankConflictsKind || kind == kWarpDivergenceKind;
}

std::string text_field(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string sim_mode_note(const std::string& why_sim) {
  return "simulation mode (" + why_sim + "): your CUDA code ran on the CPU in parlab's "
         "simulator. It checks correctness, not speed: performance tests of GPU code are "
         "skipped, except those the lab grades here by the simulator's memory-access "
         "counters against the reference's (coalescing, data reuse), and streams run one "
         "after the other, so overlap cannot be shown. It also "
         "checks for data races between barriers and runs each test in several random thread "
         "orders (a race, or an answer that changes, fails the test), "
         "early exits before a barrier, shuffles from inactive lanes and device memory never "
         "freed (reported with the line, points kept); where nvcc is installed, your code "
         "must compile with it too. A run on a real GPU remains the reference.";
}

std::map<std::string, std::string> sim_child_environment(int cores) {
  // PARLAB_SIM_CHECK=0: a build without the race check's instrumentation (compile_steps).
  const char* check = std::getenv("PARLAB_SIM_CHECK");
  const bool race_check = check == nullptr || std::string(check) != "0";
  return {
      {"PARLAB_SIM_ALLOW_EXITED_AT_BARRIER", "1"},  // Volta+ semantics, reported as findings
      {"PARLAB_SIM_WORKERS", std::to_string(cores)},
      {"PARLAB_SIM_DIAGNOSTICS", std::string("out/") + kSimFindingsFile},
      {"PARLAB_SIM_RACE_CHECK", race_check ? "1" : "0"},  // the sim build is the check build
      {"PARLAB_SIM_COUNTERS", race_check ? "1" : "0"},    // memory-access hints
      {"PARLAB_SIM_COUNT_SAMPLED_BLOCKS", "1"},            // hints need no more
      // and the run's totals, to judge the hints against the reference's
      {"PARLAB_SIM_COUNTERS_FILE", std::string("out/") + kSimCountersFile},
  };
}

std::map<std::string, std::string> sim_scored_counting_environment() {
  return {{"PARLAB_SIM_COUNT_SAMPLED_BLOCKS", "0"}};
}

std::vector<SimFinding> parse_sim_findings(const std::string& text) {
  std::vector<SimFinding> findings;
  std::istringstream lines(text);
  std::string line;
  // Every line is read: a data race is kept even past the cap (in place of the last
  // other finding), so no number of lesser findings can push it out.
  bool race_kept = false;
  while (std::getline(lines, line)) {
    const nlohmann::json object = nlohmann::json::parse(line, nullptr, false);
    if (!object.is_object()) continue;
    SimFinding finding{text_field(object, "kind"), text_field(object, "summary"),
                       text_field(object, "message")};
    if (finding.kind.empty() || finding.kind.size() > 64 || finding.message.empty()) continue;
    if (is_made_by_grader(finding.kind)) continue;
    if (finding.summary.size() > kMaxSummary) finding.summary = finding.summary.substr(0, kMaxSummary) + "...";
    if (finding.message.size() > kMaxMessage) finding.message = finding.message.substr(0, kMaxMessage) + "...";
    const bool race = finding.kind == "data_race";
    if (findings.size() < kMaxFindings) {
      race_kept = race_kept || race;
      findings.push_back(std::move(finding));
    } else if (race && !race_kept) {
      race_kept = true;
      findings.back() = std::move(finding);
    }
  }
  return findings;
}

namespace {

// A memory-access hint: global accesses far from coalesced, or shared-memory bank
// conflicts (judged against the reference's counters of the same memory).
bool is_memory_finding(const SimFinding& finding) {
  return finding.kind == kUncoalescedAccessKind || finding.kind == kBankConflictsKind;
}

// Facts about speed (coalescing, bank conflicts, divergence), not about the answer.
bool is_speed_finding(const SimFinding& finding) {
  return is_memory_finding(finding) || finding.kind == kWarpDivergenceKind;
}

// What a note is said once per: a finding's headline, but a kernel's divergence once
// whatever line leads it in each test ("warp divergence in kernel K at f.cu:31").
std::string note_key(const std::string& kind, const std::string& headline) {
  if (kind != kWarpDivergenceKind) return headline;
  return headline.substr(0, headline.find(" at "));
}

// Reads a sealed report of one run; a problem with it is kept in `tampered` (the first).
struct ReportReader {
  const std::filesystem::path& runs_root;
  std::string tampered;
  std::optional<std::string> read(const std::string& name, const char* file, const char* channel,
                                  std::uint64_t cap) {
    SimReport report = read_sim_report(runs_root, name, file, channel, cap);
    if (!report.problem.empty() && tampered.empty()) tampered = report.problem;
    return report.text;
  }
};

// The run's own findings first, then those of its re-runs not already among them.
std::vector<SimFinding> merged_findings(ReportReader& reader, const std::string& run_name,
                                        const std::vector<std::string>& more_runs) {
  auto same = [](const SimFinding& a, const SimFinding& b) {
    return a.kind == b.kind && a.summary == b.summary;
  };
  std::vector<SimFinding> findings;
  if (const auto text = reader.read(run_name, kSimFindingsFile, "findings", kFindingsFileCap))
    findings = parse_sim_findings(*text);
  for (const std::string& name : more_runs) {
    const auto text = reader.read(name, kSimFindingsFile, "findings", kFindingsFileCap);
    for (SimFinding& finding : text ? parse_sim_findings(*text) : std::vector<SimFinding>()) {
      const bool seen = std::any_of(findings.begin(), findings.end(),
                                    [&](const SimFinding& f) { return same(f, finding); });
      if (!seen && findings.size() < kMaxFindings) findings.push_back(std::move(finding));
    }
  }
  return findings;
}

// Memory-access and warp-divergence hints judged against the reference's run on the
// same data; one that cannot be judged is dropped: it could only tell a correct
// solution to change code the reference writes alike.
std::vector<SimFinding> judged_findings(std::vector<SimFinding> findings,
                                        const std::optional<CounterTotals>& mine,
                                        const ReferenceCountersSource& source) {
  const bool any_speed = std::any_of(findings.begin(), findings.end(), is_speed_finding);
  const std::optional<CounterTotals>* reference = any_speed && mine && source ? source() : nullptr;
  const bool judged = mine && reference != nullptr && reference->has_value();
  std::vector<SimFinding> kept;
  for (SimFinding& finding : findings) {
    // Already the test's own message (grading/unsupported_feature): not a finding to list.
    if (finding.kind == "unsupported_feature") continue;
    if (is_speed_finding(finding)) {
      if (!judged) continue;
      const bool shared = finding.kind == kBankConflictsKind;
      const HintJudgement j = is_memory_finding(finding)
                                  ? judge_memory_hint(shared, *mine, **reference)
                                  : judge_divergence_hint(*mine, **reference);
      if (!j.keep) continue;
      if (!j.comparison.empty()) finding.message += " (" + j.comparison + ")";
    }
    kept.push_back(std::move(finding));
  }
  return kept;
}

// Undefined behaviour by the programming guide's rules, which the simulator ran through
// with one outcome a GPU may have (a barrier some threads exited before, a shuffle from a
// lane outside its mask).
bool is_undefined_behaviour(const SimFinding& finding) {
  return finding.kind == "inactive_lane_read" || finding.kind == "exited_before_barrier";
}

// A shuffle's value from a lane outside its mask is undefined: a wrong answer's shape (too
// large, too small) then says nothing of its cause, and the lab's hint for that shape
// would name another one.
bool makes_values_undefined(const SimFinding& finding) { return finding.kind == "inactive_lane_read"; }

// The line that introduces the list: it agrees with the test's status (a failed test's
// answers are not "right", and its points were not kept by the findings).
std::string findings_header(const TestResult& result, const std::vector<SimFinding>& findings,
                            bool race, bool scored) {
  if (race || scored) return "\nthe simulator found:";
  const bool speed_only = std::all_of(findings.begin(), findings.end(), is_speed_finding);
  if (result.status == TestStatus::passed) {
    return speed_only ? "\nthe simulator found (points unchanged: about speed; the answers are right):"
                      : "\nthe simulator found (points unchanged; a GPU may still fail this code):";
  }
  if (std::any_of(findings.begin(), findings.end(), is_undefined_behaviour)) {
    return "\nthe simulator found undefined behaviour, a likely cause of this failure (on a GPU "
           "such code may compute anything):";
  }
  return speed_only ? "\nthe simulator also found (about speed, not why this test failed):"
                    : "\nthe simulator also found:";
}

// A failed test whose kernel read undefined values: the lab's hint for the answer's shape
// is left out of the first line, which names the undefined behaviour instead.
std::string without_shape_hint(const std::string& head, const std::vector<SimFinding>& findings) {
  const bool undefined = std::any_of(findings.begin(), findings.end(), makes_values_undefined);
  const std::size_t hint = head.find(" Hint: ");
  if (!undefined || hint == std::string::npos) return head;
  return head.substr(0, hint) + " The kernel read values a GPU leaves undefined (below), so the "
                                "answer's shape says nothing of the cause";
}

// The findings into the test's message (summaries on its first line, explanations below)
// and, once each, into the grading's notes; a data race fails a passed test.
void write_findings(TestResult& result, const std::vector<SimFinding>& findings,
                    std::vector<std::string>& notes, bool scored) {
  bool race = false;
  std::string summaries;
  std::string listed;
  for (const SimFinding& finding : findings) {
    race = race || finding.kind == "data_race";
    const std::string& headline = finding.summary.empty() ? finding.kind : finding.summary;
    summaries += (summaries.empty() ? "" : "; ") + headline;
    const std::string note = "simulator found: " + headline + " (first in test '" + result.name +
                             "'; details in its message)";
    // A divergence note of this kernel, whatever line it named, or this very note.
    const std::string key = "simulator found: " + note_key(finding.kind, headline) +
                            (finding.kind == kWarpDivergenceKind ? " " : " (");
    const bool noted = std::any_of(notes.begin(), notes.end(),
                                   [&](const std::string& n) { return n.rfind(key, 0) == 0; });
    if (!noted && notes.size() < 64) notes.push_back(note);
    listed += "\n  - " + finding.message;
  }
  if (race && result.status == TestStatus::passed) {
    result.status = TestStatus::failed;
    result.points = 0;
    result.message = "right answer here, but the kernel has a data race: a GPU may compute "
                     "another answer on any run";
  }
  // The first line is what a one-line report shows: keep it short, details below.
  const std::size_t first_line = result.message.find('\n');
  std::string head = result.message.substr(0, first_line);
  if (result.status != TestStatus::passed) head = without_shape_hint(head, findings);
  const std::string rest = first_line == std::string::npos ? "" : result.message.substr(first_line);
  result.message = head + " (simulator: " + summaries + ")" + rest +
                   findings_header(result, findings, race, scored) + listed;
}

}  // namespace

std::vector<SimFinding> add_sim_findings(TestResult& result, const std::filesystem::path& runs_root,
                                         const std::string& run_name, std::vector<std::string>& notes,
                                         bool scored, const std::optional<CounterTotals>* reference,
                                         const std::vector<std::string>& more_runs,
                                         const InstructionPlaceNamer& place_of) {
  ReferenceCountersSource source;
  if (reference != nullptr && reference->has_value()) source = [reference] { return reference; };
  return add_sim_findings_against(result, runs_root, run_name, notes, scored, source, more_runs, place_of);
}

std::vector<SimFinding> add_sim_findings_against(TestResult& result,
                                                 const std::filesystem::path& runs_root,
                                                 const std::string& run_name,
                                                 std::vector<std::string>& notes, bool scored,
                                                 const ReferenceCountersSource& reference,
                                                 const std::vector<std::string>& more_runs,
                                                 const InstructionPlaceNamer& place_of) {
  // Sealed reports (grading/sealed_report): one that was altered costs the test. The
  // run's counters are read (and their seal checked) whether or not a hint needs them.
  ReportReader reader{runs_root, {}};
  std::vector<SimFinding> findings = merged_findings(reader, run_name, more_runs);
  std::optional<std::string> counted;
  if (reference) counted = reader.read(run_name, kSimCountersFile, "counters", kSimCountersFileCap);
  if (!reader.tampered.empty()) {
    result.status = TestStatus::failed;
    result.points = 0;
    result.message = tampered_report_message(reader.tampered);
    return {};
  }
  if (counted) {
    std::vector<SimFinding> hints =
        divergence_findings(sim_counters_by_kernel(*counted), parse_code_block_records(*counted), place_of);
    for (SimFinding& hint : memory_hint_findings(parse_instruction_records(*counted), place_of))
      hints.push_back(std::move(hint));
    for (SimFinding& hint : hints) {
      if (findings.size() < kMaxFindings) findings.push_back(std::move(hint));
    }
  }
  if (findings.empty()) return {};
  const std::optional<CounterTotals> mine = counted ? parse_sim_counters(*counted) : std::nullopt;
  findings = judged_findings(std::move(findings), mine, reference);
  if (!findings.empty()) write_findings(result, findings, notes, scored);
  return findings;
}

}  // namespace parlab::grader
