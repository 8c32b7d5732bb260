#include "compile/line_markers.hpp"

#include <cctype>
#include <cstdlib>

namespace parlab::grader {

bool read_line_marker(std::string_view line, int& number, std::string& file) {
  MarkerMove move = MarkerMove::none;
  return read_line_marker(line, number, file, move);
}

bool read_line_marker(std::string_view line, int& number, std::string& file, MarkerMove& move) {
  move = MarkerMove::none;
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  if (i >= line.size() || line[i] != '#') return false;
  ++i;
  if (line.substr(i).starts_with("line")) i += 4;
  while (i < line.size() && line[i] == ' ') ++i;
  if (i >= line.size() || !std::isdigit(static_cast<unsigned char>(line[i]))) return false;
  number = std::atoi(line.data() + i);
  const std::size_t open = line.find('"', i);
  const std::size_t close = open == std::string_view::npos ? open : line.find('"', open + 1);
  if (close != std::string_view::npos) {
    file = std::string(line.substr(open + 1, close - open - 1));
    // The flags after the name: "1" entering, "2" returning, "3" system, "4" extern "C".
    for (std::size_t f = close + 1; f < line.size(); ++f) {
      if ((line[f] == '1' || line[f] == '2') && line[f - 1] == ' ' &&
          (f + 1 == line.size() || line[f + 1] == ' ')) {
        move = line[f] == '1' ? MarkerMove::enter : MarkerMove::leave;
      }
    }
  }
  return true;
}

}  // namespace parlab::grader
