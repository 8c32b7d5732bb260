#include "compile/compiled_views.hpp"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "compile/line_markers.hpp"
#include "compile/source_text.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t\r\f\v") == std::string_view::npos; }

// "/stage/common/../x.cuh" and "/stage/x.cuh" are one file: the simulator includes a
// rewritten copy from another folder, nvcc the original.
std::string normal_name(const std::string& file) { return fs::path(file).lexically_normal().string(); }

// A stopped view as a difference: the place whose #if read __CUDA_ARCH_LIST__ (gcc's
// note "FILE:LINE:COL: note: in expansion of macro '__CUDA_ARCH_LIST__'"), else the
// first line that says "error", else the first line; at `source`'s line 0 when no
// place is named.
ViewDifference stopped_view(const std::string& messages, const fs::path& source, const std::string& view) {
  ViewDifference d{source.string(), 0, view, false, ""};
  std::istringstream in(messages);
  std::string line, first, error;
  while (std::getline(in, line)) {
    if (first.empty() && !is_blank(line)) first = line;
    if (error.empty() && line.find("error") != std::string::npos) error = line;
    const std::size_t note = line.find(": note: in expansion of macro");
    if (note == std::string::npos || line.find("__CUDA_ARCH_LIST__") == std::string::npos) continue;
    // FILE:LINE:COL
    const std::string place = line.substr(0, note);
    const std::size_t column = place.rfind(':');
    const std::size_t row = column == std::string::npos ? column : place.rfind(':', column - 1);
    if (row != std::string::npos) {
      d.file = normal_name(place.substr(0, row));
      d.line = std::atoi(place.c_str() + row + 1);
    }
    d.stopped = "an #if reads __CUDA_ARCH_LIST__";
    return d;
  }
  d.stopped = !error.empty() ? error : first.empty() ? "(no message)" : first;
  return d;
}

// "nvcc's host pass", "nvcc for sm_90".
std::string gpu_view_words(const CompiledView& view) {
  return view.kind == ViewKind::gpu_host ? "nvcc's host pass" : "nvcc for " + view_name(view);
}

// A view the build made; one it should have made and did not is the grader's failure,
// never taken as agreeing or as the student's.
std::string read_view(const CompiledView& view) {
  std::optional<std::string> text = read_whole_file(view.output);
  if (!text) {
    throw std::runtime_error("the " + view_name(view) + " view of " + view.source + " was not made (" +
                             view.output.string() + ")");
  }
  return *text;
}

}  // namespace

KeptLines kept_student_lines(std::string_view text, std::string_view student_prefix,
                             std::string_view excluded_prefix) {
  struct Place {
    std::string file;
    bool student = false;
  };
  KeptLines kept;
  Place here;
  std::vector<Place> includers;  // a file returned to is the one that included, whatever its marker says
  int line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t end = std::min(text.find('\n', i), text.size());
    const std::string_view content = text.substr(i, end - i);
    i = end + 1;
    int number = 0;
    std::string named = here.file;
    MarkerMove move = MarkerMove::none;
    if (read_line_marker(content, number, named, move)) {
      line = number;
      if (move == MarkerMove::leave && !includers.empty()) {
        here = includers.back();
        includers.pop_back();
        continue;
      }
      if (move == MarkerMove::enter) includers.push_back(here);
      // A marker that neither enters nor leaves an include, inside a student's file, is
      // a `#line` the student wrote: its lines stay the student's, whatever it names
      // (a system header's path would otherwise take them out of the comparison).
      if (move == MarkerMove::none && here.student) continue;
      here.file = named;
      here.student = named.starts_with(student_prefix) && !named.starts_with(excluded_prefix);
      if (here.student) here.file = normal_name(named);
      continue;
    }
    // Code, and the #define, #undef and #pragma lines -fdirectives-only prints where they
    // stand: a macro defined one way here and another on a GPU changes what the same
    // line of code does.
    if (here.student && !is_blank(content)) kept[here.file].insert(line);
    ++line;
  }
  return kept;
}

std::optional<ViewDifference> first_difference(const KeptLines& sim, const KeptLines& gpu,
                                               const std::string& gpu_view) {
  std::optional<ViewDifference> found;
  const auto consider = [&](const std::string& file, int line, bool only_in_sim) {
    if (found && (found->file < file || (found->file == file && found->line <= line))) return;
    found = ViewDifference{file, line, gpu_view, only_in_sim, ""};
  };
  const std::set<int> none;
  const auto lines_of = [&](const KeptLines& view, const std::string& file) -> const std::set<int>& {
    const auto it = view.find(file);
    return it == view.end() ? none : it->second;
  };
  for (const KeptLines* side : {&sim, &gpu}) {
    const KeptLines& other = side == &sim ? gpu : sim;
    for (const auto& [file, lines] : *side) {
      const std::set<int>& others = lines_of(other, file);
      for (int line : lines) {
        if (!others.contains(line)) {
          consider(file, line, side == &sim);
          break;  // the first of this file: later ones cannot come first
        }
      }
    }
  }
  return found;
}

std::optional<ViewDifference> compare_compiled_views(const std::vector<CompiledView>& views,
                                                     const std::string& source, const fs::path& stage) {
  const std::string prefix = stage.string() + "/";
  const std::string excluded = (stage / "sim").string() + "/";
  std::optional<KeptLines> sim;
  for (const CompiledView& view : views) {
    if (view.source != source || view.kind != ViewKind::sim) continue;
    sim = kept_student_lines(read_view(view), prefix, excluded);
  }
  if (!sim) return std::nullopt;  // no views planned for this source
  for (const CompiledView& view : views) {
    if (view.source != source || view.kind == ViewKind::sim) continue;
    const std::string words = gpu_view_words(view);
    if (const auto failed = read_whole_file(view.output.string() + ".failed")) {
      return stopped_view(*failed, stage / source, words);
    }
    if (auto d = first_difference(*sim, kept_student_lines(read_view(view), prefix, excluded), words)) {
      return d;
    }
  }
  return std::nullopt;
}

std::string view_difference_feature(const ViewDifference& d, const std::string& display_file) {
  const std::string where = d.line > 0 ? display_file + ":" + std::to_string(d.line) : display_file;
  if (!d.stopped.empty()) return "code chosen by the GPU it is built for, at " + where;
  return d.only_in_sim ? "code the simulator compiles and " + d.gpu_view + " does not, at " + where
                       : "code " + d.gpu_view + " compiles and the simulator does not, at " + where;
}

std::string view_difference_message(const ViewDifference& d, const std::string& display_file) {
  const std::string where = d.line > 0 ? display_file + ":" + std::to_string(d.line) : display_file;
  if (!d.stopped.empty()) {
    return where + ": " + d.stopped + " (" + d.gpu_view + "): the lines it compiles "
           "depend on the GPUs a build targets, which the simulator cannot grade, so these tests "
           "need a GPU.";
  }
  const std::string what = d.only_in_sim
                               ? where + " is compiled by the simulator but not by " + d.gpu_view
                               : where + " is compiled by " + d.gpu_view + " but not by the simulator";
  return what + ": an #if, #ifdef or #ifndef chooses other lines for the two (on __CUDA_ARCH__, "
         "PARLAB_SIM, or a macro only one of them defines). The simulator grades the code a GPU "
         "runs, so these tests need a GPU; to have them graded here, let both compile the same lines.";
}

}  // namespace parlab::grader
