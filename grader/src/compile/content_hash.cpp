#include "compile/content_hash.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace parlab::grader {

ContentHash& ContentHash::add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    h_ ^= c;
    h_ *= 1099511628211ull;
  }
  // A separator so ("ab","c") and ("a","bc") differ.
  h_ ^= 0xff;
  h_ *= 1099511628211ull;
  return *this;
}

ContentHash& ContentHash::add(std::uint64_t value) {
  return add(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}

ContentHash& ContentHash::add_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<char> buf(1 << 16);
  std::string all;
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
    all.append(buf.data(), static_cast<std::size_t>(in.gcount()));
  }
  return add(all);
}

ContentHash& ContentHash::add_file_stamp(const std::filesystem::path& file) {
  add(file.string());
  add(static_cast<std::uint64_t>(std::filesystem::file_size(file)));
  add(static_cast<std::uint64_t>(
      std::filesystem::last_write_time(file).time_since_epoch().count()));
  return *this;
}

std::string ContentHash::hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
  return buf;
}

}  // namespace parlab::grader
