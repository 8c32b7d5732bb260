#pragma once
// The canonical, versioned JSON form of GradeResult (DESIGN invariant 7); schema in
// docs/result-schema.md. Every other report format is derived from the struct this
// reads back, so a result file can be re-rendered in any format later.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "result/result.hpp"

namespace parlab::grader {

inline constexpr const char* kResultFormatName = "parlab-result";

// Every field, lossless. Absent optionals become null; non-finite numbers (a NaN the
// student produced, say) become the strings "NaN", "Infinity", "-Infinity".
nlohmann::json to_json(const GradeResult& result);

// Throws std::runtime_error naming the missing or bad field by its path, e.g.
// "tests[2].mismatch.index", or a wrong "format" / "schema_version".
GradeResult grade_result_from_json(const nlohmann::json& json);

// The text written to result files: to_json(result) indented by 2, ending in a newline.
// Invalid UTF-8 in captured output is replaced by U+FFFD instead of failing the dump.
std::string result_json_text(const GradeResult& result);

// Parses result-file text; throws std::runtime_error when it is not JSON or not a result.
GradeResult grade_result_from_json_text(std::string_view text);

}  // namespace parlab::grader
