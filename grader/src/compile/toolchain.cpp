#include "compile/toolchain.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace parlab::grader {

const LabToolchain& Toolchain::lab(const std::string& id) const {
  auto it = labs.find(id);
  if (it == labs.end()) {
    throw EnvironmentError("lab '" + id + "' is not in the build (" + file.string() +
                           "); run: cmake --build " + build_dir.string());
  }
  return it->second;
}

std::filesystem::path default_toolchain_path() {
  if (const char* env = std::getenv("PARLAB_TOOLCHAIN"); env && *env) return env;
  return PARLAB_DEFAULT_TOOLCHAIN;
}

Toolchain load_toolchain(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    throw EnvironmentError("toolchain file " + file.string() +
                           " not found: build parlab first (cmake --preset default && "
                           "cmake --build build), or set PARLAB_TOOLCHAIN");
  }
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    Toolchain t;
    t.file = file;
    t.source_dir = j.at("source_dir").get<std::string>();
    t.build_dir = j.at("build_dir").get<std::string>();
    t.version = j.at("version").get<std::string>();
    t.cxx = j.at("cxx").get<std::string>();
    t.cxx_standard = j.at("cxx_standard").get<std::string>();
    t.cxx_flags = j.at("cxx_flags").get<std::vector<std::string>>();
    t.harness_include = j.at("harness_include").get<std::string>();
    t.harness_lib = j.at("harness_lib").get<std::string>();
    t.cuda = j.at("cuda").get<bool>();
    t.nvcc = j.value("nvcc", "");
    t.cuda_probe = j.value("cuda_probe", "");
    t.nvcc_architectures = j.value("nvcc_architectures", std::vector<std::string>{});
    t.compute_sanitizer = j.value("compute_sanitizer", "");
    // A tree built where the toolkit lacked it and carried to a GPU host whose toolkit
    // (at the same nvcc path) has it: the same toolkit's tool, looked up where it lives.
    if (t.compute_sanitizer.empty() && !t.nvcc.empty()) {
      const std::filesystem::path bin = t.nvcc.parent_path();
      for (const auto& candidate : {bin / "compute-sanitizer", bin.parent_path() / "compute-sanitizer" / "compute-sanitizer"}) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(candidate, ec)) {
          t.compute_sanitizer = candidate;
          break;
        }
      }
    }
    const auto& sim = j.at("sim");
    t.sim.rewrite_tool = sim.at("rewrite_tool").get<std::string>();
    t.sim.code_places_tool = sim.value("code_places_tool", "");
    t.sim.library = sim.at("library").get<std::string>();
    for (const auto& dir : sim.at("include")) t.sim.include_dirs.emplace_back(dir.get<std::string>());
    t.sim.prelude = sim.at("prelude").get<std::string>();
    t.sim.link = sim.at("link").get<std::vector<std::string>>();
    t.sim.check_flags = sim.at("check_flags").get<std::vector<std::string>>();
    t.sim.divergence_flags = sim.at("divergence_flags").get<std::vector<std::string>>();
    t.sim.prelude_pch_dir = sim.value("prelude_pch_dir", "");
    t.sim.objcopy = sim.value("objcopy", "");
    for (const auto& [id, lab] : j.at("labs").items()) {
      LabToolchain l;
      l.dir = lab.at("dir").get<std::string>();
      l.reference_dir = lab.at("reference_dir").get<std::string>();
      l.driver_lib = lab.value("driver_lib", "");
      l.reference_exe = lab.value("reference_exe", "");
      l.libs = lab.at("libs").get<std::vector<std::string>>();
      l.cpu_reference_exe = lab.value("cpu_reference_exe", "");
      l.sim_driver_lib = lab.value("sim_driver_lib", "");
      l.sim_reference_exe = lab.value("sim_reference_exe", "");
      l.python_reference_exe = lab.value("python_reference_exe", "");
      t.labs.emplace(id, std::move(l));
    }
    return t;
  } catch (const nlohmann::json::exception& e) {
    throw EnvironmentError("toolchain file " + file.string() +
                           " is broken (" + e.what() + "); re-run cmake");
  }
}

}  // namespace parlab::grader
