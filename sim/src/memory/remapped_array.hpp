#pragma once
// A growing array of trivially copyable records, for lists that reach millions of
// entries within one run (the counters' accesses of a block, the race check's words). It
// grows by mremap, which moves page tables instead of copying: a list doubling to half a
// million records neither copies them nor touches fresh pages again at each doubling, as a
// std::vector does (a third of a long kernel's run in the simulator, most of it page
// faults). clear() keeps the pages for the next block.
#include <sys/mman.h>

#include <cstddef>
#include <new>
#include <type_traits>

namespace parlab_sim::detail {

template <class T>
class RemappedArray {
  static_assert(std::is_trivially_copyable_v<T>, "records are moved by remapping pages");

 public:
  RemappedArray() = default;
  ~RemappedArray() {
    if (data_ != nullptr) ::munmap(data_, capacity_ * sizeof(T));
  }
  RemappedArray(const RemappedArray&) = delete;
  RemappedArray& operator=(const RemappedArray&) = delete;

  void push_back(const T& record) {
    if (size_ == capacity_) grow();
    data_[size_++] = record;
  }
  // A value-initialised record at the end.
  T& emplace_back() {
    if (size_ == capacity_) grow();
    return *::new (static_cast<void*>(data_ + size_++)) T();
  }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  static constexpr std::size_t kFirstBytes = std::size_t{1} << 16;  // whole pages

  // Doubles the mapping; std::bad_alloc when the run's address space is spent (as a
  // vector would throw).
  void grow() {
    const std::size_t old_bytes = capacity_ * sizeof(T);
    const std::size_t new_bytes = data_ == nullptr ? kFirstBytes : old_bytes * 2;
    void* moved = data_ == nullptr
                      ? ::mmap(nullptr, new_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                      : ::mremap(data_, old_bytes, new_bytes, MREMAP_MAYMOVE);
    if (moved == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<T*>(moved);
    capacity_ = new_bytes / sizeof(T);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;  // whole records in the mapping
};

}  // namespace parlab_sim::detail
