#include "compile/compile_check_memo.hpp"

#include <nettle/sha2.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool is_header_name(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".cuh" || ext == ".inl";
}

std::string read_whole(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Each part is preceded by its length, so no two lists of parts hash alike.
class Sha256Text {
 public:
  Sha256Text() { sha256_init(&ctx_); }
  Sha256Text& add(const std::string& part) {
    const std::string length = std::to_string(part.size()) + ':';
    sha256_update(&ctx_, length.size(), reinterpret_cast<const std::uint8_t*>(length.data()));
    sha256_update(&ctx_, part.size(), reinterpret_cast<const std::uint8_t*>(part.data()));
    return *this;
  }
  std::string hex() {
    std::uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx_, sizeof digest, digest);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (std::uint8_t b : digest) out += {kHex[b >> 4], kHex[b & 15]};
    return out;
  }

 private:
  sha256_ctx ctx_;
};

// The program's identity without reading it: an installed toolkit changes size or time.
std::string stamp_of(const fs::path& program) {
  std::error_code ec;
  const auto size = fs::file_size(program, ec);
  const auto time = fs::last_write_time(program, ec);
  if (ec) throw std::runtime_error("cannot stat " + program.string() + ": " + ec.message());
  return program.string() + ' ' + std::to_string(size) + ' ' +
         std::to_string(time.time_since_epoch().count());
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

bool CompileCheckMemo::passed_before(const std::string& key) const {
  std::error_code ec;
  return !folder_.empty() && !key.empty() &&
         fs::symlink_status(folder_ / key, ec).type() == fs::file_type::regular;
}

void CompileCheckMemo::remember_passed(const std::string& key) const {
  if (folder_.empty() || key.empty()) return;
  std::error_code ec;
  fs::create_directories(folder_, ec);
  std::ofstream(folder_ / key, std::ios::app);
}

std::string compile_check_key(const CompileStep& step, const fs::path& stage,
                              const std::vector<std::string>& staged,
                              const std::vector<fs::path>& include_dirs) {
  Sha256Text key;
  key.add("compile check 1").add(stamp_of(step.program));
  for (const std::string& arg : step.args) key.add(replace_all(arg, stage.string(), "<stage>"));
  const std::string checked = read_whole(stage / step.checks_source);
  key.add(step.checks_source).add(checked);
  // A staged file is part of the check when the checked one may include it: every
  // header, and any other file whose name it holds (a .cu included by another).
  std::vector<std::string> names = staged;
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    if (name == step.checks_source) continue;
    if (is_header_name(name) || checked.find(fs::path(name).filename().string()) != std::string::npos)
      key.add(name).add(read_whole(stage / name));
  }
  for (const fs::path& dir : include_dirs) {
    std::vector<fs::path> headers;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file(ec) && is_header_name(it->path())) headers.push_back(it->path());
    }
    if (ec) throw std::runtime_error("cannot list " + dir.string() + ": " + ec.message());
    std::sort(headers.begin(), headers.end());
    key.add(dir.string());
    for (const fs::path& header : headers)
      key.add(header.lexically_relative(dir).string()).add(read_whole(header));
  }
  return key.hex();
}

std::string compiled_views_key(const std::vector<CompileStep>& view_steps, const fs::path& stage,
                               const std::vector<std::string>& staged,
                               const std::vector<fs::path>& include_dirs,
                               const std::vector<fs::path>& simulator_dirs) {
  Sha256Text key;
  key.add("compiled views 1");
  for (CompileStep step : view_steps) {
    step.checks_source = step.views_of;
    key.add(compile_check_key(step, stage, staged, include_dirs));
  }
  for (const fs::path& dir : simulator_dirs) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_regular_file(ec)) files.push_back(it->path());
    }
    if (ec) throw std::runtime_error("cannot list " + dir.string() + ": " + ec.message());
    std::sort(files.begin(), files.end());
    key.add(dir.string());
    for (const fs::path& file : files) key.add(file.lexically_relative(dir).string()).add(read_whole(file));
  }
  return key.hex();
}

}  // namespace parlab::grader
