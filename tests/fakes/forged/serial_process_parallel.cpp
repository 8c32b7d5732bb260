
// --- a serial "parallel" pool: the honest speed of these fakes is the serial speed.
namespace lab01 {
std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}
}  // namespace lab01
