#pragma once
// Which macros a student's conditional directives read, for a sim build made without
// nvcc. With nvcc, a sim build compares the lines each compiler keeps (compile/
// compiled_views); without it (the CPU image, a Gradescope container) no GPU view can be
// made, so the question is asked of the source instead: a conditional group decides alike
// for the simulator and a GPU when every macro it reads is one neither compiler's own
// headers may define (a student's DEBUG, an include guard, M_PI from the C library),
// apart from __CUDACC__, defined alike for a .cu file. A conditional that reads a macro
// nvcc or the CUDA headers define (compile/nvcc_macro_names), or that the simulator's
// headers define (PARLAB_SIM and the CUDA names they mirror), could choose other lines
// for the two, and is left to a GPU.
//
// A student's own macro is followed into its definitions (`#define ON_GPU
// defined(__CUDA_ARCH__)` then `#if ON_GPU` reads __CUDA_ARCH__), and a token paste in one
// it reads could spell any name, so it counts as such a read ("##"). Directives are read
// with comments removed and continued lines joined; string and character literals hide
// nothing.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compile/source_text.hpp"

namespace parlab::grader {

struct ConditionalRead {
  std::string file;
  int line = 0;       // of the conditional directive
  std::string macro;  // the macro read, or "##" for a paste
};

// Whether a conditional's read of `name` may decide apart; `expanded` when the
// preprocessor replaces the name by its definition (an #if's operand), false when it only
// asks whether it is defined (#ifdef's name, `defined X`).
using DecidedApart = std::function<bool(std::string_view name, bool expanded)>;

// The first conditional (by file, then line) that reads, directly or through the files'
// own macros, a name `decided_apart` holds true for, or a token paste.
std::optional<ConditionalRead> first_read_decided_apart(const std::vector<SourceFile>& files,
                                                        const DecidedApart& decided_apart);

// Every macro name a header under `dirs` #defines (the simulator's headers).
std::vector<std::string> macros_defined_under(const std::vector<std::filesystem::path>& dirs);

}  // namespace parlab::grader
