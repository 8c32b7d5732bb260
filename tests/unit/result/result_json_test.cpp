#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "result/result_json.hpp"
#include "result_equality.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

namespace {

// The sample with every field away from its default, so a dropped field shows.
GradeResult everything_set() {
  GradeResult r = sample_grade_result();
  r.reference_mode = true;
  r.performance_enabled = false;
  r.fresh_seed = std::numeric_limits<std::uint64_t>::max();
  r.host.gpu = "NVIDIA H100 80GB HBM3";
  r.tests[1].measurement->ratios.push_back(std::numeric_limits<double>::infinity());
  r.tests[1].measurement->zero_at = -std::numeric_limits<double>::infinity();
  r.tests[2].message = "unicode \xCE\xBB and \"quotes\"\ttab";
  r.tests[2].seconds = 0.1 + 0.2;  // not exactly representable: must survive bit for bit
  r.notes.push_back("second note");
  // GPU-lab fields (optional in the JSON).
  r.device = {.mode = DeviceMode::gpu, .name = "NVIDIA H100 80GB HBM3", .detail = "compute capability 9.0",
              .bandwidth_gbs = 2987.5, .sgemm_gflops = 51234.25};
  r.tests[1].phases = {{"kernels", 0.00125}, {"host_to_device", 0.0031}};
  r.tests[1].roofline = Roofline{.bound = RooflineBound::memory, .unit = "GB/s", .achieved = 812.5,
                                 .peak = 2987.5, .fraction = 812.5 / 2987.5,
                                 .hint = "uncoalesced?"};
  return r;
}

std::string error_of(const nlohmann::json& j) {
  try {
    grade_result_from_json(j);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  FAIL("expected std::runtime_error");
  return "";
}

}  // namespace

TEST_CASE("JSON round trip is lossless", "[result][json]") {
  for (const GradeResult& original : {everything_set(), sample_build_failed_result()}) {
    const GradeResult back = grade_result_from_json(to_json(original));
    check_same(original, back);
    // Through text too, as result files are read back.
    check_same(original, grade_result_from_json_text(result_json_text(original)));
  }
}

TEST_CASE("JSON carries the format name, version and every field", "[result][json]") {
  const nlohmann::json j = to_json(sample_grade_result());
  CHECK(j.at("format") == "parlab-result");
  CHECK(j.at("schema_version") == 1);
  CHECK(j.at("tests").at(2).at("mismatch").at("got") == "NaN");
  CHECK(j.at("tests").at(0).at("mismatch").is_null());
  CHECK(j.at("tests").at(1).at("measurement").at("ratios").size() == 9);
  CHECK(j.at("build").at("diagnostics").at(0).at("line") == 58);
  CHECK(j.size() == 20);
  CHECK(j.contains("graded_max_score"));
  CHECK(j.at("tests").at(1).at("measurement").at("observed").at("work_spread") == 3.9);
  CHECK(j.at("child_seconds") == 38.25);
  CHECK(j.at("phase_seconds").at("checking_reruns") == 8.0);
  CHECK(j.at("phase_seconds").size() == 6);
  CHECK(j.at("tests").at(0).size() == 14);
}

TEST_CASE("a counter check's measurement round-trips and is written only when set", "[result][json]") {
  GradeResult r = sample_grade_result();
  const nlohmann::json before = to_json(r);
  CHECK_FALSE(before.at("tests").at(1).at("measurement").contains("counter"));
  Measurement m;
  m.baseline = "reference";
  m.candidate = "submission";
  m.counter = CounterMeasurement{.counter = "global_loads_per_output",
                                 .what = "global loads per output element",
                                 .value = 2062.0,
                                 .reference = 128.9,
                                 .ratio = 2062.0 / 128.9,
                                 .full_at = 2.0,
                                 .zero_at = 8.0};
  r.tests[1].measurement = m;
  const nlohmann::json j = to_json(r);
  const nlohmann::json& counter = j.at("tests").at(1).at("measurement").at("counter");
  CHECK(counter.size() == 7);
  CHECK(counter.at("counter") == "global_loads_per_output");
  CHECK(counter.at("value") == 2062.0);
  CHECK(counter.at("reference") == 128.9);
  CHECK(counter.at("full_at") == 2.0);
  CHECK(counter.at("zero_at") == 8.0);
  const GradeResult back = grade_result_from_json_text(result_json_text(r));
  check_same(r, back);
  REQUIRE(back.tests[1].measurement->counter);
  CHECK(back.tests[1].measurement->counter->ratio == 2062.0 / 128.9);

  nlohmann::json bad = j;
  bad["tests"][1]["measurement"]["counter"].erase("reference");
  CHECK_THAT(error_of(bad), Contains("tests[1].measurement.counter.reference"));
  bad = j;
  bad["tests"][1]["measurement"]["counter"]["value"] = "many";
  CHECK_THAT(error_of(bad), Contains("tests[1].measurement.counter.value"));
}

TEST_CASE("absent and null optionals both read as empty", "[result][json]") {
  nlohmann::json j = to_json(sample_grade_result());
  j["tests"][2].erase("mismatch");
  j["tests"][1]["measurement"] = nullptr;
  const GradeResult r = grade_result_from_json(j);
  CHECK_FALSE(r.tests[2].mismatch.has_value());
  CHECK_FALSE(r.tests[1].measurement.has_value());
}

TEST_CASE("reading names the missing or bad field", "[result][json]") {
  const nlohmann::json good = to_json(sample_grade_result());

  nlohmann::json j = good;
  j.erase("lab_id");
  CHECK_THAT(error_of(j), Contains("'lab_id' is missing"));

  j = good;
  j["tests"][2]["mismatch"].erase("index");
  CHECK_THAT(error_of(j), Contains("'tests[2].mismatch.index' is missing"));

  j = good;
  j["host"]["cores"] = "eight";
  CHECK_THAT(error_of(j), Contains("'host.cores' must be an integer"));

  j = good;
  j["tests"][4]["status"] = "almost";
  CHECK_THAT(error_of(j), Contains("'tests[4].status'") && Contains("'almost'"));

  j = good;
  j["tests"][0]["kind"] = "speed";
  CHECK_THAT(error_of(j), Contains("'tests[0].kind'") && Contains("unknown test kind 'speed'") &&
                              Contains("correctness, performance"));

  j = good;
  j["build"]["diagnostics"][0]["line"] = -1.5;
  CHECK_THAT(error_of(j), Contains("'build.diagnostics[0].line'"));

  j = good;
  j["tests"][1]["measurement"]["ratios"][3] = "fast";
  CHECK_THAT(error_of(j), Contains("'tests[1].measurement.ratios[3]'"));

  j = good;
  j["fresh_seed"] = -3;
  CHECK_THAT(error_of(j), Contains("'fresh_seed' must be a non-negative integer"));

  j = good;
  j["notes"][0] = 7;
  CHECK_THAT(error_of(j), Contains("'notes[0]'"));
}

TEST_CASE("reading rejects another format or schema version", "[result][json]") {
  nlohmann::json j = to_json(sample_grade_result());
  j["schema_version"] = 2;
  CHECK_THAT(error_of(j), Contains("'schema_version' is 2"));

  j = to_json(sample_grade_result());
  j["format"] = "junit";
  CHECK_THAT(error_of(j), Contains("'format' must be \"parlab-result\""));

  CHECK_THAT(error_of(nlohmann::json::array()), Contains("must be an object"));
  CHECK_THROWS_WITH(grade_result_from_json_text("{not json"), Contains("not valid JSON"));
}

TEST_CASE("result JSON text survives invalid UTF-8 in captured output", "[result][json]") {
  GradeResult r = sample_grade_result();
  r.tests[4].stderr_tail = "bad byte \xFF here\n";
  const GradeResult back = grade_result_from_json_text(result_json_text(r));
  CHECK(back.tests[4].stderr_tail == "bad byte \xEF\xBF\xBD here\n");
}

TEST_CASE("GPU-lab fields are left out for CPU labs and read back for GPU labs", "[result][json]") {
  const nlohmann::json cpu = to_json(sample_grade_result());
  CHECK_FALSE(cpu.contains("device"));
  CHECK_FALSE(cpu["tests"][1].contains("phases"));
  CHECK_FALSE(cpu["tests"][1].contains("roofline"));
  const nlohmann::json gpu = to_json(everything_set());
  CHECK(gpu["device"]["mode"] == "gpu");
  CHECK(gpu["tests"][1]["phases"][1]["name"] == "host_to_device");
  CHECK(gpu["tests"][1]["roofline"]["unit"] == "GB/s");
  nlohmann::json broken = gpu;
  broken["tests"][1]["roofline"].erase("peak");
  CHECK_THAT(error_of(broken), Contains("tests[1].roofline.peak"));
}

TEST_CASE("the track is written only when not cpp and read back", "[result][json]") {
  GradeResult r = sample_grade_result();
  CHECK_FALSE(to_json(r).contains("track"));
  CHECK(grade_result_from_json(to_json(r)).track == Track::cpp);
  r.track = Track::python;
  const nlohmann::json j = to_json(r);
  CHECK(j.at("track") == "python");
  CHECK(grade_result_from_json(j).track == Track::python);
  nlohmann::json bad = j;
  bad["track"] = "rust";
  CHECK_THROWS_WITH(grade_result_from_json(bad), Catch::Contains("track"));
}
