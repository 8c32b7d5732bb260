#pragma once
// The class at a glance, derived from the records like the gradebook: score
// distribution, pass rate per test, median speedups, who did not build, who was
// rejected, who is still pending. summary.json for tools, summary.md for people.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "batch/batch_manifest.hpp"
#include "batch/student_record.hpp"

namespace parlab::grader::batch {

nlohmann::json class_summary(const BatchManifest& manifest, const std::vector<StudentRecord>& records);
std::string class_summary_markdown(const nlohmann::json& summary);

// "out of 100", or "out of 100; 60 could be earned where it was graded" when tests
// were not graded there (--no-perf, no GPU).
std::string score_scale_text(const nlohmann::json& summary);
// summary.html: the same, with the score histogram, pass rates and the slowest and
// fastest submissions drawn (one self-contained page, report/html_page.hpp).
std::string class_summary_html(const nlohmann::json& summary);

}  // namespace parlab::grader::batch
