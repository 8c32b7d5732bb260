#pragma once
// `--regrade` marks the whole class before grading anyone: OUT/regrade.json holds a
// fresh token, and a finished record counts as current only when it was graded under
// that token. A regrade killed half way is therefore finished by the next run, with
// or without --regrade, and the marker goes once every student carries its token.
#include <optional>
#include <string>

#include "batch/batch_layout.hpp"

namespace parlab::grader::batch {

// Writes a new marker and returns its token.
std::string start_regrade(const BatchLayout& layout);

// The token of a regrade still under way, if any.
std::optional<std::string> pending_regrade(const BatchLayout& layout);

void finish_regrade(const BatchLayout& layout);

}  // namespace parlab::grader::batch
