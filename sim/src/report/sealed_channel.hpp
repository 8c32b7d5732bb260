#pragma once
// The simulator's report channel (docs/sandbox.md, "Nothing the submission can observe
// decides a verdict"). In a graded run, findings and counters leave the submission's
// process through a socket the grader gave it at kReportDescriptor
// (parlab_sim/settings_descriptor.hpp), one record per line, read by the grader while
// the run goes on: what was sent cannot be taken back, whatever the submission learns
// of its own memory. Every line is also sealed: the grader hands each run a fresh key
// with the settings (read and scrubbed before any submission code runs,
// config/runtime_settings), and each line carries an HMAC-SHA256 over the channel, the
// writing process, its sequence number and the payload. At exit the process that
// loaded the key writes a sealed closing record. The grader (grading/sealed_report)
// keeps only an unbroken, verified series: a line changed, added, removed or
// reordered, or a missing closing record after a clean exit, is a tampered report.
// Without the socket (a runner that gives none) the lines go to the files of the
// settings' paths, as the simulator run by hand writes them.
//
// Line format: "<L|E> <pid> <seq> <mac: 64 hex> <payload>\n"; L: a payload line (one
// JSON object), E: the closing record (payload "main", or "fork" for a forked child).
// The MAC covers "parlab-sim-report/1\n<channel>\n<L|E> <pid> <seq>\n<payload>".
// Through the socket each line is prefixed with its channel: "F " findings, "C " counters.
//
// Everything here lives in namespace parlab_sim::sealed, which the grader's copy of the
// runtime makes local (sim/CMakeLists.txt, parlab_sim_sealed): a submission cannot
// name these functions or the key; it links against the public API only.
#include <cstddef>
#include <string_view>

#include "parlab_sim/stop_record.hpp"

namespace parlab_sim::sealed {

enum class Channel { findings, counters };

// Takes the run's key (64 hex digits) once; later calls, and a malformed key, change
// nothing. Registers the closing records at exit (first, so they run last).
void take_key(std::string_view hex);

// Whether a key was given: without one (the simulator run by hand, its unit tests) lines
// are written as plain JSON, and no closing record.
bool keyed();

// Appends one payload line (no newline in it) to the channel's file, sealed when keyed.
void append(Channel channel, std::string_view payload);

// Sends the process's stop record (parlab_sim/stop_record.hpp), sealed, on the grader's
// channel ("S " lines, channel "stops", sequence 0: a process stops once), marked as the
// main process's when this is the process that took the key. Signal-safe: fixed buffers,
// no lock (the faulting thread may hold the channel's), one send. Without a key or the
// grader's socket it sends nothing: the report on stderr is for a person.
void append_stop(StopRecord record);

// The closing records (what the exit handler writes; exposed for the unit tests).
void close_all();

// The channel's name in the MAC: "findings" or "counters".
std::string_view channel_name(Channel channel);

}  // namespace parlab_sim::sealed
