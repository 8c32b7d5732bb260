#include "parlab_sim/source_names.hpp"

#include <atomic>
#include <cstring>

namespace parlab_sim::detail {
namespace {

// A few roots at most (one per staging folder); read without a lock, since fault
// reports use them too.
constexpr int kMaxRoots = 16;
std::atomic<const char*> g_roots[kMaxRoots];
std::atomic<int> g_root_count{0};

}  // namespace

bool register_source_root(const char* folder) {
  const int count = g_root_count.load();
  for (int i = 0; i < count; ++i) {
    if (std::strcmp(g_roots[i].load(), folder) == 0) return true;
  }
  const int slot = g_root_count.fetch_add(1);
  if (slot >= kMaxRoots) {
    g_root_count.store(kMaxRoots);
    return true;
  }
  g_roots[slot].store(folder);
  return true;
}

// The shortest matching root wins: a header in a sub-folder registers its own folder
// (stage/common/) as well as the source's (stage/), and reports should say
// `common/helpers.cuh`, whichever registered first.
const char* source_display_name(const char* file) {
  if (file == nullptr) return "?";
  const int count = g_root_count.load() < kMaxRoots ? g_root_count.load() : kMaxRoots;
  const char* shown = file;
  std::size_t best = 0;
  for (int i = 0; i < count; ++i) {
    const char* root = g_roots[i].load();
    if (root == nullptr) continue;
    const std::size_t length = std::strlen(root);
    if (std::strncmp(file, root, length) == 0 && file[length] != '\0' &&
        (best == 0 || length < best)) {
      best = length;
      shown = file + length;
    }
  }
  return shown;
}

}  // namespace parlab_sim::detail
