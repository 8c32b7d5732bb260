#pragma once
// Stand-in datasets (docs/lab-spec.md, "Stand-in datasets in the simulator", and
// "Tracks"): a test's dataset replaced by another of the lab's where the program runs
// far slower than on the hardware the dataset was sized for. A track's ([tracks.NAME]
// datasets: Python reads a row ~50x slower than C++) and the simulator's ([sim]
// datasets: parlab's simulator runs a kernel's threads on the CPU, every access
// checked). The tests, their points and their parameters stay the lab's.
#include <map>
#include <string>

#include "spec/lab_spec.hpp"
#include "spec/toml_reader.hpp"

namespace parlab::grader {

// The table's `datasets` key (optional): each key and value a dataset of `lab`, the
// stand-in hidden exactly when the dataset it replaces is (hidden data goes to hidden
// tests only). Fails at the key otherwise.
std::map<std::string, std::string> read_stand_ins(TomlReader& r, const LabSpec& lab);

// [sim] (may be null): the stand-ins of a GPU lab's GPU tests in the simulator. Each
// replaced dataset must be one a GPU test reads.
void read_sim_table(TomlReader& top, const toml::table* sim, LabSpec& lab);

// `lab` as graded in parlab's simulator: its GPU tests read the [sim] stand-ins. The
// Python track's kernels run in Numba's simulator instead, with its track's datasets.
LabSpec for_simulator(const LabSpec& lab);

}  // namespace parlab::grader
