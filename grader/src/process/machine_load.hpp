#pragma once
// The whole machine's CPU counters (/proc/stat), read around a measured run so the
// grader can tell how much CPU time other programs took meanwhile (docs/scoring.md,
// "Load is detected"). A run on a busy machine is re-measured or inconclusive, never
// silently scored lower.
namespace parlab::grader::process {

struct CpuCounters {
  bool ok = false;
  double busy_seconds = 0;   // user + nice + system + irq + softirq, all CPUs
  double steal_seconds = 0;  // time a hypervisor gave our virtual CPUs to someone else
};

CpuCounters read_cpu_counters();

}  // namespace parlab::grader::process
