#pragma once
// Sim builds refuse code that would run before the simulator runtime reads its settings
// (docs/sandbox.md, "Nothing the submission can observe decides a verdict"): the runtime
// reads and removes them from the check build's module constructors (priority 99, which
// call __tsan_init) or else a constructor of priority 101. A student object with code
// the loader runs before that could change them: `.preinit_array`, `.init`, `.ctors`, a
// constructor of priority 101 or lower however its suffix is spelled, an init array
// under another name, an indirect function (IFUNC) whose resolver runs at load time.
// The one exception is the instrumentation's own entry, alone in `.init_array.00099` of
// an object calling __tsan_init. Section names, types and sizes and symbol types tell,
// in the ELF file: parsed here with bounds checked (the objects are the untrusted
// build's output).
#include <filesystem>
#include <string>
#include <vector>

namespace parlab::grader {

// The priority of the simulator runtime's settings constructor (sim/src/config).
inline constexpr int kSimSettingsPriority = 101;

// The sections (and indirect functions, "indirect function NAME") of the ELF object at
// `object` that run code before the runtime's settings constructor. Throws std::runtime_error when the file is not an ELF64 object.
std::vector<std::string> early_startup_sections(const std::filesystem::path& object);

// The same for the bytes of an object (tests).
std::vector<std::string> early_startup_sections_in(const std::string& bytes);

}  // namespace parlab::grader
