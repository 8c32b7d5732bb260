#include "cli/terminal_width.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace parlab::grader {

std::size_t terminal_columns(int fd) {
  struct winsize size{};
  if (::isatty(fd) && ::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
    const std::string text(columns);
    if (text.size() <= 5 && text.find_first_not_of("0123456789") == std::string::npos) {
      return static_cast<std::size_t>(std::stoul(text));
    }
  }
  return 0;
}

std::size_t report_width(std::size_t columns) {
  if (columns == 0) return 100;
  return std::clamp<std::size_t>(columns, 60, 100);
}

}  // namespace parlab::grader
