#pragma once
// Golden-file comparison for report output. PARLAB_UPDATE_GOLDEN=1 rewrites the files
// instead (then read the diff before committing it).
#include <string>

namespace parlab::grader::testing {

// Compares `actual` byte for byte with tests/golden/report/<file_name>.
void check_golden(const std::string& file_name, const std::string& actual);

}  // namespace parlab::grader::testing
