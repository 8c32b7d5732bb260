#include "batch/course_deadlines.hpp"

#include <chrono>
#include <cmath>

#include "core/errors.hpp"
#include "spec/toml_reader.hpp"

namespace parlab::grader::batch {
namespace {

namespace fs = std::filesystem;

std::int64_t epoch_seconds(const toml::date_time& when) {
  using namespace std::chrono;
  const sys_days date = year_month_day(year(when.date.year), month(when.date.month), day(when.date.day));
  const std::int64_t seconds = duration_cast<std::chrono::seconds>(date.time_since_epoch()).count() +
                               when.time.hour * 3600 + when.time.minute * 60 + when.time.second;
  return seconds - std::int64_t{when.offset->minutes} * 60;
}

std::int64_t due_time(const TomlReader& reader, const toml::node* node, const std::string& key) {
  const toml::value<toml::date_time>* when = node ? node->as_date_time() : nullptr;
  if (!when) reader.fail(node, key + " must be a date and time with its UTC offset, like 2026-03-01T23:59:00-05:00");
  if (!when->get().offset)
    reader.fail(node, key + " has no UTC offset: write it (...T23:59:00-05:00 or ...Z), or the due time "
                            "would depend on the grading machine's time zone");
  return epoch_seconds(when->get());
}

double non_negative(TomlReader& reader, const std::string& key, double fallback, double most) {
  const std::optional<double> value = reader.optional_number(key);
  if (!value) return fallback;
  if (!std::isfinite(*value) || *value < 0 || *value > most)
    reader.fail(reader.node(key), key + " must be between 0 and " + std::to_string(static_cast<long>(most)) +
                                      ", not " + std::to_string(*value));
  return *value;
}

LatePolicy read_policy(const toml::table* table, const std::string& file) {
  LatePolicy policy;
  if (!table) return policy;
  TomlReader reader(*table, file, "[late_policy]");
  reader.expect_keys({"grace_minutes", "penalty_percent_per_day", "cap_percent", "cutoff_days"});
  policy.grace_seconds = std::llround(non_negative(reader, "grace_minutes", 0, 1e6) * 60);
  policy.penalty_percent_per_day = non_negative(reader, "penalty_percent_per_day", 0, 100);
  policy.cap_percent = non_negative(reader, "cap_percent", 100, 100);
  if (reader.node("cutoff_days"))
    policy.cutoff_seconds = std::llround(non_negative(reader, "cutoff_days", 0, 1e4) * 86400);
  return policy;
}

std::map<std::string, std::int64_t> due_table(TomlReader& due, const std::string& key) {
  std::map<std::string, std::int64_t> times;
  const toml::node* node = due.node(key);
  if (!node) return times;
  if (!node->is_table()) due.fail(node, key + " must be a table of name = time");
  for (const auto& [name, value] : *node->as_table())
    times[std::string(name.str())] = due_time(due, &value, key + "." + std::string(name.str()));
  return times;
}

}  // namespace

std::int64_t CourseDeadlines::due_for(const std::string& student, const std::string& section) const {
  std::int64_t due = default_due;
  if (auto s = section_due.find(section); !section.empty() && s != section_due.end()) due = s->second;
  if (auto s = student_due.find(student); s != student_due.end()) due = s->second;
  if (auto e = extension_days.find(student); e != extension_days.end()) due += std::llround(e->second * 86400);
  return due;
}

CourseDeadlines read_course_deadlines(const fs::path& file) {
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& error) {
    throw SpecError(where(file.string(), error.source()) + ": " + std::string(error.description()));
  }
  TomlReader top(root, file.string(), "course file");
  top.expect_keys({"late_policy", "due", "extensions_days"});
  CourseDeadlines course;
  course.policy = read_policy(top.optional_table("late_policy"), file.string());
  const toml::table* due_node = top.optional_table("due");
  if (!due_node) top.fail(nullptr, "[due] is missing: the lab's due time (due.default)");
  TomlReader due(*due_node, file.string(), "[due]");
  due.expect_keys({"default", "sections", "students"});
  course.default_due = due_time(due, due.node("default"), "default");
  course.section_due = due_table(due, "sections");
  course.student_due = due_table(due, "students");
  if (const toml::table* ext = top.optional_table("extensions_days")) {
    TomlReader reader(*ext, file.string(), "[extensions_days]");
    for (const auto& [name, value] : *ext)
      course.extension_days[std::string(name.str())] = non_negative(reader, std::string(name.str()), 0, 365);
  }
  return course;
}

std::optional<std::int64_t> parse_timestamp(const std::string& text) {
  toml::table parsed;
  try {
    parsed = toml::parse("t = " + text);
  } catch (const toml::parse_error&) {
    return std::nullopt;
  }
  const toml::value<toml::date_time>* when = parsed["t"].as_date_time();
  if (!when || !when->get().offset || parsed.size() != 1) return std::nullopt;
  return epoch_seconds(when->get());
}

}  // namespace parlab::grader::batch
