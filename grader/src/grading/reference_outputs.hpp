#pragma once
// The reference's outputs the submission's are compared with (the grading's reference
// runs): each (program, dataset, task, params) run once, read into memory, and its
// folder removed at once, so no later program (the submission at any sandbox level,
// even running as the same user) can find them on disk.
#include <map>
#include <string>
#include <vector>

#include "grading/lab_runner.hpp"

namespace parlab::grader {

// What the reference computed; its run folder is gone.
struct ExpectedOutputs {
  TaskRun run;
  std::vector<harness::NamedArray> outputs;
};

class ReferenceOutputs {
 public:
  // `runs`: the reference's own runner (another uid than the submission's).
  explicit ReferenceOutputs(LabRunner& runs) : runs_(runs) {}

  // The outputs of `inv` (its limits relaxed 4x: a failing reference is the lab's fault),
  // run on the first call only. `dataset` names the data in errors. Throws
  // EnvironmentError when the reference fails, ToolError when its outputs are unreadable.
  const ExpectedOutputs& get(TaskInvocation inv, const std::string& dataset);

 private:
  LabRunner& runs_;
  std::map<std::string, ExpectedOutputs> cache_;
};

}  // namespace parlab::grader
