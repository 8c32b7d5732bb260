#pragma once
// A sim-mode run that the simulator stopped (a fault, a deadlock, host code touching
// device memory; sim/include/parlab_sim/exit_codes.hpp) is named as that stop only when
// its sealed report channel carries the runtime's stop record for the same status
// (parlab_sim/stop_record.hpp): any program can exit 87 and print "parlab-sim: ..." on
// stderr, and nothing the grader reads on stderr decides what a run was. The record
// gives the facts (the status, the faulting instruction's code offset, read or write);
// the test's message is worded here.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "parlab_sim/stop_record.hpp"
#include "process/process_runner.hpp"

namespace parlab::grader {

// One record's payload (a JSON object of the four keys, nothing else); nullopt when it
// is not exactly that: a status outside the simulator's stops, a negative offset, an
// unknown access or process.
std::optional<parlab_sim::StopRecord> parse_stop_record(const std::string& payload);

// The verified stop record of the run `run_name` under `runs_root` whose status is
// `exit_code`: from what came through its sealed report channel only (its files are the
// submission's to write). nullopt when the run was not sealed, none came, one does not
// carry its seal, or none of the started process (not a forked child) names that status.
std::optional<parlab_sim::StopRecord> sealed_stop_of(const std::filesystem::path& runs_root,
                                                     const std::string& run_name, int exit_code);

// Whether `exit_code` is one of the simulator's stop statuses (not the out-of-memory
// status, which the harness shares and which is classified by the status alone).
bool is_simulator_stop_status(int exit_code);

// The outcome and reason of a run that exited with a simulator stop status: with the
// stop's record, what the simulator stopped at; without one, a plain non-zero exit that
// says the simulator did not report it.
void name_simulator_stop(RunResult& run, const std::optional<parlab_sim::StopRecord>& stop);

}  // namespace parlab::grader
