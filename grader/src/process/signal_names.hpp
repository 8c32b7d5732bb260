#pragma once
// Signal numbers as a student should read them: the name and what usually causes it.
#include <string>

namespace parlab::grader::process {

// "SIGSEGV"; "SIG42" for numbers without a name (real-time signals and the like).
std::string signal_name(int signal);

// A short teaching explanation, e.g. for SIGSEGV "segmentation fault: invalid
// memory access, e.g. a null or dangling pointer, or out-of-bounds index".
// Empty when there is nothing more useful to say than the name.
std::string signal_explanation(int signal);

}  // namespace parlab::grader::process
