// Gathers the class's sources for similarity-tester (class_sources.hpp). Submissions
// are found and archives unpacked (into the work folder) as `grade batch` does.
#include "similarity/class_sources.hpp"

#include <fstream>

#include "batch/submission_discovery.hpp"
#include "batch/submission_unpacker.hpp"
#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::similarity {
namespace {

// The lab's source `name` in a submission: at its top, else anywhere below (a student
// who zipped a folder). Links are not followed: the tree is untrusted.
fs::path find_source(const fs::path& root, const std::string& name) {
  std::error_code ec;
  if (fs::is_regular_file(fs::symlink_status(root / name, ec))) return root / name;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_symlink(ec)) continue;
    if (it->is_regular_file(ec) && it->path().filename() == name) return it->path();
  }
  return {};
}

// The sources found under `root`, concatenated in the spec's order. False when none.
bool gather(const fs::path& root, const std::vector<std::string>& sources, SourceCopy& out) {
  bool any = false;
  for (const auto& name : sources) {
    fs::path p = find_source(root, name);
    if (p.empty()) continue;
    any = true;
    std::ifstream in(p, std::ios::binary);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      out.lines.push_back(line);
      out.origins.push_back({name, n});
    }
  }
  return any;
}

void write_copy(SourceCopy& c, const fs::path& file) {
  c.copy = file;
  std::ofstream out(file, std::ios::binary);
  for (const auto& l : c.lines) out << l << '\n';
  if (!out) throw EnvironmentError("cannot write " + file.string());
}

TrackGroup group_for(const LabSpec& lab, const TrackSpec& t, const fs::path& dir) {
  TrackGroup g;
  g.kind = t.track;
  g.track = to_string(t.track);
  const bool python = t.track == Track::python;
  g.tester = python ? "sim_text" : "sim_c++";
  fs::create_directories(dir);
  g.base.student = "(skeleton)";
  gather(lab.dir / t.skeleton, t.sources, g.base);
  write_copy(g.base, dir / (python ? "base.py" : "base.cpp"));
  return g;
}

}  // namespace

ClassSources copy_class_sources(const LabSpec& lab, const fs::path& class_dir, const fs::path& work_dir,
                                const std::map<std::string, std::string>& names) {
  batch::ClassFolder folder = batch::discover_submissions(class_dir);
  if (folder.sources.empty()) {
    throw UsageError(class_dir.string() + " holds no submission (one folder per student expected)");
  }
  ClassSources out;
  for (const auto& t : lab.tracks) out.groups.push_back(group_for(lab, t, work_dir / to_string(t.track)));
  for (const auto& s : folder.sources) {
    fs::path root = s.path;
    if (s.kind != batch::SourceKind::folder) {
      root = work_dir / "unpacked" / std::to_string(&s - folder.sources.data());
      fs::create_directories(root.parent_path());
      batch::UnpackOutcome u = s.kind == batch::SourceKind::archive
                                   ? batch::unpack_archive(s.path, root, batch::UnpackLimits{})
                                   : batch::UnpackOutcome{"an archive format grade batch does not read"};
      if (!u.ok()) {
        out.skipped.push_back(s.entry + ": " + u.problem);
        continue;
      }
    }
    bool found = false;
    for (std::size_t g = 0; g < out.groups.size() && !found; ++g) {
      SourceCopy c;
      auto named = names.find(s.entry);
      if (named == names.end()) named = names.find(s.stem);
      c.student = named == names.end() ? s.stem : named->second;
      if (!gather(root, lab.tracks[g].sources, c)) continue;
      found = true;
      auto& group = out.groups[g];
      const std::string ext = group.tester == "sim_text" ? ".py" : ".cpp";
      write_copy(c, work_dir / group.track / (std::to_string(group.submissions.size()) + ext));
      group.submissions.push_back(std::move(c));
    }
    if (!found) out.skipped.push_back(s.entry + ": none of the lab's source files");
  }
  return out;
}

}  // namespace parlab::grader::similarity
