// A plain, correct lab01 solution with the classic mistakes behind switches. The end-
// to-end test tests/e2e/lab01_rules.sh makes one submission per mistake by writing
// `#define FAKE_<MISTAKE> 1` in front of this file:
//   FAKE_BLANK_IS_MALFORMED  blank lines counted as malformed rows
//   FAKE_KEEP_CR             the '\r' of a Windows line end left in the value
//   FAKE_NO_TRIM             spaces and tabs around fields not trimmed
//   FAKE_NO_WAITPID          workers never waited for (zombies)
//   FAKE_IGNORE_DEATH        a worker's exit status and missing results not checked
//   FAKE_WAIT_BEFORE_READ    the parent waits for every worker before reading its pipe,
//                            and workers send every value (more than a pipe holds)
//   FAKE_KEEP_WRITE_ENDS     the parent never closes the write ends: EOF never comes
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {
namespace {

std::string trim(const std::string& s) {
#if FAKE_NO_TRIM
  return s;
#else
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
#endif
}

bool parse_value(const std::string& text, double& x) {
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, x);
  return ec == std::errc{} && stop == end && !text.empty() && std::isfinite(x);
}

// The values of the well-formed rows; malformed rows counted.
std::vector<double> read_values(const std::string& path, std::int64_t& malformed) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<double> values;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
#if !FAKE_KEEP_CR
    if (!line.empty() && line.back() == '\r') line.pop_back();
#endif
    if (line.find_first_not_of(" \t") == std::string::npos) {
#if FAKE_BLANK_IS_MALFORMED
      ++malformed;
#endif
      continue;
    }
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
      const auto comma = line.find(',', start);
      fields.push_back(trim(line.substr(start, comma - start)));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    double x;
    if (fields.size() == 3 && parse_value(fields[2], x)) {
      values.push_back(x);
    } else {
      ++malformed;
    }
  }
  return values;
}

FileStats stats_of(const std::string& path, const std::vector<double>& values,
                   std::int64_t malformed) {
  FileStats s;
  s.file = path;
  s.malformed = malformed;
  s.rows = static_cast<std::int64_t>(values.size());
  if (values.empty()) return s;
  double sum = 0;
  s.min = s.max = values[0];
  for (double v : values) {
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean = sum / static_cast<double>(values.size());
  double sq = 0;
  for (double v : values) sq += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(sq / static_cast<double>(values.size()));
  return s;
}

void write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n <= 0) ::_exit(3);
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

struct Record {
  std::uint64_t index;
  std::int64_t malformed;
  std::uint64_t count;  // values that follow (FAKE_WAIT_BEFORE_READ) or 0
  FileStats numbers;    // file left empty on the wire
};

}  // namespace

FileStats compute_file_stats(const std::string& path) {
  std::int64_t malformed = 0;
  const std::vector<double> values = read_values(path, malformed);
  return stats_of(path, values, malformed);
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> out;
  for (const auto& p : paths) out.push_back(compute_file_stats(p));
  return out;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int workers,
                                        Schedule) {
  const std::size_t n = paths.size();
  const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(workers), n);
  auto* next = static_cast<std::atomic<std::size_t>*>(::mmap(
      nullptr, sizeof(std::atomic<std::size_t>), PROT_READ | PROT_WRITE,
      MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  new (next) std::atomic<std::size_t>(0);
  std::vector<pid_t> pids;
  std::vector<int> reads, writes;
  for (std::size_t w = 0; w < count; ++w) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      for (int fd : reads) ::close(fd);
      for (;;) {
        const std::size_t i = next->fetch_add(1);
        if (i >= n) break;
        std::int64_t malformed = 0;
        std::vector<double> values;
        try {
          values = read_values(paths[i], malformed);
        } catch (...) {
          ::_exit(1);
        }
#if FAKE_WAIT_BEFORE_READ
        // Every value goes to the parent, which computes the statistics.
        Record r{i, malformed, values.size(), {}};
        write_all(fds[1], &r, sizeof r);
        write_all(fds[1], values.data(), values.size() * sizeof(double));
#else
        FileStats s = stats_of("", values, malformed);
        Record r{i, malformed, 0, {}};
        r.numbers.rows = s.rows;
        r.numbers.min = s.min;
        r.numbers.max = s.max;
        r.numbers.mean = s.mean;
        r.numbers.stddev = s.stddev;
        write_all(fds[1], &r, sizeof r);
#endif
      }
      ::_exit(0);
    }
#if !FAKE_KEEP_WRITE_ENDS
    ::close(fds[1]);
#else
    writes.push_back(fds[1]);
#endif
    pids.push_back(pid);
    reads.push_back(fds[0]);
  }

  bool failed = false;
  auto wait_all = [&] {
#if !FAKE_NO_WAITPID
    for (pid_t pid : pids) {
      int status = 0;
      ::waitpid(pid, &status, 0);
#if !FAKE_IGNORE_DEATH
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = true;
#endif
    }
#endif
  };
#if FAKE_WAIT_BEFORE_READ
  wait_all();
#endif
  std::vector<FileStats> results(n);
  std::vector<bool> received(n, false);
  for (int fd : reads) {
    Record r;
    // Blocking reads, one worker after the other, until EOF.
    for (;;) {
      std::size_t got = 0;
      while (got < sizeof r) {
        const ssize_t k = ::read(fd, reinterpret_cast<char*>(&r) + got, sizeof r - got);
        if (k <= 0) break;
        got += static_cast<std::size_t>(k);
      }
      if (got < sizeof r) break;
      FileStats s = r.numbers;
      if (r.count > 0) {
        std::vector<double> values(r.count);
        std::size_t bytes = 0;
        while (bytes < r.count * sizeof(double)) {
          const ssize_t k = ::read(fd, reinterpret_cast<char*>(values.data()) + bytes,
                                   r.count * sizeof(double) - bytes);
          if (k <= 0) break;
          bytes += static_cast<std::size_t>(k);
        }
        s = stats_of("", values, r.malformed);
      }
      s.file = paths[r.index];
      s.malformed = r.malformed;
      results[r.index] = s;
      received[r.index] = true;
    }
    ::close(fd);
  }
#if !FAKE_WAIT_BEFORE_READ
  wait_all();
#endif
  for (int fd : writes) ::close(fd);
  ::munmap(next, sizeof(std::atomic<std::size_t>));
#if !FAKE_IGNORE_DEATH
  for (bool r : received) failed |= !r;
  if (failed) throw std::runtime_error("a worker process died or failed");
#endif
  for (std::size_t i = 0; i < n; ++i) results[i].file = paths[i];
  return results;
}

}  // namespace lab01
