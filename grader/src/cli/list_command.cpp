// `grade list`: the labs this build knows, with kind, tracks, points and title.
#include <cstdio>
#include <iostream>

#include "compile/toolchain.hpp"
#include "cli/commands.hpp"
#include "core/errors.hpp"
#include "spec/lab_spec.hpp"
#include "spec/lab_tracks.hpp"

namespace parlab::grader {

int run_list_command(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << "usage: grade list\nLists the labs with id, kind, tracks (languages), points and title.\n";
    return kExitAllPassed;
  }
  if (!args.empty()) throw UsageError("grade list takes no arguments, got '" + args[0] + "'");
  Toolchain toolchain = load_toolchain(default_toolchain_path());
  std::vector<LabSpec> labs = load_all_labs(toolchain.source_dir / "labs");
  std::printf("%-7s %-5s %-12s %7s  %s\n", "lab", "kind", "tracks", "points", "title");
  for (const LabSpec& lab : labs) {
    bool built = toolchain.labs.count(lab.id) > 0;
    std::printf("%-7s %-5s %-12s %7.0f  %s%s\n", lab.id.c_str(), to_string(lab.kind),
                track_names(lab).c_str(), lab.max_points(), lab.title.c_str(),
                built ? "" : "  (not built)");
  }
  return kExitAllPassed;
}

}  // namespace parlab::grader
