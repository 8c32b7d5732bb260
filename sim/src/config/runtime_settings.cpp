#include "config/runtime_settings.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "config/locked_state.hpp"
#include "config/settings_channel.hpp"

namespace parlab_sim::detail {

namespace {

// The variables read here (and only these: the grader's own PARLAB_SIM_CHECK and the
// like stay where a program linking the runtime for other reasons needs them).
constexpr std::string_view kNames[] = {
    "PARLAB_SIM_ALLOW_EXITED_AT_BARRIER", "PARLAB_SIM_ALLOW_HOST_POINTERS",
    "PARLAB_SIM_RACE_CHECK", "PARLAB_SIM_COUNTERS", "PARLAB_SIM_COUNT_SAMPLED_BLOCKS", "PARLAB_SIM_WORKERS",
    "PARLAB_SIM_STACK_KIB", "PARLAB_SIM_SEED", "PARLAB_SIM_SAMPLE_SEED", "PARLAB_SIM_DIAGNOSTICS",
    "PARLAB_SIM_COUNTERS_FILE", "PARLAB_SIM_REPORT_KEY", "PARLAB_SIM_CODE_PLACES"};

bool is_setting(std::string_view entry) {
  for (const std::string_view name : kNames) {
    if (entry.size() > name.size() && entry.substr(0, name.size()) == name &&
        entry[name.size()] == '=')
      return true;
  }
  return false;
}

// Where the settings come from: the grader's descriptor's text, read once, or else the
// environment. Function-local statics: set before any value is read.
SettingsSource& source() {
  static SettingsSource from = SettingsSource::environment;
  return from;
}
std::string& descriptor_text() {
  static std::string text;
  return text;
}

// PARLAB_SIM_CODE_PLACES's value, until the start-up takes it.
std::string& code_places_text() {
  static std::string text;
  return text;
}

// The last value read from the descriptor (start-up is single-threaded); wiped after.
std::string& last_value() {
  static std::string value;
  return value;
}

// The setting's value; nullptr when it is not set at all.
const char* setting(const char* name) {
  if (source() != SettingsSource::environment) return setting_in(descriptor_text(), name, last_value());
  return std::getenv(name);
}

const char* value_of(const char* name) {
  const char* value = setting(name);
  return value != nullptr ? value : "";
}

void copy_path(char (&to)[1024], const char* from) {
  std::strncpy(to, from, sizeof to - 1);
  to[sizeof to - 1] = '\0';
}

// addr2line's absolute path, found through PATH now: once locked, execve is allowed with
// this path only (config/runtime_lock).
void find_helper(char (&to)[256]) {
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t at = 0;
  while (at <= folders.size()) {
    std::size_t end = folders.find(':', at);
    if (end == std::string::npos) end = folders.size();
    const std::string candidate = folders.substr(at, end - at) + "/addr2line";
    if (end > at && candidate[0] == '/' && candidate.size() < sizeof to && ::access(candidate.c_str(), X_OK) == 0) {
      std::memcpy(to, candidate.c_str(), candidate.size() + 1);
      return;
    }
    at = end + 1;
  }
}

bool says_one(const char* name) { return std::strcmp(value_of(name), "1") == 0; }

unsigned number_in(const char* name, long low, long high, unsigned otherwise) {
  const char* text = value_of(name);
  if (*text == '\0') return otherwise;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return *end == '\0' && value >= low && value <= high ? static_cast<unsigned>(value) : otherwise;
}

// Drops every setting's entry from `environ` and zeroes its text where it lies (for
// the first process image, the stack block that /proc/self/environ reads).
void scrub_environment() {
  if (environ == nullptr) return;
  char** kept = environ;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (is_setting(*entry)) {
      std::memset(*entry, 0, std::strlen(*entry));
      continue;
    }
    *kept++ = *entry;
  }
  *kept = nullptr;
}

}  // namespace

const RuntimeSettings& runtime_settings() { return g_locked.settings; }

void read_runtime_settings(ReportKeyText& key) {
  descriptor_text().clear();
  source() = take_settings_descriptor(descriptor_text());
  RuntimeSettings s;
  s.allow_exited_at_barrier = says_one("PARLAB_SIM_ALLOW_EXITED_AT_BARRIER");
  s.allow_host_pointers = setting("PARLAB_SIM_ALLOW_HOST_POINTERS") != nullptr;
  s.race_check = says_one("PARLAB_SIM_RACE_CHECK");
  const std::string_view counters = value_of("PARLAB_SIM_COUNTERS");
  s.counters = counters == "1" ? 1 : counters == "2" ? 2 : 0;
  s.count_sampled_blocks = says_one("PARLAB_SIM_COUNT_SAMPLED_BLOCKS");
  s.workers = number_in("PARLAB_SIM_WORKERS", 1, 1024, 0);
  s.stack_kib = number_in("PARLAB_SIM_STACK_KIB", 16, 64 * 1024, 64);
  const char* seed = value_of("PARLAB_SIM_SEED");
  if (*seed != '\0') {
    char* end = nullptr;
    s.seed = std::strtoull(seed, &end, 16);
    s.seeded = *end == '\0';
  }
  const char* sample_seed = value_of("PARLAB_SIM_SAMPLE_SEED");
  if (*sample_seed != '\0') {
    char* end = nullptr;
    s.sample_seed = std::strtoull(sample_seed, &end, 16);
    s.sample_seeded = *end == '\0';
  }
  copy_path(s.diagnostics_path, value_of("PARLAB_SIM_DIAGNOSTICS"));
  copy_path(s.counters_path, value_of("PARLAB_SIM_COUNTERS_FILE"));
  code_places_text() = value_of("PARLAB_SIM_CODE_PLACES");
  std::memset(key, 0, sizeof key);
  std::strncpy(key, value_of("PARLAB_SIM_REPORT_KEY"), sizeof key - 1);
  scrub_environment();

  // The key was in both.
  descriptor_text().assign(descriptor_text().size(), '\0');
  last_value().assign(last_value().size(), '\0');

  g_locked.race_check_enabled = s.race_check;
  g_locked.counters_enabled = s.counters != 0;
  g_locked.access_hooks_enabled = s.race_check || s.counters != 0;
  g_locked.settings = s;
  find_helper(g_locked.helper_path);
}

std::string take_code_places_setting() { return std::exchange(code_places_text(), std::string()); }

bool settings_descriptor_unreadable() { return source() == SettingsSource::unreadable_descriptor; }

}  // namespace parlab_sim::detail
