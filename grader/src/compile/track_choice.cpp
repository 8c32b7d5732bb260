#include "compile/track_choice.hpp"

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// The first of the track's sources present in `folder` (a link counts: the stager
// refuses it later, by name), or empty.
std::string present_source(const TrackSpec& track, const fs::path& folder) {
  for (const std::string& source : track.sources) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(folder / source, ec))) return source;
  }
  return "";
}

}  // namespace

Track choose_track(const LabSpec& lab, const fs::path& folder, std::optional<Track> forced) {
  if (forced) return *forced;
  const TrackSpec* found = nullptr;
  std::string found_file;
  for (const TrackSpec& track : lab.tracks) {
    const std::string file = present_source(track, folder);
    if (file.empty()) continue;
    if (found) {
      throw UsageError(folder.string() + " holds both " + found_file + " (" + to_string(found->track) +
                       " track) and " + file + " (" + to_string(track.track) + " track) of " +
                       lab.id + ": grade one of them, with --language " + to_string(found->track) +
                       " or --language " + to_string(track.track));
    }
    found = &track;
    found_file = file;
  }
  return found ? found->track : Track::cpp;
}

}  // namespace parlab::grader
