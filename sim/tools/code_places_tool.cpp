// parlab-sim-code-places PROGRAM: prints the code places table of a check build
// (report/code_places.hpp) on standard output, for the grader to hand to the program's
// runs. Nothing at all for a program with no hook calls it can find (another
// architecture, a build without the instrumentation): its runs use addr2line.
// Exit 0 with the table (or nothing), 2 when PROGRAM cannot be read.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>

#include "counters/function_bounds.hpp"
#include "report/code_places.hpp"
#include "report/hook_call_sites.hpp"
#include "report/source_lines.hpp"

namespace {

using namespace parlab_sim::detail;

// More sites than any lab's program holds (a few thousand): addr2line's arguments stay
// far below the system's limit, and a program past it keeps the slower way.
constexpr std::size_t kMaxSites = 200000;

// Functions closer than this are neighbours in one stretch: the padding between them.
constexpr std::uint64_t kMostPaddingBytes = 64;

// True for a location addr2line gave no line at all (the code was built without -g).
bool without_lines(const CodeLocation& location) {
  return location.line.empty() && !location.library && !location.launch_thunk;
}

// The stretches of neighbouring functions without line information: no hook call (the
// instrumented code, the student's, has one in every function) and no line at the first
// or the last instruction (the first alone is not enough: g++ gives some functions' first
// instruction line 0). A function that is not such ends a stretch.
std::vector<CodePlace> stretches_without_lines(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& functions,
                                               const std::vector<std::uintptr_t>& calls,
                                               const std::map<std::uintptr_t, CodeLocation>& located,
                                               std::uint64_t base) {
  std::vector<CodePlace> stretches;
  bool open = false;
  for (const auto& [start, end] : functions) {
    const auto first = located.find(start);
    const auto last = located.find(end - 1);
    const auto call = std::lower_bound(calls.begin(), calls.end(), start);
    const bool calls_hooks = call != calls.end() && *call < end;
    const bool plain = !calls_hooks && first != located.end() && without_lines(first->second) &&
                       last != located.end() && without_lines(last->second);
    if (!plain) {
      if (open && start - base < stretches.back().end) stretches.back().end = start - base;
      open = false;
      continue;
    }
    // Across the padding only: code between two functions that calls a hook (a piece no
    // symbol covers) is the student's.
    const auto in_gap = open ? std::lower_bound(calls.begin(), calls.end(), stretches.back().end + base) : calls.end();
    if (open && start - base <= stretches.back().end + kMostPaddingBytes && (in_gap == calls.end() || *in_gap >= start)) {
      stretches.back().end = std::max<std::uint64_t>(stretches.back().end, end - base);
    } else {
      stretches.push_back({start - base, end - base, first->second});
      open = true;
    }
  }
  std::erase_if(stretches, [](const CodePlace& stretch) { return stretch.end <= stretch.offset; });
  return stretches;
}

std::vector<CodePlace> places_of(const std::string& program, std::string_view image) {
  const std::vector<std::uint64_t> returns = hook_call_returns_of(image);
  if (returns.empty() || returns.size() > kMaxSites) return {};
  const std::uint64_t base = image_base_of(image);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> functions = function_extents_in(image);
  if (functions.size() > kMaxSites) functions.clear();
  // The call's own instruction (a return address is just past it), as a run asks; and
  // each function's first, for the stretches.
  std::vector<std::uintptr_t> asked;
  asked.reserve(returns.size() + 2 * functions.size());
  for (const std::uint64_t after : returns) asked.push_back(after - 1);
  const std::vector<std::uintptr_t> calls = asked;  // sorted, as the returns are
  for (const auto& [start, end] : functions) {
    asked.push_back(start);
    asked.push_back(end - 1);
  }
  const std::map<std::uintptr_t, CodeLocation> located = locate_in_object(program, asked);
  std::vector<CodePlace> places;
  places.reserve(returns.size());
  // A call addr2line did not answer for is left to the runs' own lookup.
  for (const std::uint64_t after : returns) {
    if (const auto answer = located.find(after - 1); answer != located.end())
      places.push_back({after - 1 - base, 0, answer->second});
  }
  for (CodePlace& stretch : stretches_without_lines(functions, calls, located, base)) places.push_back(std::move(stretch));
  return places;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: parlab-sim-code-places PROGRAM\n");
    return 2;
  }
  const std::string program = argv[1];
  const int fd = open(program.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat info {};
  if (fd < 0 || fstat(fd, &info) != 0 || info.st_size <= 0) {
    std::fprintf(stderr, "parlab-sim-code-places: cannot read %s\n", program.c_str());
    return 2;
  }
  void* pages = mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (pages == MAP_FAILED) {
    std::fprintf(stderr, "parlab-sim-code-places: cannot map %s\n", program.c_str());
    return 2;
  }
  const std::string_view image(static_cast<const char*>(pages), static_cast<std::size_t>(info.st_size));
  const std::string table = encode_code_places(places_of(program, image));
  munmap(pages, image.size());
  std::fwrite(table.data(), 1, table.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 2;
}
