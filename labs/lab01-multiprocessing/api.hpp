#pragma once
// Lab 01: multiprocessing file processing. The fixed signatures your file_stats.cpp
// implements; the grader's driver.cpp calls them. Do not change this file: the
// grader compiles your file_stats.cpp against its own copy.
//
// Input files are CSV sensor logs (README.md, "The data"):
//   timestamp,sensor,value          <- header, always the first line
//   1700000123456,3,23.457
// Rules every function below follows:
//   - A row is a non-blank line after the header. Blank lines (empty, or only spaces
//     and tabs) are skipped: they are neither rows nor malformed. A trailing '\r' is
//     ignored (Windows line ends), and so are spaces and tabs around each field.
//   - A row is malformed when it does not have exactly 3 comma-separated fields, or
//     when its value field is not, in full, a finite decimal number: "n/a", an empty
//     field, "23.4C", "nan", "inf" and numbers too large for a double are malformed.
//     Malformed rows are counted in `malformed` and left out of every statistic.
//     The timestamp and sensor fields are not used and not checked.
//   - A file with no well-formed row (only a header, nothing at all, or only
//     malformed rows) has rows = 0 and min = max = mean = stddev = 0. Never NaN.
//   - stddev is the population standard deviation: sqrt(sum((x - mean)^2) / rows).
//   - A file that cannot be opened is an error: throw std::runtime_error naming it.
#include <cstdint>
#include <string>
#include <vector>

namespace lab01 {

struct FileStats {
  std::string file;            // the path exactly as it was passed in
  std::int64_t rows = 0;       // well-formed rows
  std::int64_t malformed = 0;  // malformed rows (blank lines are not counted)
  double min = 0;              // of the values of the well-formed rows
  double max = 0;
  double mean = 0;
  double stddev = 0;  // population standard deviation
};

// Statistics of one CSV file.
FileStats compute_file_stats(const std::string& path);

// compute_file_stats for every path, one after the other; result i is for paths[i].
std::vector<FileStats> process_serial(const std::vector<std::string>& paths);

// How process_parallel hands files to its worker processes.
enum class Schedule {
  static_blocks,  // worker w gets one contiguous block of paths, fixed before starting
  dynamic_queue,  // each worker takes the next unprocessed path whenever it is free
};

// The same results as process_serial (one per path, in the order of `paths`),
// computed by `workers` (>= 1) separate worker PROCESSES started with fork(); never
// more processes than there are paths. Results come back to the parent through pipes
// (or files). If a worker fails or dies, throw std::runtime_error saying so.
std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int workers,
                                        Schedule schedule);

}  // namespace lab01
