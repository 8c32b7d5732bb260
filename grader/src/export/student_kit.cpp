#include "export/student_kit.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/errors.hpp"
#include "spec/lab_spec.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// Top-level entries of the source tree that go into a kit. Not reference/, tests/
// and bench/ (both build reference sources), nor dot folders (.git, .ci) or builds.
constexpr const char* kKitSourceEntries[] = {
    "CMakeLists.txt", "CMakePresets.json", "cmake", "containers",
    "harness",        "datasets",          "sim",   "grader", "docs",
    "CHANGELOG.md",  // docs link to it
};
// Not the repository's README (its quick start runs the test suite and links labs a
// kit may not hold), nor its install-deps.sh (test tools: Slurm, chromium, Catch2):
// the kit writes its own (kit_readme, kit_install_deps).
constexpr const char* kReplacedInKit[] = {"containers/install-deps.sh"};

// Packages only the repository's tests, benchmarks and exports need.
constexpr const char* kTestOnlyPackages[] = {"catch2", "slurm-wlm", "procps", "ccache", "chromium",
                                             "fonts-dejavu-core", "libarchive-tools"};

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
    const std::string name = fs::relative(it->path(), source_dir).generic_string();
    if (std::find(std::begin(kReplacedInKit), std::end(kReplacedInKit), name) != std::end(kReplacedInKit)) continue;
    files.push_back({name, it->path(), "", false});
  }
}

// labs/CMakeLists.txt with only the chosen labs' parlab_add_*lab() calls. A call may
// span lines (its arguments continued below it): it is kept or left out whole.
std::string labs_cmake_for(const fs::path& source_dir, const std::vector<std::string>& lab_ids) {
  std::ifstream in(source_dir / "labs" / "CMakeLists.txt");
  if (!in) throw EnvironmentError("cannot read " + (source_dir / "labs" / "CMakeLists.txt").string());
  std::string line, out, call;
  int depth = 0;
  while (std::getline(in, line)) {
    if (depth == 0 && line.rfind("parlab_add_", 0) != 0) {
      out += line + "\n";
      continue;
    }
    call += line + "\n";
    depth += static_cast<int>(std::count(line.begin(), line.end(), '(')) -
             static_cast<int>(std::count(line.begin(), line.end(), ')'));
    if (depth > 0) continue;
    depth = 0;
    const bool chosen = std::any_of(lab_ids.begin(), lab_ids.end(), [&](const std::string& id) {
      return std::regex_search(call, std::regex("[(\\s]ID\\s+" + id + "[\\s)]"));
    });
    if (chosen) out += call;
    call.clear();
  }
  return out + call;
}

// Runs a tool found on PATH; EnvironmentError(`failure`) unless it exits 0.
void run_tool(std::vector<std::string> args, const std::string& failure) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int status = 0;
  if (::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0 ||
      ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw EnvironmentError(failure);
}

void strip_copy(const fs::path& from, const fs::path& to) {
  if (!fs::is_regular_file(from))
    throw EnvironmentError("reference executable " + from.string() + " is not built: run cmake --build build first");
  run_tool({"strip", "--strip-all", "-o", to.string(), from.string()},
           "strip failed on " + from.string() + " (binutils installed?)");
}

// A Python track's reference goes into a kit as bytecode only, as the C++ references go
// as stripped executables: no source text, comments or docstrings (-OO), no path of
// this tree (the code names itself by its file name), the same bytes for the same
// source (unchecked-hash .pyc). The kit's build lays it out as the reference program
// (cmake/ParlabLab.cmake); Python imports a .pyc without its source.
constexpr const char* kCompileToBytecode =
    "import py_compile, sys\n"
    "py_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile=sys.argv[3], doraise=True, optimize=2,\n"
    "                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)\n";

void add_python_reference_bytecode(const LabToolchain& lab, const std::string& lab_id, const fs::path& scratch,
                                   std::vector<KitFile>& files) {
  if (lab.python_reference_exe.empty()) return;  // the lab has no Python track
  const fs::path solution = lab.python_reference_exe.parent_path() / "solution";
  if (!fs::is_directory(solution))
    throw EnvironmentError(lab_id + "'s Python reference program " + solution.parent_path().string() +
                           " is not built: run cmake --build build first");
  const std::string folder = lab_id + "_python_reference";
  fs::create_directories(scratch / folder);
  for (const fs::directory_entry& e : fs::directory_iterator(solution)) {
    if (!e.is_regular_file() || e.path().extension() != ".py") continue;
    const std::string name = e.path().stem().string() + ".pyc";
    const fs::path out = scratch / folder / name;
    run_tool({"python3", "-I", "-c", kCompileToBytecode, e.path().string(), out.string(),
              e.path().filename().string()},
             "python3 could not compile " + e.path().string() + " to bytecode (python3 installed?)");
    files.push_back({"prebuilt-references/" + folder + "/" + name, out, "", false});
  }
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

// The kit's install-deps.sh: the repository's, less the packages only its tests use.
std::string kit_install_deps(const fs::path& source_dir) {
  std::ifstream in(source_dir / "containers" / "install-deps.sh");
  if (!in) throw EnvironmentError("cannot read " + (source_dir / "containers" / "install-deps.sh").string());
  std::string line, out;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (std::find(std::begin(kTestOnlyPackages), std::end(kTestOnlyPackages), first) != std::end(kTestOnlyPackages))
      continue;
    if (line.rfind("# The one place parlab", 0) == 0) {
      out += "# The Debian 12 packages a parlab student kit needs to build and grade (the\n"
             "# repository's list less its test tools).\n";
      continue;
    }
    if (line.rfind("# Used by the README quick start", 0) == 0) {
      out += "# Idempotent: it installs only what is missing, so later runs cost a dpkg query.\n";
      continue;
    }
    if (line.rfind("# installs only what is missing", 0) == 0) continue;
    out += line + "\n";
  }
  return out;
}

// Docker's build context leaves out builds: a kit built in place has a build/ whose
// CMakeCache names this folder, which cmake refuses in the image's /parlab.
constexpr const char* kDockerIgnore = "build/\nbuild-*/\n**/CMakeCache.txt\n**/CMakeFiles/\n";

// The kit's README on the labs' Python tracks, if any: where the skeleton is and that
// the Python reference ships as bytecode for Debian 12's python3.
std::string python_track_section(const Toolchain& toolchain, const std::vector<std::string>& lab_ids) {
  std::ostringstream text;
  for (const std::string& id : lab_ids) {
    const LabToolchain& lab = toolchain.lab(id);
    const LabSpec spec = load_lab_spec(lab.dir / "lab.toml");
    const TrackSpec* python = find_track(spec, Track::python);
    if (!python || lab.python_reference_exe.empty()) continue;
    if (text.tellp() == 0) {
      text << "## Python\n\n"
           << "A lab with a Python track grades a folder holding its Python file instead (the\n"
           << "track is found from the file names; `--language python` forces it). Start from\n"
           << "the Python skeleton:\n\n```sh\n";
    }
    const std::string dir = lab.dir.filename().string();
    text << "cp -r labs/" << dir << "/" << python->skeleton << " my-" << id << "-python\n"
         << "./build/grade " << id << " my-" << id << "-python\n";
  }
  if (text.tellp() == 0) return "";
  text << "```\n\n"
       << "Its speed is measured against the Python reference, which this kit holds as\n"
       << "bytecode only (`prebuilt-references/<lab>_python_reference/*.pyc`), for Debian 12's\n"
       << "python3: with another Python version the build warns, and Python submissions are\n"
       << "graded without their performance tests.\n\n";
  return text.str();
}

std::string kit_readme(const Toolchain& toolchain, const std::vector<std::string>& lab_ids,
                       const std::vector<std::string>& lab_dirs) {
  std::ostringstream note;
  std::string labs;
  for (const std::string& id : lab_ids) labs += (labs.empty() ? "" : ", ") + id;
  note << "# parlab student kit: " << labs << "\n\n"
       << "Made by `grade export student` from parlab " << toolchain.version << ".\n\n"
       << "It holds each lab's handout, skeleton, public headers and `lab.toml`, the grader,\n"
       << "harness, dataset generators and CUDA simulator as source, and the reference solutions\n"
       << "only as stripped executables (`prebuilt-references/`), which the grader runs for the\n"
       << "expected outputs and the speed baseline.\n\n"
       << "Handouts:\n\n";
  for (std::size_t i = 0; i < lab_ids.size(); ++i) {
    note << "- " << lab_ids[i] << ": [labs/" << lab_dirs[i] << "/README.md](labs/" << lab_dirs[i] << "/README.md)\n";
  }
  note << "\n## Build (once)\n\n"
       << "On Debian 12, from this folder (`install-deps.sh` uses sudo when you are not root;\n"
       << "the first build compiles the grader and the CUDA simulator, which takes a while):\n\n"
       << "```sh\n"
       << "bash containers/install-deps.sh\n"
       << "cmake --preset default && cmake --build build\n"
       << "```\n\n"
       << "## Grade your work\n\n"
       << "```sh\n"
       << "cp -r labs/" << lab_dirs.front() << "/skeleton my-" << lab_ids.front() << "\n"
       << "./build/grade " << lab_ids.front() << " my-" << lab_ids.front() << "            # builds, tests and reports\n"
       << "./build/grade " << lab_ids.front() << " my-" << lab_ids.front() << " --no-perf  # correctness only, quick\n"
       << "./build/grade list    # the labs in this kit\n"
       << "```\n\n"
       << "`cmake --install build` (as root, or with `--prefix ~/.local`) puts `grade` on your\n"
       << "PATH. Gradings keep their builds and caches in `~/.cache/parlab` (as root:\n"
       << "`build/grade-work`; `--work-dir` to change it). The skeleton compiles and fails its\n"
       << "tests with messages saying what to\n"
       << "do (exit code 1).\n\n"
       << python_track_section(toolchain, lab_ids)
       << "The prebuilt references need Debian 12's libraries (what install-deps.sh installs)"
       << (toolchain.cuda ? " and, for the GPU build, the CUDA major version they were built with" : "")
       << ".\n`grade LAB --reference` is not available in a kit (there is no reference source).\n"
       << "The reference documentation of the grader is in `docs/` (start with `docs/reports.md`).\n";
  return note.str();
}

}  // namespace

std::vector<KitFile> student_kit_files(const Toolchain& toolchain, const std::vector<std::string>& lab_ids,
                                       const fs::path& scratch) {
  const fs::path& source_dir = toolchain.source_dir;
  std::vector<KitFile> files;
  for (const char* entry : kKitSourceEntries) add_tree(source_dir, entry, files);
  files.push_back({"labs/CMakeLists.txt", {}, labs_cmake_for(source_dir, lab_ids), false});
  std::vector<std::string> lab_dirs;
  for (const std::string& id : lab_ids) lab_dirs.push_back(toolchain.lab(id).dir.filename().string());
  const std::string readme = kit_readme(toolchain, lab_ids, lab_dirs);
  files.push_back({"README.md", {}, readme, false});
  files.push_back({"KIT.md", {}, readme, false});  // the name earlier kits used
  files.push_back({"containers/install-deps.sh", {}, kit_install_deps(source_dir), true});
  files.push_back({".dockerignore", {}, kDockerIgnore, false});
  for (const std::string& id : lab_ids) {
    const LabToolchain& lab = toolchain.lab(id);  // EnvironmentError when not built
    add_tree(source_dir, fs::path("labs") / lab.dir.filename(), files);
    for (const fs::path& exe : reference_executables(lab)) {
      const fs::path stripped = scratch / exe.filename();
      strip_copy(exe, stripped);
      files.push_back({"prebuilt-references/" + exe.filename().string(), stripped, "", true});
    }
    add_python_reference_bytecode(lab, id, scratch, files);
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
