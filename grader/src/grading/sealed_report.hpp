#pragma once
// The grader's side of the simulator's sealed report channel (sim/src/report/
// sealed_channel.hpp; docs/sandbox.md, "Nothing the submission can observe decides a
// verdict"). Every sim-mode run gets a fresh key (LabRunner), which only the grader
// and the simulator's start-up code see; the findings and counters files come back
// as sealed lines, and this file checks them: a line whose MAC does not verify, a gap
// or repeat in a process's sequence, a line after its closing record, or, when the
// process exited cleanly, a missing closing record, means the submission altered the
// report, and the report is not used.
#include <filesystem>
#include <optional>
#include <string>

namespace parlab::grader {

struct UnsealedReport {
  std::string payload;  // the verified payload lines, in file order, '\n'-ended
  std::string problem;  // empty when intact; else what was wrong (for the report)
};

// `channel`: "findings" or "counters". `exited_cleanly`: the run ended with status 0,
// so the closing record of its main process must be there.
UnsealedReport unseal_report(const std::string& text, const std::string& key_hex,
                             const std::string& channel, bool exited_cleanly);

// A fresh key for one run: 32 random bytes from the kernel, as 64 hex digits.
std::string fresh_report_key();

// What the grader remembers of a sealed run: its key, whether it exited cleanly, and
// what came through the simulator's report channel (RunResult::simulator_report). When the
// runner gave a channel, only what came through it counts: the run's files are the
// submission's to write, and are not read.
struct SealedRun {
  std::string key_hex;
  bool exited_cleanly = false;
  std::optional<std::string> channel_report;
  bool channel_report_truncated = false;
};
void remember_sealed_run(const std::filesystem::path& run_dir, SealedRun run);
std::optional<SealedRun> sealed_run_of(const std::filesystem::path& run_dir);

// The lines of one channel in what came through the report channel, their channel tag
// taken off ("F " findings, "C " counters, "S " stops: sim/src/report/sealed_channel.hpp,
// parlab_sim/stop_record.hpp); nullopt
// when none came. The runtime tags every line it sends, so a line of no channel was sent
// by the submission: both channels then get a line that no seal check passes.
std::optional<std::string> channel_lines_of(const std::string& report, const std::string& channel);

// Reads one channel of the simulator's report of run `run_name` (from what came through
// the report channel when the runner gave one; else from the run's file, through
// ChildRunFiles: no links, capped) and, for a sealed run, unseals it. `text` is empty when the file is
// absent (a sealed run that exited cleanly always writes its closing record, so that
// is a problem there).
struct SimReport {
  std::optional<std::string> text;
  std::string problem;
};
SimReport read_sim_report(const std::filesystem::path& runs_root, const std::string& run_name,
                          const char* file, const std::string& channel, std::uint64_t cap);

// The sentence a test gets when its run's report was altered.
std::string tampered_report_message(const std::string& problem);

}  // namespace parlab::grader
