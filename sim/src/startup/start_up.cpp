#include "startup/start_up.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "config/program_code.hpp"
#include "config/runtime_lock.hpp"
#include "config/runtime_settings.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/stop_record.hpp"
#include "report/code_places.hpp"
#include "report/sealed_channel.hpp"

namespace parlab_sim::detail {

void load_runtime_settings_from_environment() {
  ReportKeyText key = {};
  read_runtime_settings(key);
  // Before any code of the submission runs, like the settings it came with.
  load_code_places(take_code_places_setting());
  // After the settings exist: the channel's closing records, registered now, run at exit
  // after anything registered before them (exit handlers run last-in first).
  parlab_sim::sealed::take_key(key);
  volatile char* wipe = key;
  for (std::size_t i = 0; i < sizeof key; ++i) wipe[i] = 0;
}

void load_runtime_settings_once() {
  static bool loaded = false;  // constant-initialized; start-up is single-threaded
  if (loaded) return;
  loaded = true;
  load_runtime_settings_from_environment();
  // Into the locked page with the settings: after the lock it could not be written.
  look_up_program_code_once();
  // A graded run (the grader hands a key) locks before any code of the submission runs,
  // or does not run at all; so does one whose settings descriptor was there but unread.
  std::string problem = "its settings descriptor could not be read";
  const bool lost_settings = settings_descriptor_unreadable();
  if (!lost_settings && !parlab_sim::sealed::keyed()) return;
  if (!lost_settings && lock_runtime(problem)) return;
  std::fprintf(stderr, "parlab-sim: the simulator could not lock its checks before the program ran (%s)\n",
               problem.c_str());
  parlab_sim::sealed::append_stop({kExitNotLocked});  // keyed: the grader names this stop
  std::_Exit(parlab_sim::kExitNotLocked);
}

}  // namespace parlab_sim::detail

extern "C" void parlab_sim_start_up_anchor() {}

namespace {

// Before every constructor of default priority, in particular the submission's; earlier
// ones (priorities 0-100 are the toolchain's, .preinit_array) are refused at build time.
__attribute__((constructor(101))) void read_settings_at_start_up() {
  parlab_sim::detail::load_runtime_settings_once();
}

}  // namespace
