#pragma once
// The compiled views of a sim build's source (compile/compiled_views) that agreed once
// are not made and compared again on the same inputs: a class's submissions share most
// files with the skeleton, and a student changes one file at a time. For each source,
// the key of its view steps (compile_check_key's rule, with the simulator's headers:
// compiled_views_key) is looked up in a memo folder before the build's steps run; a
// source whose views agreed before has them skipped and is not compared. Only an
// agreement is kept, after the comparison found none: a difference is found again, with
// its message, at every build.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "compile/compile_check_memo.hpp"
#include "compile/compile_steps.hpp"

namespace parlab::grader {

class CompiledViewsMemo {
 public:
  // `folder`: where agreements are kept (empty: none, every view is made). The keys of
  // `plan`'s view steps are worked out now; a source whose inputs cannot be read gets
  // no key and is simply viewed and compared.
  CompiledViewsMemo(std::filesystem::path folder, const CompilePlan& plan, const std::filesystem::path& stage,
                    const std::vector<std::string>& staged, const std::vector<std::filesystem::path>& include_dirs,
                    const std::vector<std::filesystem::path>& simulator_dirs);

  // Whether `source`'s views agreed before on the same inputs (its steps are skipped).
  bool agreed_before(const std::string& source) const;
  // After a comparison of `source`'s views found no difference. Best effort.
  void remember_agreed(const std::string& source) const;

 private:
  CompileCheckMemo memo_;
  std::map<std::string, std::string> keys_;  // source -> its views' key
};

}  // namespace parlab::grader
