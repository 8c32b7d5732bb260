// host.sandbox_level and host.isolation (docs/result-schema.md): written when set,
// read back, and optional, so results written before them still load.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "cli/sandbox_level.hpp"
#include "result/result_json.hpp"

using namespace parlab::grader;
using Catch::Contains;

TEST_CASE("The sandbox level and isolation round-trip through the JSON result",
          "[result][sandbox]") {
  GradeResult r;
  r.host.sandbox = "bubblewrap";
  r.host.sandbox_level = "require";
  r.host.isolation = "uid pool (uid 60500, reference uid 60501), cgroup v1 memory+pids+cpuacct";
  const std::string text = result_json_text(r);
  GradeResult back = grade_result_from_json_text(text);
  CHECK(back.host.sandbox_level == "require");
  CHECK(back.host.isolation == r.host.isolation);

  // An older result without them still reads.
  nlohmann::json older = nlohmann::json::parse(text);
  older["host"].erase("sandbox_level");
  older["host"].erase("isolation");
  GradeResult old = grade_result_from_json(older);
  CHECK(old.host.sandbox_level.empty());
  CHECK(old.host.sandbox == "bubblewrap");
}

TEST_CASE("the sandbox level flag takes auto, require or off", "[cli][sandbox]") {
  CHECK(checked_sandbox_level("require") == "require");
  CHECK_THROWS_AS(checked_sandbox_level("on-ish"), UsageError);
  CHECK_THAT(bubblewrap_fix_hint(), Contains("systempaths=unconfined") && Contains("unmask=ALL") &&
                                         Contains("Apptainer"));
}
