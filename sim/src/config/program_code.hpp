#pragma once
// Where the executable's machine code lies, for the fault reports' code offsets
// (fault/code_offset), and its writable data, where its __device__ variables are (the
// race check and the counters). Decided at start-up, before the lock, into the locked
// page (config/locked_state): code of the submission that finds the ranges cannot move
// them to make a fault in its kernel read as one somewhere else, or its variables' races
// go unseen.
namespace parlab_sim::detail {

// Looks the ranges up once (dl_iterate_phdr: not signal-safe). The start-up calls it
// before the lock, single-threaded; later calls only find it done.
void look_up_program_code_once();

}  // namespace parlab_sim::detail
