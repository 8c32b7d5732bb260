#pragma once
// Which track of a lab a submission folder holds (docs/lab-spec.md, "Tracks"): the one
// whose sources are there. Only names are read, as in compile/submission_check.
#include <filesystem>
#include <optional>

#include "spec/lab_spec.hpp"

namespace parlab::grader {

// `forced` (--language) when given; else the track with a source in `folder`; the C++
// track when none has one (the build then says which file is missing). Throws
// UsageError naming both files and --language when two tracks' sources are there.
Track choose_track(const LabSpec& lab, const std::filesystem::path& folder,
                   std::optional<Track> forced);

}  // namespace parlab::grader
