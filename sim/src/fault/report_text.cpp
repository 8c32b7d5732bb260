#include "fault/report_text.hpp"

#include <unistd.h>

namespace parlab_sim::detail {

ReportText& ReportText::add(const char* text) {
  if (text == nullptr) text = "(null)";
  while (*text != '\0') add(*text++);
  return *this;
}

ReportText& ReportText::add(char c) {
  if (length_ + 1 < kCapacity) {
    buffer_[length_++] = c;
    buffer_[length_] = '\0';
  }
  return *this;
}

ReportText& ReportText::add_decimal(std::uint64_t value) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (count > 0) add(digits[--count]);
  return *this;
}

ReportText& ReportText::add_hex(std::uintptr_t value) {
  add("0x");
  bool leading = true;
  for (int shift = static_cast<int>(sizeof(value) * 8) - 4; shift >= 0; shift -= 4) {
    const unsigned digit = (value >> shift) & 0xfu;
    if (digit == 0 && leading && shift != 0) continue;
    leading = false;
    add("0123456789abcdef"[digit]);
  }
  return *this;
}

ReportText& ReportText::add_index(uint3 index) {
  return add('(').add_decimal(index.x).add(',').add_decimal(index.y).add(',').add_decimal(index.z).add(')');
}

ReportText& ReportText::add_bytes(std::uint64_t bytes) {
  return add_decimal(bytes).add(bytes == 1 ? " byte" : " bytes");
}

void ReportText::write_to_stderr() const {
  std::size_t written = 0;
  while (written < length_) {
    const ssize_t n = ::write(STDERR_FILENO, buffer_ + written, length_ - written);
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

}  // namespace parlab_sim::detail
