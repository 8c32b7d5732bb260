#include "report/diagnostics.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <utility>

#include "report/sealed_channel.hpp"

namespace parlab_sim::detail {
namespace {

// A kernel with a bug reports it from many threads and blocks; one line per place is
// what a student can read, and the file stays small.
constexpr std::size_t kMaxFindings = 32;

struct Findings {
  std::mutex mutex;
  std::set<std::pair<std::string, std::string>> seen;
  std::string text;
};

Findings& findings() {
  static Findings* all = new Findings;  // never destroyed: findings at exit still work
  return *all;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Appended line by line through the sealed channel, so findings made before a crash
// are kept and none can be dropped or forged unseen (report/sealed_channel).
void append_to_file(const char* kind, const std::string& summary, const std::string& message) {
  parlab_sim::sealed::append(parlab_sim::sealed::Channel::findings,
                             "{\"kind\":" + json_string(kind) + ",\"summary\":" + json_string(summary) +
                                 ",\"message\":" + json_string(message) + "}");
}

}  // namespace

void report_finding(const char* kind, std::string_view key, const std::string& summary,
                    const std::string& message) {
  Findings& all = findings();
  std::lock_guard lock(all.mutex);
  if (all.seen.size() >= kMaxFindings) return;
  if (!all.seen.emplace(kind, std::string(key)).second) return;
  all.text += std::string(kind) + ": " + message + "\n";
  std::fflush(stdout);
  write_all(STDERR_FILENO, "parlab-sim: warning: " + message + "\n");
  append_to_file(kind, summary, message);
}

std::string findings_text() {
  Findings& all = findings();
  std::lock_guard lock(all.mutex);
  return all.text;
}

void forget_findings() {
  Findings& all = findings();
  std::lock_guard lock(all.mutex);
  all.seen.clear();
  all.text.clear();
}

}  // namespace parlab_sim::detail
