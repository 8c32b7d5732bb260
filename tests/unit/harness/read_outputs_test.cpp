// read_outputs trusts nothing: every malformed output directory is an
// OutputFormatError whose message names the array or file at fault.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "parlab/harness/arrays.hpp"
#include "test_files.hpp"
#include "what_contains.hpp"

using namespace parlab::harness;
using parlab::test::TempDir;
using parlab::test::WhatContains;
using parlab::test::write_text;

namespace {

std::string manifest_with(const std::string& array_json) {
  return R"({"format":"parlab-arrays","version":1,"arrays":[)" + array_json + "]}";
}

// One f64 array "v" of two elements, with a matching data file.
std::string good_entry() { return R"({"name":"v","dtype":"f64","count":2,"file":"v.bin"})"; }

void write_v_bin(const TempDir& dir, std::size_t bytes = 16) {
  write_text(dir / "v.bin", std::string(bytes, '\0'));
}

}  // namespace

TEST_CASE("read_outputs: a hand-written valid manifest is read", "[arrays]") {
  TempDir dir;
  write_v_bin(dir);
  write_text(dir / "manifest.json",
             manifest_with(R"({"name":"v","dtype":"f64","count":2,"file":"v.bin",
                              "labels":["p","q"]})"));
  const auto arrays = read_outputs(dir.path());
  REQUIRE(arrays.size() == 1);
  CHECK(arrays[0].values == std::vector<double>{0, 0});
  CHECK(arrays[0].labels == std::vector<std::string>{"p", "q"});
}

TEST_CASE("read_outputs: missing or unparsable manifest", "[arrays]") {
  TempDir dir;
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("no manifest.json"));
  write_text(dir / "manifest.json", "{\"format\": ");
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError, WhatContains("not valid JSON"));
  write_text(dir / "manifest.json", "[1, 2]");
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("not a JSON object"));
}

TEST_CASE("read_outputs: wrong format or version", "[arrays]") {
  TempDir dir;
  write_v_bin(dir);
  write_text(dir / "manifest.json", R"({"format":"other","version":1,"arrays":[]})");
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError, WhatContains("format"));
  write_text(dir / "manifest.json", R"({"format":"parlab-arrays","version":2,"arrays":[]})");
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError, WhatContains("version"));
  write_text(dir / "manifest.json", R"({"format":"parlab-arrays","version":1,"arrays":{}})");
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError, WhatContains("arrays"));
}

TEST_CASE("read_outputs: unknown dtype names the array", "[arrays]") {
  TempDir dir;
  write_v_bin(dir);
  write_text(dir / "manifest.json",
             manifest_with(R"({"name":"v","dtype":"f16","count":2,"file":"v.bin"})"));
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("'v'") && WhatContains("unknown dtype 'f16'"));
}

TEST_CASE("read_outputs: file size must be count x dtype size", "[arrays]") {
  TempDir dir;
  write_v_bin(dir, 15);
  write_text(dir / "manifest.json", manifest_with(good_entry()));
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("'v'") && WhatContains("v.bin") && WhatContains("15 bytes") &&
                           WhatContains("16 bytes"));
}

TEST_CASE("read_outputs: a missing data file names it", "[arrays]") {
  TempDir dir;
  write_text(dir / "manifest.json", manifest_with(good_entry()));
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("v.bin") && WhatContains("missing"));
}

TEST_CASE("read_outputs: unsafe names and files are rejected", "[arrays]") {
  TempDir dir;
  write_v_bin(dir);
  for (const char* entry : {
           R"({"name":"../x","dtype":"f64","count":2,"file":"v.bin"})",
           R"({"name":"a/b","dtype":"f64","count":2,"file":"v.bin"})",
           R"({"name":"..","dtype":"f64","count":2,"file":"v.bin"})",
           R"({"name":"v","dtype":"f64","count":2,"file":"../v.bin"})",
           R"({"name":"v","dtype":"f64","count":2,"file":"/etc/passwd"})",
       }) {
    write_text(dir / "manifest.json", manifest_with(entry));
    CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError, WhatContains("unsafe"));
  }
}

TEST_CASE("read_outputs: a data file must be a regular file, not a symlink", "[arrays]") {
  TempDir dir;
  write_v_bin(dir);
  REQUIRE(::symlink((dir / "v.bin").c_str(), (dir / "w.bin").c_str()) == 0);
  write_text(dir / "manifest.json",
             manifest_with(R"({"name":"w","dtype":"f64","count":2,"file":"w.bin"})"));
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("not a regular file"));
}

TEST_CASE("read_outputs: the total size is capped", "[arrays]") {
  TempDir dir;
  write_v_bin(dir);
  write_text(dir / "manifest.json", manifest_with(good_entry()));
  CHECK_NOTHROW(read_outputs(dir.path(), 4096));
  CHECK_THROWS_MATCHES(read_outputs(dir.path(), 100), OutputFormatError,
                       WhatContains("limit"));  // the manifest alone is over 100 bytes
  // A huge count is refused before any file is read or memory allocated.
  write_text(dir / "manifest.json",
             manifest_with(R"({"name":"v","dtype":"f64","count":1000000000000,"file":"v.bin"})"));
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("'v'") && WhatContains("limit"));
}

TEST_CASE("read_outputs: labels must be none or one per element", "[arrays]") {
  TempDir dir;
  write_v_bin(dir);
  write_text(dir / "manifest.json",
             manifest_with(R"({"name":"v","dtype":"f64","count":2,"file":"v.bin",
                              "labels":["only one"]})"));
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("'v'") && WhatContains("1 labels for 2"));
  write_text(dir / "manifest.json",
             manifest_with(R"({"name":"v","dtype":"f64","count":2,"file":"v.bin",
                              "labels":[1, 2]})"));
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError, WhatContains("strings"));
}

TEST_CASE("read_outputs: bad counts and duplicate names", "[arrays]") {
  TempDir dir;
  write_v_bin(dir);
  for (const char* count : {"-2", "2.5", "\"2\""}) {
    write_text(dir / "manifest.json",
               manifest_with(std::string(R"({"name":"v","dtype":"f64","file":"v.bin","count":)") +
                             count + "}"));
    CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError, WhatContains("count"));
  }
  write_text(dir / "manifest.json", manifest_with(good_entry() + "," + good_entry()));
  CHECK_THROWS_MATCHES(read_outputs(dir.path()), OutputFormatError,
                       WhatContains("'v'") && WhatContains("twice"));
}
