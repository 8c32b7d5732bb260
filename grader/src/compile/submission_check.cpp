#include "compile/submission_check.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool is_source_name(const std::string& name) {
  const std::string ext = fs::path(name).extension().string();
  return ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" || ext == ".cu";
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Names in the folder, without following links or reading any file.
std::vector<std::string> folder_names(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Source files in sub-folders ("kernels/old.cu"), relative and sorted: names only,
// links not followed, hidden folders and __MACOSX skipped, 4 levels deep at most (the stager's
// depth for headers, submission_stager.hpp).
std::vector<std::string> subfolder_source_names(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  int looked_at = 0;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
    if (++looked_at > 10000) break;
    const std::string name = it->path().filename().string();
    std::error_code type_error;  // a dangling link is no folder, and no reason to stop
    if (it->is_directory(type_error) && !it->is_symlink(type_error)) {
      if (name.starts_with(".") || name == "__MACOSX" || it.depth() >= 4) it.disable_recursion_pending();
      continue;
    }
    if (it.depth() > 0 && is_source_name(name)) {
      names.push_back(it->path().lexically_relative(folder).generic_string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The closest name that could be the wanted file misnamed: same name in another
// case, or a small edit away (a third of the name at most).
std::string closest(const std::string& wanted, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, wanted.size() / 3) + 1;
  for (const std::string& name : names) {
    if (lower(name) == lower(wanted)) return name;
    const std::size_t d = edit_distance(wanted, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  return best;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

void require_submission_folder(const fs::path& submission) {
  std::error_code ec;
  const fs::file_status status = fs::status(submission, ec);
  if (!fs::exists(status)) {
    throw UsageError("submission folder not found: " + submission.string());
  }
  if (!fs::is_directory(status)) {
    throw UsageError(submission.string() + " is a file, not a folder: give the folder that " +
                     "holds your sources (e.g. " + submission.parent_path().string() + ")");
  }
}

SubmissionCheck check_submission(const fs::path& submission, const std::vector<std::string>& sources) {
  SubmissionCheck check;
  const std::vector<std::string> names = folder_names(submission);
  std::vector<std::string> suggested;
  for (const std::string& wanted : sources) {
    if (std::find(names.begin(), names.end(), wanted) != names.end()) continue;
    MissingSource m{wanted, closest(wanted, names)};
    if (std::find(sources.begin(), sources.end(), m.did_you_mean) != sources.end()) {
      m.did_you_mean.clear();  // another required file is no misnaming
    }
    if (!m.did_you_mean.empty()) suggested.push_back(m.did_you_mean);
    check.missing.push_back(m);
  }
  for (const std::string& name : names) {
    if (!is_source_name(name)) continue;
    if (std::find(sources.begin(), sources.end(), name) != sources.end()) continue;
    if (std::find(suggested.begin(), suggested.end(), name) != suggested.end()) continue;
    check.not_compiled.push_back(name);
  }
  // Sources in sub-folders are never compiled either (only headers are staged from
  // them), as far down as the stager looks for headers.
  for (const std::string& path : subfolder_source_names(submission)) check.not_compiled.push_back(path);
  return check;
}

std::vector<Diagnostic> submission_check_diagnostics(const SubmissionCheck& check,
                                                     const fs::path& submission,
                                                     const std::string& lab_id,
                                                     const std::vector<std::string>& sources,
                                                     const std::string& skeleton_hint) {
  std::vector<Diagnostic> out;
  for (const MissingSource& m : check.missing) {
    std::string message = m.name + " is missing: a " + lab_id + " submission must contain it";
    if (!m.did_you_mean.empty()) {
      message += "; did you mean " + m.did_you_mean + "? (rename it to " + m.name + ")";
    } else if (!skeleton_hint.empty()) {
      message += " (start from " + skeleton_hint + "/" + m.name + ")";
    }
    out.push_back({(submission / m.name).string(), 0, 0, "error", message});
  }
  for (const std::string& name : check.not_compiled) {
    const bool in_subfolder = name.find('/') != std::string::npos;
    out.push_back({(submission / name).string(), 0, 0, "warning",
                   name + " will not be compiled: " + lab_id + " compiles only " +
                       joined(sources) +
                       (in_subfolder ? " and takes only headers from sub-folders (move its code "
                                       "there, or into a header they include)"
                                     : " (move its code there)")});
  }
  return out;
}

}  // namespace parlab::grader
