// Late policies: the arithmetic at its edges, and the course file's times and errors.
#include <catch2/catch.hpp>
#include <fstream>

#include "batch/course_deadlines.hpp"
#include "batch/late_policy.hpp"
#include "core/errors.hpp"
#include "scratch_dir.hpp"

using namespace parlab::grader::batch;
using parlab::testing::ScratchDir;
using Catch::Contains;

namespace {

constexpr std::int64_t kDue = 1'772'427'540;  // 2026-03-01T23:59:00-05:00
constexpr std::int64_t kHour = 3600, kDay = 86400;

LatePolicy course_policy() {
  LatePolicy p;
  p.grace_seconds = 15 * 60;
  p.penalty_percent_per_day = 10;
  p.cap_percent = 30;
  p.cutoff_seconds = 5 * kDay;
  return p;
}

}  // namespace

TEST_CASE("Exactly at the due time is on time", "[batch][late_policy]") {
  const LateOutcome on_time = apply_late_policy(course_policy(), kDue, kDue, 80);
  CHECK(on_time.late_seconds == 0);
  CHECK(on_time.final_score == 80);
  CHECK(on_time.reason.empty());
  CHECK(apply_late_policy(course_policy(), kDue, kDue - kDay, 80).late_seconds == 0);  // early
}

TEST_CASE("The grace period forgives, one second past it costs a day", "[batch][late_policy]") {
  const LateOutcome grace = apply_late_policy(course_policy(), kDue, kDue + 15 * 60, 80);
  CHECK(grace.late_seconds == 15 * 60);
  CHECK(grace.final_score == 80);
  CHECK(grace.reason.empty());
  const LateOutcome after = apply_late_policy(course_policy(), kDue, kDue + 15 * 60 + 1, 80);
  CHECK(after.days_late == 1);
  CHECK(after.penalty_percent == Approx(10));
  CHECK(after.final_score == Approx(72));
  CHECK_THAT(after.reason, Contains("16 min late") && Contains("10 % of the score deducted"));
}

TEST_CASE("Started days count, and the penalty stops at the cap", "[batch][late_policy]") {
  CHECK(apply_late_policy(course_policy(), kDue, kDue + kDay, 50).days_late == 1);
  CHECK(apply_late_policy(course_policy(), kDue, kDue + kDay + 1, 50).days_late == 2);
  const LateOutcome four = apply_late_policy(course_policy(), kDue, kDue + 3 * kDay + kHour, 50);
  CHECK(four.days_late == 4);
  CHECK(four.penalty_percent == Approx(30));  // 40 % capped at 30 %
  CHECK(four.final_score == Approx(35));
  CHECK_THAT(four.reason, Contains("capped at 30 %"));
}

TEST_CASE("Past the hard cutoff is not accepted, exactly at it is", "[batch][late_policy]") {
  const LateOutcome at = apply_late_policy(course_policy(), kDue, kDue + 5 * kDay, 90);
  CHECK_FALSE(at.past_cutoff);
  CHECK(at.final_score == Approx(63));
  const LateOutcome past = apply_late_policy(course_policy(), kDue, kDue + 5 * kDay + 1, 90);
  CHECK(past.past_cutoff);
  CHECK(past.final_score == 0);
  CHECK_THAT(past.reason, Contains("hard cutoff") && Contains("0 points"));
  LatePolicy none;  // no policy: lateness recorded, nothing deducted
  const LateOutcome free = apply_late_policy(none, kDue, kDue + 9 * kDay, 90);
  CHECK(free.late_seconds == 9 * kDay);
  CHECK(free.final_score == 90);
}

TEST_CASE("Times with different UTC offsets are the same instant", "[batch][late_policy]") {
  CHECK(parse_timestamp("2026-03-01T23:59:00-05:00") == kDue);
  CHECK(parse_timestamp("2026-03-02T04:59:00Z") == kDue);
  CHECK(parse_timestamp("2026-03-02T05:59:00+01:00") == kDue);
  CHECK_FALSE(parse_timestamp("2026-03-01T23:59:00"));  // no offset: whose midnight?
  CHECK_FALSE(parse_timestamp("yesterday"));
  CHECK_FALSE(parse_timestamp("2026-03-01T23:59:00Z\nx = 1"));
}

TEST_CASE("A course file gives due times per section and student, and extensions",
          "[batch][late_policy]") {
  ScratchDir scratch;
  const auto file = scratch / "course.toml";
  std::ofstream(file) << "[late_policy]\ngrace_minutes = 15\npenalty_percent_per_day = 10\n"
                         "cap_percent = 30\ncutoff_days = 5\n"
                         "[due]\ndefault = 2026-03-01T23:59:00-05:00\n"
                         "sections = { B = 2026-03-02T23:59:00-05:00 }\n"
                         "students = { s007 = 2026-03-04T12:00:00Z }\n"
                         "[extensions_days]\ns002 = 2\n";
  const CourseDeadlines course = read_course_deadlines(file);
  CHECK(course.policy.grace_seconds == 15 * 60);
  CHECK(course.policy.cutoff_seconds == 5 * kDay);
  CHECK(course.due_for("s001", "A") == kDue);
  CHECK(course.due_for("s001", "B") == kDue + kDay);
  CHECK(course.due_for("s002", "") == kDue + 2 * kDay);
  CHECK(course.due_for("s007", "B") == *parse_timestamp("2026-03-04T12:00:00Z"));
}

TEST_CASE("A bad course file names the file, the line and the key", "[batch][late_policy]") {
  ScratchDir scratch;
  const auto file = scratch / "course.toml";
  auto error_of = [&](const std::string& text) {
    std::ofstream(file, std::ios::trunc) << text;
    try {
      read_course_deadlines(file);
    } catch (const parlab::grader::SpecError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("[due]\ndefault = 2026-03-01T23:59:00\n"),
             Contains("course.toml:2") && Contains("[due]: default has no UTC offset"));
  CHECK_THAT(error_of("[due]\ndefault = \"March 1st\"\n"), Contains("[due]: default must be a date"));
  CHECK_THAT(error_of("[due]\ndefault = 2026-03-01T23:59:00Z\nstudents = { s1 = 3 }\n"),
             Contains("[due]: students.s1"));
  CHECK_THAT(error_of("[late_policy]\ncap_percent = 150\n[due]\ndefault = 2026-03-01T23:59:00Z\n"),
             Contains("course.toml:2") && Contains("cap_percent must be between 0 and 100"));
  CHECK_THAT(error_of("[late_policy]\npenalty_per_day = 5\n[due]\ndefault = 2026-03-01T23:59:00Z\n"),
             Contains("penalty_per_day"));
  CHECK_THAT(error_of("[late_policy]\ngrace_minutes = 5\n"), Contains("[due] is missing"));
  CHECK_THAT(error_of("[due\n"), Contains("course.toml:1"));
}
