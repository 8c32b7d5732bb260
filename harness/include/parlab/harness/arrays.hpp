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
};

// Reads every array of an output directory. `max_bytes` caps the total so a hostile
// manifest cannot make the grader allocate without bound. Throws OutputFormatError.
std::vector<NamedArray> read_outputs(const std::filesystem::path& dir,
                                     std::uint64_t max_bytes = 1ull << 31);

}  // namespace parlab::harness
