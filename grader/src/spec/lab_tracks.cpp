// Reads [tracks.NAME] tables and makes the spec a grading of one track uses.
#include "spec/lab_tracks.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"
#include "spec/dataset_stand_ins.hpp"

namespace parlab::grader {
namespace {

const char* source_extension(Track t) { return t == Track::python ? ".py" : ""; }

// A file name at the top of the submission folder, with the track's extension.
void check_sources(TomlReader& r, const TrackSpec& track) {
  if (track.sources.empty()) r.fail(nullptr, "'sources' must list the files a submission edits");
  const std::string ext = source_extension(track.track);
  for (const std::string& source : track.sources) {
    const bool plain = !source.empty() && source.find('/') == std::string::npos && source[0] != '.';
    if (!plain || (!ext.empty() && std::filesystem::path(source).extension() != ext)) {
      r.fail(r.node("sources"), "'sources': '" + source + "' must be a " + ext +
                                    " file name at the top of the submission folder");
    }
  }
}

TrackSpec read_track(TomlReader& top, const std::string& name, const toml::node& node,
                     const LabSpec& lab) {
  if (!node.is_table()) top.fail(&node, "track '" + name + "' must be a table");
  TomlReader r(*node.as_table(), top.file(), "[tracks." + name + "]");
  r.expect_keys({"sources", "skeleton", "reference", "datasets"});
  TrackSpec track;
  try {
    track.track = track_from_string(name);
  } catch (const std::invalid_argument& e) {
    top.fail(&node, "'tracks." + name + "': " + e.what());
  }
  if (track.track == Track::cpp) {
    top.fail(&node, "'tracks.cpp': the C++ track is [lab] sources; [tracks.NAME] adds another language");
  }
  track.sources = r.string_list("sources");
  check_sources(r, track);
  track.skeleton = r.required_string("skeleton");
  track.reference = r.required_string("reference");
  track.datasets = read_stand_ins(r, lab);
  track.where = r.location(nullptr);
  return track;
}

}  // namespace

std::vector<TrackSpec> read_tracks(TomlReader& top, const toml::table* tracks, const LabSpec& lab) {
  std::vector<TrackSpec> all;
  TrackSpec cpp;
  cpp.sources = lab.sources;
  all.push_back(cpp);
  if (!tracks) return all;
  for (const auto& [key, node] : *tracks) all.push_back(read_track(top, std::string(key.str()), node, lab));
  return all;
}

std::string track_names(const LabSpec& lab) {
  std::string names;
  for (const TrackSpec& t : lab.tracks) names += (names.empty() ? "" : ", ") + std::string(to_string(t.track));
  return names;
}

const TrackSpec* find_track(const LabSpec& lab, Track t) {
  const auto it = std::find_if(lab.tracks.begin(), lab.tracks.end(),
                               [&](const TrackSpec& s) { return s.track == t; });
  return it == lab.tracks.end() ? nullptr : &*it;
}

LabSpec for_track(const LabSpec& lab, Track t) {
  const TrackSpec* track = find_track(lab, t);
  if (!track) {
    throw UsageError(lab.id + " has no " + to_string(t) + " track (tracks: " + track_names(lab) + ")");
  }
  LabSpec graded = lab;
  graded.track = t;
  graded.sources = track->sources;
  for (TestSpec& test : graded.tests) {
    if (const auto it = track->datasets.find(test.dataset); it != track->datasets.end())
      test.dataset = it->second;
    // A Python program's kernels run in Numba's own simulator, which counts no memory
    // traffic: a [tests.sim] counter cannot grade it, so the test is not graded in sim.
    if (t == Track::python) test.sim_check.reset();
  }
  return graded;
}

}  // namespace parlab::grader
