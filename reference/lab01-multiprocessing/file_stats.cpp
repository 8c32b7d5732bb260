// Reference solution of lab01 (the grader's ground truth and performance baseline).
// Parsing: fast-cpp-csv-parser splits lines and fields; the value field is read as
// text and parsed with std::from_chars, which is correctly rounded and rejects what
// the library's own float parser would let through (an empty field reads as 0 there).
// Statistics: Welford's running mean and variance, stable in one pass.
// Parallelism: worker_processes.hpp (fork, pipes, a shared-memory work counter).
// Serial means one thread: the library would otherwise read ahead in a thread of its
// own for every file (no faster here, and a "serial" baseline should not use two cores).
#define CSV_IO_NO_THREAD
#include <libfccp/csv.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "api.hpp"
#include "worker_processes.hpp"

namespace lab01 {
namespace {

// Fields trimmed of spaces and tabs; blank lines treated as comments, i.e. skipped.
using CsvReader = io::CSVReader<3, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>,
                                io::throw_on_overflow, io::empty_line_comment>;

// The whole field must be a number, and a finite one.
bool parse_finite(const char* text, double& value) {
  const char* end = text + std::strlen(text);
  const auto [stop, ec] = std::from_chars(text, end, value);
  return ec == std::errc{} && stop == end && text != end && std::isfinite(value);
}

// Welford's algorithm: no catastrophic cancellation, unlike sum(x^2) - n*mean^2.
class RunningStats {
 public:
  void add(double x) {
    ++n_;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(n_);
    m2_ += delta * (x - mean_);
    min_ = std::min(min_, x);
    max_ = std::max(max_, x);
  }

  void store_in(FileStats& s) const {
    s.rows = n_;
    if (n_ == 0) return;  // the rule for no rows: all zero
    s.min = min_;
    s.max = max_;
    s.mean = mean_;
    s.stddev = std::sqrt(m2_ / static_cast<double>(n_));
  }

 private:
  std::int64_t n_ = 0;
  double mean_ = 0;
  double m2_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
};

FileStats read_file_stats(const std::string& path) {
  FileStats stats;
  stats.file = path;
  CsvReader reader(path);  // throws io::error::can_not_open_file, naming the file
  try {
    reader.read_header(io::ignore_no_column, "timestamp", "sensor", "value");
  } catch (const io::error::header_missing&) {
    return stats;  // a file without a single line
  }
  RunningStats values;
  // Set by read_row; initialised because GCC cannot see that (-Wmaybe-uninitialized).
  char* timestamp = nullptr;
  char* sensor = nullptr;
  char* value = nullptr;
  for (;;) {
    // A wrong column count throws after the line was consumed, so the next
    // read_row continues with the next line.
    try {
      if (!reader.read_row(timestamp, sensor, value)) break;
    } catch (const io::error::too_few_columns&) {
      ++stats.malformed;
      continue;
    } catch (const io::error::too_many_columns&) {
      ++stats.malformed;
      continue;
    }
    double x = 0;
    if (parse_finite(value, x)) {
      values.add(x);
    } else {
      ++stats.malformed;
    }
  }
  values.store_in(stats);
  return stats;
}

}  // namespace

// The library's errors (cannot open, line too long, bad header) already name the
// file; they become the std::runtime_error that api.hpp promises.
FileStats compute_file_stats(const std::string& path) {
  try {
    return read_file_stats(path);
  } catch (const io::error::base& e) {
    throw std::runtime_error(e.what());
  }
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> results;
  results.reserve(paths.size());
  for (const std::string& path : paths) results.push_back(compute_file_stats(path));
  return results;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int workers,
                                        Schedule schedule) {
  const auto distribution = schedule == Schedule::static_blocks
                                ? reference::Distribution::contiguous_blocks
                                : reference::Distribution::shared_queue;
  std::vector<FileStats> results = reference::run_in_worker_processes(
      paths.size(), workers, distribution,
      [&](std::size_t i) { return compute_file_stats(paths[i]); });
  for (std::size_t i = 0; i < paths.size(); ++i) results[i].file = paths[i];
  return results;
}

}  // namespace lab01
