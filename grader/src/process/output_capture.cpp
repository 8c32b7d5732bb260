#include "process/output_capture.hpp"

#include <algorithm>

namespace parlab::grader::process {

void OutputCapture::append(const char* data, std::size_t size) {
  total_bytes_ += size;
  if (text_.size() >= keep_bytes_) return;
  std::size_t room = static_cast<std::size_t>(keep_bytes_ - text_.size());
  text_.append(data, std::min(room, size));
}

}  // namespace parlab::grader::process
