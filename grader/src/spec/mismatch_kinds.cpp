#include "spec/mismatch_kinds.hpp"

namespace parlab::grader {

const std::vector<std::string>& mismatch_kinds() {
  static const std::vector<std::string> kinds = {"missing", "size", "bytes_as_count", "unwritten", "unloaded_shared", "nan",
                                                 "reordered", "edge", "tail", "close", "too_large",
                                                 "too_small", "any"};
  return kinds;
}

}  // namespace parlab::grader
