#pragma once
// parlab sim mode: this library is not part of the simulator (docs/simulation.md).
#error "parlab sim: CUB (<cub/block/block_scan.cuh>) is not supported by the simulator: write the kernel yourself with the CUDA runtime (or grade on a GPU)"
