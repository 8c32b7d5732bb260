#include "util/text_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace parlab::grader {

std::string read_text_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read " + file.string() + " to the end");
  return text.str();
}

}  // namespace parlab::grader
