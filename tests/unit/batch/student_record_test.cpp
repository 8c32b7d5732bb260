#include <catch2/catch.hpp>

#include "batch/collect.hpp"
#include "batch/student_record.hpp"
#include "batch_test_support.hpp"
#include "result/result_json.hpp"
#include "util/atomic_write.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using namespace parlab::grader::batch::testing;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

LabSpec tiny_lab() {
  LabSpec lab;
  lab.id = "lab01";
  lab.title = "Tiny";
  TestSpec t;
  t.name = "serial";
  t.kind = TestKind::correctness;
  t.points = 10;
  lab.tests = {t};
  return lab;
}

}  // namespace

TEST_CASE("a finished student reads back exactly, and is the only finished state") {
  ScratchDir s;
  BatchLayout layout{s.path()};
  ManifestStudent st{"s1", "Alice", "alice.zip"};
  CHECK(load_record(layout, st).status == StudentStatus::pending);

  StudentRecord r;
  r.student = st;
  r.status = StudentStatus::rejected;
  r.reason = "not a usable submission: entry '../x' climbs out";
  r.seconds = 0.5;
  r.result = rejected_result(tiny_lab(), "/c/alice.zip", "entry '../x' climbs out");
  save_finished(layout, r);
  CHECK(is_finished(layout, "s1"));
  StudentRecord back = load_record(layout, st);
  CHECK(back.status == StudentStatus::rejected);
  CHECK(back.reason == r.reason);
  REQUIRE(back.result);
  CHECK(back.result->tests[0].outcome == RunOutcome::not_run);
  CHECK_THAT(back.result->tests[0].message, Contains("rejected"));
  CHECK(fs::exists(layout.markdown_file("s1")));
  CHECK_THAT(read_text(layout.gradescope_file("s1")), Contains("\"tests\""));

  // A regrade that dies half way (status removed first) leaves the student pending.
  mark_unfinished(layout, "s1");
  CHECK(load_record(layout, st).status == StudentStatus::pending);
}

TEST_CASE("grader errors are recorded but never final, a later success clears them") {
  ScratchDir s;
  BatchLayout layout{s.path()};
  ManifestStudent st{"s2", "", "bob"};
  StudentRecord failed;
  failed.student = st;
  failed.reason = "the grader was killed by signal 9";
  failed.seconds = 3;
  save_error(layout, failed);
  StudentRecord e = load_record(layout, st);
  CHECK(e.status == StudentStatus::error);
  CHECK(e.reason == "the grader was killed by signal 9");
  CHECK_FALSE(is_finished(layout, "s2"));

  StudentRecord r;
  r.student = st;
  r.status = StudentStatus::graded;
  r.result = rejected_result(tiny_lab(), "x", "y");
  save_finished(layout, r);
  CHECK(load_record(layout, st).status == StudentStatus::graded);
  CHECK_FALSE(fs::exists(layout.error_file("s2")));
}

TEST_CASE("a finished record whose result is damaged is an error, not a crash") {
  ScratchDir s;
  BatchLayout layout{s.path()};
  ManifestStudent st{"s3", "", "c"};
  write_file_atomically(layout.status_file("s3"), "{\"status\": \"graded\", \"reason\": \"\", \"seconds\": 1}");
  write_file_atomically(layout.result_file("s3"), "{ not json");
  StudentRecord r = load_record(layout, st);
  CHECK(r.status == StudentStatus::error);
  CHECK_THAT(r.reason, Contains("does not read back"));
}

TEST_CASE("collect writes a gradebook with every manifest student and missing roster entry") {
  ScratchDir s;
  BatchLayout layout{s.path()};
  BatchManifest m;
  m.lab_id = "lab01";
  m.lab_title = "Tiny";
  m.max_score = 10;
  m.tests = {{"serial", TestKind::correctness, 10}};
  m.students = {{"b", "", "b"}, {"a", "", "a.zip"}};
  m.missing = {{"c", "Carol", ""}};
  write_file_atomically(layout.manifest(), manifest_json_text(m));
  StudentRecord r;
  r.student = m.students[1];
  r.status = StudentStatus::rejected;
  r.reason = "not a usable submission: the archive is empty";
  r.result = rejected_result(tiny_lab(), "a.zip", "the archive is empty");
  save_finished(layout, r);

  CollectCounts c = collect_batch(layout);
  CHECK(c.students == 3);
  CHECK(c.finished == 1);
  CHECK(c.pending == 1);
  CHECK(c.missing == 1);
  CHECK(read_text(layout.gradebook()) ==
        "student,id,entry,status,track,serial,total,max,flags,reason,sandbox\n"
        ",a,a.zip,rejected,,0,0,10,,not a usable submission: the archive is empty,not used (nothing of the submission ran)\n"
        ",b,b,pending,,,,10,,not graded yet,\n"
        "Carol,c,,missing,,,,10,,no submission,\n");
  CHECK_THAT(read_text(layout.summary_markdown()), Contains("## Rejected submissions"));
  CHECK_THROWS_WITH(collect_batch(BatchLayout{s.path() / "nothing"}), Contains("not a grade batch output folder"));
}
