#pragma once
// Named numeric arrays: the only channel through which a lab executable hands its
// results to the grader. The child writes `<name>.bin` files plus `manifest.json` into
// its output directory; the grader reads them back (trusted side) and compares.
//
// Layout of an output directory:
//   manifest.json  {"format":"parlab-arrays","version":1,
//                   "arrays":[{"name":..,"dtype":"f64","count":N,"file":"name.bin",
//                              "labels":[..optional, one per element..]}]}
//   <name>.bin     raw little-endian elements, count * sizeof(dtype) bytes
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace parlab::harness {

enum class DType { f32, f64, i32, i64 };

const char* dtype_name(DType t);
std::size_t dtype_size(DType t);

// Malformed or missing output is reported with this (the grader turns it into a
// failed test with the message, never into a crash).
class OutputFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputWriter {
 public:
  explicit OutputWriter(std::filesystem::path dir);

  void write(const std::string& name, std::span<const double> values,
             std::vector<std::string> labels = {});
  void write(const std::string& name, std::span<const float> values,
             std::vector<std::string> labels = {});
  void write(const std::string& name, std::span<const std::int64_t> values,
             std::vector<std::string> labels = {});
  void write(const std::string& name, std::span<const std::int32_t> values,
             std::vector<std::string> labels = {});

  // Writes manifest.json (temp file + rename). Called once by the driver after the task.
  void finish();

  const std::filesystem::path& dir() const { return dir_; }

 private:
  struct Entry {
    std::string name;
    DType dtype;
    std::size_t count;
    std::vector<std::string> labels;
  };
  void write_raw(const std::string& name, DType dtype, const void* data, std::size_t count,
                 std::vector<std::string> labels);

  std::filesystem::path dir_;
  std::vector<Entry> entries_;
};

// An array read back by the grader. Values are widened to double (exact for f32, i32
// and for i64 below 2^53); `dtype` keeps the original type for ULP comparison.
struct NamedArray {
  std::string name;
  DType dtype = DType::f64;
  std::vector<double> values;
  std::vector<std::string> labels;  // empty, or one per element
  // i32/i64 arrays also keep their exact values: a double holds integers exactly only up
  // to 2^53, so two counts that differ by 1 above it would compare equal.
  std::vector<std::int64_t> integers;  // empty for f32/f64
};

inline bool is_integer_dtype(DType t) { return t == DType::i32 || t == DType::i64; }

// Reads every array of an output directory. `max_bytes` caps the total so a hostile
// manifest cannot make the grader allocate without bound. Throws OutputFormatError.
std::vector<NamedArray> read_outputs(const std::filesystem::path& dir,
                                     std::uint64_t max_bytes = 1ull << 31);

// The same for an output folder the caller opened itself (the grader, on a child's
// folder): files are opened relative to `dir_fd`, never through a link, never a FIFO.
std::vector<NamedArray> read_outputs_at(int dir_fd, std::uint64_t max_bytes = 1ull << 31);

// Reads one array of a directory written by OutputWriter (a generated dataset) with its
// own element type: the drivers' way to load inputs. Throws OutputFormatError when the
// array is missing or has another dtype.
std::string read_array_bytes(const std::filesystem::path& dir, const std::string& name,
                             DType dtype, std::size_t& count);

template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return DType::f32;
  else if constexpr (std::is_same_v<T, double>) return DType::f64;
  else if constexpr (std::is_same_v<T, std::int32_t>) return DType::i32;
  else {
    static_assert(std::is_same_v<T, std::int64_t>, "arrays hold f32, f64, i32 or i64");
    return DType::i64;
  }
}

template <class T>
std::vector<T> read_array(const std::filesystem::path& dir, const std::string& name) {
  std::size_t count = 0;
  const std::string bytes = read_array_bytes(dir, name, dtype_of<T>(), count);
  std::vector<T> values(count);
  if (count) std::memcpy(values.data(), bytes.data(), count * sizeof(T));
  return values;
}

}  // namespace parlab::harness
