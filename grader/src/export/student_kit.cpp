#include "export/student_kit.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/errors.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// Top-level entries of the source tree that go into a kit. Not reference/, tests/
// and bench/ (both build reference sources), nor dot folders (.git, .ci) or builds.
constexpr const char* kKitSourceEntries[] = {
    "CMakeLists.txt", "CMakePresets.json", "README.md", "cmake", "containers",
    "harness",        "datasets",          "sim",       "grader", "docs",
};

bool hidden(const fs::path& p) { return p.filename().string().rfind('.', 0) == 0; }

void add_tree(const fs::path& source_dir, const fs::path& entry, std::vector<KitFile>& files) {
  const fs::path top = source_dir / entry;
  fs::file_status status = fs::symlink_status(top);
  if (fs::is_regular_file(status)) {
    files.push_back({entry.generic_string(), top, "", false});
    return;
  }
  if (!fs::is_directory(status)) return;
  for (auto it = fs::recursive_directory_iterator(top); it != fs::recursive_directory_iterator(); ++it) {
    if (hidden(it->path())) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    // Links are left out: a link could point at a reference.
    if (!it->is_regular_file() || it->is_symlink()) continue;
    files.push_back({fs::relative(it->path(), source_dir).generic_string(), it->path(), "", false});
  }
}

// labs/CMakeLists.txt with only the chosen labs' parlab_add_*lab() lines.
std::string labs_cmake_for(const fs::path& source_dir, const std::vector<std::string>& lab_ids) {
  std::ifstream in(source_dir / "labs" / "CMakeLists.txt");
  if (!in) throw EnvironmentError("cannot read " + (source_dir / "labs" / "CMakeLists.txt").string());
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.rfind("parlab_add_", 0) == 0) {
      bool chosen = std::any_of(lab_ids.begin(), lab_ids.end(), [&](const std::string& id) {
        return std::regex_search(line, std::regex("[( ]ID " + id + "[ )]"));
      });
      if (!chosen) continue;
    }
    out += line + "\n";
  }
  return out;
}

void strip_copy(const fs::path& from, const fs::path& to) {
  if (!fs::is_regular_file(from))
    throw EnvironmentError("reference executable " + from.string() + " is not built: run cmake --build build first");
  std::vector<std::string> args = {"strip", "--strip-all", "-o", to.string(), from.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int status = 0;
  if (::posix_spawnp(&pid, "strip", nullptr, nullptr, argv.data(), environ) != 0 ||
      ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw EnvironmentError("strip failed on " + from.string() + " (binutils installed?)");
}

std::vector<fs::path> reference_executables(const LabToolchain& lab) {
  std::vector<fs::path> exes;
  if (lab.gpu()) {
    exes = {lab.cpu_reference_exe, lab.sim_reference_exe};
    if (!lab.reference_exe.empty()) exes.push_back(lab.reference_exe);  // nvcc build
  } else {
    exes = {lab.reference_exe};
  }
  return exes;
}

std::string kit_note(const Toolchain& toolchain, const std::vector<std::string>& lab_ids) {
  std::ostringstream note;
  std::string labs;
  for (const std::string& id : lab_ids) labs += (labs.empty() ? "" : ", ") + id;
  note << "# parlab student kit: " << labs << "\n\n"
       << "Made by `grade export student` from parlab " << toolchain.version << ".\n\n"
       << "It holds each lab's handout (`labs/<lab>/README.md`), skeleton, public headers and\n"
       << "`lab.toml`, the grader, harness, dataset generators and CUDA simulator as source, and\n"
       << "the reference solutions only as stripped executables (`prebuilt-references/`), which\n"
       << "the grader runs for the expected outputs and the speed baseline.\n\n"
       << "On Debian 12, as root, from this folder:\n\n"
       << "```sh\n"
       << "bash containers/install-deps.sh && cmake --preset default && cmake --build build && cmake --install build\n"
       << "cp -r labs/<lab-dir>/skeleton my-lab && grade " << lab_ids.front() << " my-lab\n"
       << "```\n\n"
       << "The prebuilt references need Debian 12's libraries (what install-deps.sh installs)"
       << (toolchain.cuda ? " and, for the GPU build, the CUDA major version they were built with" : "")
       << ".\n`grade LAB --reference` is not available in a kit (no reference source).\n";
  return note.str();
}

}  // namespace

std::vector<KitFile> student_kit_files(const Toolchain& toolchain, const std::vector<std::string>& lab_ids,
                                       const fs::path& scratch) {
  const fs::path& source_dir = toolchain.source_dir;
  std::vector<KitFile> files;
  for (const char* entry : kKitSourceEntries) add_tree(source_dir, entry, files);
  files.push_back({"labs/CMakeLists.txt", {}, labs_cmake_for(source_dir, lab_ids), false});
  files.push_back({"KIT.md", {}, kit_note(toolchain, lab_ids), false});
  for (const std::string& id : lab_ids) {
    const LabToolchain& lab = toolchain.lab(id);  // EnvironmentError when not built
    add_tree(source_dir, fs::path("labs") / lab.dir.filename(), files);
    for (const fs::path& exe : reference_executables(lab)) {
      const fs::path stripped = scratch / exe.filename();
      strip_copy(exe, stripped);
      files.push_back({"prebuilt-references/" + exe.filename().string(), stripped, "", true});
    }
  }
  // The promise of a kit, checked on what is actually in it.
  const fs::path reference_root = (source_dir / "reference").lexically_normal();
  for (const KitFile& f : files) {
    const std::string from = f.from.lexically_normal().string();
    if (f.name.rfind("reference/", 0) == 0 ||
        (!f.from.empty() && from.rfind(reference_root.string() + "/", 0) == 0))
      throw std::logic_error("a reference source reached the student kit: " + f.name);
  }
  return files;
}

}  // namespace parlab::grader
