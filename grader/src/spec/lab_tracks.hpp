#pragma once
// A lab's tracks: the languages a submission may be written in (docs/lab-spec.md,
// "Tracks"). The C++ track is [lab] sources; each [tracks.NAME] table adds one.
#include "spec/lab_spec.hpp"
#include "spec/toml_reader.hpp"

namespace parlab::grader {

// The C++ track from [lab], then one TrackSpec per [tracks.NAME] table of `tracks`
// (may be null), checked against the lab's datasets. Fails at the node naming the key.
std::vector<TrackSpec> read_tracks(TomlReader& top, const toml::table* tracks, const LabSpec& lab);

// "cpp, python": the lab's tracks, for `grade list` and messages.
std::string track_names(const LabSpec& lab);

}  // namespace parlab::grader
