#include "grading/dataset_cache.hpp"

#include <unistd.h>

#include "compile/content_hash.hpp"
#include "core/errors.hpp"
#include "parlab/datasets/generator.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {

std::string DatasetCache::key(const DatasetSpec& spec, std::uint64_t seed) {
  // The generators' source hash: a generator edited in any way never reuses a dataset
  // the old code made (no version number to remember to bump).
  ContentHash h;
  h.add(std::string(datasets::generator_sources_hash())).add(spec.generator).add(seed);
  for (const auto& [k, v] : spec.params.values()) h.add(k).add(v);
  return spec.generator + "-" + h.hex();
}

fs::path DatasetCache::get(const DatasetSpec& spec, std::uint64_t seed) {
  const datasets::Generator* gen = datasets::find_generator(spec.generator);
  if (!gen) {
    std::string known;
    for (const auto& g : datasets::all_generators()) {
      known += (known.empty() ? "" : ", ") + std::string(g.name);
    }
    throw SpecError(spec.where + ": dataset '" + spec.id + "': unknown generator '" +
                    spec.generator + "' (known: " + known + ")");
  }
  const fs::path dir = root_ / key(spec, seed);
  if (fs::is_directory(dir)) return dir;

  fs::create_directories(root_);
  const fs::path tmp = root_ / (key(spec, seed) + ".tmp-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  try {
    gen->generate(spec.params, seed, tmp);
  } catch (const ParamError& e) {
    fs::remove_all(tmp);
    throw SpecError(spec.where + ": dataset '" + spec.id + "': " + e.what());
  }
  std::error_code ec;
  fs::rename(tmp, dir, ec);
  if (ec) {
    // Another grading generated it first: theirs is identical, keep it.
    fs::remove_all(tmp);
    if (!fs::is_directory(dir)) {
      throw EnvironmentError("cannot store dataset in " + dir.string() + ": " + ec.message());
    }
  }
  return dir;
}

}  // namespace parlab::grader
