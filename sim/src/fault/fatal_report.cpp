#include "fault/fatal_report.hpp"

#include <stdio.h>
#include <unistd.h>

#include <atomic>

#include "lane/lane.hpp"
#include "parlab_sim/builtins.hpp"
#include "parlab_sim/stop_record.hpp"
#include "report/sealed_channel.hpp"

namespace parlab_sim::detail {
namespace {

std::atomic<bool> g_report_started{false};

// Keeps what the student's kernels printed before the fault, without risking a
// deadlock on a stdout lock held by the faulting thread.
void flush_stdout_if_free() {
  if (ftrylockfile(stdout) == 0) {
    fflush_unlocked(stdout);
    funlockfile(stdout);
  }
}

}  // namespace

void add_current_location(ReportText& text) {
  if (t_lane == nullptr || t_running_block.kernel_name == nullptr) return;
  text.add(" in kernel ").add(t_running_block.kernel_name);
  text.add(", block ").add_index(blockIdx).add(", thread ").add_index(threadIdx);
}

ReportText& begin_report(ReportText& text, const char* what) {
  text.add("parlab-sim: ").add(what);
  add_current_location(text);
  return text;
}

void finish_report(ReportText& text, int exit_code, bool in_signal_handler) {
  if (g_report_started.exchange(true)) {
    for (;;) pause();  // another thread is reporting; it will end the process
  }
  // The grader reads the sealed record, never the text (parlab_sim/stop_record.hpp).
  sealed::append_stop(text.stop_record(exit_code));
  if (text.size() == 0 || text.c_str()[text.size() - 1] != '\n') text.add('\n');
  if (!in_signal_handler) fflush(stdout);
  else flush_stdout_if_free();
  text.write_to_stderr();
  _exit(exit_code);
}

void fatal(int exit_code, const char* what, const char* explanation) {
  ReportText text;
  begin_report(text, what);
  if (explanation != nullptr && *explanation != '\0') text.add(":\n  ").add(explanation);
  finish_report(text, exit_code);
}

}  // namespace parlab_sim::detail
