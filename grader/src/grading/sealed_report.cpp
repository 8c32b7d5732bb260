#include "grading/sealed_report.hpp"

#include <nettle/hmac.h>
#include <sys/random.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/errors.hpp"
#include "grading/child_run_files.hpp"
#include "parlab_sim/stop_record.hpp"

namespace parlab::grader {
namespace {

constexpr std::size_t kKeyBytes = 32;

std::string hex_of(const std::uint8_t* bytes, std::size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

bool key_bytes(const std::string& hex, std::uint8_t* key) {
  if (hex.size() != 2 * kKeyBytes) return false;
  for (std::size_t i = 0; i < kKeyBytes; ++i) {
    const std::string pair = hex.substr(2 * i, 2);
    if (pair.find_first_not_of("0123456789abcdef") != std::string::npos) return false;
    key[i] = static_cast<std::uint8_t>(std::stoi(pair, nullptr, 16));
  }
  return true;
}

// The MAC the simulator computes (sim/src/report/sealed_channel.cpp, same layout).
std::string mac_of(const std::uint8_t* key, const std::string& channel, char kind,
                   const std::string& pid, const std::string& seq, const std::string& payload) {
  const std::string header =
      "parlab-sim-report/1\n" + channel + "\n" + kind + " " + pid + " " + seq + "\n";
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, kKeyBytes, key);
  hmac_sha256_update(&ctx, header.size(), reinterpret_cast<const std::uint8_t*>(header.data()));
  hmac_sha256_update(&ctx, payload.size(), reinterpret_cast<const std::uint8_t*>(payload.data()));
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  hmac_sha256_digest(&ctx, sizeof digest, digest);
  return hex_of(digest, sizeof digest);
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 19 && s.find_first_not_of("0123456789") == std::string::npos;
}

struct ProcessSeries {
  std::uint64_t next = 0;
  bool closed = false;
  bool main = false;
  std::string payload;  // its payload lines, in order
};

std::mutex g_runs_mutex;
std::map<std::string, SealedRun>& sealed_runs() {
  static std::map<std::string, SealedRun> runs;
  return runs;
}

}  // namespace

UnsealedReport unseal_report(const std::string& text, const std::string& key_hex,
                             const std::string& channel, bool exited_cleanly) {
  UnsealedReport out;
  std::uint8_t key[kKeyBytes];
  if (!key_bytes(key_hex, key)) throw ToolError(kExitInternal, "internal: a malformed report key");
  std::map<std::string, ProcessSeries> series;
  std::istringstream lines(text);
  std::string line;
  std::size_t number = 0;
  auto bad = [&](const std::string& why) {
    out.payload.clear();
    out.problem = "line " + std::to_string(number) + " of its " + channel + " file " + why;
    return out;
  };
  while (std::getline(lines, line)) {
    ++number;
    // "<L|E> <pid> <seq> <mac> <payload>"
    const std::size_t a = line.find(' ');
    const std::size_t b = a == std::string::npos ? a : line.find(' ', a + 1);
    const std::size_t c = b == std::string::npos ? b : line.find(' ', b + 1);
    const std::size_t d = c == std::string::npos ? c : line.find(' ', c + 1);
    if (d == std::string::npos || a != 1 || (line[0] != 'L' && line[0] != 'E'))
      return bad("is not a sealed line");
    const char kind = line[0];
    const std::string pid = line.substr(a + 1, b - a - 1);
    const std::string seq = line.substr(b + 1, c - b - 1);
    const std::string mac = line.substr(c + 1, d - c - 1);
    const std::string payload = line.substr(d + 1);
    if (!all_digits(pid) || !all_digits(seq)) return bad("is not a sealed line");
    if (mac != mac_of(key, channel, kind, pid, seq, payload)) return bad("does not carry its seal");
    ProcessSeries& s = series[pid];
    if (s.closed) return bad("follows its process's closing record");
    if (std::stoull(seq) != s.next) return bad("is out of sequence (a line was removed or repeated)");
    ++s.next;
    if (kind == 'E') {
      s.closed = true;
      s.main = payload == "main";
      continue;
    }
    s.payload += payload + "\n";
    out.payload += payload + "\n";
  }
  if (exited_cleanly) {
    std::size_t mains = 0;
    for (const auto& [pid, s] : series) mains += s.closed && s.main ? 1 : 0;
    if (mains != 1) {
      out.payload.clear();
      out.problem = "its " + channel + " file lacks the closing record a finished run writes "
                    "(the file was removed, cut short or replaced)";
    }
    // Counts made by a forked child do not stand for the program's: only the process the
    // grader started counts (a child's findings do count: they are races it ran).
    if (mains == 1 && channel == "counters") {
      for (const auto& [pid, s] : series)
        if (s.closed && s.main) out.payload = s.payload;
    }
  }
  return out;
}

std::string fresh_report_key() {
  std::uint8_t key[kKeyBytes];
  std::size_t got = 0;
  while (got < sizeof key) {
    const ssize_t n = ::getrandom(key + got, sizeof key - got, 0);
    if (n <= 0) throw ToolError(kExitEnvironment, "no random bytes from the kernel for a report key (getrandom failed)");
    got += static_cast<std::size_t>(n);
  }
  return hex_of(key, sizeof key);
}

void remember_sealed_run(const std::filesystem::path& run_dir, SealedRun run) {
  std::lock_guard lock(g_runs_mutex);
  sealed_runs()[run_dir.lexically_normal().string()] = std::move(run);
}

std::optional<SealedRun> sealed_run_of(const std::filesystem::path& run_dir) {
  std::lock_guard lock(g_runs_mutex);
  const auto it = sealed_runs().find(run_dir.lexically_normal().string());
  if (it == sealed_runs().end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> channel_lines_of(const std::string& report, const std::string& channel) {
  const char tag = channel == "findings" ? 'F' : channel == "counters" ? 'C' : parlab_sim::kStopChannelTag;
  std::optional<std::string> lines;
  std::istringstream in(report);
  std::string line;
  bool other_tag = false;
  while (std::getline(in, line)) {
    if (line.size() >= 2 && line[0] == tag && line[1] == ' ') {
      if (!lines) lines.emplace();
      *lines += line.substr(2) + "\n";
    } else if (!(line.size() >= 2 && line[1] == ' ' &&
                 (line[0] == 'F' || line[0] == 'C' || line[0] == parlab_sim::kStopChannelTag))) {
      other_tag = true;
    }
  }
  // A line of no channel was written by someone other than the runtime: it goes to both
  // channels' text, so that the seal check names it.
  if (other_tag) {
    if (!lines) lines.emplace();
    *lines += "(a line of no channel in the report channel)\n";
  }
  return lines;
}

SimReport read_sim_report(const std::filesystem::path& runs_root, const std::string& run_name,
                          const char* file, const std::string& channel, std::uint64_t cap) {
  SimReport out;
  const std::optional<SealedRun> sealed = sealed_run_of(runs_root / run_name);
  if (sealed && sealed->channel_report && sealed->channel_report_truncated) {
    out.problem = "its report channel carried more than the grader keeps";
    return out;
  }
  const std::optional<std::string> raw =
      sealed && sealed->channel_report ? channel_lines_of(*sealed->channel_report, channel)
                                     : ChildRunFiles(runs_root, run_name).read_text(file, cap);
  if (!sealed) {
    out.text = raw;
    return out;
  }
  UnsealedReport opened = unseal_report(raw.value_or(""), sealed->key_hex, channel,
                                        sealed->exited_cleanly);
  if (!opened.problem.empty()) {
    out.problem = opened.problem;
    return out;
  }
  if (raw) out.text = std::move(opened.payload);
  return out;
}

std::string tampered_report_message(const std::string& problem) {
  return "the simulator's report of this run was altered: " + problem +
         ". Only the simulator may write it, so this test earns nothing";
}

}  // namespace parlab::grader
