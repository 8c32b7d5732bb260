// The names of lab.toml's words: one table per enum, used by the loader and reports.
#include "spec/lab_vocabulary.hpp"

#include "result/name_table.hpp"

namespace parlab::grader {
namespace {

constexpr NameTable<Device, 2> kDeviceNames{{
    {Device::cpu, "cpu"},
    {Device::gpu, "gpu"},
}};

constexpr NameTable<BaselineProgram, 3> kBaselineProgramNames{{
    {BaselineProgram::reference, "reference"},
    {BaselineProgram::cpu_reference, "cpu_reference"},
    {BaselineProgram::submission, "submission"},
}};

// `none` is the key left out: it has no word a lab.toml could write.
constexpr NameTable<ParallelKind, 2> kParallelKindNames{{
    {ParallelKind::processes, "processes"},
    {ParallelKind::threads, "threads"},
}};

constexpr NameTable<SimCounter, 3> kSimCounterNames{{
    {SimCounter::global_bytes_per_output, "global_bytes_per_output"},
    {SimCounter::global_loads_per_output, "global_loads_per_output"},
    {SimCounter::shared_passes_per_output, "shared_passes_per_output"},
}};

}  // namespace

const char* to_string(Device d) { return name_of(kDeviceNames, d); }
const char* to_string(BaselineProgram p) { return name_of(kBaselineProgramNames, p); }
const char* to_string(ParallelKind p) {
  return p == ParallelKind::none ? "" : name_of(kParallelKindNames, p);
}
const char* to_string(SimCounter c) { return name_of(kSimCounterNames, c); }

Device device_from_string(const std::string& s) { return value_of(kDeviceNames, s, "device"); }
BaselineProgram baseline_program_from_string(const std::string& s) {
  return value_of(kBaselineProgramNames, s, "baseline program");
}
ParallelKind parallel_kind_from_string(const std::string& s) {
  return value_of(kParallelKindNames, s, "parallel kind");
}
SimCounter sim_counter_from_string(const std::string& s) {
  return value_of(kSimCounterNames, s, "counter");
}

}  // namespace parlab::grader
