#include <catch2/catch.hpp>

#include "batch/class_list.hpp"
#include "batch/roster.hpp"
#include "batch/submission_discovery.hpp"
#include "batch_test_support.hpp"
#include "core/errors.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using namespace parlab::grader::batch::testing;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

TEST_CASE("archive stems drop every archive extension") {
  CHECK(archive_stem("alice.tar.gz") == "alice");
  CHECK(archive_stem("alice.tgz") == "alice");
  CHECK(archive_stem("bob.zip") == "bob");
  CHECK(archive_stem("carol.v2.tar") == "carol.v2");
  CHECK(archive_stem("README.md").empty());
}

TEST_CASE("the class folder lists folders and archives, ignores the rest") {
  ScratchDir s;
  write_text(s.path() / "alice" / "file_stats.cpp", "");
  write_text(s.path() / "bob.zip", "");
  write_text(s.path() / "carol.tar.gz", "");
  write_text(s.path() / "dave.rar", "");
  write_text(s.path() / "roster.csv", "");
  write_text(s.path() / ".hidden", "");
  write_text(s.path() / "__MACOSX" / "x", "");
  ClassFolder f = discover_submissions(s.path());
  REQUIRE(f.sources.size() == 4);
  CHECK(f.sources[0].entry == "alice");
  CHECK(f.sources[0].kind == SourceKind::folder);
  CHECK(f.sources[1].stem == "bob");
  CHECK(f.sources[1].kind == SourceKind::archive);
  CHECK(f.sources[2].stem == "carol");
  CHECK(f.sources[3].kind == SourceKind::unsupported_archive);
  CHECK(f.ignored == std::vector<std::string>{"roster.csv"});
  CHECK_FALSE(f.gradescope_export);
  CHECK_THROWS_WITH(discover_submissions(s.path() / "nope"), Contains("class folder not found"));
}

TEST_CASE("a Gradescope export is recognised by its metadata file") {
  ScratchDir s;
  write_text(s.path() / "submission_metadata.yml", "submission_1:\n");
  write_text(s.path() / "submission_1" / "file_stats.cpp", "");
  write_text(s.path() / "submission_22" / "file_stats.cpp", "");
  write_text(s.path() / "stray" / "x", "");
  ClassFolder f = discover_submissions(s.path());
  CHECK(f.gradescope_export);
  REQUIRE(f.sources.size() == 2);
  CHECK(f.sources[0].entry == "submission_1");
  CHECK(f.ignored == std::vector<std::string>{"stray", "submission_metadata.yml"});
}

TEST_CASE("the roster is read with quoting, extra columns and clear errors") {
  ScratchDir s;
  const fs::path csv = s.path() / "roster.csv";
  write_text(csv, "id,folder,name,email\ns1,alice.zip,\"Smith, Alice\",a@x\ns2, bob ,Bob,b@x\n");
  std::vector<RosterEntry> r = load_roster(csv);
  REQUIRE(r.size() == 2);
  CHECK(r[0].folder == "alice.zip");
  CHECK(r[0].name == "Smith, Alice");
  CHECK(r[1].folder == "bob");  // trimmed
  CHECK(r[1].line == 3);

  write_text(csv, "folder,name\nalice,Alice\n");
  CHECK_THROWS_WITH(load_roster(csv), Contains("columns 'folder' and 'id'"));
  write_text(csv, "folder,id\nalice,s1\nbob,s1\n");
  CHECK_THROWS_WITH(load_roster(csv), Contains("roster.csv:3: id 's1' listed twice"));
  write_text(csv, "folder,id\nalice,\n");
  CHECK_THROWS_WITH(load_roster(csv), Contains(":2: empty 'id'"));
  CHECK_THROWS_AS(load_roster(s.path() / "missing.csv"), UsageError);
}

TEST_CASE("the class list names submissions through the roster") {
  ClassFolder f;
  f.sources = {{"alice.zip", "alice", "/c/alice.zip", SourceKind::archive},
               {"bob", "bob", "/c/bob", SourceKind::folder},
               {"zed", "zed", "/c/zed", SourceKind::folder}};
  std::vector<RosterEntry> roster = {{"alice.zip", "s2", "Alice", 2}, {"bob", "s1", "Bob", 3},
                                     {"carol", "s3", "Carol", 4}};
  ClassList list = make_class_list(f, roster);
  REQUIRE(list.students.size() == 3);
  CHECK(list.students[0].id == "s1");  // sorted by id
  CHECK(list.students[0].name == "Bob");
  CHECK(list.students[1].id == "s2");
  CHECK(list.students[2].id == "zed");
  CHECK(list.not_on_roster == std::vector<std::string>{"zed"});
  REQUIRE(list.missing.size() == 1);
  CHECK(list.missing[0].id == "s3");

  // Without a roster the folder name is the id, and it must be usable as one.
  ClassFolder bad;
  bad.sources = {{"a b", "a b", "/c/a b", SourceKind::folder}};
  CHECK_THROWS_WITH(make_class_list(bad, std::nullopt), Contains("give the submission an id with a roster"));
  ClassFolder twice;
  twice.sources = {{"al.zip", "al", "/c/al.zip", SourceKind::archive}, {"al", "al", "/c/al", SourceKind::folder}};
  CHECK_THROWS_WITH(make_class_list(twice, std::nullopt), Contains("both have the student id 'al'"));
  CHECK(student_id_problem("s1.x_y-z@uni").empty());
  CHECK_FALSE(student_id_problem("../x").empty());
  CHECK_FALSE(student_id_problem(".x").empty());
}

TEST_CASE("ids may hold Unicode letters, messages never split a character") {
  CHECK(student_id_problem("jos\xC3\xA9").empty());             // josé
  CHECK(student_id_problem("\xE6\x9D\x8E\xE9\x9B\xB7").empty());  // 李雷
  CHECK(student_id_problem("\xD0\x98\xD0\xB2\xD0\xB0\xD0\xBD").empty());  // Иван
  ClassFolder unicode;
  unicode.sources = {{"jos\xC3\xA9", "jos\xC3\xA9", "/c/jos\xC3\xA9", SourceKind::folder}};
  CHECK(make_class_list(unicode, std::nullopt).students.at(0).id == "jos\xC3\xA9");
  // Invisible and space characters, bidi controls, broken UTF-8: refused, named whole.
  CHECK_THAT(student_id_problem("a\xE2\x80\x8B" "b"), Contains("U+200B"));  // zero-width space
  CHECK_THAT(student_id_problem("a\xE2\x80\xAE" "b"), Contains("U+202E"));  // right-to-left override
  CHECK_THAT(student_id_problem("a\xC2\xA0" "b"), Contains("U+00A0"));      // no-break space
  CHECK_THAT(student_id_problem("jos\xC3"), Contains("not valid UTF-8 (byte \\xC3)"));
  CHECK_THAT(student_id_problem("a\xC0\xAF"), Contains("not valid UTF-8"));  // overlong '/'
  CHECK_THAT(student_id_problem("a\x01" "b"), Contains("control character \\x01"));
  ClassFolder broken;
  broken.sources = {{"jos\xC3", "jos\xC3", "/c/jos\xC3", SourceKind::folder}};
  try {
    make_class_list(broken, std::nullopt);
    FAIL("no error");
  } catch (const std::exception& e) {
    const std::string message = e.what();
    CHECK(message.find("jos\xC3'") == std::string::npos);  // never the raw broken byte
  }
}
