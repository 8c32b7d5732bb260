// Sim builds refuse objects whose code runs before the simulator reads its settings:
// .preinit_array, constructors of priority 101 or lower (compile/startup_code_check).
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "compile/startup_code_check.hpp"

using namespace parlab::grader;

namespace {

void put(std::string& bytes, std::size_t offset, std::uint64_t value, unsigned size) {
  for (unsigned i = 0; i < size; ++i) bytes[offset + i] = static_cast<char>(value >> (8 * i));
}

// A minimal ELF64 object: a null section, the section names, and `names`.
std::string object_with_sections(const std::vector<std::string>& names) {
  std::string strings(1, '\0');
  std::vector<std::uint64_t> at;
  for (const std::string& n : names) {
    at.push_back(strings.size());
    strings += n + '\0';
  }
  const std::uint64_t shstrtab_name = strings.size();
  strings += std::string(".shstrtab") + '\0';
  const std::size_t count = names.size() + 2;
  const std::size_t strings_at = 64;
  const std::size_t table_at = strings_at + strings.size();
  std::string bytes(table_at + count * 64, '\0');
  bytes.replace(0, 4, "\x7f" "ELF");
  bytes[4] = 2;  // 64-bit
  bytes[5] = 1;  // little-endian
  put(bytes, 0x28, table_at, 8);
  put(bytes, 0x3A, 64, 2);
  put(bytes, 0x3C, count, 2);
  put(bytes, 0x3E, count - 1, 2);
  bytes.replace(strings_at, strings.size(), strings);
  for (std::size_t i = 0; i < names.size(); ++i) put(bytes, table_at + (i + 1) * 64, at[i], 4);
  const std::size_t last = table_at + (count - 1) * 64;
  put(bytes, last, shstrtab_name, 4);
  put(bytes, last + 0x18, strings_at, 8);
  put(bytes, last + 0x20, strings.size(), 8);
  return bytes;
}

}  // namespace

TEST_CASE("startup check: ordinary objects pass", "[startup_code]") {
  CHECK(early_startup_sections_in(object_with_sections({".text", ".data", ".init_array", ".bss"})).empty());
  CHECK(early_startup_sections_in(object_with_sections({".init_array.00102", ".ctors.65433"})).empty());
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
