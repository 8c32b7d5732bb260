#pragma once
// The runtime's end of the settings descriptor (parlab_sim/settings_descriptor.hpp).
#include <string>
#include <string_view>

namespace parlab_sim::detail {

enum class SettingsSource { environment, descriptor, unreadable_descriptor };

// Reads the whole descriptor into `text` and closes it. `environment` when the
// process has no such descriptor (the simulator run by hand, its unit tests); a
// descriptor that is there but is not a sealed memory file, or cannot be read, is
// `unreadable_descriptor` (closed too).
SettingsSource take_settings_descriptor(std::string& text);

// The value of NAME in "NAME=value" lines; nullptr when it has no line.
const char* setting_in(const std::string& text, std::string_view name, std::string& value);

}  // namespace parlab_sim::detail
