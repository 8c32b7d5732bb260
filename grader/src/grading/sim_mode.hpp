#pragma once
// The grader's side of sim mode (docs/simulation.md): the environment of every child
// the simulator runs, and the simulator's findings (early exit before a barrier, a
// shuffle from an inactive lane, a device-memory leak, a data race) brought into the
// test's feedback. The findings file is written by the untrusted process: it is read
// through ChildRunFiles (no links, capped), parsed line by line, and kept as text only.
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "grading/code_place_names.hpp"
#include "grading/sim_counters.hpp"
#include "grading/sim_finding.hpp"
#include "result/result.hpp"

namespace parlab::grader {

// Where, relative to the child's run folder (its working directory), the simulator
// appends its findings: inside the output folder ChildRunFiles reads.
inline constexpr const char* kSimFindingsFile = "sim-findings.jsonl";

// The report's note on what sim mode checks and what it cannot.
std::string sim_mode_note(const std::string& why_sim);

// PARLAB_SIM_* settings for every sim-mode child: Volta+ barrier semantics (exited
// threads reported as findings, not deadlocks), `cores` workers, findings file.
// The memory-access counters keep only the two sampled blocks of a launch there: their
// figures are hints (findings judged against the reference's), never scored.
std::map<std::string, std::string> sim_child_environment(int cores);

// Over sim_child_environment, for a run whose counters are scored (a sim check's
// counting run, the submission's and the reference's): every block counted, so two
// gradings score the same figures and no block escapes the count. Only these runs pay
// for it (docs/performance.md, "Every block counted, only where scored").
std::map<std::string, std::string> sim_scored_counting_environment();

// Parses the findings file's JSON lines; malformed lines are skipped, at most 16 kept,
// each message capped.
std::vector<SimFinding> parse_sim_findings(const std::string& text);

// Adds the findings of run `run_name` to `result`: the summaries on the message's first
// line (what a console shows), the explanations below it. A data race fails the test
// (a GPU may compute another answer on any run); the others leave its points as they are.
// Each summary not yet noted also becomes a grading note ("simulator found: ..."), so a
// one-line console report, which shows no message for a passed test, still shows it.
// `scored`: the test's points came from the simulator's counters (grading/sim_counters),
// so the list is not introduced as "points unchanged"; nor is it on a failed test, where
// undefined behaviour is named as the likely cause (and the lab's hint for the answer's
// shape left out where a shuffle read undefined values). `reference`: the reference's
// counters on the test's data; a memory-access or divergence hint is kept only where
// this run's counters are clearly worse (judge_memory_hint, judge_divergence_hint), with
// both figures, and dropped where there is nothing to judge it against. A kernel's
// divergence is noted once, whatever line leads it in each test. `more_runs`: the
// test's re-runs in other orders (grading/schedule_check), whose findings count too (a
// race seen in any run fails the test), each finding once. Returns the findings that
// went into the message (none where a report was altered).
std::vector<SimFinding> add_sim_findings(TestResult& result, const std::filesystem::path& runs_root,
                                         const std::string& run_name, std::vector<std::string>& notes,
                                         bool scored = false,
                                         const std::optional<CounterTotals>* reference = nullptr,
                                         const std::vector<std::string>& more_runs = {},
                                         const InstructionPlaceNamer& place_of = {});

// The reference's counters, asked for only when a memory-access or divergence finding
// must be judged against them: each answer costs a run of the reference, and most
// runs have no such finding. An empty source: nothing to judge against.
using ReferenceCountersSource = std::function<const std::optional<CounterTotals>*()>;

// add_sim_findings with the reference's counters from `reference`, called at most once.
std::vector<SimFinding> add_sim_findings_against(TestResult& result,
                                                 const std::filesystem::path& runs_root,
                                                 const std::string& run_name,
                                                 std::vector<std::string>& notes, bool scored,
                                                 const ReferenceCountersSource& reference,
                                                 const std::vector<std::string>& more_runs = {},
                                                 const InstructionPlaceNamer& place_of = {});

}  // namespace parlab::grader
