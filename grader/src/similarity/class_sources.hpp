#pragma once
// Copies of each submission's source files (the lab's track sources), one file per
// submission and track, in a work folder: similarity-tester never reads a student's
// folder in place and never sees a student's file name (the copy is "<n>.<ext>").
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "spec/lab_spec.hpp"

namespace parlab::grader::similarity {

struct LineOrigin {
  std::string file;  // the lab's source name ("kernels.cu")
  int line = 0;
};

struct SourceCopy {
  std::string student;             // the submission's entry stem (untrusted text)
  std::filesystem::path copy;      // the concatenated copy
  std::vector<std::string> lines;  // its text, line by line
  std::vector<LineOrigin> origins; // where each line came from
  // Python only (similarity/python_tokens.hpp): `copy` is then the normalised words,
  // and these say which line of `lines` each word came from (1-based), and which lines
  // carry code (a name, number or string that is not a docstring).
  std::vector<int> word_rows;
  std::vector<bool> code_lines;
};

struct TrackGroup {
  Track kind = Track::cpp;
  std::string track;               // its name: "cpp", "python"
  std::string tester;              // "sim_c++", "sim_text"
  SourceCopy base;                 // the track's skeleton, the code everyone was given
  std::vector<SourceCopy> submissions;
};

struct ClassSources {
  std::vector<TrackGroup> groups;
  std::vector<std::string> skipped;  // "alice.zip: ..." submissions without sources
  std::vector<std::string> notes;    // compared, with a caveat (Python that does not tokenize)
};

// Throws UsageError when `class_dir` is not a class folder with a submission.
// `names`: a roster's folder -> "id (name)"; a submission it does not name keeps its
// folder's name.
ClassSources copy_class_sources(const LabSpec& lab, const std::filesystem::path& class_dir,
                                const std::filesystem::path& work_dir,
                                const std::map<std::string, std::string>& names = {});

}  // namespace parlab::grader::similarity
