#include "batch/submission_unpacker.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <locale.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <vector>

#include "batch/entry_path.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

// libarchive converts entry names to the current locale's charset; in the C locale a
// UTF-8 name (a zip's UTF-8 flag, pax headers) cannot be converted and the entry comes
// back nameless. A UTF-8 LC_CTYPE for this thread only (uselocale), so the batch's
// other threads and the rest of the grader keep theirs.
class Utf8ThreadLocale {
 public:
  Utf8ThreadLocale() {
    for (const char* name : {"C.UTF-8", "C.utf8", "en_US.UTF-8"}) {
      utf8_ = ::newlocale(LC_CTYPE_MASK, name, static_cast<locale_t>(0));
      if (utf8_) break;
    }
    if (utf8_) previous_ = ::uselocale(utf8_);
  }
  ~Utf8ThreadLocale() {
    if (!utf8_) return;
    ::uselocale(previous_);
    ::freelocale(utf8_);
  }
  Utf8ThreadLocale(const Utf8ThreadLocale&) = delete;
  Utf8ThreadLocale& operator=(const Utf8ThreadLocale&) = delete;

 private:
  locale_t utf8_ = static_cast<locale_t>(0);
  locale_t previous_ = static_cast<locale_t>(0);
};

struct ArchiveCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveCloser>;

std::string archive_problem(archive* a, const std::string& what) {
  const char* msg = archive_error_string(a);
  return "not a valid archive: " + what + (msg ? std::string(": ") + msg : "");
}

// Copies one entry's data through the writer, which counts every byte.
std::string copy_entry_data(archive* a, SafeTreeWriter& out, const char* name) {
  if (std::string e = out.begin_file(name); !e.empty()) return e;
  std::vector<char> buf(1 << 16);
  for (;;) {
    la_ssize_t n = archive_read_data(a, buf.data(), buf.size());
    if (n == 0) break;
    if (n < 0) return archive_problem(a, std::string("reading '") + name + "'");
    if (std::string e = out.write(buf.data(), static_cast<std::size_t>(n)); !e.empty()) return e;
  }
  return out.end_file();
}

// Names as UTF-8 whatever the process locale: in the C locale libarchive cannot turn a
// UTF-8-flagged zip name (Python's zipfile, bsdtar, Windows tar) into a "multibyte"
// string and archive_entry_pathname() returns NULL. Names without a charset (old zips,
// plain tar) come back as their raw bytes.
std::string entry_text(const char* utf8, const char* raw) {
  if (utf8) return utf8;
  return raw ? raw : "";
}

std::string unpack_entry(archive* a, archive_entry* entry, SafeTreeWriter& out) {
  const std::string name = entry_text(archive_entry_pathname_utf8(entry), archive_entry_pathname(entry));
  if (archive_entry_hardlink(entry)) {
    return "entry '" + name + "' is a hard link (not accepted in submissions)";
  }
  switch (archive_entry_filetype(entry)) {
    case AE_IFDIR:
      return out.add_directory(name);
    case AE_IFREG:
      return copy_entry_data(a, out, name.c_str());
    case AE_IFLNK: {
      return out.add_symlink(name, entry_text(archive_entry_symlink_utf8(entry), archive_entry_symlink(entry)));
    }
    default:
      return "entry '" + name + "' is a device, fifo or socket (not accepted in submissions)";
  }
}

}  // namespace

UnpackOutcome unpack_archive(const fs::path& archive_path, const fs::path& dest,
                             const UnpackLimits& limits) {
  UnpackOutcome outcome;
  fs::create_directories(dest.parent_path());
  if (::mkdir(dest.c_str(), 0755) != 0) {
    outcome.problem = "cannot create " + dest.string();
    return outcome;
  }
  const Utf8ThreadLocale utf8;  // before the archive: it picks its charset conversions as it reads
  ArchivePtr a(archive_read_new());
  accept_submission_formats(a.get());
  if (archive_read_open_filename(a.get(), archive_path.c_str(), 1 << 16) != ARCHIVE_OK) {
    outcome.problem = archive_problem(a.get(), "cannot open it");
    return outcome;
  }
  SafeTreeWriter out(dest, limits);
  for (;;) {
    archive_entry* entry = nullptr;
    int rc = archive_read_next_header(a.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc < ARCHIVE_WARN) {
      outcome.problem = archive_problem(a.get(), "bad entry header");
      break;
    }
    outcome.problem = unpack_entry(a.get(), entry, out);
    if (!outcome.ok()) break;
  }
  if (outcome.ok() && out.entries() == 0) outcome.problem = "the archive is empty";
  outcome.bytes = out.bytes();
  outcome.entries = out.entries();
  return outcome;
}

UnpackOutcome copy_folder(const fs::path& source, const fs::path& dest, const UnpackLimits& limits) {
  UnpackOutcome outcome;
  fs::create_directories(dest.parent_path());
  if (::mkdir(dest.c_str(), 0755) != 0) {
    outcome.problem = "cannot create " + dest.string();
    return outcome;
  }
  SafeTreeWriter out(dest, limits);
  std::error_code ec;
  // Never follows symlinks: a link is recreated as a link, after the same target check.
  for (auto it = fs::recursive_directory_iterator(source, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    // lexically: fs::relative would resolve a symlink to its target's name.
    const std::string rel = it->path().lexically_relative(source).string();
    const fs::file_status st = it->symlink_status();
    if (fs::is_symlink(st)) {
      outcome.problem = out.add_symlink(rel, fs::read_symlink(it->path()).string());
    } else if (fs::is_directory(st)) {
      outcome.problem = out.add_directory(rel);
    } else if (fs::is_regular_file(st)) {
      int fd = ::open(it->path().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) {
        outcome.problem = "cannot read '" + rel + "'";
      } else {
        process::UniqueFd in(fd);
        outcome.problem = out.begin_file(rel);
        std::vector<char> buf(1 << 16);
        while (outcome.ok()) {
          ssize_t n = ::read(in.get(), buf.data(), buf.size());
          if (n <= 0) break;
          outcome.problem = out.write(buf.data(), static_cast<std::size_t>(n));
        }
        if (outcome.ok()) outcome.problem = out.end_file();
      }
    } else {
      outcome.problem = "'" + rel + "' is a device, fifo or socket (not accepted in submissions)";
    }
    if (!outcome.ok()) break;
  }
  if (ec && outcome.ok()) outcome.problem = "cannot read the folder: " + ec.message();
  outcome.bytes = out.bytes();
  outcome.entries = out.entries();
  return outcome;
}

fs::path find_submission_root(const fs::path& root, const std::string& first_source) {
  fs::path here = root;
  for (int depth = 0; depth < 3; ++depth) {
    if (fs::exists(fs::symlink_status(here / first_source))) return here;
    fs::path only;
    int folders = 0;
    int files = 0;
    for (const auto& e : fs::directory_iterator(here)) {
      if (is_archiver_litter(e.path().filename())) continue;
      if (e.is_directory() && !e.is_symlink()) {
        only = e.path();
        ++folders;
      } else {
        ++files;
      }
    }
    if (folders != 1 || files != 0) return here;
    here = only;
  }
  return here;
}

void accept_submission_formats(archive* reader) {
  archive_read_support_format_zip(reader);
  archive_read_support_format_tar(reader);
  archive_read_support_format_gnutar(reader);
  archive_read_support_filter_gzip(reader);
  archive_read_support_filter_bzip2(reader);
  archive_read_support_filter_xz(reader);
}

}  // namespace parlab::grader::batch
