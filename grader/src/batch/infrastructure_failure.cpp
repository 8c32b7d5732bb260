#include "batch/infrastructure_failure.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#include "core/errors.hpp"

namespace parlab::grader::batch {
namespace {

// What the compiler driver (or the build tool) prints when it cannot start a process;
// a student's source cannot produce these lines outside a "file:line:" diagnostic.
constexpr const char* kMarkers[] = {
    "Resource temporarily unavailable",  // fork/vfork/posix_spawn EAGAIN: shared process limit
    "Cannot allocate memory",            // fork ENOMEM
    "bubblewrap could not set up",       // the sandbox's own setup failed
    "bwrap: ",                           // bubblewrap's messages
};

bool is_source_diagnostic(const std::string& line) {
  static const std::regex located(R"(^[^ :]+:[0-9]+[:,(])");
  return std::regex_search(line, located);
}

}  // namespace

std::string child_failure(const ChildRun& run) {
  // Exit 5: a finished grading with an inconclusive performance test (machine busy);
  // its result stands, and the batch may measure again (student_grader).
  if (run.exit_code == kExitAllPassed || run.exit_code == kExitSomeFailed ||
      run.exit_code == kExitInconclusive)
    return "";
  return run.describe();
}

std::string infrastructure_problem_in(const GradeResult& result) {
  // A run that could not fork for lack of processes the gradings share. The text comes
  // from the student's program, so a hostile one could print it: that earns retries and
  // then an error row for the instructor to look at, never points.
  // Under a pool uid of its own (root grader) a grading shares its process limit with
  // no one: EAGAIN in a test run is the student's own doing (a fork loop), its verdict.
  const bool own_uid = result.host.isolation.rfind("uid pool (", 0) == 0;
  for (const TestResult& t : result.tests) {
    if (own_uid) break;
    if (t.status == TestStatus::passed || t.outcome == RunOutcome::ok || t.outcome == RunOutcome::not_run) continue;
    // bubblewrap's own "bwrap: Can't fork for pid 1: ..." lands in the run's stderr.
    for (const std::string* text : {&t.message, &t.stderr_tail}) {
      const auto at = text->find("Resource temporarily unavailable");
      if (at == std::string::npos) continue;
      const auto line_start = text->rfind('\n', at);
      const std::string line = text->substr(line_start == std::string::npos ? 0 : line_start + 1, 300);
      return "test '" + t.name + "' could not start its processes (a limit the gradings share): " +
             line.substr(0, line.find('\n'));
    }
  }
  if (result.build.ok) return "";
  std::istringstream in(result.build.log);
  for (std::string line; std::getline(in, line);) {
    if (is_source_diagnostic(line)) continue;
    for (const char* m : kMarkers) {
      if (line.find(m) != std::string::npos) {
        return "the build failed for the grader's reasons, not the student's: " + line.substr(0, 300);
      }
    }
  }
  return "";
}

std::optional<int> simulated_infrastructure_failure(const std::string& id) {
  const char* spec = std::getenv("PARLAB_TEST_BATCH_INFRA_FAIL");
  if (!spec) return std::nullopt;
  static std::mutex mutex;
  static std::map<std::string, int> used;
  const std::string text = spec;
  const auto a = text.find(':'), b = text.rfind(':');
  if (a == std::string::npos || a == b || text.substr(0, a) != id) return std::nullopt;
  const int code = std::atoi(text.substr(a + 1, b - a - 1).c_str());
  const int count = std::atoi(text.substr(b + 1).c_str());
  std::lock_guard<std::mutex> lock(mutex);
  if (used[id] >= count) return std::nullopt;
  ++used[id];
  return code;
}

}  // namespace parlab::grader::batch
