#include "grading/code_place_names.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "grading/fault_line.hpp"
#include "grading/grading_context.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// addr2line runs one namer starts at most.
constexpr std::size_t kMaxLineLookups = 8;

}  // namespace

std::optional<std::string> table_place_of(const std::vector<parlab_sim::CodePlaceEntry>& table,
                                          std::uint64_t offset, const fs::path& stage) {
  const auto it = std::lower_bound(table.begin(), table.end(), offset,
                                   [](const parlab_sim::CodePlaceEntry& e, std::uint64_t wanted) {
                                     return e.offset < wanted;
                                   });
  for (auto entry = it; entry != table.end() && entry->offset == offset; ++entry) {
    if (entry->end != 0) continue;  // a stretch of code without lines
    // A launch lambda's code (a kernel's exit g++ merged there) is the kernel's, but its
    // line is the host launch line: it names no line of the kernel.
    if (entry->line.empty() || entry->launch_thunk) return std::string();
    return student_place(entry->line + "\n", stage);
  }
  return std::nullopt;
}

InstructionPlaceNamer instruction_place_namer(GradingContext& ctx, const std::string& run_name) {
  if (ctx.executable.empty()) return {};
  struct Known {
    bool decoded = false;  // the table is decoded at the first name asked: most runs ask none
    std::vector<parlab_sim::CodePlaceEntry> table;
    std::map<std::uint64_t, std::string> named;
    std::size_t looked_up = 0;  // addr2line runs so far
  };
  auto known = std::make_shared<Known>();
  const fs::path program = ctx.executable;
  const fs::path stage = program.parent_path().parent_path() / "src";
  return [&ctx, known, program, stage, run_name](std::uint64_t offset) {
    const auto done = known->named.find(offset);
    if (done != known->named.end()) return done->second;
    if (!known->decoded) {
      known->table = parlab_sim::decode_code_place_entries(ctx.submission_runs.code_places_for(program));
      known->decoded = true;
    }
    std::optional<std::string> place = table_place_of(known->table, offset, stage);
    // An offset the table lacks is rare (the table holds every hook call): a run's records
    // naming many cannot make the grader start a process for each.
    if (!place && known->looked_up < kMaxLineLookups) {
      ++known->looked_up;
      place = fault_place_of(ctx, program, offset, run_name + "-line-" + std::to_string(offset));
    }
    if (!place) place = std::string();
    return known->named.emplace(offset, *place).first->second;
  };
}

}  // namespace parlab::grader
