#include "compile/python_program.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// py_compile on each file (argv[2:]), its .pyc kept out of the stage (argv[1]); a
// failure printed as a compiler would, so compile/diagnostics reads file:line:col.
constexpr const char* kSyntaxCheck = R"(import py_compile, sys
failed = 0
for path in sys.argv[2:]:
    try:
        py_compile.compile(path, cfile=sys.argv[1] + "/" + path.rsplit("/", 1)[-1] + "c", doraise=True)
    except py_compile.PyCompileError as e:
        v = e.exc_value
        line = getattr(v, "lineno", None) or 1
        col = getattr(v, "offset", None) or 1
        msg = getattr(v, "msg", None) or str(v)
        sys.stderr.write(f"{path}:{line}:{col}: error: {e.exc_type_name}: {msg}\n")
        failed = 1
sys.exit(failed)
)";

// The lab's own Python files: driver.py and what it imports beside it (api.py, ...).
std::vector<fs::path> lab_python_files(const fs::path& lab_dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(lab_dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".py") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> harness_files(const fs::path& harness_dir) {
  std::vector<fs::path> files = {harness_dir / "launcher.py"};
  for (const auto& entry : fs::directory_iterator(harness_dir / "parlab_harness")) {
    if (entry.is_regular_file() && entry.path().extension() == ".py") files.push_back(entry.path());
  }
  std::sort(files.begin() + 1, files.end());
  return files;
}

void copy_fresh(const fs::path& from, const fs::path& to) {
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
  fs::permissions(to, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                          fs::perms::others_read);
}

}  // namespace

CompilePlan python_plan(const LabSpec& lab, const Toolchain& tc, const fs::path& stage,
                        const fs::path& exe) {
  if (!fs::exists(kPython3)) {
    throw EnvironmentError(std::string(kPython3) + " not found: the " + lab.id +
                           " Python track needs python3 (containers/install-deps.sh)");
  }
  const fs::path harness_dir = tc.source_dir / "harness" / "python";
  const fs::path lab_dir = tc.lab(lab.id).dir;
  CompileStep check{kPython3, {"-I", "-S", "-c", kSyntaxCheck, (exe.parent_path().parent_path() / "pyc").string()}};
  for (const std::string& src : lab.sources) check.args.push_back((stage / src).string());
  CompilePlan plan{{check}, {}, {kPython3}};
  for (const fs::path& f : harness_files(harness_dir)) plan.inputs.push_back(f);
  for (const fs::path& f : lab_python_files(lab_dir)) plan.inputs.push_back(f);
  return plan;
}

void assemble_python_program(const fs::path& harness_dir, const fs::path& lab_dir,
                             const fs::path& solution, const std::vector<std::string>& sources,
                             const fs::path& exe) {
  const fs::path bin = exe.parent_path();
  fs::remove_all(bin / "driver");
  fs::remove_all(bin / "solution");
  fs::create_directories(bin / "driver" / "parlab_harness");
  fs::create_directories(bin / "solution");
  for (const fs::path& f : lab_python_files(lab_dir)) copy_fresh(f, bin / "driver" / f.filename());
  const std::vector<fs::path> harness = harness_files(harness_dir);
  for (auto it = harness.begin() + 1; it != harness.end(); ++it)
    copy_fresh(*it, bin / "driver" / "parlab_harness" / it->filename());
  for (const std::string& src : sources) copy_fresh(solution / src, bin / "solution" / src);
  copy_fresh(harness.front(), exe);
  fs::permissions(exe, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
}

}  // namespace parlab::grader
