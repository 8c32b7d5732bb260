#pragma once
// Telling the grader's failures from the student's (docs/batch.md "Infrastructure
// failures"). A child `grade` that exits 3 (environment) or 4 (internal), dies by a
// signal, or whose build failed because a process could not be started (fork/vfork
// EAGAIN on a shared process limit, a sandbox that could not be set up) failed for
// the grader's reasons: the batch retries it and never records it as the student's.
#include <optional>
#include <string>

#include "batch/child_grade.hpp"
#include "result/result.hpp"

namespace parlab::grader::batch {

// Why this finished child run is the grader's failure; "" when its result stands
// (exit 0 or 1).
std::string child_failure(const ChildRun& run);

// Why a result is the grader's failure, or "": a build that failed because the
// compiler driver could not start a process (only the driver's own lines count, "g++:
// fatal error: ... vfork: Resource temporarily unavailable", never a diagnostic at a
// source location, which the student's code controls), or a test run that failed with
// "Resource temporarily unavailable" (fork EAGAIN on the process limit gradings share),
// unless the grading ran under a pool uid of its own: then only the student's code
// held that limit, and the failure is its verdict (a fork loop is graded, not retried).
std::string infrastructure_problem_in(const GradeResult& result);

// Test hook: PARLAB_TEST_BATCH_INFRA_FAIL="ID:CODE:COUNT" makes the first COUNT
// gradings of student ID in this process a child that exits CODE (see
// tests/e2e/batch_infra_retry.sh). Returns the exit code to simulate, if any.
std::optional<int> simulated_infrastructure_failure(const std::string& id);

}  // namespace parlab::grader::batch
