#pragma once
// The simulator runtime's settings (docs/simulation.md, "Settings"), read once, before any
// code of the submission runs: the runtime is linked into the submission's own process,
// so what it checks must not be switchable by that process (docs/sandbox.md, "Nothing the
// submission can observe decides a verdict"). The check build's module constructors
// (priority 99, reserved to the toolchain), or else a constructor of priority 101 (the
// first the toolchain leaves to programs; the grader refuses submissions with earlier
// ones, compile/startup_code_check; both call startup/start_up) read the settings here,
// and the PARLAB_SIM_* variables are then removed from the environment, their text blanked
// in the process's memory too, so neither getenv nor /proc/self/environ shows them to the
// submission, and setting them later changes nothing.
#include <cstdint>
#include <string>

namespace parlab_sim::detail {

struct RuntimeSettings {
  bool allow_exited_at_barrier = false;  // PARLAB_SIM_ALLOW_EXITED_AT_BARRIER=1
  bool allow_host_pointers = false;      // PARLAB_SIM_ALLOW_HOST_POINTERS set
  bool race_check = false;               // PARLAB_SIM_RACE_CHECK=1
  int counters = 0;                      // PARLAB_SIM_COUNTERS: 0 off, 1 on, 2 also printed
  // PARLAB_SIM_COUNT_SAMPLED_BLOCKS=1: the memory-access counters keep only the two
  // sampled blocks of a launch (hints, a small fraction of the cost), not every block.
  // The grader sets it for every run whose figures it does not score.
  bool count_sampled_blocks = false;
  unsigned workers = 0;                  // PARLAB_SIM_WORKERS (1..1024); 0: one per core
  unsigned stack_kib = 64;               // PARLAB_SIM_STACK_KIB (16..65536)
  // PARLAB_SIM_SEED (hex): blocks and each block's threads start in an order drawn from
  // it, and the counters sample blocks drawn from it. Without it: the usual order.
  bool seeded = false;
  std::uint64_t seed = 0;
  // PARLAB_SIM_SAMPLE_SEED (hex): when set, the sampled blocks are drawn from it instead
  // (the grader gives every run of a grading the same one, so the submission's counts and
  // the reference's come from the same blocks, which neither can know).
  bool sample_seeded = false;
  std::uint64_t sample_seed = 0;
  // Fixed arrays, not std::string: the settings live in the locked page
  // (config/locked_state), and a string's characters would lie outside it.
  char diagnostics_path[1024] = {};  // PARLAB_SIM_DIAGNOSTICS: the findings file
  char counters_path[1024] = {};     // PARLAB_SIM_COUNTERS_FILE: the per-launch totals
  // PARLAB_SIM_REPORT_KEY (64 hex digits) is not kept here: it goes straight to the
  // report channel (report/sealed_channel), which seals both files' lines with it.
};

const RuntimeSettings& runtime_settings();

// The report key's text as the grader handed it (64 hex digits; empty without one).
using ReportKeyText = char[65];

// Reads the settings from the grader's settings descriptor (config/settings_channel) when
// the process has one, else the PARLAB_SIM_* variables, into the locked page, and removes
// them from the environment; the report key goes to `key`, for the start-up
// (startup/start_up) to hand to the report channel and wipe.
void read_runtime_settings(ReportKeyText& key);

// PARLAB_SIM_CODE_PLACES as read by read_runtime_settings (report/code_places.hpp: the
// grader's table of the program's hook calls; empty without one), handed over once.
std::string take_code_places_setting();

// Whether the process had a settings descriptor that could not be read: a lost channel,
// which the start-up fails closed on.
bool settings_descriptor_unreadable();

}  // namespace parlab_sim::detail
