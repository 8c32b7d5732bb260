#pragma once
// Code address -> "file:line" of the student's source, for race reports and the
// counters: from the run's code places (report/code_places.hpp, worked out once per
// program by the grader) where they hold the address, else addr2line on the running
// executable (built with -g1 in the check build; a process per batch of new addresses).
// Inlined frames of the simulator's and the standard library's headers are skipped, so
// the line is the student's.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace parlab_sim::detail {

// "lab.cu:42", or "an unknown line" when the executable has no line information or
// addr2line is missing.
std::string source_line_of(const void* code_address);

// Where each code address is, for the divergence counter (one addr2line run for all of
// them; answers cached): `library` when the innermost frame of the address is in the
// simulator's or the standard library's headers (their branches are not the student's:
// a GPU has no such code), `launch_thunk` when it is in the lambda a rewritten launch
// wraps the kernel in (rewrite/launch_sites.cpp: code at the host launch line, where g++
// puts the exits of a kernel it inlined there: the kernel's code, but its line names no
// branch), `line` the student's line as source_line_of gives it.
struct CodeLocation {
  bool library = false;
  bool launch_thunk = false;
  std::string line;
};
std::vector<CodeLocation> code_locations_of(const std::vector<const void*>& code_addresses);

// Where each of `offsets` (instruction addresses as addr2line takes them) is in `object`,
// from one addr2line run, each line as addr2line named it ("" for none: not yet the name
// a report shows); an offset addr2line gave no answer for (no addr2line, output past its
// cap) is left out. Used by the runs and by parlab-sim-code-places (report/code_places.hpp).
std::map<std::uintptr_t, CodeLocation> locate_in_object(const std::string& object,
                                                        const std::vector<std::uintptr_t>& offsets);

// True for a file of the simulator's headers or the standard library's.
bool is_library_file(const std::string& file);

// One frame of a code address as addr2line -i -f -C gives it: the function (demangled)
// and "file:line" (empty where it names no line of a source).
struct AddressFrame {
  std::string function;
  std::string place;
};

// The place of the launch lambda's frame among `frames` (innermost first): the host
// launch line, when a kernel was inlined into the lambda; else "".
std::string launch_lambda_place(const std::vector<AddressFrame>& frames);

// True for a code address in the lambda a rewritten launch wraps the kernel in: its own
// demangled name ("main::{lambda((auto:1&&)...)#2}::operator()<...>"), an inlined
// "operator()<...>" called from the simulator's LaunchState<...>::run_thread (or its
// std::__invoke of the lambda), or run_thread's own code at one of `launch_places`.
bool is_launch_thunk(const std::vector<AddressFrame>& frames,
                     const std::set<std::string>& launch_places);

}  // namespace parlab_sim::detail
