#include "batch/record_identity.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <stdexcept>
#include <system_error>

#include "compile/content_hash.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace parlab::grader::batch {
namespace {

// Walks without following links: a symlink is hashed as its target text, so a link
// pointing at something outside the class folder never changes the hash.
void add_tree(ContentHash& h, const fs::path& root, const fs::path& rel) {
  std::vector<fs::path> names;
  for (const fs::directory_entry& e : fs::directory_iterator(root / rel)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  for (const fs::path& name : names) {
    const fs::path r = rel / name;
    const fs::file_status st = fs::symlink_status(root / r);
    h.add(r.generic_string()).add(std::uint64_t{0});
    if (fs::is_symlink(st)) {
      h.add("L").add(fs::read_symlink(root / r).string());
    } else if (fs::is_directory(st)) {
      h.add("D");
      add_tree(h, root, r);
    } else if (fs::is_regular_file(st)) {
      h.add("F").add(static_cast<std::uint64_t>(fs::file_size(root / r))).add_file(root / r);
    } else {
      h.add("O");  // device, fifo, socket: its name is enough, its content is never read
    }
    h.add(std::uint64_t{1});
  }
}

}  // namespace

std::string submission_content_hash(const fs::path& entry) {
  ContentHash h;
  const fs::file_status st = fs::symlink_status(entry);
  if (fs::is_directory(st)) {
    h.add("tree");
    add_tree(h, entry, {});
  } else if (fs::is_regular_file(st)) {
    h.add("file").add_file(entry);
  } else if (fs::is_symlink(st)) {
    h.add("link").add(fs::read_symlink(entry).string());
  } else {
    h.add("other");
  }
  return h.hex();
}

std::string file_content_hash(const fs::path& file) { return ContentHash().add_file(file).hex(); }

json identity_json(const RecordIdentity& id) {
  return {{"entry", id.entry},           {"submission_hash", id.submission_hash},
          {"roster_row", id.roster_row}, {"grader_version", id.grader_version},
          {"grader_hash", id.grader_hash}, {"lab_hash", id.lab_hash}};
}

RecordIdentity identity_from_json(const json& j) {
  auto text = [&](const char* key) { return j.contains(key) ? j.at(key).get<std::string>() : std::string(); };
  return {text("entry"), text("submission_hash"), text("roster_row"),
          text("grader_version"), text("grader_hash"), text("lab_hash")};
}

std::string identity_change(const std::optional<RecordIdentity>& saved, const RecordIdentity& now) {
  if (!saved) return "its record names no submission (graded by an older grader)";
  std::vector<std::string> why;
  if (saved->entry != now.entry) why.push_back("its entry is now '" + now.entry + "' (was '" + saved->entry + "')");
  else if (saved->submission_hash != now.submission_hash) why.push_back("the submission changed (resubmitted)");
  if (saved->roster_row != now.roster_row) why.push_back("its roster row changed");
  if (saved->grader_version != now.grader_version || saved->grader_hash != now.grader_hash) {
    why.push_back("the grader changed");
  }
  if (saved->lab_hash != now.lab_hash) why.push_back("the lab's tests changed (lab.toml, its test files or its reference)");
  std::string out;
  for (const std::string& w : why) out += (out.empty() ? "" : "; ") + w;
  return out;
}

}  // namespace parlab::grader::batch
