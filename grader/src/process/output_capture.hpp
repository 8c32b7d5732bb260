#pragma once
// One output stream of a child (stdout or stderr): the first `keep_bytes` bytes for
// the report, and a count of everything it wrote, so a flood costs no memory.
#include <cstddef>
#include <cstdint>
#include <string>

namespace parlab::grader::process {

class OutputCapture {
 public:
  explicit OutputCapture(std::uint64_t keep_bytes) : keep_bytes_(keep_bytes) {}

  void append(const char* data, std::size_t size);

  const std::string& text() const { return text_; }
  bool truncated() const { return total_bytes_ > text_.size(); }
  std::uint64_t total_bytes() const { return total_bytes_; }

 private:
  std::uint64_t keep_bytes_;
  std::uint64_t total_bytes_ = 0;
  std::string text_;
};

}  // namespace parlab::grader::process
