#include "grading/test_selection.hpp"

#include "core/errors.hpp"
#include "grading/performance_gate.hpp"

namespace parlab::grader {
namespace {

const TestSpec* find_test(const LabSpec& lab, const std::string& name) {
  for (const TestSpec& t : lab.tests) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "'" : ", '") + n + "'";
  return text;
}

std::string test_names(const LabSpec& lab) {
  std::vector<std::string> names;
  for (const TestSpec& t : lab.tests) names.push_back(t.name);
  return quoted_list(names);
}

}  // namespace

TestSelection select_tests(const LabSpec& lab, const std::vector<std::string>& only, bool performance) {
  TestSelection s;
  for (const std::string& name : only) {
    const TestSpec* t = find_test(lab, name);
    if (!t) {
      throw UsageError("--only '" + name + "': " + lab.id + " has no test of that name (the " +
                       std::string(to_string(lab.track)) + " track's tests: " + test_names(lab) + ")");
    }
    if (t->kind == TestKind::performance && !performance)
      throw UsageError("--only '" + name + "' is a performance test, and --no-perf measures none");
    s.runs.insert(name);
  }
  // Each performance test's gates, so its speed can count.
  for (const TestSpec& t : lab.tests) {
    if (!s.runs.count(t.name) || t.kind != TestKind::performance) continue;
    for (const std::string& gate : performance_gates(t, lab)) s.runs.insert(gate);
  }
  for (const TestSpec& t : lab.tests) {
    if (!s.runs.count(t.name)) continue;
    bool named = false;
    for (const std::string& name : only) named |= name == t.name;
    (named ? s.asked : s.added).push_back(t.name);
  }
  return s;
}

std::string selection_note(const TestSelection& s) {
  std::string note = "only some tests graded (--only): " + quoted_list(s.asked);
  if (!s.added.empty()) note += "; with the correctness tests their speed needs: " + quoted_list(s.added);
  return note + "; the others are not graded here (grade without --only for the whole lab)";
}

TestResult not_selected_result(TestResult r) {
  r.status = TestStatus::not_graded;
  r.message = std::string(kNotSelectedMessage);
  return r;
}

}  // namespace parlab::grader
