// Lab 01: your solution. Implement the functions of api.hpp here (read api.hpp and
// README.md first). This file compiles and runs as given, but every statistic is
// zero, so the tests fail until you fill in the TODOs.
//
// Build and test: grade lab01 path/to/this/dir
#include <string>
#include <vector>

#include "api.hpp"

// Headers you will likely want:
//   <libfccp/csv.h>   fast-cpp-csv-parser (io::CSVReader)
//   <charconv>        std::from_chars
//   <cmath>           std::sqrt, std::isfinite
//   <unistd.h>        fork, pipe, read, write, close, _exit
//   <sys/wait.h>      waitpid, WIFEXITED, WIFSIGNALED
//   <sys/mman.h>      mmap (memory shared between processes)

namespace lab01 {

FileStats compute_file_stats(const std::string& path) {
  FileStats stats;
  stats.file = path;
  // TODO(lab01): read the CSV file and fill in rows, malformed, min, max, mean, stddev.
  // Hints:
  //  - io::CSVReader<3, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>,
  //                  io::throw_on_overflow, io::empty_line_comment> reader(path);
  //    then reader.read_header(io::ignore_no_column, "timestamp", "sensor", "value");
  //    empty_line_comment makes the reader skip blank lines, as the rules require.
  //  - Read the three fields as `char*` and parse the value yourself with
  //    std::from_chars: the library's own double parser reads an empty field as 0, and
  //    std::stod("23.4C") happily returns 23.4. Both are malformed rows here.
  //  - read_row throws io::error::too_few_columns / too_many_columns for a wrong
  //    column count. The line is already consumed then: count it and keep reading.
  //  - A file with no lines at all makes read_header throw io::error::header_missing.
  //  - Computing the variance as mean(x^2) - mean(x)^2 loses precision; look up
  //    Welford's algorithm. No rows: everything stays 0 (never divide by zero).
  return stats;
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> results;
  results.reserve(paths.size());
  for (const std::string& path : paths) results.push_back(compute_file_stats(path));
  return results;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int workers,
                                        Schedule schedule) {
  // TODO(lab01): start min(workers, paths.size()) worker processes with fork() and
  // combine their results, in the order of `paths`.
  // Hints:
  //  - Create one pipe per worker before forking it. The worker computes its files,
  //    write()s each result (the index and the numbers, not the std::string) to its
  //    pipe, and ends with _exit(0): never return from here in a child.
  //  - static_blocks: worker w takes paths [n*w/W, n*(w+1)/W).
  //  - dynamic_queue: workers claim the next index from a shared counter, e.g. a
  //    std::atomic<std::size_t> placed in mmap(MAP_SHARED | MAP_ANONYMOUS) memory.
  //  - The parent reads every pipe until EOF (poll() lets it read whichever is ready,
  //    so no worker blocks on a full pipe), then waitpid()s every child and throws
  //    std::runtime_error if one was killed or exited with an error.
  // For now this runs serially, so everything "works", just without any speedup.
  (void)workers;
  (void)schedule;
  return process_serial(paths);
}

}  // namespace lab01
