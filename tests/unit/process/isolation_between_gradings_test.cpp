// Gradings kept apart (docs/sandbox.md, the table at the top): own uids, a cgroup
// per run bounding the whole tree's memory, a disk quota, private run folders.
// Most cases need root (and cgroups for the memory ones): elsewhere they warn and pass.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <future>
#include <thread>

#include "process/run_area.hpp"
#include "process/run_cgroup.hpp"
#include "process/sandboxed_runner.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::test;
using Catch::Contains;

namespace {

bool skip_unless_root() {
  if (::geteuid() == 0) return false;
  WARN("not running as root: no uid pool, cgroup or quota to test");
  return true;
}

bool skip_without_cgroups() {
  if (skip_unless_root()) return true;
  if (process::detect_cgroup_support().kind != process::CgroupSupport::Kind::none) return false;
  WARN("no usable cgroups here (" + process::detect_cgroup_support().problem + ")");
  return true;
}

}  // namespace

TEST_CASE("A grading's runner and its reference runner have uids of their own",
          "[process][isolation]") {
  if (skip_unless_root()) return;
  SandboxedRunner first(options_with(SandboxOptions::Bubblewrap::never));
  SandboxedRunner second(options_with(SandboxOptions::Bubblewrap::never));
  auto& reference = dynamic_cast<SandboxedRunner&>(first.for_reference());
  CHECK(first.run_uid() != second.run_uid());
  CHECK(reference.run_uid() != first.run_uid());
  CHECK(reference.run_uid() != second.run_uid());
  CHECK(&first.for_reference() == &reference);  // leased once
  CHECK_THAT(first.isolation(), Contains("uid pool") &&
                                    Contains("reference uid " + std::to_string(reference.run_uid())));
}

TEST_CASE("A run folder is private to its uid: another grading cannot read it",
          "[process][isolation]") {
  if (skip_unless_root()) return;
  SandboxedRunner owner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  SandboxedRunner other(options_with(SandboxOptions::Bubblewrap::never));  // the weakest level
  ScratchDir scratch;
  RunRequest write = fake_request("ok_echo", scratch);
  REQUIRE(owner.run(write).outcome == RunOutcome::ok);
  std::ofstream(scratch / "work" / "answer.txt") << "42\n";
  struct stat info {};
  REQUIRE(::stat((scratch / "work").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0700);

  ScratchDir other_scratch;
  RunRequest read = fake_request("read_path", other_scratch);
  read.args = {(scratch / "work" / "answer.txt").string()};
  RunResult result = other.run(read);
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.stdout_text, Contains("Permission denied"));
}

TEST_CASE("One grading holding its process limit does not stop another one",
          "[process][isolation]") {
  if (skip_unless_root()) return;
  const auto mode = PARLAB_EACH_SANDBOX_MODE();
  SandboxedRunner hog_runner(options_with(mode));
  SandboxedRunner victim_runner(options_with(mode));
  ScratchDir hog_scratch, victim_scratch;
  RunRequest hog = fake_request("hold_process_limit", hog_scratch);
  hog.args = {"3"};
  hog.limits.max_processes = 16;
  auto hogging = std::async(std::launch::async, [&] { return hog_runner.run(hog); });
  std::this_thread::sleep_for(std::chrono::milliseconds(700));  // the limit is held now

  RunRequest victim = fake_request("fork_children", victim_scratch);
  victim.args = {"4"};
  victim.limits.max_processes = 16;
  RunResult result = victim_runner.run(victim);
  CHECK(result.outcome == RunOutcome::ok);
  CHECK_THAT(result.stdout_text, Contains("child"));

  RunResult held = hogging.get();
  CHECK_THAT(held.stdout_text, Contains("fork failed after"));
}

TEST_CASE("memfd files count against the run's memory limit", "[process][isolation][cgroup]") {
  if (skip_without_cgroups()) return;
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  ScratchDir scratch;
  RunRequest request = fake_request("memfd_hog", scratch);
  request.limits.address_space_mb = 512;
  request.limits.file_size_mb = 128;  // each memfd stays below it
  request.args = {"64"};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::memory_limit);
  CHECK_THAT(result.reason, Contains("together used more than 512 MiB"));
}

TEST_CASE("A fork fan-out is bounded as a whole", "[process][isolation][cgroup]") {
  if (skip_without_cgroups()) return;
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  ScratchDir scratch;
  RunRequest request = fake_request("fork_fanout", scratch);
  request.limits.address_space_mb = 512;  // each child's 200 MiB fits, 6 of them do not
  request.args = {"6", "200"};
  RunResult result = runner.run(request);
  CHECK(result.outcome == RunOutcome::memory_limit);
  CHECK_THAT(result.reason, Contains("child processes together"));
}

TEST_CASE("A run's cgroup reports CPU time and is gone afterwards", "[process][isolation][cgroup]") {
  if (skip_without_cgroups()) return;
  const auto& support = process::detect_cgroup_support();
  std::vector<std::filesystem::path> dirs;
  {
    process::RunCgroup cgroup(support, 64 << 20, 8);
    for (const std::string& file : cgroup.procs_files())
      dirs.push_back(std::filesystem::path(file).parent_path());
    for (const auto& dir : dirs) CHECK(std::filesystem::is_directory(dir));
    CHECK(cgroup.usage().oom_kills == 0);
  }
  for (const auto& dir : dirs) CHECK_FALSE(std::filesystem::exists(dir));
}

TEST_CASE("A disk filler meets the run area's quota", "[process][isolation][quota]") {
  if (skip_unless_root()) return;
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  ScratchDir scratch;
  std::filesystem::path area_dir = scratch / "runs";
  {
    process::RunArea area(area_dir, 32 << 20, false);
    REQUIRE(area.quota_enforced());
    CHECK_THAT(area.describe(), Contains("disk quota 32 MiB"));
    RunRequest request = fake_request("fill_disk", scratch);
    request.work_dir = area_dir / "filler";
    request.args = {"4"};
    RunResult result = runner.run(request);
    CHECK(result.outcome == RunOutcome::output_limit);
    CHECK_THAT(result.reason, Contains("disk quota exceeded") && Contains("32 MiB"));
  }
  CHECK_FALSE(std::filesystem::exists(area_dir));  // removed with the grading
}

TEST_CASE("A kept run area stays, without a quota", "[process][isolation][quota]") {
  ScratchDir scratch;
  {
    process::RunArea area(scratch / "runs", 32 << 20, true);
    CHECK_FALSE(area.quota_enforced());
    CHECK_THAT(area.describe(), Contains("--keep-runs"));
    std::ofstream(scratch / "runs" / "left.txt") << "x";
  }
  CHECK(std::filesystem::exists(scratch / "runs" / "left.txt"));
}

TEST_CASE("A grandchild that left the session dies with the run's cgroup",
          "[process][isolation][cgroup]") {
  if (skip_without_cgroups()) return;
  SandboxedRunner runner(options_with(SandboxOptions::Bubblewrap::never));  // no pid namespace
  ScratchDir scratch;
  RunResult result = runner.run(fake_request("escape_session", scratch));
  REQUIRE(result.outcome == RunOutcome::ok);
  int pid = 0;
  REQUIRE(std::sscanf(result.stdout_text.c_str(), "escaped %d", &pid) == 1);
  CHECK(::kill(pid, 0) == -1);  // gone and reaped, not a zombie
  CHECK(errno == ESRCH);
}
