// The stage step: the sandbox notes, and the grading's folder made and removed.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "grading/grading_stage.hpp"
#include "scratch_dir.hpp"

using namespace parlab::grader;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("stage: the sandbox notes say what the submission can see", "[grading][steps]") {
  CHECK_FALSE(weaker_sandbox_note("bubblewrap", "auto", ""));
  const auto unavailable = weaker_sandbox_note("rlimits", "auto", "no user namespaces");
  REQUIRE(unavailable);
  CHECK_THAT(*unavailable, Contains("bubblewrap unavailable (no user namespaces)") &&
                               Contains("--sandbox require"));
  CHECK_THAT(*weaker_sandbox_note("rlimits", "auto", ""), Contains("(reason unknown)"));
  CHECK_THAT(*weaker_sandbox_note("rlimits", "off", "x"), Contains("turned off (--sandbox off)"));
  HostInfo host;
  host.sandbox = "bubblewrap";
  host.isolation = "uid pool";
  CHECK(sandbox_note(host, "require") == "sandbox: bubblewrap (level require), uid pool");
}

TEST_CASE("stage: the grading's folder is made enter-only and removed unless kept",
          "[grading][steps]") {
  const parlab::testing::ScratchDir root;  // removed even when a check fails
  const fs::path work = root / "lab" / "hash";
  const fs::path grading = work / "gradings" / "g-test";
  {
    const GradingStage stage(work, grading, false, 64);
    CHECK(fs::is_directory(grading / "runs"));
    CHECK_FALSE(stage.run_area_description().empty());
    // Enter, not list, for every folder on the way.
    for (const fs::path& dir : {work, work / "gradings", grading}) {
      INFO(dir);
      const fs::perms p = fs::status(dir).permissions();
      CHECK((p & fs::perms::others_exec) != fs::perms::none);
      CHECK((p & fs::perms::others_read) == fs::perms::none);
      CHECK((p & fs::perms::group_read) == fs::perms::none);
    }
  }
  CHECK_FALSE(fs::exists(grading));
  CHECK(fs::is_directory(work / "gradings"));
  { const GradingStage kept(work, grading, true, 64); }
  CHECK(fs::is_directory(grading / "runs"));
}
