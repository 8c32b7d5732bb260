// Allocates and touches 64 MiB chunks until allocation fails. Catches nothing, so
// under an address-space limit std::bad_alloc ends it through terminate/abort.
#include <cstring>
#include <vector>

int main() {
  constexpr std::size_t kChunk = 64u << 20;
  std::vector<char*> chunks;
  for (;;) {
    char* chunk = new char[kChunk];
    std::memset(chunk, 1, kChunk);  // touch it, so it is really used
    chunks.push_back(chunk);
  }
}
