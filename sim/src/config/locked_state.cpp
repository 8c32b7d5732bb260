#include "config/locked_state.hpp"

namespace parlab_sim::detail {

LockedState g_locked;

}  // namespace parlab_sim::detail
