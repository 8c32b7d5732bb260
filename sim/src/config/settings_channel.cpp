#include "config/settings_channel.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "parlab_sim/settings_descriptor.hpp"

namespace parlab_sim::detail {

SettingsSource take_settings_descriptor(std::string& text) {
  const int fd = kSettingsDescriptor;
  if (::fcntl(fd, F_GETFD) < 0) return SettingsSource::environment;
  // The grader's memory file is sealed against writes: anything else at this number
  // was not put there by the grader.
  const int seals = ::fcntl(fd, F_GET_SEALS);
  const bool sealed = seals >= 0 && (seals & F_SEAL_WRITE) != 0;
  bool complete = false;
  if (sealed) {
    char buffer[16 * 1024];
    off_t at = 0;
    ssize_t n = 0;
    // Room for a large program's code places (report/code_places.hpp; 240 KiB for lab05's
    // reference), which the grader caps at 4 MiB: a descriptor longer still is not the
    // grader's.
    constexpr std::size_t kMostBytes = std::size_t{8} << 20;
    while ((n = ::pread(fd, buffer, sizeof buffer, at)) > 0 && text.size() < kMostBytes) {
      text.append(buffer, static_cast<std::size_t>(n));
      at += n;
    }
    complete = n == 0;
  }
  ::close(fd);
  return complete ? SettingsSource::descriptor : SettingsSource::unreadable_descriptor;
}

const char* setting_in(const std::string& text, std::string_view name, std::string& value) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + at, end - at);
    if (line.size() > name.size() && line.substr(0, name.size()) == name && line[name.size()] == '=') {
      value.assign(line.substr(name.size() + 1));
      return value.c_str();
    }
    at = end + 1;
  }
  return nullptr;
}

}  // namespace parlab_sim::detail
