#pragma once
// Everything cuda_runtime.h gives a .cu file: the runtime API, launches, built-in
// variables, synchronization, warp functions, atomics and math. Also the C headers
// nvcc's own cuda_runtime.h pulls in, since .cu code often relies on them.
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmath>
#include <functional>
#include <new>
#include <utility>

#include "parlab_sim/qualifiers.hpp"
#include "parlab_sim/vector_types.hpp"
#include "parlab_sim/errors.hpp"
#include "parlab_sim/streams_events.hpp"
#include "parlab_sim/memory.hpp"
#include "parlab_sim/device.hpp"
#include "parlab_sim/builtins.hpp"
#include "parlab_sim/sync.hpp"
#include "parlab_sim/warp.hpp"
#include "parlab_sim/atomics.hpp"
#include "parlab_sim/math.hpp"
#include "parlab_sim/shared_memory.hpp"
#include "parlab_sim/source_names.hpp"
#include "parlab_sim/launch.hpp"
#include "parlab_sim/runtime_extras.hpp"
#include "parlab_sim/runtime_hints.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/unsupported_feature.hpp"

#define CUDART_VERSION 12000
