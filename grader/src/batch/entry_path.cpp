#include "batch/entry_path.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

bool has_dotdot(const fs::path& p) {
  for (const fs::path& part : p) {
    if (part == "..") return true;
  }
  return false;
}

}  // namespace

EntryPath check_entry_path(std::string_view name) {
  EntryPath out;
  const std::string quoted = "'" + std::string(name) + "'";
  if (name.empty()) {
    out.problem = "an entry has an empty name";
    return out;
  }
  const fs::path p(name);
  if (p.is_absolute()) {
    out.problem = "entry " + quoted + " has an absolute path";
    return out;
  }
  if (has_dotdot(p)) {
    out.problem = "entry " + quoted + " climbs out of the submission with '..'";
    return out;
  }
  for (const fs::path& part : p) {
    if (part != "." && !part.empty()) out.relative /= part;
  }
  return out;
}

std::string symlink_target_problem(std::string_view target) {
  const fs::path t(target);
  if (target.empty()) return "an empty target";
  if (t.is_absolute()) return "an absolute target '" + std::string(target) + "'";
  if (has_dotdot(t)) return "a target with '..' ('" + std::string(target) + "')";
  return "";
}

bool is_archiver_litter(const fs::path& name) {
  const std::string n = name.filename().string();
  return n == "__MACOSX" || n == ".DS_Store" || (n.size() > 2 && n.rfind("._", 0) == 0);
}

}  // namespace parlab::grader::batch
