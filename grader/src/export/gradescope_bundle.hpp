#pragma once
// The two scripts of a Gradescope autograder (`grade export gradescope`,
// docs/release.md). Gradescope unzips the bundle into /autograder/source, runs
// setup.sh there once while it builds the image, and run_autograder for every
// submission, which must leave /autograder/results/results.json.
// PARLAB_AUTOGRADER_ROOT replaces /autograder (the e2e test's fake layout).
#include <string>
#include <vector>

namespace parlab::grader {

// Installs the Debian packages, builds the kit, installs `grade` and checks that the
// lab's skeleton of each of `tracks` ("cpp", "python") grades (exit 1: it ran and failed
// its tests) so a broken image fails while it is built, not at the first student.
std::string gradescope_setup_script(const std::string& lab_id, const std::vector<std::string>& tracks);

// Grades the folder of /autograder/submission that holds one of `first_sources` (each
// track's first source file: a class may submit C++ or Python; students upload files
// or a folder) into results.json. A grading the tool itself could not do still leaves
// a results.json (score 0, the reason) for the student.
std::string gradescope_run_script(const std::string& lab_id, const std::vector<std::string>& first_sources);

}  // namespace parlab::grader
