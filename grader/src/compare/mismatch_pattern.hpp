#pragma once
// What the mismatches of one output array have in common, so feedback can name the
// classic bug instead of one wrong number: a block never written, only the last
// partial tile wrong, every value too large, off by rounding only, ...
// A lab declares a hint per kind and output in lab.toml ([outputs.NAME] hints).
#include <cstdint>
#include <string>
#include <vector>

#include "parlab/harness/arrays.hpp"
#include "spec/lab_spec.hpp"
#include "spec/mismatch_kinds.hpp"

namespace parlab::grader {

// The kinds: spec/mismatch_kinds.hpp (lab.toml names them in hints).

struct MismatchPattern {
  // Those that apply, in mismatch_kinds() order, "any" last; for an output all zero
  // or never written ("not implemented yet?") only "unwritten" or none.
  std::vector<std::string> kinds;
  std::string detail;              // one sentence on the pattern (may be empty)
};

// The whole output still holds the poison, or is all zero: nothing written into it.
bool output_untouched(const harness::NamedArray& got);

// `columns` > 0 makes the array a row-major matrix with that row length.
// `nothing_computed`: every output of the run is untouched (a skeleton), said as
// "not implemented yet?" instead of guessing a cause; one output all zero among
// computed ones is a wrong answer like any other (a count of 0 killed workers).
MismatchPattern classify_mismatches(const harness::NamedArray& expected,
                                    const harness::NamedArray& got, const ComparatorSpec& spec,
                                    bool exact, std::int64_t columns, bool nothing_computed = false);

// The hint of the first kind in `pattern` that `hints` names, or "".
std::string hint_for(const MismatchPattern& pattern,
                     const std::map<std::string, std::string>& hints);

// "row 3, col 12" for a flat index of a row-major matrix.
std::string row_col_text(std::uint64_t index, std::int64_t columns);

}  // namespace parlab::grader
