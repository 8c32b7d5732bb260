#pragma once
// The runtime's start-up, before any code of the submission runs (docs/sandbox.md, "The
// runtime locks itself before the submission runs"): the settings into the locked page
// (config/runtime_settings), the report key to the report channel (report/sealed_channel),
// then, in a graded run, the lock (config/runtime_lock). The one place that knows the
// order; the layers below it know nothing of each other's start-up.

namespace parlab_sim::detail {

// Reads the settings and hands the report key to the channel. Runs once at start-up; the
// simulator's in-process unit tests call it again after setenv in a child.
void load_runtime_settings_from_environment();

// The start-up call: the first one loads and, in a graded run (one with a report key),
// locks the runtime or ends the process (kExitNotLocked); later ones do nothing. Called by
// the check build's module constructors (__tsan_init, priority 99, exec/tsan_hooks) and by
// a priority-101 constructor here (builds without the instrumentation).
void load_runtime_settings_once();

}  // namespace parlab_sim::detail

// Linked in whatever a program calls: sim/CMakeLists.txt makes every program that links
// the runtime reference it (the constructor above lives in its object file).
extern "C" void parlab_sim_start_up_anchor();
