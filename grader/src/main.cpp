// `grade`: the parlab autograder. All work happens in the cli/ table; main only hands
// over argv so that no exception can escape (DESIGN invariant 5).
#include "cli/commands.hpp"

int main(int argc, char** argv) { return parlab::grader::run_cli(argc, argv); }
