#pragma once
// The one way the simulator stops a program: a report on stderr that starts with
// "parlab-sim: " and names the kernel, block and thread when a kernel was running,
// then _exit with a documented code (parlab_sim/exit_codes.hpp).
#include "fault/report_text.hpp"

namespace parlab_sim::detail {

// Starts a report: "parlab-sim: <what>" followed, inside a kernel, by
// " in kernel K, block (x,y,z), thread (x,y,z)".
ReportText& begin_report(ReportText& text, const char* what);
// Appends the kernel/block/thread of the CUDA thread running on this OS thread.
void add_current_location(ReportText& text);

// Writes the report and ends the process. Only the first report of a process is
// written; a second thread that faults meanwhile waits for the exit.
[[noreturn]] void finish_report(ReportText& text, int exit_code, bool in_signal_handler = false);

// Convenience for reports without extra detail.
[[noreturn]] void fatal(int exit_code, const char* what, const char* explanation);

}  // namespace parlab_sim::detail
