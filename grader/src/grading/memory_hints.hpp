#pragma once
// Memory-access hints from a sim run's facts (docs/simulation.md, "Findings"): the
// runtime writes each memory instruction's requests, sectors and bank-conflict ways over
// the run (parlab_sim/instruction_counts.hpp) and the grader judges which deserve a hint,
// names their lines (grading/code_place_names) and words them. The hints are judged
// again against the reference's counters before a test shows them (grading/sim_mode).
#include <cstdint>
#include <string>
#include <vector>

#include "grading/code_place_names.hpp"
#include "grading/sim_finding.hpp"
#include "parlab_sim/instruction_counts.hpp"

namespace parlab::grader {

// The kinds of the findings made here.
inline constexpr const char* kUncoalescedAccessKind = "uncoalesced_access";
inline constexpr const char* kBankConflictsKind = "bank_conflicts";

struct RunInstruction {
  std::string kernel;
  parlab_sim::InstructionCounts counts;
};

// The instruction records among the counters channel's lines (the launch lines are
// parse_sim_counters'); a malformed record, or one whose numbers no run can have (more
// conflict ways than 32 per request, fewer sectors than requests), is left out. At most
// parlab_sim::kMaxInstructionRecords.
std::vector<RunInstruction> parse_instruction_records(const std::string& text);

// Hints only for an instruction that carries at least a tenth of its kernel's requests
// of its memory: a one-time load before the main loop is not the lesson.
inline constexpr std::uint64_t kWeightyShareDivisor = 10;
// Shared memory: this many bank-conflict ways per request, or more.
inline constexpr double kConflictWaysHint = 2.0;
// Global memory: at least this many sectors per request, and at least twice the
// fewest its bytes need.
inline constexpr double kSectorsHint = 8.0;
inline constexpr double kSectorsOverIdealHint = 2.0;

// The findings ("uncoalesced_access", "bank_conflicts") of `instructions`, the most
// requests first, one per line and kind; `place_of` names each line ("an unknown line"
// where it cannot).
std::vector<SimFinding> memory_hint_findings(const std::vector<RunInstruction>& instructions,
                                             const InstructionPlaceNamer& place_of);

}  // namespace parlab::grader
