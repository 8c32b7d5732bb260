#include <catch2/catch.hpp>

#include "batch/class_list.hpp"
#include "batch/collect.hpp"
#include "batch/roster.hpp"
#include "batch_test_support.hpp"
#include "core/errors.hpp"
#include "util/atomic_write.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using namespace parlab::grader::batch::testing;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("a group submission gives each member a row with the group's grade") {
  ScratchDir s;
  write_text(s.path() / "roster.csv",
             "folder,id,name,members\nteam1,s1,Ann,s2;s3\nnone,s2,Bo,\nbob,s4,Bob,\n");
  std::vector<RosterEntry> roster = load_roster(s.path() / "roster.csv");
  REQUIRE(roster[0].members == std::vector<std::string>{"s2", "s3"});
  ClassFolder f;
  f.sources = {{"team1", "team1", "/c/team1", SourceKind::folder}, {"bob", "bob", "/c/bob", SourceKind::folder}};
  ClassList list = make_class_list(f, roster);
  REQUIRE(list.group_members.size() == 2);
  CHECK(list.group_members[0].id == "s2");
  CHECK(list.group_members[0].name == "Bo");  // from the member's own row
  CHECK(list.group_members[0].submitter_id == "s1");
  CHECK(list.missing.empty());  // s2 submitted with the group
  CHECK(list.students[0].roster_row == "team1,s1,Ann,s2;s3");

  // A member who also submitted would be graded twice.
  std::vector<RosterEntry> twice = {{"team1", "s1", "Ann", 2, {"s4"}}, {"bob", "s4", "Bob", 3}};
  CHECK_THROWS_WITH(make_class_list(f, twice), Contains("'s4' is a member of the group of s1"));

  // The gradebook: one row per member, the group's points, the group named.
  BatchLayout layout{s.path() / "out"};
  BatchManifest m;
  m.lab_id = "lab01";
  m.lab_title = "Tiny";
  m.max_score = 10;
  m.tests = {{"serial", TestKind::correctness, 10}};
  m.students = {{"s1", "Ann", "team1"}, {"s4", "Bob", "bob"}};
  m.group_members = {{"s2", "Bo", "team1", "s1"}, {"s3", "", "team1", "s1"}};
  write_file_atomically(layout.manifest(), manifest_json_text(m));
  CHECK(read_manifest(layout.manifest()).group_members[1].group_of == "s1");
  StudentRecord r;
  r.student = m.students[0];
  r.status = StudentStatus::rejected;
  r.reason = "not a usable submission: the archive is empty";
  LabSpec lab;
  lab.id = "lab01";
  TestSpec t;
  t.name = "serial";
  t.kind = TestKind::correctness;
  t.points = 10;
  lab.tests = {t};
  r.result = rejected_result(lab, "team1", "the archive is empty");
  save_finished(layout, r);
  CollectCounts c = collect_batch(layout);
  CHECK(c.students == 2);  // submissions; members are rows, not submissions
  const std::string g = read_text(layout.gradebook());
  CHECK_THAT(g, Contains("Bo,s2,team1,rejected,,0,0,10,,group submission of s1: not a usable submission"));
  CHECK_THAT(g, Contains(",s3,team1,rejected,,0,0,10,,group submission of s1"));
}
