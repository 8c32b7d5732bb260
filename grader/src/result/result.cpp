// Names of the result enums, as they appear in the JSON form and in every report.
// One table per enum, so to_string and from_string can never disagree.
#include "result/result.hpp"

#include <array>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace parlab::grader {
namespace {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, const char*>, N>;

constexpr NameTable<RunOutcome, 9> kRunOutcomeNames{{
    {RunOutcome::ok, "ok"},
    {RunOutcome::nonzero_exit, "nonzero_exit"},
    {RunOutcome::crashed, "crashed"},
    {RunOutcome::timeout, "timeout"},
    {RunOutcome::cpu_limit, "cpu_limit"},
    {RunOutcome::memory_limit, "memory_limit"},
    {RunOutcome::output_limit, "output_limit"},
    {RunOutcome::bad_output, "bad_output"},
    {RunOutcome::not_run, "not_run"},
}};

constexpr NameTable<TestStatus, 6> kTestStatusNames{{
    {TestStatus::passed, "passed"},
    {TestStatus::partial, "partial"},
    {TestStatus::failed, "failed"},
    {TestStatus::skipped, "skipped"},
    {TestStatus::inconclusive, "inconclusive"},
    {TestStatus::not_graded, "not_graded"},
}};

constexpr NameTable<Visibility, 2> kVisibilityNames{{
    {Visibility::visible, "visible"},
    {Visibility::hidden, "hidden"},
}};

template <typename Enum, std::size_t N>
const char* name_of(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  return "unknown";  // only reachable through a cast of an out-of-range integer
}

template <typename Enum, std::size_t N>
Enum value_of(const NameTable<Enum, N>& table, const std::string& name, std::string_view what) {
  for (const auto& [e, n] : table) {
    if (name == n) return e;
  }
  std::string valid;
  for (const auto& [e, n] : table) {
    if (!valid.empty()) valid += ", ";
    valid += n;
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + name +
                              "' (expected one of: " + valid + ")");
}

}  // namespace

bool counts_in_graded_total(TestStatus s) {
  return s != TestStatus::inconclusive && s != TestStatus::not_graded;
}

const char* to_string(RunOutcome o) { return name_of(kRunOutcomeNames, o); }
const char* to_string(TestStatus s) { return name_of(kTestStatusNames, s); }
const char* to_string(Visibility v) { return name_of(kVisibilityNames, v); }

RunOutcome run_outcome_from_string(const std::string& s) {
  return value_of(kRunOutcomeNames, s, "run outcome");
}
TestStatus test_status_from_string(const std::string& s) {
  return value_of(kTestStatusNames, s, "test status");
}
Visibility visibility_from_string(const std::string& s) {
  return value_of(kVisibilityNames, s, "visibility");
}

}  // namespace parlab::grader
