#include "batch/regrade_marker.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "util/atomic_write.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

fs::path marker_file(const BatchLayout& layout) { return layout.out / "regrade.json"; }

}  // namespace

std::string start_regrade(const BatchLayout& layout) {
  std::random_device rd;
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  const std::string token = std::to_string(now) + "-" + std::to_string(::getpid()) + "-" + std::to_string(rd());
  nlohmann::json j = {{"token", token},
                      {"meaning", "a --regrade is under way: records graded under another token are graded again"}};
  write_file_atomically(marker_file(layout), j.dump(2) + "\n");
  return token;
}

std::optional<std::string> pending_regrade(const BatchLayout& layout) {
  std::ifstream in(marker_file(layout));
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str()).at("token").get<std::string>();
  } catch (const std::exception&) {
    return std::string("unreadable marker");  // matches no record: everyone is graded again
  }
}

void finish_regrade(const BatchLayout& layout) {
  std::error_code ec;
  fs::remove(marker_file(layout), ec);
}

}  // namespace parlab::grader::batch
