#pragma once
// The live handles of one kind (streams or events), so a destroyed or made-up handle
// gets cudaErrorInvalidResourceHandle instead of undefined behaviour.
#include <mutex>
#include <unordered_set>

namespace parlab_sim::detail {

template <class Object>
class HandleRegistry {
 public:
  Object* create() {
    auto* object = new Object{};
    std::lock_guard lock(mutex_);
    live_.insert(object);
    return object;
  }
  bool destroy(Object* object) {
    std::lock_guard lock(mutex_);
    if (live_.erase(object) == 0) return false;
    delete object;
    return true;
  }
  bool contains(const Object* object) {
    std::lock_guard lock(mutex_);
    return live_.count(const_cast<Object*>(object)) != 0;
  }
  // Runs `use(object)` under the lock when the handle is live; false otherwise.
  template <class Use>
  bool with(Object* object, Use use) {
    std::lock_guard lock(mutex_);
    if (live_.count(object) == 0) return false;
    use(*object);
    return true;
  }

 private:
  std::mutex mutex_;
  std::unordered_set<Object*> live_;
};

}  // namespace parlab_sim::detail
