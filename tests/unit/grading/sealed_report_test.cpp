// The grader's side of the simulator's sealed reports (grading/sealed_report): only an
// unbroken series of lines sealed with the run's key is read; a changed, added, removed
// or reordered line, or a missing closing record after a clean exit, is a problem.
#include <nettle/hmac.h>

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "grading/sealed_report.hpp"

using namespace parlab::grader;

namespace {

const std::string kKey(64, 'a');  // 32 bytes of 0xaa

// A line sealed the way the simulator seals it (sim/src/report/sealed_channel.cpp), here
// written out independently so that the two must agree on the layout.
std::string sealed(const std::string& channel, char kind, int pid, int seq, const std::string& payload,
                   const std::string& key_hex = kKey) {
  std::uint8_t key[32];
  for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(std::stoi(key_hex.substr(2 * i, 2), nullptr, 16));
  const std::string header = "parlab-sim-report/1\n" + channel + "\n" + kind + " " +
                             std::to_string(pid) + " " + std::to_string(seq) + "\n";
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, sizeof key, key);
  hmac_sha256_update(&ctx, header.size(), reinterpret_cast<const std::uint8_t*>(header.data()));
  hmac_sha256_update(&ctx, payload.size(), reinterpret_cast<const std::uint8_t*>(payload.data()));
  std::uint8_t digest[32];
  hmac_sha256_digest(&ctx, sizeof digest, digest);
  std::string hex;
  for (std::uint8_t b : digest) {
    static const char* digits = "0123456789abcdef";
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  return std::string(1, kind) + " " + std::to_string(pid) + " " + std::to_string(seq) + " " + hex +
         " " + payload + "\n";
}

}  // namespace

TEST_CASE("an intact sealed report gives its payload lines") {
  const std::string text = sealed("counters", 'L', 7, 0, "{\"a\": 1}") +
                           sealed("counters", 'L', 7, 1, "{\"a\": 2}") +
                           sealed("counters", 'E', 7, 2, "main");
  const UnsealedReport r = unseal_report(text, kKey, "counters", true);
  CHECK(r.problem.empty());
  CHECK(r.payload == "{\"a\": 1}\n{\"a\": 2}\n");
}

TEST_CASE("a changed payload breaks its seal") {
  std::string text = sealed("counters", 'L', 7, 0, "{\"global_sectors\": 96}") + sealed("counters", 'E', 7, 1, "main");
  text.replace(text.find("96"), 2, "24");
  const UnsealedReport r = unseal_report(text, kKey, "counters", true);
  CHECK_THAT(r.problem, Catch::Contains("line 1") && Catch::Contains("does not carry its seal"));
  CHECK(r.payload.empty());
}

TEST_CASE("lines sealed with another run's key, or for the other file, do not verify") {
  const std::string other(64, 'b');
  CHECK_THAT(unseal_report(sealed("counters", 'L', 7, 0, "{}", other) + sealed("counters", 'E', 7, 1, "main", other),
                           kKey, "counters", true).problem,
             Catch::Contains("seal"));
  CHECK_THAT(unseal_report(sealed("findings", 'L', 7, 0, "{}") + sealed("findings", 'E', 7, 1, "main"), kKey,
                           "counters", true).problem,
             Catch::Contains("seal"));
}

TEST_CASE("a removed or repeated line is a gap in the sequence") {
  const std::string removed = sealed("findings", 'L', 7, 0, "{\"kind\":\"x\"}") + sealed("findings", 'E', 7, 2, "main");
  CHECK_THAT(unseal_report(removed, kKey, "findings", true).problem, Catch::Contains("out of sequence"));
  const std::string line = sealed("findings", 'L', 7, 0, "{}");
  CHECK_THAT(unseal_report(line + line, kKey, "findings", false).problem, Catch::Contains("out of sequence"));
}

TEST_CASE("a clean exit needs the main process's closing record, a crash does not") {
  const std::string cut = sealed("findings", 'L', 7, 0, "{\"kind\":\"data_race\"}");
  CHECK_THAT(unseal_report(cut, kKey, "findings", true).problem, Catch::Contains("closing record"));
  CHECK_THAT(unseal_report("", kKey, "findings", true).problem, Catch::Contains("closing record"));
  const UnsealedReport crashed = unseal_report(cut, kKey, "findings", false);
  CHECK(crashed.problem.empty());
  CHECK(crashed.payload == "{\"kind\":\"data_race\"}\n");
  // A forked child's closing record does not stand for the main process's.
  CHECK_THAT(unseal_report(cut + sealed("findings", 'E', 7, 1, "fork"), kKey, "findings", true).problem,
             Catch::Contains("closing record"));
}

TEST_CASE("a forked child's lines count in their own sequence") {
  const std::string text = sealed("findings", 'L', 7, 0, "{\"n\":1}") + sealed("findings", 'L', 8, 0, "{\"n\":2}") +
                           sealed("findings", 'E', 8, 1, "fork") + sealed("findings", 'E', 7, 1, "main");
  const UnsealedReport r = unseal_report(text, kKey, "findings", true);
  CHECK(r.problem.empty());
  CHECK(r.payload == "{\"n\":1}\n{\"n\":2}\n");
}

TEST_CASE("a forked child's counters do not count, only the main process's") {
  const std::string text = sealed("counters", 'L', 7, 0, "{\"n\":1}") + sealed("counters", 'L', 8, 0, "{\"n\":2}") +
                           sealed("counters", 'E', 8, 1, "fork") + sealed("counters", 'E', 7, 1, "main");
  const UnsealedReport r = unseal_report(text, kKey, "counters", true);
  CHECK(r.problem.empty());
  CHECK(r.payload == "{\"n\":1}\n");
}

TEST_CASE("nothing may follow a closing record, and plain lines are not sealed lines") {
  const std::string text = sealed("findings", 'E', 7, 0, "main") + sealed("findings", 'L', 7, 1, "{}");
  CHECK_THAT(unseal_report(text, kKey, "findings", true).problem, Catch::Contains("follows"));
  CHECK_THAT(unseal_report("{\"kind\":\"data_race\"}\n", kKey, "findings", false).problem,
             Catch::Contains("not a sealed line"));
}

TEST_CASE("report keys are fresh 64-digit hex strings") {
  const std::string a = fresh_report_key();
  const std::string b = fresh_report_key();
  CHECK(a.size() == 64);
  CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(a != b);
}

TEST_CASE("the report channel's lines go to their channel by tag, a line of no channel breaks both") {
  const std::string finding = sealed("findings", 'L', 7, 0, "{\"kind\":\"data_race\"}");
  const std::string count = sealed("counters", 'L', 7, 0, "{\"n\":1}");
  const std::string report = "F " + finding + "C " + count + "F " + sealed("findings", 'E', 7, 1, "main") +
                             "C " + sealed("counters", 'E', 7, 1, "main");
  REQUIRE(channel_lines_of(report, "findings"));
  CHECK(*channel_lines_of(report, "findings") == finding + sealed("findings", 'E', 7, 1, "main"));
  CHECK(*channel_lines_of(report, "counters") == count + sealed("counters", 'E', 7, 1, "main"));
  CHECK_FALSE(channel_lines_of("C " + count, "findings"));
  // Bytes of the submission's own in the channel (here cut into the runtime's line) fail
  // the seal check of both channels.
  const std::string spliced = "F " + sealed("findings", 'E', 7, 0, "main") + "X" + "C " + count;
  CHECK_FALSE(unseal_report(*channel_lines_of(spliced, "findings"), kKey, "findings", true).problem.empty());
  CHECK_FALSE(unseal_report(*channel_lines_of(spliced, "counters"), kKey, "counters", false).problem.empty());
}

TEST_CASE("a stop record is a channel of its own: the findings and counters stay whole") {
  const std::string stop = sealed("stops", 'L', 7, 0, R"({"exit_code":87,"code_offset":16,"host_access":"none"})");
  const std::string finding = sealed("findings", 'L', 7, 0, "{\"kind\":\"leak\"}");
  const std::string report = "F " + finding + "S " + stop;
  CHECK(*channel_lines_of(report, "findings") == finding);
  CHECK(*channel_lines_of(report, "stops") == stop);
  CHECK(unseal_report(*channel_lines_of(report, "stops"), kKey, "stops", false).problem.empty());
  // A stop record sealed as a finding, or under the findings' channel name, is no stop.
  CHECK_FALSE(unseal_report(sealed("findings", 'L', 7, 0, "{}"), kKey, "stops", false).problem.empty());
}

TEST_CASE("with a report channel the run's files are not read, even sealed with the run's own key") {
  // A submission that found the key in its memory can seal any file it likes; what the
  // runtime sent through the channel while the run went on is what counts.
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("parlab-sealed-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "run" / "out");
  std::ofstream(root / "run" / "out" / "sim-findings.jsonl") << sealed("findings", 'E', 7, 0, "main");
  const std::string race = "{\"kind\":\"data_race\"}";
  remember_sealed_run(root / "run", {kKey, true,
                                     "F " + sealed("findings", 'L', 7, 0, race) + "F " +
                                         sealed("findings", 'E', 7, 1, "main"),
                                     false});
  const SimReport from_channel = read_sim_report(root, "run", "sim-findings.jsonl", "findings", 1 << 20);
  CHECK(from_channel.problem.empty());
  REQUIRE(from_channel.text);
  CHECK(*from_channel.text == race + "\n");
  // Without a channel (a runner that gave none), the files are read as before.
  remember_sealed_run(root / "run", {kKey, true, std::nullopt, false});
  const SimReport filed = read_sim_report(root, "run", "sim-findings.jsonl", "findings", 1 << 20);
  CHECK(filed.problem.empty());
  CHECK(filed.text == std::optional<std::string>(""));
  // A channel that carried more than the grader keeps is never read in part.
  remember_sealed_run(root / "run", {kKey, true, std::string("F "), true});
  CHECK_THAT(read_sim_report(root, "run", "sim-findings.jsonl", "findings", 1 << 20).problem,
             Catch::Contains("more than the grader keeps"));
  fs::remove_all(root);
}
