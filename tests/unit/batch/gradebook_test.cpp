#include <catch2/catch.hpp>

#include "batch/class_summary.hpp"
#include "batch/gradebook.hpp"
#include "batch/student_record.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using Catch::Matchers::Contains;

namespace {

BatchManifest manifest() {
  BatchManifest m;
  m.lab_id = "lab01";
  m.lab_title = "Multiprocessing";
  m.max_score = 100;
  m.tests = {{"serial, stats", TestKind::correctness, 60}, {"speedup", TestKind::performance, 40}};
  return m;
}

TestResult test(const std::string& name, TestKind kind, double points, double max, TestStatus st,
                RunOutcome out = RunOutcome::ok, double ratio = 0) {
  TestResult t;
  t.name = name;
  t.kind = kind;
  t.points = points;
  t.max_points = max;
  t.status = st;
  t.outcome = out;
  if (ratio > 0) {
    Measurement m;
    m.median_ratio = ratio;
    t.measurement = m;
  }
  return t;
}

StudentRecord graded(const std::string& id, double correct, double perf, double ratio,
                     RunOutcome outcome = RunOutcome::ok) {
  StudentRecord r;
  r.student = {id, "Name " + id, id + ".zip"};
  r.status = StudentStatus::graded;
  GradeResult g;
  g.build.ok = true;
  g.max_score = 100;
  g.graded_max_score = 100;
  g.tests = {test("serial, stats", TestKind::correctness, correct, 60, correct == 60 ? TestStatus::passed : TestStatus::failed,
                  outcome),
             test("speedup", TestKind::performance, perf, 40, perf == 40 ? TestStatus::passed : TestStatus::partial,
                  RunOutcome::ok, ratio)};
  g.score = correct + perf;
  g.host.sandbox = "bubblewrap";
  g.host.sandbox_level = "require";
  r.result = g;
  return r;
}

StudentRecord build_failed(const std::string& id) {
  StudentRecord r;
  r.student = {id, "", id};
  r.status = StudentStatus::build_failed;
  GradeResult g;
  g.build.ok = false;
  g.build.diagnostics = {{"file_stats.cpp", 12, 3, "warning", "unused"}, {"file_stats.cpp", 40, 1, "error", "expected ';'"}};
  g.max_score = 100;
  g.graded_max_score = 100;
  g.tests = {test("serial, stats", TestKind::correctness, 0, 60, TestStatus::failed, RunOutcome::not_run),
             test("speedup", TestKind::performance, 0, 40, TestStatus::failed, RunOutcome::not_run)};
  r.result = g;
  return r;
}

}  // namespace

TEST_CASE("csv fields are quoted only when needed, numbers kept short") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("Smith, Alice") == "\"Smith, Alice\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(format_points(10) == "10");
  CHECK(format_points(60.35) == "60.35");
  CHECK(format_points(0) == "0");
}

TEST_CASE("the gradebook has one row per student with points, status, flags and reason") {
  StudentRecord err;
  err.student = {"e1", "", "e1"};
  err.status = StudentStatus::error;
  err.reason = "the grader exited with status 4: internal";
  StudentRecord missing;
  missing.student = {"m1", "Missing Person", ""};
  missing.status = StudentStatus::missing;
  StudentRecord python = graded("p1", 60, 40, 1.2);
  python.result->track = Track::python;
  std::vector<StudentRecord> rows = {graded("a1", 60, 40, 1.5), graded("a2", 0, 0, 0, RunOutcome::crashed),
                                     build_failed("b1"), err, missing, python};
  const std::string csv = gradebook_csv(manifest(), rows);
  CHECK(csv ==
        "student,id,entry,status,track,\"serial, stats\",speedup,total,max,flags,reason,sandbox\n"
        "Name a1,a1,a1.zip,graded,cpp,60,40,100,100,,,bubblewrap (require)\n"
        "Name a2,a2,a2.zip,graded,cpp,0,0,0,100,crashed,,bubblewrap (require)\n"
        ",b1,b1,build_failed,cpp,0,0,0,100,,did not compile: file_stats.cpp:40: expected ';',\n"
        ",e1,e1,error,,,,,100,,the grader exited with status 4: internal,\n"
        "Missing Person,m1,,missing,,,,,100,,no submission,\n"
        "Name p1,p1,p1.zip,graded,python,60,40,100,100,,,bubblewrap (require)\n");
}

TEST_CASE("a row's track is the one its grading used, empty where nothing was built") {
  StudentRecord python = build_failed("p2");
  python.result->track = Track::python;
  CHECK(record_track(python) == "python");
  CHECK(record_track(graded("c1", 60, 40, 1.5)) == "cpp");
  StudentRecord rejected = graded("r1", 0, 0, 0);
  rejected.status = StudentStatus::rejected;  // its result is the rejection's, not a grading
  CHECK(record_track(rejected).empty());
}

TEST_CASE("the class summary counts, distributes and takes median speedups") {
  StudentRecord pending;
  pending.student = {"p1", "", "p1"};
  std::vector<StudentRecord> rows = {graded("a1", 60, 40, 2.0), graded("a2", 60, 20, 1.0),
                                     graded("a3", 0, 0, 0), build_failed("b1"), pending};
  nlohmann::json s = class_summary(manifest(), rows);
  CHECK(s["students"] == 5);
  CHECK(s["counts"]["graded"] == 3);
  CHECK(s["counts"]["build_failed"] == 1);
  CHECK(s["counts"]["pending"] == 1);
  CHECK(s["score"]["count"] == 4);  // finished students: a build failure scores 0 too
  CHECK(s["score"]["median"].get<double>() == Approx(40));
  CHECK(s["score"]["max"].get<double>() == 100);
  CHECK(s["score"]["histogram"][0] == 2);
  CHECK(s["score"]["histogram"][8] == 1);
  CHECK(s["score"]["histogram"][9] == 1);
  CHECK(s["tests"][0]["passed"] == 2);
  CHECK(s["tests"][0]["pass_rate"].get<double>() == Approx(0.5));
  CHECK(s["tests"][1]["median_speedup"].get<double>() == Approx(1.5));
  CHECK(s["tests"][1]["measured"] == 2);
  CHECK(s["did_not_build"][0]["id"] == "b1");
  CHECK(s["pending"][0]["id"] == "p1");
  const std::string md = class_summary_markdown(s);
  CHECK_THAT(md, Contains("5 students: 3 graded, 1 did not build"));
  CHECK_THAT(md, Contains("| speedup | performance | 40 | 1/4 | 25 % |  | 1.50x |"));
  CHECK_THAT(md, Contains("## Did not build"));
}

TEST_CASE("a build failure's reason and a student id are shown escaped, on one line") {
  StudentRecord r = build_failed("eve\x1b]0;owned\a");
  r.result->build.diagnostics = {{"file_stats.cpp", 1, 1, "error", "#error \x1b[2J\n# PASS 100/100"}};
  const std::string reason = record_reason(r);
  CHECK(reason.find('\x1b') == std::string::npos);
  CHECK(reason.find('\n') == std::string::npos);
  CHECK_THAT(reason, Contains("\\x1b[2J\\n# PASS 100/100"));
  const std::string md = class_summary_markdown(class_summary(manifest(), {r}));
  CHECK(md.find('\x1b') == std::string::npos);
  CHECK(md.find('\a') == std::string::npos);
  CHECK_THAT(md, Contains("eve\\x1b]0;owned\\x07"));
}

TEST_CASE("the class summary lists the slowest and fastest and leaves unjudged tests out") {
  StudentRecord busy = graded("a4", 60, 0, 9.0);
  busy.result->tests[1].status = TestStatus::inconclusive;  // machine busy: neither pass nor fail
  std::vector<StudentRecord> rows = {graded("a1", 60, 40, 2.0), graded("a2", 60, 20, 1.0),
                                     graded("a3", 60, 30, 1.5), busy};
  nlohmann::json s = class_summary(manifest(), rows);
  CHECK(s["tests"][1]["attempted"] == 3);
  CHECK(s["tests"][1]["not_judged"] == 1);
  CHECK(s["tests"][1]["slowest"][0]["id"] == "a2");
  CHECK(s["tests"][1]["fastest"][0]["id"] == "a1");
  CHECK(s["tests"][1]["fastest"][0]["ratio"].get<double>() == Approx(2.0));
  CHECK(s["tests"][1]["fastest"].size() == 3);  // the inconclusive 9x is not among them
}

TEST_CASE("summary.html: one self-contained page with the numbers, ids escaped") {
  StudentRecord hostile = build_failed("<script>alert(1)</script>");
  std::vector<StudentRecord> rows = {graded("a1", 60, 40, 2.0), graded("a2", 60, 20, 1.0), hostile};
  const std::string page = class_summary_html(class_summary(manifest(), rows));
  CHECK(page.rfind("<!doctype html>", 0) == 0);
  CHECK(page.find("<script") == std::string::npos);
  CHECK_THAT(page, Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK_THAT(page, Contains("data-students=\"3\""));
  CHECK_THAT(page, Contains("<span data-count=\"build_failed\">1</span> did not build"));
  CHECK_THAT(page, Contains("<svg class=\"histogram\""));
  CHECK_THAT(page, Contains("data-rate=\"0.667\""));  // serial, stats: 2 of 3
  CHECK_THAT(page, Contains("a1 2x"));                  // the fastest with its ratio
}

TEST_CASE("summary: --no-perf says what could be earned and why a test has no pass rate") {
  std::vector<StudentRecord> rows = {graded("a1", 60, 0, 0), graded("a2", 30, 0, 0)};
  for (StudentRecord& r : rows) {
    r.result->performance_enabled = false;
    r.result->graded_max_score = 60;
    r.result->tests[1].status = TestStatus::not_graded;
    r.result->tests[1].outcome = RunOutcome::not_run;
  }
  const nlohmann::json s = class_summary(manifest(), rows);
  CHECK(s["reachable_score"].get<double>() == Approx(60));
  CHECK(score_scale_text(s) == "out of 60 reachable where it was graded; the lab has 100");
  const std::string page = class_summary_html(s);
  CHECK_THAT(page, Contains("Scores (out of 60 reachable where it was graded; the lab has 100)"));
  CHECK_THAT(page, Contains("not run (--no-perf)"));
  CHECK(page.find("none judged") == std::string::npos);
  CHECK_THAT(class_summary_markdown(s), Contains("## Scores (out of 60 reachable where it was graded"));
  // Everything gradable: no clause.
  CHECK(score_scale_text(class_summary(manifest(), {graded("a1", 60, 40, 2.0)})) == "out of 100");
}

namespace {

// A simulator grading: the GPU-only performance test could not be graded there.
StudentRecord graded_in_sim(const std::string& id, double correct, TestStatus perf_status = TestStatus::not_graded) {
  StudentRecord r = graded(id, correct, 0, 0);
  r.result->device.mode = DeviceMode::sim;
  r.result->device.detail = "no NVIDIA GPU";
  r.result->tests[1].status = perf_status;
  r.result->tests[1].outcome = RunOutcome::not_run;
  r.result->tests[1].message = perf_status == TestStatus::not_graded
                                   ? "not graded here: the simulation backend checks correctness, not speed"
                                   : "inconclusive: the reference baseline (reference:serial) failed on this machine";
  r.result->graded_max_score = 60;
  return r;
}

}  // namespace

TEST_CASE("gradebook: each row says what its total is out of, not graded is not a 0") {
  StudentRecord busy = graded_in_sim("c1", 60, TestStatus::inconclusive);
  const std::string csv = gradebook_csv(manifest(), {graded_in_sim("a1", 60), busy});
  CHECK_THAT(csv, Contains("Name a1,a1,a1.zip,graded,cpp,60,not graded,60,60,,,"));
  CHECK_THAT(csv, Contains("Name c1,c1,c1.zip,graded,cpp,60,inconclusive,60,60,inconclusive,,"));
}

TEST_CASE("class summary: where it was graded, shares of the reachable score, who crashed") {
  std::vector<StudentRecord> rows = {graded_in_sim("a1", 60), graded_in_sim("a2", 60),
                                     graded_in_sim("a3", 0)};
  rows[2].result->tests[0].outcome = RunOutcome::crashed;
  rows[2].result->tests[0].status = TestStatus::failed;
  StudentRecord slow = graded_in_sim("a4", 0);
  slow.result->tests[0].outcome = RunOutcome::timeout;
  rows.push_back(slow);
  const nlohmann::json s = class_summary(manifest(), rows);
  // Full marks reachable in the simulator are full: the last bin, not 60-70 %.
  CHECK(s["score"]["histogram"][9] == 2);
  CHECK(s["score"]["histogram"][6] == 0);
  CHECK(s["graded_where"]["modes"] == nlohmann::json::array({"sim"}));
  REQUIRE(s["graded_where"]["not_graded_tests"].size() == 1);
  CHECK(s["graded_where"]["not_graded_tests"][0]["name"] == "speedup");
  CHECK(s["graded_where"]["not_graded_tests"][0]["students"] == 4);
  CHECK(s["tests"][1]["attempted"] == 0);
  CHECK(s["tests"][1]["not_judged"] == 4);
  REQUIRE(s["run_problems"].size() == 2);
  CHECK(s["run_problems"][0]["id"] == "a3");
  CHECK_THAT(s["run_problems"][0]["reason"].get<std::string>(), Contains("crashed") && Contains("'serial, stats'"));
  CHECK_THAT(s["run_problems"][1]["reason"].get<std::string>(), Contains("time limit"));
  const std::string md = class_summary_markdown(s);
  CHECK_THAT(md, Contains("Graded on: simulator, on the CPU (no NVIDIA GPU)."));
  CHECK_THAT(md, Contains("- speedup (40 points, 4 students): "));
  CHECK_THAT(md, Contains("## Scores (out of 60 reachable where it was graded; the lab has 100)"));
  CHECK_THAT(md, Contains("| speedup | performance | 40 | not graded there | - | 4 |"));
  CHECK_THAT(md, Contains("## Crashed, timed out or exited wrongly in a test"));
  CHECK_THAT(md, Contains("- a3 (Name a3): crashed"));
  const std::string page = class_summary_html(s);
  CHECK_THAT(page, Contains("<section id=\"graded-where\""));
  CHECK_THAT(page, Contains("data-modes=\"sim\""));
  CHECK_THAT(page, Contains("data-not-graded-test=\"speedup\""));
  CHECK_THAT(page, Contains("data-not-graded=\"4\""));
  CHECK_THAT(page, Contains("90-100 %"));
  CHECK_THAT(page, Contains("Crashed, timed out or exited wrongly in a test"));
  CHECK(page.find("0 / 0") == std::string::npos);
}

TEST_CASE("class summary: who must be graded on a GPU (their own code stopped the simulator)") {
  std::vector<StudentRecord> rows = {graded_in_sim("a1", 60), graded_in_sim("a2", 0)};
  TestResult& stopped = rows[1].result->tests[0];
  stopped.status = TestStatus::not_graded;
  stopped.points = 0;
  stopped.message = "not graded here: needs a GPU (inline PTX at kernels.cu:12): correct CUDA that "
                    "the simulator does not run; a GPU grading counts it";
  rows[1].result->graded_max_score = 0;
  const nlohmann::json s = class_summary(manifest(), rows);
  REQUIRE(s["needs_gpu_grading"].size() == 1);  // a1's left-out test is the machine's, not its code's
  CHECK(s["needs_gpu_grading"][0]["id"] == "a2");
  CHECK(s["needs_gpu_grading"][0]["points"].get<double>() == Approx(60));
  CHECK(s["needs_gpu_grading"][0]["reason"] ==
        "'serial, stats' (60 points): needs a GPU (inline PTX at kernels.cu:12)");
  const std::string md = class_summary_markdown(s);
  CHECK_THAT(md, Contains("## Grade on a GPU: their code stopped the simulator"));
  CHECK_THAT(md, Contains("- a2 (Name a2): 'serial, stats' (60 points): needs a GPU (inline PTX at kernels.cu:12)"));
  CHECK_THAT(class_summary_html(s), Contains("Grade on a GPU: their code stopped the simulator"));
  // Nobody stopped: no section.
  CHECK(class_summary(manifest(), {graded_in_sim("a1", 60)})["needs_gpu_grading"].empty());
  CHECK(class_summary_markdown(class_summary(manifest(), {graded_in_sim("a1", 60)})).find("Grade on a GPU") ==
        std::string::npos);
}
