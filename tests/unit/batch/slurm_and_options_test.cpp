#include <catch2/catch.hpp>

#include <sstream>

#include "batch/batch_options.hpp"
#include "batch/progress_reporter.hpp"
#include "batch/slurm_job.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using Catch::Matchers::Contains;

TEST_CASE("the array job script slices the class and quotes every argument") {
  ArrayJob j;
  j.job_name = "parlab-lab01";
  j.tasks = 4;
  j.cpus_per_task = 2;
  j.gpus_per_task = 1;
  j.time_limit_minutes = 45;
  j.partition = "gpu";
  j.exclusive = true;
  j.log_pattern = "/out/slurm/x/task-%a.log";
  j.command = {"/opt/grade", "batch", "lab01", "/class dir/it's here", "--out", "/out"};
  const std::string s = array_job_script(j);
  CHECK_THAT(s, Contains("#SBATCH --array=0-3\n"));
  CHECK_THAT(s, Contains("#SBATCH --cpus-per-task=2\n"));
  CHECK_THAT(s, Contains("#SBATCH --gpus-per-task=1\n"));
  CHECK_THAT(s, Contains("#SBATCH --time=45\n"));
  CHECK_THAT(s, Contains("#SBATCH --partition=gpu\n"));
  CHECK_THAT(s, Contains("#SBATCH --exclusive\n"));
  CHECK_THAT(s, Contains("#SBATCH --output=/out/slurm/x/task-%a.log\n"));
  CHECK_THAT(s, Contains("exec '/opt/grade' 'batch' 'lab01' '/class dir/it'\\''s here' '--out' '/out' "
                         "--slice \"${SLURM_ARRAY_TASK_ID}/4\"\n"));

  ArrayJob cpu = j;
  cpu.gpus_per_task = 0;
  cpu.partition = "";
  cpu.exclusive = false;
  const std::string c = array_job_script(cpu);
  CHECK_THAT(c, !Contains("gpus-per-task"));
  CHECK_THAT(c, !Contains("partition"));
  CHECK_THAT(c, !Contains("exclusive"));

  const std::string collect = collect_job_script("/opt/grade", "/out", "/out/slurm/x/collect.log", "");
  CHECK_THAT(collect, Contains("exec '/opt/grade' batch --collect '/out'\n"));
}

TEST_CASE("child gradings get the batch's options, and a time cap from lab.toml") {
  BatchOptions o;
  o.lab_id = "lab01";
  o.work_root = "/w";
  o.performance = false;
  o.wall_limit = 5;
  o.seed = 42;
  auto a = child_grade_args(o, "/sub/alice", "/w/r.json");
  CHECK(a == std::vector<std::string>{"lab01", "/sub/alice", "--work-dir", "/w", "--json", "/w/r.json", "--color",
                                      "never", "--sandbox", "require", "--no-perf", "--wall-limit", "5.000000",
                                      "--seed", "42"});
  CHECK(child_grade_args(o, {}, "/r.json")[1] == "--reference");

  LabSpec lab;
  TestSpec c;
  c.kind = TestKind::correctness;
  c.limits.wall_seconds = 30;
  TestSpec p;
  p.kind = TestKind::performance;
  p.limits.wall_seconds = 30;
  p.performance = PerformanceSpec{};
  p.performance->budget_seconds = 60;
  lab.tests = {c, p};
  CHECK(grading_time_cap(lab, o) == Approx(300 + 5 * 5));  // --no-perf, wall capped at 5 s
  o.performance = true;
  o.wall_limit.reset();
  o.jobs = 3;
  CHECK(grading_time_cap(lab, o) == Approx(300 + 150 + 360 + 2 * 360));
  o.student_timeout_s = 99;
  CHECK(grading_time_cap(lab, o) == 99);
}

TEST_CASE("progress lines count failures and estimate the rest") {
  CHECK(ProgressReporter::duration_text(45) == "45s");
  CHECK(ProgressReporter::duration_text(200) == "3m20s");
  CHECK(ProgressReporter::duration_text(3725) == "1h02m");
  std::ostringstream out;
  ProgressReporter p(3, false, out);
  StudentRecord ok;
  ok.student = {"a", "", "a"};
  ok.status = StudentStatus::graded;
  StudentRecord bad;
  bad.student = {"b", "", "b.zip"};
  bad.status = StudentStatus::rejected;
  bad.reason = "not a usable submission: the archive is empty";
  p.finished(ok);
  p.finished(bad);
  CHECK_THAT(out.str(), Contains("grade: batch: [1/3] 0 failed, ETA"));
  CHECK_THAT(out.str(), Contains("[2/3] 1 failed, ETA"));
  CHECK_THAT(out.str(), Contains("b: rejected (not a usable submission: the archive is empty)"));
  CHECK(p.status_line().rfind("[2/3] 1 failed", 0) == 0);
}
