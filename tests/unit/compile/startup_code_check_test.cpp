// Sim builds refuse objects whose code runs before the simulator reads its settings:
// .preinit_array, constructors of priority 101 or lower (compile/startup_code_check).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cstdint>
#include <string>
#include <vector>

#include "compile/elf_object.hpp"
#include "compile/startup_code_check.hpp"

using namespace parlab::grader;

namespace {

void put(std::string& bytes, std::size_t offset, std::uint64_t value, unsigned size) {
  for (unsigned i = 0; i < size; ++i) bytes[offset + i] = static_cast<char>(value >> (8 * i));
}

// A minimal ELF64 object: a null section, `names` (each `size` bytes long, contents not
// stored), with `instrumented` a symbol table naming __tsan_init, and the section names.
std::string object_with_sections(const std::vector<std::string>& names, std::uint64_t size = 8,
                                 bool instrumented = false) {
  std::vector<std::string> all = names;
  if (instrumented) all.insert(all.end(), {".strtab", ".symtab"});
  std::string strings(1, '\0');
  std::vector<std::uint64_t> at;
  for (const std::string& n : all) {
    at.push_back(strings.size());
    strings += n + '\0';
  }
  const std::uint64_t shstrtab_name = strings.size();
  strings += std::string(".shstrtab") + '\0';
  const std::string symbol_names = std::string(1, '\0') + "__tsan_init" + '\0';
  const std::size_t count = all.size() + 2;
  const std::size_t strings_at = 64;
  const std::size_t symbol_names_at = strings_at + strings.size();
  const std::size_t symbols_at = symbol_names_at + symbol_names.size();
  const std::size_t table_at = symbols_at + 48;
  std::string bytes(table_at + count * 64, '\0');
  bytes.replace(0, 4, "\x7f" "ELF");
  bytes[4] = 2;  // 64-bit
  bytes[5] = 1;  // little-endian
  put(bytes, 0x28, table_at, 8);
  put(bytes, 0x3A, 64, 2);
  put(bytes, 0x3C, count, 2);
  put(bytes, 0x3E, count - 1, 2);
  bytes.replace(strings_at, strings.size(), strings);
  bytes.replace(symbol_names_at, symbol_names.size(), symbol_names);
  put(bytes, symbols_at + 24, 1, 4);  // symbol 1: "__tsan_init"
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::size_t header = table_at + (i + 1) * 64;
    put(bytes, header, at[i], 4);
    if (all[i] == ".strtab") {
      put(bytes, header + 0x18, symbol_names_at, 8);
      put(bytes, header + 0x20, symbol_names.size(), 8);
    } else if (all[i] == ".symtab") {
      put(bytes, header + 0x04, 2, 4);  // SHT_SYMTAB
      put(bytes, header + 0x18, symbols_at, 8);
      put(bytes, header + 0x20, 48, 8);
      put(bytes, header + 0x28, i, 4);  // .strtab, just before it
    } else {
      put(bytes, header + 0x20, size, 8);
    }
  }
  const std::size_t last = table_at + (count - 1) * 64;
  put(bytes, last, shstrtab_name, 4);
  put(bytes, last + 0x18, strings_at, 8);
  put(bytes, last + 0x20, strings.size(), 8);
  return bytes;
}

}  // namespace

TEST_CASE("startup check: ordinary objects pass", "[startup_code]") {
  CHECK(early_startup_sections_in(object_with_sections({".text", ".data", ".init_array", ".bss"})).empty());
  CHECK(early_startup_sections_in(object_with_sections({".init_array.00102", ".init_array.65535"})).empty());
  CHECK(early_startup_sections_in(object_with_sections({".init_array.0000000102"})).empty());  // 102 too
}

TEST_CASE("startup check: code before the simulator's settings is named", "[startup_code]") {
  CHECK(early_startup_sections_in(object_with_sections({".text", ".preinit_array"})) ==
        std::vector<std::string>{".preinit_array"});
  CHECK(early_startup_sections_in(object_with_sections({".init_array.00101"})) ==
        std::vector<std::string>{".init_array.00101"});
  CHECK(early_startup_sections_in(object_with_sections({".init_array.00050", ".init_array"})) ==
        std::vector<std::string>{".init_array.00050"});
  CHECK(early_startup_sections_in(object_with_sections({".ctors.65434"})) ==  // priority 101
        std::vector<std::string>{".ctors.65434"});
  // Spellings the linker reads as early: more digits, leading zeros, no number at all.
  for (const char* name : {".init_array.0000050", ".init_array.000000000000101", ".init_array.99x",
                           ".init_array.9999999", ".ctors", ".ctors.65433", ".init", ".preinit_array.1"})
    CHECK(early_startup_sections_in(object_with_sections({name})) == std::vector<std::string>{name});
}

TEST_CASE("startup check: the instrumentation's own module constructor is allowed, alone",
          "[startup_code]") {
  // The check build's .cu objects: one entry at priority 99, calling __tsan_init, where
  // the simulator reads its settings.
  CHECK(early_startup_sections_in(object_with_sections({".init_array.00099"}, 8, true)).empty());
  // A constructor(99) of the student's own joins it: two entries.
  CHECK(early_startup_sections_in(object_with_sections({".init_array.00099"}, 16, true)) ==
        std::vector<std::string>{".init_array.00099"});
  // An object without the instrumentation (host .cpp) has no business at 99.
  CHECK(early_startup_sections_in(object_with_sections({".init_array.00099"}, 8, false)) ==
        std::vector<std::string>{".init_array.00099"});
}

TEST_CASE("startup check: what is not an ELF object is an error, never a pass", "[startup_code]") {
  CHECK_THROWS(early_startup_sections_in("not an object"));
  std::string truncated = object_with_sections({".preinit_array"});
  truncated.resize(truncated.size() - 48);  // into the names section's header
  CHECK_THROWS(early_startup_sections_in(truncated));
  std::string bad_table = object_with_sections({".text"});
  put(bad_table, 0x28, 1ull << 40, 8);
  CHECK_THROWS(early_startup_sections_in(bad_table));
}

namespace {

// The object g++ makes of `source`, or empty when no compiler runs here.
std::string compiled(const std::string& source) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("startup-check-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "early.cpp") << source;
  const std::string command = "c++ -O2 -c -o '" + (dir / "early.o").string() + "' '" +
                              (dir / "early.cpp").string() + "' 2>/dev/null";
  std::string bytes;
  if (std::system(command.c_str()) == 0) bytes = read_object_file(dir / "early.o");
  std::filesystem::remove_all(dir);
  return bytes;
}

bool refused(const std::string& source) {
  const std::string object = compiled(source);
  REQUIRE_FALSE(object.empty());
  return !early_startup_sections_in(object).empty();
}

}  // namespace

// Every start-up path the loader offers, written the way a student who read the check
// would: each is refused; a plain constructor is not.
TEST_CASE("startup check: real objects, every start-up path", "[startup_code]") {
  if (std::system("c++ --version >/dev/null 2>&1") != 0) {
    WARN("skipped: no c++ compiler here to make real objects");
    return;
  }
  const std::string early = "#include <cstdlib>\nextern \"C\" void parlab_early() { unsetenv(\"X\"); }\n";
  CHECK_FALSE(refused(early + "__attribute__((constructor)) static void plain() { parlab_early(); }\n"));
  CHECK(refused(early + "__attribute__((constructor(50))) static void c() { parlab_early(); }\n"));
  CHECK(refused(early + "__attribute__((used, section(\".init_array.0000050\"))) static void (*p)() = parlab_early;\n"));
  CHECK(refused(early + "__attribute__((used, section(\".ctors\"))) static void (*p)() = parlab_early;\n"));
  CHECK(refused(early + "__attribute__((used, section(\".preinit_array\"))) static void (*p)() = parlab_early;\n"));
  CHECK(refused(early + "asm(\".pushsection .init,\\\"ax\\\",@progbits\\n\\tcall parlab_early\\n\\t.popsection\");\n"));
  CHECK(refused(early + "asm(\".pushsection .parlab_start,\\\"aw\\\",@init_array\\n\\t.quad parlab_early\\n\\t.popsection\");\n"));
  CHECK(refused(early + "extern \"C\" void* resolve() { parlab_early(); return (void*)&parlab_early; }\n"
                        "extern \"C\" void chosen() __attribute__((ifunc(\"resolve\")));\n"));
  CHECK(refused(early + "extern \"C\" void* resolve2() { parlab_early(); return (void*)&parlab_early; }\n"
                        "asm(\".globl chosen2\\n\\t.type chosen2, @gnu_indirect_function\\n\\t.set chosen2, resolve2\");\n"));
}
