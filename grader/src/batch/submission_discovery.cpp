#include "batch/submission_discovery.hpp"

#include <algorithm>
#include <array>
#include <regex>

#include "batch/entry_path.hpp"
#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

struct Extension {
  const char* suffix;
  bool supported;
};
// Longest first, so ".tar.gz" wins over ".gz".
constexpr std::array<Extension, 10> kArchiveExtensions{{
    {".tar.bz2", true}, {".tar.gz", true}, {".tar.xz", true}, {".tbz2", true}, {".tgz", true},
    {".txz", true}, {".tar", true}, {".zip", true}, {".rar", false}, {".7z", false},
}};

const Extension* archive_extension(const std::string& name) {
  for (const Extension& e : kArchiveExtensions) {
    const std::string s = e.suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) return &e;
  }
  return nullptr;
}

}  // namespace

std::string archive_stem(const std::string& file_name) {
  const Extension* e = archive_extension(file_name);
  return e ? file_name.substr(0, file_name.size() - std::string(e->suffix).size()) : "";
}

ClassFolder discover_submissions(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw UsageError("class folder not found (or not a folder): " + dir.string());
  }
  ClassFolder out;
  out.gradescope_export = fs::exists(dir / "submission_metadata.yml");
  static const std::regex gradescope_folder(R"(submission_\d+)");
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.' || is_archiver_litter(name)) continue;
    SubmissionSource s;
    s.entry = name;
    s.path = e.path();
    if (e.is_directory()) {
      if (out.gradescope_export && !std::regex_match(name, gradescope_folder)) {
        out.ignored.push_back(name);
        continue;
      }
      s.stem = name;
      s.kind = SourceKind::folder;
    } else if (const Extension* ext = archive_extension(name); ext && e.is_regular_file()) {
      s.stem = archive_stem(name);
      s.kind = ext->supported ? SourceKind::archive : SourceKind::unsupported_archive;
    } else {
      out.ignored.push_back(name);  // a roster, a README: not a submission
      continue;
    }
    out.sources.push_back(std::move(s));
  }
  if (ec) throw UsageError("cannot read the class folder " + dir.string() + ": " + ec.message());
  std::sort(out.sources.begin(), out.sources.end(),
            [](const auto& a, const auto& b) { return a.entry < b.entry; });
  std::sort(out.ignored.begin(), out.ignored.end());
  return out;
}

}  // namespace parlab::grader::batch
