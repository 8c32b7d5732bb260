// `grade export gradescope LAB --out autograder.zip` and
// `grade export student LAB... --out kit.tar.gz` (docs/release.md): what an instructor
// hands to Gradescope and to students, made from this build. Both carry the student
// kit (export/student_kit.hpp): no reference source, references as stripped executables.
#include <stdlib.h>

#include <iostream>
#include <regex>

#include "cli/commands.hpp"
#include "core/errors.hpp"
#include "compile/toolchain.hpp"
#include "export/archive_writer.hpp"
#include "export/gradescope_bundle.hpp"
#include "export/student_kit.hpp"
#include "spec/lab_spec.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

constexpr const char* kUsage =
    "usage: grade export gradescope LAB --out autograder.zip\n"
    "       grade export student LAB... --out kit.tar.gz   (.tar.gz, .tgz or .zip)\n"
    "gradescope: a Gradescope autograder (setup.sh, run_autograder) for one lab\n"
    "student:    the labs' handouts, skeletons, grader and simulator as source, the\n"
    "            references only as stripped executables (no reference source)\n"
    "Run after `cmake --build build` (the references are taken from this build).\n";

// A scratch folder removed when the export ends, whatever happens.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "parlab-export.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw EnvironmentError("cannot create a folder in " + fs::temp_directory_path().string());
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// "parlab-kit" for parlab-kit.tar.gz, .tgz or .zip.
std::string kit_folder_name(const fs::path& out) {
  std::string name = out.filename().string();
  for (const char* suffix : {".tar.gz", ".tgz", ".zip"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.erase(name.size() - s.size());
      break;
    }
  }
  return name.empty() || name[0] == '.' ? "parlab-kit" : name;
}

void write_archive(const fs::path& out, const std::vector<KitFile>& files) {
  ArchiveWriter writer(out);
  for (const KitFile& f : files) {
    if (f.from.empty()) writer.add_text(f.name, f.text, f.executable);
    else writer.add_file(f.name, f.from);
  }
  writer.finish();
}

}  // namespace

int run_export_command(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? kExitUsage : kExitAllPassed;
  }
  const std::string kind = args[0];
  if (kind != "gradescope" && kind != "student")
    throw UsageError("unknown export '" + kind + "': gradescope or student (grade export --help)");
  std::vector<std::string> labs;
  std::optional<fs::path> out;
  static const std::regex lab_id(R"(lab\d+)");
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--out") {
      if (i + 1 == args.size()) throw UsageError("--out needs a file name");
      out = fs::path(args[++i]);
    } else if (std::regex_match(args[i], lab_id)) {
      if (std::find(labs.begin(), labs.end(), args[i]) == labs.end()) labs.push_back(args[i]);
    } else {
      throw UsageError("grade export " + kind + ": unexpected '" + args[i] + "' (grade export --help)");
    }
  }
  if (!out) throw UsageError("grade export " + kind + " needs --out FILE");
  if (labs.empty()) throw UsageError("grade export " + kind + " needs a lab, e.g. lab01");
  if (kind == "gradescope" && labs.size() != 1) throw UsageError("a Gradescope autograder grades one lab");

  Toolchain toolchain = load_toolchain(default_toolchain_path());
  if (!fs::exists(toolchain.source_dir / "reference"))
    throw EnvironmentError("this is a student kit (no reference sources): export from the instructor's repository");
  std::vector<LabSpec> specs = load_all_labs(toolchain.source_dir / "labs");
  for (const std::string& id : labs) {
    if (std::none_of(specs.begin(), specs.end(), [&](const LabSpec& s) { return s.id == id; }))
      throw UsageError("unknown lab '" + id + "' (labs: grade list)");
  }

  ScratchDir scratch;
  std::vector<KitFile> files = student_kit_files(toolchain, labs, scratch.path());
  if (kind == "gradescope") {
    const LabSpec& spec = *std::find_if(specs.begin(), specs.end(), [&](const LabSpec& s) { return s.id == labs[0]; });
    std::vector<std::string> tracks, first_sources;  // one per track: the upload may be C++ or Python
    for (const TrackSpec& t : spec.tracks) {
      tracks.push_back(to_string(t.track));
      if (!t.sources.empty()) first_sources.push_back(t.sources.front());
    }
    files.push_back({"setup.sh", {}, gradescope_setup_script(labs[0], tracks), true});
    files.push_back({"run_autograder", {}, gradescope_run_script(labs[0], first_sources), true});
  }
  // A student kit unpacks into a folder of its own (named like the archive); a
  // Gradescope autograder keeps setup.sh at the top, where Gradescope looks for it.
  if (kind == "student") {
    const std::string top = kit_folder_name(*out);
    for (KitFile& f : files) f.name = top + "/" + f.name;
  }
  write_archive(*out, files);
  std::cerr << "grade: wrote " << out->string() << " (" << files.size() << " files; "
            << (kind == "gradescope" ? "Gradescope autograder for " + labs[0] : "student kit") << ")\n";
  return kExitAllPassed;
}

}  // namespace parlab::grader
