#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <sstream>

#include "batch/gradebook.hpp"
#include "batch/infrastructure_failure.hpp"
#include "batch/output_lock.hpp"
#include "batch/progress_reporter.hpp"
#include "batch/regrade_marker.hpp"
#include "batch/student_record.hpp"
#include "batch_test_support.hpp"
#include "core/errors.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using namespace parlab::grader::batch::testing;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// Whether another process could take the lock now.
bool other_process_can_lock(const fs::path& out, const std::string& submission) {
  pid_t pid = ::fork();
  if (pid == 0) {
    try {
      OutputLock l = lock_output_folder(out, submission);
      ::_exit(0);
    } catch (...) {
      ::_exit(1);
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

TEST_CASE("the grader's failures are told from the student's") {
  ChildRun ok;
  ok.exit_code = 1;
  CHECK(child_failure(ok).empty());
  ChildRun env;
  env.exit_code = 3;
  env.error_line = "no compiler";
  CHECK_THAT(child_failure(env), Contains("status 3: no compiler"));
  ChildRun internal;
  internal.exit_code = 4;
  CHECK_FALSE(child_failure(internal).empty());
  ChildRun killed;
  killed.signal = 9;
  CHECK_FALSE(child_failure(killed).empty());

  GradeResult r;
  r.build.ok = false;
  r.build.log = "g++: fatal error: cannot execute 'cc1plus': vfork: Resource temporarily unavailable\n";
  CHECK_THAT(infrastructure_problem_in(r), Contains("Resource temporarily unavailable"));
  r.build.log = "bwrap: Creating new namespace failed: Resource temporarily unavailable\n";
  CHECK_FALSE(infrastructure_problem_in(r).empty());
  // The student's own code controls its diagnostics: never an excuse to be retried.
  r.build.log = "file_stats.cpp:3:2: error: #error vfork: Resource temporarily unavailable\n";
  CHECK(infrastructure_problem_in(r).empty());
  r.build.log = "file_stats.cpp:9:1: error: expected ';'\n";
  CHECK(infrastructure_problem_in(r).empty());
  r.build.ok = true;
  r.build.log = "Resource temporarily unavailable";
  CHECK(infrastructure_problem_in(r).empty());

  // A run that could not fork: retried; an ordinary failure: the student's.
  TestResult t;
  t.name = "static schedule";
  t.status = TestStatus::failed;
  t.outcome = RunOutcome::nonzero_exit;
  t.message = "exited with status 1: fork failed (process limit reached?): Resource temporarily unavailable";
  r.tests = {t};
  CHECK_THAT(infrastructure_problem_in(r), Contains("test 'static schedule' could not start its processes"));
  r.tests[0].message = "exited with status 1";
  r.tests[0].stderr_tail = "bwrap: Can't fork for pid 1: Resource temporarily unavailable\n";
  CHECK_THAT(infrastructure_problem_in(r), Contains("bwrap: Can't fork for pid 1"));
  r.tests[0].message = "exited with status 1: wrong answer";
  r.tests[0].stderr_tail = "assertion failed\n";
  CHECK(infrastructure_problem_in(r).empty());
  // Under a pool uid of its own only the student's code held the process limit: a fork
  // loop's EAGAIN is its verdict, not a retry.
  r.host.isolation = "uid pool (uid 60500, reference uid 60501), cgroup v2 memory+pids+cpu";
  r.tests[0].message = t.message;
  CHECK(infrastructure_problem_in(r).empty());
  r.host.isolation = "shared uid 65534 (no uid pool), cgroup v2 memory+pids+cpu";
  CHECK_FALSE(infrastructure_problem_in(r).empty());
}

TEST_CASE("one writer per output folder: local batches exclusive, one Slurm submission shared") {
  ScratchDir s;
  const fs::path out = s.path() / "out";
  {
    OutputLock local = lock_output_folder(out, "");
    CHECK_FALSE(other_process_can_lock(out, ""));
    CHECK_FALSE(other_process_can_lock(out, "20260101-1"));
    CHECK_THAT(output_lock_holder(out), Contains("held by grade batch, pid"));
  }
  CHECK(other_process_can_lock(out, ""));
  {
    OutputLock task = lock_output_folder(out, "20260101-1");
    CHECK(other_process_can_lock(out, "20260101-1"));   // a sibling task
    CHECK_FALSE(other_process_can_lock(out, "20260101-2"));  // another submission
    CHECK_FALSE(other_process_can_lock(out, ""));            // a local batch or --collect
    CHECK_THAT(output_lock_holder(out), Contains("Slurm submission 20260101-1"));
  }
  CHECK(other_process_can_lock(out, "20260101-2"));
}

TEST_CASE("a regrade marker stands until collected, temp files of killed writers go") {
  ScratchDir s;
  BatchLayout layout{s.path()};
  CHECK_FALSE(pending_regrade(layout));
  const std::string t = start_regrade(layout);
  CHECK(pending_regrade(layout) == t);
  CHECK(start_regrade(layout) != t);
  finish_regrade(layout);
  CHECK_FALSE(pending_regrade(layout));

  write_text(s.path() / "students" / "a" / ".status.json.tmp.123.4", "x");
  write_text(s.path() / ".gradebook.csv.tmp.9.0", "x");
  write_text(s.path() / "students" / "a" / "status.json", "keep");
  write_text(s.path() / "students" / "a" / ".hidden.tmp", "keep");
  CHECK(remove_stale_temp_files(s.path()) == 2);
  CHECK(fs::exists(s.path() / "students" / "a" / "status.json"));
  CHECK(fs::exists(s.path() / "students" / "a" / ".hidden.tmp"));
}

TEST_CASE("gradebook cells stay readable, the early ETA is not too optimistic") {
  const std::string longer(4000, 'x');
  const std::string cell = capped_cell(longer, 300);
  CHECK(cell.size() < 400);
  CHECK_THAT(cell, Contains("3700 more characters"));
  CHECK(capped_cell("short", 300) == "short");
  // Never cut inside a UTF-8 character.
  CHECK(capped_cell(std::string(299, 'a') + "\xC3\xA9" + "zzz", 300).substr(299, 1) == " ");

  std::ostringstream out;
  ProgressReporter p(10, false, out, 2);
  CHECK_THAT(p.status_line(), Contains("ETA estimating..."));
  StudentRecord quick;
  quick.status = StudentStatus::rejected;
  quick.seconds = 1;  // a rejected archive says nothing of a grading's time
  p.finished(quick);
  CHECK_THAT(p.status_line(), Contains("ETA estimating..."));
  StudentRecord graded;
  graded.status = StudentStatus::graded;
  graded.seconds = 60;  // as if one grading took a minute
  p.finished(graded);
  // 8 left on 2 jobs: 4 rounds of a minute, whatever the wall clock says so far.
  CHECK_THAT(p.status_line(), Contains("ETA 4m00s"));
  // A grading that needed retries says so, on a terminal too.
  StudentRecord retried;
  retried.student.id = "alice";
  retried.status = StudentStatus::graded;
  retried.attempts = 3;
  p.finished(retried);
  CHECK_THAT(out.str(), Contains("alice: graded [after 3 attempts: the grader retried]"));
  std::ostringstream tty;
  ProgressReporter live(2, true, tty, 1);
  live.finished(retried);
  CHECK_THAT(tty.str(), Contains("grade: batch: alice: graded [after 3 attempts"));
}
