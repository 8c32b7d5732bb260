#pragma once
// How much other programs may load the machine before a pair is set aside as disturbed
// (docs/scoring.md, "Load is detected, not absorbed"). An absolute allowance does not
// scale: 0.35 cores is a sixth of a 2-core host but nothing on 64 cores, where one
// unrelated busy process would leave every verdict inconclusive. The allowance is
// judged against the cores the test uses and the cores it leaves free:
//   allowed = max(max_other_load, max_other_load / 2 x test_cores)
//             + (machine_cpus - test_cores) / 2
// The first term is the share of the test's own cores others may take (max_other_load
// per 2 cores: a sixth, as on the 2-core hosts it was measured on); the second counts
// the cores the test leaves idle at half, because load there still shares memory
// bandwidth, caches and SMT siblings with the run.
namespace parlab::grader {

// `max_other_load`: the lab's allowance on 2 cores (PerformanceSpec::max_other_load);
// `test_cores`: cores the test's runs keep busy (1 for a serial task, min(workers,
// cores available) for a parallel one); `machine_cpus`: CPUs counted by /proc/stat.
// Throws std::invalid_argument for a non-positive load or core count.
double allowed_other_load(double max_other_load, int test_cores, int machine_cpus);

// Cores a performance test's runs keep busy: the workers it asks for (0: none, a serial
// task), no more than the cores available to the grading.
int cores_used_by_test(int workers, int available_cores);

}  // namespace parlab::grader
