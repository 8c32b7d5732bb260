#include "grading/reference_outputs.hpp"

#include "compile/content_hash.hpp"
#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

const ExpectedOutputs& ReferenceOutputs::get(TaskInvocation inv, const std::string& dataset) {
  ContentHash key;
  key.add_file_stamp(inv.executable).add(inv.dataset_dir.string()).add(inv.task);
  for (const auto& [k, v] : inv.params.values()) key.add(k).add(v);
  auto it = cache_.find(key.hex());
  if (it != cache_.end()) return it->second;

  // The reference gets generous limits: if it fails, the lab is broken, not the student.
  inv.limits.wall_seconds *= 4;
  inv.limits.cpu_seconds *= 4;
  TaskRun run = runs_.run(inv, key.hex());
  if (!run.ok()) {
    // Not the student's doing: the lab is broken or this machine could not run it
    // (a process limit, a full disk). An environment error, retried by a batch.
    throw EnvironmentError("the reference solution failed on dataset '" + dataset + "' task '" +
                           inv.task + "' (the lab or this machine is at fault, not the submission): " +
                           run.message +
                           (run.run.stderr_text.empty() ? "" : "\n" + run.run.stderr_text));
  }
  ExpectedOutputs expected;
  try {
    expected.outputs = LabRunner::outputs(run);
  } catch (const harness::OutputFormatError& e) {
    throw ToolError(kExitInternal, "the reference solution's outputs on dataset '" + dataset +
                                       "' task '" + inv.task + "' are unreadable: " + e.what());
  }
  fs::remove_all(run.runs_root / run.run_name);
  expected.run = std::move(run);
  return cache_.emplace(key.hex(), std::move(expected)).first->second;
}

}  // namespace parlab::grader
