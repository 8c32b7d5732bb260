// Named arrays on disk: OutputWriter runs inside the (untrusted) lab executable,
// read_outputs runs in the grader and trusts nothing it reads back.
#include "parlab/harness/arrays.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "parlab/harness/atomic_file.hpp"
#include "parlab/harness/no_follow_read.hpp"
#include "fork_guard.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace parlab::harness {
namespace {

constexpr const char* kFormat = "parlab-arrays";
constexpr int kVersion = 1;
constexpr std::size_t kMaxNameLength = 128;
// Parsed JSON takes several times its text in memory: the manifest gets its own cap.
constexpr std::uint64_t kMaxManifestBytes = 64ull << 20;

// Names become file names: letters, digits, '_', '.', '-' only, so no name can climb
// out of the output directory or hide as a dot file.
bool is_safe_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxNameLength || name == "." || name == "..") {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

std::optional<DType> dtype_from_name(const std::string& name) {
  for (DType t : {DType::f32, DType::f64, DType::i32, DType::i64}) {
    if (name == dtype_name(t)) return t;
  }
  return std::nullopt;
}

// The on-disk format is little-endian whatever the host is.
void to_little_endian(char* bytes, std::size_t count, std::size_t size) {
  if constexpr (std::endian::native == std::endian::big) {
    for (std::size_t i = 0; i < count; ++i) std::reverse(bytes + i * size, bytes + (i + 1) * size);
  }
}

template <class T>
T load_raw(const char* bytes) {
  char copy[sizeof(T)];
  std::memcpy(copy, bytes, sizeof(T));
  to_little_endian(copy, 1, sizeof(T));  // the swap is its own inverse
  T value;
  std::memcpy(&value, copy, sizeof(T));
  return value;
}

template <class T>
double load_element(const char* bytes) {
  return static_cast<double>(load_raw<T>(bytes));
}

// The exact value of an element of an integer array.
std::int64_t load_integer(DType t, const char* bytes) {
  return t == DType::i32 ? load_raw<std::int32_t>(bytes) : load_raw<std::int64_t>(bytes);
}

double load_element(DType t, const char* bytes) {
  switch (t) {
    case DType::f32:
      return load_element<float>(bytes);
    case DType::f64:
      return load_element<double>(bytes);
    case DType::i32:
      return load_element<std::int32_t>(bytes);
    case DType::i64:
      return load_element<std::int64_t>(bytes);
  }
  return 0;
}

void write_binary_file(const fs::path& file, const void* data, std::size_t bytes) {
  std::FILE* f = std::fopen(file.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot create output file " + file.string());
  const bool written = bytes == 0 || std::fwrite(data, 1, bytes, f) == bytes;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    throw std::runtime_error("cannot write output file " + file.string() +
                             " (disk full or file size limit?)");
  }
}

// Reads exactly `bytes` of regular file `name` in `dir_fd` (no links, no FIFOs).
std::string read_binary_file_at(int dir_fd, const std::string& name, std::uint64_t bytes) {
  std::string data;
  try {
    data = read_file_at(dir_fd, name, bytes);
  } catch (const UnsafeFileError& e) {
    throw OutputFormatError(e.what());
  }
  if (data.size() != bytes) throw OutputFormatError("cannot read " + name + " completely");
  return data;
}

// A regular file only: a symlink could point anywhere, a FIFO would block the grader.
std::uint64_t regular_file_size_at(int dir_fd, const std::string& name, const std::string& what) {
  std::uint64_t size = 0;
  switch (inspect_file_at(dir_fd, name, &size)) {
    case FileKind::missing:
      throw OutputFormatError(what + ": file " + name + " is missing");
    case FileKind::other:
      throw OutputFormatError(what + ": " + name +
                              " is not a regular file (links and special files are not read)");
    case FileKind::regular:
      break;
  }
  return size;
}

json parse_manifest(int dir_fd, std::uint64_t max_bytes, std::uint64_t& total_bytes) {
  if (inspect_file_at(dir_fd, "manifest.json") == FileKind::missing) {
    throw OutputFormatError(
        "no manifest.json in the output folder: the program wrote no outputs (did the task "
        "finish?)");
  }
  const std::uint64_t size = regular_file_size_at(dir_fd, "manifest.json", "manifest.json");
  const std::uint64_t limit = std::min(max_bytes, kMaxManifestBytes);
  if (size > limit) {
    throw OutputFormatError("manifest.json is " + std::to_string(size) +
                            " bytes, over the limit of " + std::to_string(limit));
  }
  total_bytes += size;
  try {
    return json::parse(read_binary_file_at(dir_fd, "manifest.json", size));
  } catch (const json::parse_error& e) {
    throw OutputFormatError(std::string("manifest.json is not valid JSON: ") + e.what());
  }
}

// Trusted folders (datasets, tests) by path; the grader opens child folders itself.
DirFd open_dir(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw OutputFormatError("cannot open folder " + dir.string());
  return DirFd(fd);
}

void check_header(const json& manifest) {
  if (!manifest.is_object()) throw OutputFormatError("manifest.json: not a JSON object");
  const auto format = manifest.find("format");
  if (format == manifest.end() || *format != kFormat) {
    throw OutputFormatError(std::string("manifest.json: \"format\" must be \"") + kFormat + "\"");
  }
  const auto version = manifest.find("version");
  if (version == manifest.end() || !version->is_number_integer() || *version != kVersion) {
    throw OutputFormatError("manifest.json: unsupported \"version\" (expected " +
                            std::to_string(kVersion) + ")");
  }
  const auto arrays = manifest.find("arrays");
  if (arrays == manifest.end() || !arrays->is_array()) {
    throw OutputFormatError("manifest.json: \"arrays\" must be a list");
  }
}

std::string string_field(const json& entry, const char* key, const std::string& what) {
  const auto it = entry.find(key);
  if (it == entry.end() || !it->is_string()) {
    throw OutputFormatError(what + ": \"" + key + "\" must be a string");
  }
  return it->get<std::string>();
}

// Everything about one manifest entry except its data, checked before any allocation.
struct EntryPlan {
  NamedArray array;
  std::string file;
  std::uint64_t count = 0;
};

EntryPlan plan_entry(const json& entry, std::size_t index, int dir_fd,
                     std::uint64_t max_bytes, std::uint64_t& total_bytes) {
  std::string what = "manifest.json: array #" + std::to_string(index);
  if (!entry.is_object()) throw OutputFormatError(what + ": not a JSON object");

  EntryPlan plan;
  plan.array.name = string_field(entry, "name", what);
  if (!is_safe_name(plan.array.name)) {
    throw OutputFormatError(what + ": unsafe array name '" + plan.array.name +
                            "' (allowed: letters, digits, '_', '.', '-')");
  }
  what = "array '" + plan.array.name + "'";

  const std::string dtype = string_field(entry, "dtype", what);
  const auto type = dtype_from_name(dtype);
  if (!type) throw OutputFormatError(what + ": unknown dtype '" + dtype + "'");
  plan.array.dtype = *type;

  const auto count = entry.find("count");
  if (count == entry.end() || !count->is_number_integer() || *count < 0) {
    throw OutputFormatError(what + ": \"count\" must be a non-negative integer");
  }
  plan.count = count->get<std::uint64_t>();

  const std::string file_name = string_field(entry, "file", what);
  if (!is_safe_name(file_name)) {
    throw OutputFormatError(what + ": unsafe file name '" + file_name + "'");
  }
  plan.file = file_name;

  const std::size_t element = dtype_size(*type);
  if (plan.count > max_bytes / element) {
    throw OutputFormatError(what + ": count " + std::to_string(plan.count) +
                            " is over the output size limit of " + std::to_string(max_bytes) +
                            " bytes");
  }
  const std::uint64_t expected = plan.count * element;
  const std::uint64_t actual = regular_file_size_at(dir_fd, plan.file, what);
  if (actual != expected) {
    throw OutputFormatError(what + ": " + file_name + " holds " + std::to_string(actual) +
                            " bytes, expected " + std::to_string(plan.count) + " x " +
                            std::to_string(element) + " = " + std::to_string(expected) +
                            " bytes (count x size of " + dtype + ")");
  }
  total_bytes += expected;
  if (total_bytes > max_bytes) {
    throw OutputFormatError(what + ": outputs exceed the size limit of " +
                            std::to_string(max_bytes) + " bytes");
  }

  if (const auto labels = entry.find("labels"); labels != entry.end()) {
    if (!labels->is_array()) throw OutputFormatError(what + ": \"labels\" must be a list");
    if (!labels->empty() && labels->size() != plan.count) {
      throw OutputFormatError(what + ": has " + std::to_string(labels->size()) + " labels for " +
                              std::to_string(plan.count) +
                              " elements (expected none or one per element)");
    }
    for (const auto& label : *labels) {
      if (!label.is_string()) throw OutputFormatError(what + ": labels must be strings");
      plan.array.labels.push_back(label.get<std::string>());
    }
  }
  return plan;
}

}  // namespace

const char* dtype_name(DType t) {
  switch (t) {
    case DType::f32:
      return "f32";
    case DType::f64:
      return "f64";
    case DType::i32:
      return "i32";
    case DType::i64:
      return "i64";
  }
  return "?";
}

std::size_t dtype_size(DType t) {
  switch (t) {
    case DType::f32:
      return 4;
    case DType::f64:
      return 8;
    case DType::i32:
      return 4;
    case DType::i64:
      return 8;
  }
  return 0;
}

OutputWriter::OutputWriter(std::filesystem::path dir) : dir_(std::move(dir)) {
  detail::remember_output_owner();
  fs::create_directories(dir_);
}

void OutputWriter::write(const std::string& name, std::span<const double> values,
                         std::vector<std::string> labels) {
  write_raw(name, DType::f64, values.data(), values.size(), std::move(labels));
}
void OutputWriter::write(const std::string& name, std::span<const float> values,
                         std::vector<std::string> labels) {
  write_raw(name, DType::f32, values.data(), values.size(), std::move(labels));
}
void OutputWriter::write(const std::string& name, std::span<const std::int64_t> values,
                         std::vector<std::string> labels) {
  write_raw(name, DType::i64, values.data(), values.size(), std::move(labels));
}
void OutputWriter::write(const std::string& name, std::span<const std::int32_t> values,
                         std::vector<std::string> labels) {
  write_raw(name, DType::i32, values.data(), values.size(), std::move(labels));
}

// Misuse here is a bug in a lab driver (grader-owned), so it throws plainly.
void OutputWriter::write_raw(const std::string& name, DType dtype, const void* data,
                             std::size_t count, std::vector<std::string> labels) {
  detail::stop_if_forked_child();
  if (!is_safe_name(name)) {
    throw std::invalid_argument("output array name '" + name +
                                "' is not a safe file name ([A-Za-z0-9_.-])");
  }
  for (const Entry& e : entries_) {
    if (e.name == name) throw std::invalid_argument("output array '" + name + "' written twice");
  }
  if (!labels.empty() && labels.size() != count) {
    throw std::invalid_argument("output array '" + name + "': " + std::to_string(labels.size()) +
                                " labels for " + std::to_string(count) + " elements");
  }
  const std::size_t bytes = count * dtype_size(dtype);
  std::string buffer(static_cast<const char*>(data), bytes);
  to_little_endian(buffer.data(), count, dtype_size(dtype));
  write_binary_file(dir_ / (name + ".bin"), buffer.data(), buffer.size());
  entries_.push_back({name, dtype, count, std::move(labels)});
}

void OutputWriter::finish() {
  detail::stop_if_forked_child();
  json arrays = json::array();
  for (const Entry& e : entries_) {
    json entry = {{"name", e.name},
                  {"dtype", dtype_name(e.dtype)},
                  {"count", e.count},
                  {"file", e.name + ".bin"}};
    if (!e.labels.empty()) entry["labels"] = e.labels;
    arrays.push_back(std::move(entry));
  }
  const json manifest = {{"format", kFormat}, {"version", kVersion}, {"arrays", arrays}};
  // Labels may be file names in any encoding: replace invalid UTF-8 rather than throw.
  write_file_atomically(dir_ / "manifest.json",
                        manifest.dump(1, ' ', false, json::error_handler_t::replace) + "\n",
                        Durability::page_cache);
}

std::vector<NamedArray> read_outputs(const std::filesystem::path& dir, std::uint64_t max_bytes) {
  const DirFd fd = open_dir(dir);
  return read_outputs_at(fd.get(), max_bytes);
}

std::vector<NamedArray> read_outputs_at(int dir_fd, std::uint64_t max_bytes) {
  std::uint64_t total_bytes = 0;
  const json manifest = parse_manifest(dir_fd, max_bytes, total_bytes);
  check_header(manifest);

  // Validate every entry (names, sizes, the total) before reading any data.
  std::vector<EntryPlan> plans;
  std::set<std::string> names;
  const json& arrays = manifest["arrays"];
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    EntryPlan plan = plan_entry(arrays[i], i, dir_fd, max_bytes, total_bytes);
    if (!names.insert(plan.array.name).second) {
      throw OutputFormatError("manifest.json: array '" + plan.array.name + "' listed twice");
    }
    plans.push_back(std::move(plan));
  }

  std::vector<NamedArray> result;
  for (EntryPlan& plan : plans) {
    const std::size_t element = dtype_size(plan.array.dtype);
    const std::string bytes = read_binary_file_at(dir_fd, plan.file, plan.count * element);
    plan.array.values.resize(plan.count);
    for (std::size_t i = 0; i < plan.count; ++i) {
      plan.array.values[i] = load_element(plan.array.dtype, bytes.data() + i * element);
    }
    if (is_integer_dtype(plan.array.dtype)) {
      plan.array.integers.resize(plan.count);
      for (std::size_t i = 0; i < plan.count; ++i) {
        plan.array.integers[i] = load_integer(plan.array.dtype, bytes.data() + i * element);
      }
    }
    result.push_back(std::move(plan.array));
  }
  return result;
}

std::string read_array_bytes(const std::filesystem::path& dir, const std::string& name,
                             DType dtype, std::size_t& count) {
  std::uint64_t total_bytes = 0;
  constexpr std::uint64_t kMaxBytes = 1ull << 34;  // datasets are trusted; catch only nonsense
  const DirFd fd = open_dir(dir);
  const json manifest = parse_manifest(fd.get(), kMaxBytes, total_bytes);
  check_header(manifest);
  for (std::size_t i = 0; i < manifest["arrays"].size(); ++i) {
    const json& entry = manifest["arrays"][i];
    if (!entry.is_object() || entry.value("name", "") != name) continue;
    EntryPlan plan = plan_entry(entry, i, fd.get(), kMaxBytes, total_bytes);
    if (plan.array.dtype != dtype) {
      throw OutputFormatError("array '" + name + "' in " + dir.string() + " is " +
                              dtype_name(plan.array.dtype) + ", expected " + dtype_name(dtype));
    }
    count = plan.count;
    std::string bytes = read_binary_file_at(fd.get(), plan.file, plan.count * dtype_size(dtype));
    to_little_endian(bytes.data(), plan.count, dtype_size(dtype));
    return bytes;
  }
  throw OutputFormatError("array '" + name + "' not found in " + (dir / "manifest.json").string());
}

}  // namespace parlab::harness
