// The code places table (sim/src/report/code_places.hpp): its text, the hook calls it
// is made of (report/hook_call_sites.hpp), the tool that writes it for a real check
// build, and a run's lookups through it.
#include <dlfcn.h>
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "report/code_places.hpp"
#include "report/hook_call_sites.hpp"
#include "report/source_lines.hpp"

using namespace parlab_sim::detail;

namespace {

void put_call(std::vector<unsigned char>& code, std::size_t at, std::uint64_t base, std::uint64_t target) {
  code[at] = 0xE8;
  const auto displacement = static_cast<std::int32_t>(static_cast<std::int64_t>(target) -
                                                      static_cast<std::int64_t>(base + at + 5));
  std::memcpy(&code[at + 1], &displacement, sizeof displacement);
}

std::string output_of(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[65536];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  pclose(pipe);
  return out;
}

std::string file_bytes(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Two functions of this test only, whose addresses no other test looks up (a run caches
// every answer).
__attribute__((noinline)) int planted_site(int x) { return x * 3 + 1; }
__attribute__((noinline)) int planted_stretch(int x) { return x * 5 + 2; }

std::uint64_t offset_in_executable(const void* return_address) {
  Dl_info info{};
  REQUIRE(dladdr(return_address, &info) != 0);
  return reinterpret_cast<std::uintptr_t>(return_address) - 1 - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
}

}  // namespace

TEST_CASE("the code places text round-trips, and a malformed entry is left out, never half-read",
          "[sim][code_places]") {
  std::vector<CodePlace> places = {
      {0x7b3c, 0, {false, false, "/stage/kernels.cu:12"}},
      {0x10, 0x200, {false, false, ""}},
      {0x9a00, 0, {true, false, "/usr/include/c++/12/bits/atomic_base.h:481"}},
      {0x1e098, 0, {false, true, "/stage/main.cu:40"}},
      {0x5, 0, {true, true, "odd;name\nwith breaks.cu:3"}},
  };
  const std::string text = encode_code_places(places);
  CHECK(text.find('\n') == std::string::npos);
  const std::vector<CodePlace> back = decode_code_places(text);
  REQUIRE(back.size() == places.size());
  CHECK(back[0].offset == 0x5);  // sorted by offset
  CHECK(back[0].location.library);
  CHECK(back[0].location.launch_thunk);
  CHECK(back[0].location.line == "odd?name?with breaks.cu:3");
  CHECK(back[1].offset == 0x10);
  CHECK(back[1].end == 0x200);
  CHECK(back[1].location.line.empty());
  CHECK(back[2].location.line == "/stage/kernels.cu:12");
  CHECK_FALSE(back[2].location.library);
  CHECK(back[3].location.library);
  CHECK(back[4].location.launch_thunk);
  CHECK_FALSE(back[4].location.library);

  for (const char* bad : {"zz,-,a.cu:1", "10,x,a.cu:1", "10,,a.cu:1", "10-8,-,", "10-,-,", "-10,-,",
                          "10,-", ",-,a.cu:1", "10 ,-,a.cu:1"}) {
    INFO(bad);
    CHECK(decode_code_places(std::string(bad) + ";20,l,b.cu:2").size() == 1);
  }
}

TEST_CASE("direct calls of a hook are found at any byte, others are not", "[sim][code_places]") {
  const std::uint64_t base = 0x4000;
  std::vector<unsigned char> code(300, 0x90);
  const std::set<std::uint64_t> hooks = {0x4100, 0x3000};
  put_call(code, 0, base, 0x4100);    // at the very start
  put_call(code, 17, base, 0x3000);   // backwards
  put_call(code, 40, base, 0x4104);   // near a hook, not one
  put_call(code, 295, base, 0x4100);  // the last five bytes
  const std::vector<std::uint64_t> found = hook_call_returns_in(code.data(), code.size(), base, hooks);
  CHECK(found == std::vector<std::uint64_t>{base + 5, base + 22, base + 300});
  // A call cut off by the end of the bytes is none.
  CHECK(hook_call_returns_in(code.data(), 298, base, hooks) == std::vector<std::uint64_t>{base + 5, base + 22});
  CHECK(hook_call_returns_in(code.data(), code.size(), base, {}).empty());
}

TEST_CASE("the tool's table of a check build holds every hook call objdump sees, and no stretch holds one",
          "[sim][code_places]") {
  const std::string program = LAB03_REFERENCE_SIM;
  const std::string image = file_bytes(program.c_str());
  REQUIRE(image.size() > 4096);
  // objdump's disassembly, independent of the scan: every call of a hook.
  const std::string listing = output_of("objdump -d --no-show-raw-insn '" + program + "'");
  REQUIRE_FALSE(listing.empty());
  const std::regex call(R"(^\s*([0-9a-f]+):\s+call\s+[0-9a-f]+ <(__sanitizer_cov_trace_pc|__tsan_[a-z0-9_]+)>)");
  std::set<std::uint64_t> objdump_returns;
  std::size_t at = 0;
  while (at < listing.size()) {
    std::size_t end = listing.find('\n', at);
    if (end == std::string::npos) end = listing.size();
    std::smatch m;
    const std::string line = listing.substr(at, end - at);
    if (std::regex_search(line, m, call)) objdump_returns.insert(std::stoull(m[1].str(), nullptr, 16) + 5);
    at = end + 1;
  }
  REQUIRE(objdump_returns.size() > 100);
  const std::vector<std::uint64_t> scanned = hook_call_returns_of(image);
  CHECK(std::set<std::uint64_t>(scanned.begin(), scanned.end()) == objdump_returns);

  const std::uint64_t base = image_base_of(image);
  const std::vector<CodePlace> table = decode_code_places(output_of("'" PARLAB_CODE_PLACES_TOOL "' '" + program + "'"));
  std::set<std::uint64_t> sites;
  std::vector<CodePlace> stretches;
  bool kernel_line = false;
  for (const CodePlace& place : table) {
    if (place.end != 0) {
      stretches.push_back(place);
      continue;
    }
    sites.insert(place.offset + 1 + base);
    kernel_line = kernel_line || place.location.line.find("/kernels.cu:") != std::string::npos;
  }
  CHECK(sites == objdump_returns);
  CHECK(kernel_line);
  // The simulator's own code has no lines in a Release build: it is stretches. (A Debug
  // build, the sanitizers' presets, gives it lines and so no stretch.)
#ifdef NDEBUG
  CHECK_FALSE(stretches.empty());
#endif
  for (const CodePlace& place : table) {
    if (place.end != 0 || place.location.line.empty()) continue;
    for (const CodePlace& stretch : stretches) {
      INFO(place.location.line);
      CHECK_FALSE((place.offset >= stretch.offset && place.offset < stretch.end));
    }
  }
}

TEST_CASE("a run answers from its code places where they hold the address, without addr2line",
          "[sim][code_places]") {
  volatile int sink = planted_site(1) + planted_stretch(2);
  (void)sink;
  // Return addresses just inside each function, as a hook's would be.
  const void* site = reinterpret_cast<const char*>(&planted_site) + 4;
  const void* stretch = reinterpret_cast<const char*>(&planted_stretch) + 4;
  const std::uint64_t site_offset = offset_in_executable(site);
  const std::uint64_t stretch_offset = offset_in_executable(stretch);
  // Lines no addr2line could give: the answers come from the table or not at all.
  const std::vector<CodePlace> table = {{site_offset, 0, {true, false, "/nowhere/planted.cu:7"}},
                                        {stretch_offset - 2, stretch_offset + 8, {false, false, ""}}};
  load_code_places(encode_code_places(table));
  const std::vector<CodeLocation> found = code_locations_of({site, stretch});
  load_code_places("");
  REQUIRE(found.size() == 2);
  CHECK(found[0].line == "/nowhere/planted.cu:7");
  CHECK(found[0].library);
  CHECK(found[1].line == "an unknown line");
  CHECK_FALSE(found[1].library);
  CHECK_FALSE(known_code_place(site_offset));  // the table is gone again
}
