#include <catch2/catch.hpp>

#include <unistd.h>

#include "batch/class_list.hpp"
#include "batch/lab_digest.hpp"
#include "batch/record_identity.hpp"
#include "batch/student_grader.hpp"
#include "batch_test_support.hpp"
#include "core/errors.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using namespace parlab::grader::batch::testing;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("a submission's hash follows its names, bytes and link targets, never the links") {
  ScratchDir s;
  const fs::path a = s.path() / "alice";
  write_text(a / "file_stats.cpp", "int main() {}\n");
  write_text(a / "sub" / "notes.txt", "x");
  const std::string h0 = submission_content_hash(a);
  CHECK(h0 == submission_content_hash(a));  // stable

  write_text(a / "file_stats.cpp", "int main() { return 1; }\n");
  const std::string h1 = submission_content_hash(a);
  CHECK(h1 != h0);  // resubmitted content

  fs::rename(a / "sub" / "notes.txt", a / "sub" / "notes2.txt");
  const std::string h2 = submission_content_hash(a);
  CHECK(h2 != h1);  // a renamed file

  // A link is its target text: what it points at is never read.
  write_text(s.path() / "outside.txt", "one");
  fs::create_symlink(s.path() / "outside.txt", a / "link");
  const std::string h3 = submission_content_hash(a);
  CHECK(h3 != h2);
  write_text(s.path() / "outside.txt", "two, changed");
  CHECK(submission_content_hash(a) == h3);

  // An archive is its bytes.
  write_text(s.path() / "bob.zip", "PK...");
  const std::string z = submission_content_hash(s.path() / "bob.zip");
  write_text(s.path() / "bob.zip", "PK..!");
  CHECK(submission_content_hash(s.path() / "bob.zip") != z);
}

TEST_CASE("a record's identity names what changed since it was graded") {
  RecordIdentity was{"alice.zip", "h1", "alice.zip,s1,Alice", "1.0", "g1", "l1"};
  CHECK(identity_change(was, was).empty());
  CHECK(identity_from_json(identity_json(was)) == was);

  RecordIdentity now = was;
  now.submission_hash = "h2";
  CHECK(identity_change(was, now) == "the submission changed (resubmitted)");

  now = was;
  now.entry = "bob.zip";
  now.submission_hash = "h9";
  now.roster_row = "bob.zip,s1,Alice";
  CHECK(identity_change(was, now) == "its entry is now 'bob.zip' (was 'alice.zip'); its roster row changed");

  now = was;
  now.grader_hash = "g2";
  CHECK(identity_change(was, now) == "the grader changed");
  now = was;
  now.lab_hash = "l2";
  CHECK(identity_change(was, now) == "the lab's tests changed (lab.toml, its test files or its reference)");

  CHECK_THAT(identity_change(std::nullopt, now), Contains("older grader"));
  // Records of older graders read back with empty fields, which never match.
  CHECK_FALSE(identity_change(identity_from_json(nlohmann::json::object()), now).empty());
}

TEST_CASE("a lab's digest changes with its tests, test files and reference, not its documentation") {
  ScratchDir s;
  const fs::path lab = s.path() / "lab01";
  write_text(lab / "lab.toml", "[[tests]]\nname = \"a\"\npoints = 5\n");
  write_text(lab / "worker_checks.py", "def check(): pass\n");
  write_text(lab / "README.md", "# Lab 1\n");
  write_text(lab / "figures" / "f.svg", "<svg/>");
  const fs::path ref = s.path() / "build" / "lab01_reference";
  write_text(ref, "reference v1");
  const std::vector<fs::path> built = {ref, s.path() / "build" / "not_built", {}};
  const std::string d0 = lab_digest(lab, built);
  CHECK(d0 == lab_digest(lab, built));  // stable

  write_text(lab / "README.md", "# Lab 1, a typo fixed\n");
  write_text(lab / "figures" / "f.svg", "<svg></svg>");
  write_text(lab / "__pycache__" / "worker_checks.cpython-311.pyc", "bytecode");
  CHECK(lab_digest(lab, built) == d0);  // documentation and bytecode regrade nobody

  write_text(lab / "lab.toml", "[[tests]]\nname = \"a\"\npoints = 6\n");
  const std::string d1 = lab_digest(lab, built);
  CHECK(d1 != d0);  // a test's points
  write_text(lab / "worker_checks.py", "def check(): assert False\n");
  const std::string d2 = lab_digest(lab, built);
  CHECK(d2 != d1);  // a test file the grading reads
  write_text(ref, "reference v2");
  const std::string d3 = lab_digest(lab, built);
  CHECK(d3 != d2);  // the reference that makes the expected outputs
  write_text(s.path() / "build" / "not_built", "now built");
  CHECK(lab_digest(lab, built) != d3);  // a program that appears
}

TEST_CASE("a student's current identity hashes its entry and keeps its roster row") {
  ScratchDir s;
  write_text(s.path() / "bob" / "file_stats.cpp", "x");
  GradingContext c;
  c.base.grader_version = "1.0";
  c.base.grader_hash = "g";
  c.base.lab_hash = "l";
  Student st;
  st.id = "s7";
  st.source = {"bob", "bob", s.path() / "bob", SourceKind::folder};
  st.roster_row = "bob,s7,Bob";
  RecordIdentity id = current_identity(c, st);
  CHECK(id.entry == "bob");
  CHECK(id.roster_row == "bob,s7,Bob");
  CHECK(id.lab_hash == "l");
  CHECK(id.submission_hash == submission_content_hash(s.path() / "bob"));
}

TEST_CASE("roster ids of students without a submission are checked and unique across folders") {
  ClassFolder f;
  f.sources = {{"bob", "bob", "/c/bob", SourceKind::folder}};
  // 'x' is not in the class folder; its id equals the unmatched folder 'bob'.
  std::vector<RosterEntry> clash = {{"x", "bob", "Robert", 2}};
  CHECK_THROWS_WITH(make_class_list(f, clash), Contains("is also the id of the submission 'bob'"));
  std::vector<RosterEntry> bad = {{"x", "../evil", "E", 2}};
  CHECK_THROWS_WITH(make_class_list(f, bad), Contains("roster line 2: student id '../evil' cannot be used"));
  std::vector<RosterEntry> fine = {{"bob", "s1", "Bob", 2}, {"x", "s2", "Xi", 3}};
  ClassList list = make_class_list(f, fine);
  REQUIRE(list.students.size() == 1);
  CHECK(list.students[0].roster_row == "bob,s1,Bob");
  CHECK(list.missing.size() == 1);
}

TEST_CASE("a grading with an inconclusive test is measured again while attempts remain",
          "[batch][inconclusive]") {
  using namespace parlab::grader;
  GradeResult result;
  result.tests.resize(2);
  result.tests[0].status = TestStatus::passed;
  result.tests[1].status = TestStatus::passed;
  CHECK_FALSE(batch::grade_again_for_inconclusive(result, 1, 3));  // nothing to re-measure
  result.tests[1].status = TestStatus::inconclusive;
  CHECK(batch::grade_again_for_inconclusive(result, 1, 3));
  CHECK(batch::grade_again_for_inconclusive(result, 2, 3));
  CHECK_FALSE(batch::grade_again_for_inconclusive(result, 3, 3));  // the last one is kept
  result.tests[1].status = TestStatus::not_graded;  // this machine cannot: no use retrying
  CHECK_FALSE(batch::grade_again_for_inconclusive(result, 1, 3));
}
