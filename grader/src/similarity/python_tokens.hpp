#pragma once
// Python copies normalised for sim_text, which reads words, not Python: renamed names
// would lower the score. Python's own `tokenize` (run as a child python3) turns each
// copy into one word per token: every name that is not a keyword or builtin becomes
// `ID`, numbers `NUM`, strings `STR`, operators their token names (`opLPAR`), plus the
// layout tokens (NEWLINE, INDENT, DEDENT); comments and docstrings are dropped. A map
// file gives each word's source line, so sim's runs are turned back into the
// submission's own lines for the scores and the pair pages.
#include <filesystem>
#include <string>
#include <vector>

#include "similarity/class_sources.hpp"
#include "similarity/sim_runs.hpp"

namespace parlab::grader::similarity {

// Normalises the skeleton and every submission of a Python group: writes
// "<copy>.words" and "<copy>.rows" beside each copy, points `copy` at the words and
// fills `word_rows` and `code_lines`. Returns the notes of copies Python could not
// tokenize to the end (compared from that line on as plain text). Throws
// EnvironmentError when python3 is missing or fails.
std::vector<std::string> normalise_python_group(TrackGroup& group, double timeout_s,
                                                const std::filesystem::path& work_dir);

// A map file's lines "ROW c" (the word is a name, number or string) or "ROW -" read
// into `c`. Throws EnvironmentError on a line of another shape.
void read_word_rows(const std::string& text, SourceCopy& c);

// sim's line numbers in normalised copies turned into the copies' source lines (a run
// of words covers the source lines of its first to its last word). Runs of groups that
// were not normalised are left alone.
void map_runs_to_source(const TrackGroup& group, std::vector<SimRun>& runs);

}  // namespace parlab::grader::similarity
