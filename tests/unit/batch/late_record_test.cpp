// Late policies wired into a batch: the roster's submission times, where a time comes
// from when the roster has none, the late columns and records, and batch.json's fields.
#include <catch2/catch.hpp>

#include <sys/time.h>

#include "batch/archive_entry_times.hpp"
#include "batch/batch_manifest.hpp"
#include "batch/gradebook.hpp"
#include "batch/late_record.hpp"
#include "batch/roster.hpp"
#include "batch/submission_time.hpp"
#include "batch_test_support.hpp"
#include "core/errors.hpp"

using namespace parlab::grader;
using namespace parlab::grader::batch;
using namespace parlab::grader::batch::testing;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kDue = 1'772'427'540;  // 2026-03-01T23:59:00-05:00
constexpr std::int64_t kDay = 86400;

CourseDeadlines course() {
  CourseDeadlines c;
  c.policy.grace_seconds = 15 * 60;
  c.policy.penalty_percent_per_day = 10;
  c.policy.cap_percent = 30;
  c.policy.cutoff_seconds = 5 * kDay;
  c.default_due = kDue;
  c.section_due["B"] = kDue + kDay;
  return c;
}

StudentRecord graded(const std::string& id, double score, std::optional<std::int64_t> at,
                     const std::string& section = "") {
  StudentRecord r;
  r.student = {id, "", id};
  r.student.section = section;
  r.student.submitted_at = at;
  r.student.submitted_from = at ? "roster submitted_at" : "roster submitted_at is empty";
  r.status = StudentStatus::graded;
  GradeResult g;
  g.score = score;
  g.max_score = 100;
  r.result = g;
  return r;
}

void set_mtime(const fs::path& file, std::int64_t seconds) {
  const timeval times[2] = {{static_cast<time_t>(seconds), 0}, {static_cast<time_t>(seconds), 0}};
  REQUIRE(::utimes(file.c_str(), times) == 0);
}

}  // namespace

TEST_CASE("the roster's submitted_at and section columns are read, a bad time refused") {
  ScratchDir s;
  const fs::path csv = s.path() / "roster.csv";
  write_text(csv, "folder,id,section,submitted_at\na,s1,B,2026-03-01T23:00:00-05:00\nb,s2,,\n");
  std::vector<RosterEntry> r = load_roster(csv);
  REQUIRE(r.size() == 2);
  CHECK(r[0].section == "B");
  CHECK(r[0].submitted_at == std::optional<std::string>("2026-03-01T23:00:00-05:00"));
  CHECK(r[1].submitted_at == std::optional<std::string>(""));  // the LMS does not know

  write_text(csv, "folder,id\na,s1\n");
  CHECK_FALSE(load_roster(csv)[0].submitted_at.has_value());  // no column: file times

  write_text(csv, "folder,id,submitted_at\na,s1,2026-03-01 23:00\n");
  CHECK_THROWS_WITH(load_roster(csv), Contains("roster.csv:2: submitted_at '2026-03-01 23:00'"));
  write_text(csv, "folder,id,submitted_at\na,s1,2026-03-01T23:00:00\n");  // no UTC offset
  CHECK_THROWS_AS(load_roster(csv), UsageError);
}

TEST_CASE("a submission's time: the roster's, else its files' own, else unknown") {
  ScratchDir s;
  Student st;
  st.submitted_at = "2026-03-02T04:59:00Z";
  SubmissionTime t = submission_time(st);
  CHECK(t.at == std::optional<std::int64_t>(kDue));
  CHECK(t.source == "roster submitted_at");

  st.submitted_at = "";
  t = submission_time(st);
  CHECK_FALSE(t.at.has_value());
  CHECK(t.source == "roster submitted_at is empty");

  st.submitted_at.reset();
  st.source.kind = SourceKind::folder;
  st.source.path = s.path() / "alice";
  write_text(st.source.path / "old.cpp", "x");
  write_text(st.source.path / "sub" / "new.cpp", "y");
  set_mtime(st.source.path / "old.cpp", kDue - kDay);
  set_mtime(st.source.path / "sub" / "new.cpp", kDue + 60);
  t = submission_time(st);
  CHECK(t.at == std::optional<std::int64_t>(kDue + 60));
  CHECK(t.source == "newest file in the folder");

  st.source.kind = SourceKind::archive;
  st.source.path = s.path() / "bob.zip";
  write_text(st.source.path, "zip");
  set_mtime(st.source.path, kDue - 5);
  t = submission_time(st);  // not an archive libarchive reads: the file's own time
  CHECK(t.at == std::optional<std::int64_t>(kDue - 5));
  CHECK(t.source == "archive file time (its entries carry no time)");
  CHECK(format_utc(kDue) == "2026-03-02T04:59:00Z");
}

TEST_CASE("an archive's submission time is its newest entry's, not the archive file's") {
  ScratchDir s;
  Student st;
  st.source.kind = SourceKind::archive;
  for (const std::string format : {"tar", "tar.gz", "zip"}) {
    st.source.path = s.path() / ("carol." + format);
    // Packed a day late; the file itself copied back to before the due time.
    write_archive(st.source.path, format,
                  {{ArchiveEntry::Type::dir, "work/", "", kDue + 3 * kDay},
                   {ArchiveEntry::Type::file, "work/old.cpp", "x", kDue - kDay},
                   {ArchiveEntry::Type::file, "work/new.cpp", "y", kDue + kDay},
                   {ArchiveEntry::Type::file, "work/notes.txt", "z", kDue + 60}});
    set_mtime(st.source.path, kDue - 3600);
    const SubmissionTime t = submission_time(st);
    INFO(format);
    CHECK(t.at == std::optional<std::int64_t>(kDue + kDay));  // the folder's own time is not a file's
    CHECK(t.source == "newest entry in the archive");
  }
  // A truncated archive has no trustworthy time inside (grade batch rejects it).
  write_text(s.path() / "cut.zip", read_text(st.source.path).substr(0, 40));  // carol.zip cut
  CHECK_FALSE(newest_archive_entry_time(s.path() / "cut.zip").has_value());
}

TEST_CASE("the late record: on time, forgiven, deducted, past the cutoff, unknown, ungraded") {
  const CourseDeadlines c = course();
  LateRecord on_time = late_record(c, graded("s1", 80, kDue));
  CHECK(on_time.lateness == "on time");
  CHECK(on_time.final_score == std::optional<double>(80));
  CHECK(on_time.reason.empty());
  CHECK(on_time.due == "2026-03-02T04:59:00Z");

  // Section B is due a day later: the same time is on time there.
  LateRecord section = late_record(c, graded("s2", 80, kDue + kDay / 2, "B"));
  CHECK(section.lateness == "on time");

  LateRecord late = late_record(c, graded("s3", 80, kDue + kDay + 60));
  CHECK(late.penalty_percent == std::optional<double>(20));
  CHECK(late.final_score == std::optional<double>(64));
  CHECK_THAT(late.reason, Contains("2 started days at 10 % a day"));

  LateRecord gone = late_record(c, graded("s4", 80, kDue + 5 * kDay + 1));
  CHECK(gone.final_score == std::optional<double>(0));
  CHECK(gone.penalty_percent == std::optional<double>(100));

  LateRecord unknown = late_record(c, graded("s5", 80, std::nullopt));
  CHECK(unknown.lateness == "unknown");
  CHECK_FALSE(unknown.final_score.has_value());  // not reported as on time
  CHECK_THAT(unknown.reason, Contains("submission time unknown (roster submitted_at is empty)"));

  StudentRecord pending = graded("s6", 0, kDue);
  pending.result.reset();
  pending.status = StudentStatus::pending;
  LateRecord none = late_record(c, pending);
  CHECK_FALSE(none.raw_score.has_value());
  CHECK(none.reason.empty());
  CHECK(late_cells(none) == ",,2026-03-02T04:59:00Z,roster submitted_at,,,,");

  const std::string report = late_report_markdown(c, {graded("s1", 80, kDue), graded("s3", 80, kDue + kDay + 60)});
  CHECK_THAT(report, Contains("- s3: 80 -> 64 points: submitted 1 day"));
  CHECK_THAT(report, !Contains("s1"));
}

TEST_CASE("the gradebook has the late columns only with a course file") {
  BatchManifest m;
  m.max_score = 100;
  m.tests = {{"t", TestKind::correctness, 100}};
  const std::vector<StudentRecord> records = {graded("s1", 80, kDue + kDay + 60)};
  const std::string plain = gradebook_csv(m, records);
  CHECK(plain.substr(0, plain.find('\n')) == "student,id,entry,status,track,t,total,max,flags,reason,sandbox");
  const CourseDeadlines c = course();
  const std::string late = gradebook_csv(m, records, &c);
  CHECK(late.substr(0, late.find('\n')) ==
        "student,id,entry,status,track,t,total,max,flags,reason,sandbox,raw_score,submitted_at,submitted_from,"
        "lateness,penalty_percent,final_score,late_reason");
  CHECK_THAT(late, Contains(",80,2026-03-03T05:00:00Z,roster submitted_at,1 day 1 min,20,64,"));
}

TEST_CASE("batch.json keeps each student's section and submission time") {
  ScratchDir s;
  BatchManifest m;
  m.lab_id = "lab01";
  ManifestStudent a{"s1", "", "a"};
  a.section = "B";
  a.submitted_at = kDue;
  a.submitted_from = "roster submitted_at";
  ManifestStudent b{"s2", "", "b"};
  b.submitted_from = "roster submitted_at is empty";
  m.students = {a, b};
  write_text(s.path() / "batch.json", manifest_json_text(m));
  const BatchManifest back = read_manifest(s.path() / "batch.json");
  REQUIRE(back.students.size() == 2);
  CHECK(back.students[0].section == "B");
  CHECK(back.students[0].submitted_at == std::optional<std::int64_t>(kDue));
  CHECK_FALSE(back.students[1].submitted_at.has_value());
  CHECK(back.students[1].submitted_from == "roster submitted_at is empty");
}
