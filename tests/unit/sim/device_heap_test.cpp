// The device heap on its own (memory/device_heap): in-kernel malloc's sizes, alignment,
// a full heap, and freed addresses held back until the next launch starts.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>

#include "memory/device_heap.hpp"

using namespace parlab_sim::detail;

TEST_CASE("the device heap gives aligned blocks up to its size, counted in bytes not freed",
          "[sim][device_heap]") {
  // One arena per process: the first allocation sets its size (1 KiB here).
  void* first = device_heap_allocate(100, 1024);
  REQUIRE(first != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(first) % 16 == 0);
  CHECK(in_device_heap(reinterpret_cast<std::uintptr_t>(first)));
  const auto* bytes = static_cast<const unsigned char*>(first);
  CHECK(bytes[0] == 0xff);  // NaN bytes, as fresh device memory
  CHECK(bytes[99] == 0xff);
  int on_stack = 0;
  CHECK_FALSE(in_device_heap(reinterpret_cast<std::uintptr_t>(&on_stack)));
  CHECK(device_heap_allocate(0, 1024) == nullptr);
  // 112 bytes are in use: 912 more fit, 913 do not.
  CHECK(device_heap_allocate(913, 1024) == nullptr);
  void* rest = device_heap_allocate(912, 1024);
  REQUIRE(rest != nullptr);
  CHECK(device_heap_allocate(16, 1024) == nullptr);  // full
  // Freed bytes count again at once; their addresses wait for the next launch.
  CHECK(device_heap_free(first));
  void* again = device_heap_allocate(100, 1024);
  REQUIRE(again != nullptr);
  CHECK(again != first);
  device_heap_reuse_freed();
  CHECK(device_heap_free(again));
  CHECK(device_heap_free(rest));
  device_heap_reuse_freed();
  void* whole = device_heap_allocate(1024, 1024);
  CHECK(whole != nullptr);
  CHECK(device_heap_free(whole));
  device_heap_reuse_freed();
  // Not the heap's: the C library's pointer goes back to it (kernel_malloc.cpp).
  CHECK_FALSE(device_heap_free(&on_stack));
  CHECK_FALSE(device_heap_free(nullptr));
}
