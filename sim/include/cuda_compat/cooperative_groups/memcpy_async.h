#pragma once
#error "parlab sim: cooperative_groups::memcpy_async is not supported by the simulator; copy with a loop and __syncthreads() (or grade on a GPU)"
