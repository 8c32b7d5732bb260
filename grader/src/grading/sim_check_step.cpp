#include "grading/sim_check_step.hpp"

#include <algorithm>
#include <chrono>

#include "compare/comparator.hpp"
#include "grading/child_run_files.hpp"
#include "grading/fault_line.hpp"
#include "grading/run_feedback.hpp"
#include "grading/sealed_report.hpp"
#include "grading/sim_extras.hpp"
#include "grading/unsupported_feature.hpp"
#include "grading/sim_mode.hpp"

namespace parlab::grader {
namespace {

// Every element of the task's outputs, whatever their type.
std::uint64_t output_elements(const std::vector<harness::NamedArray>& outputs) {
  std::uint64_t n = 0;
  for (const harness::NamedArray& a : outputs) n += std::max(a.values.size(), a.integers.size());
  return n;
}

void not_graded_without_reference(const SimCheckSpec& check, bool counters_on, TestResult& r) {
  r.status = TestStatus::not_graded;
  r.message = counters_on
                  ? "not graded here: the reference gave no " + counter_label(check.counter) +
                        " in the simulator; grade on a machine with an NVIDIA GPU to measure it"
                  : "not graded here: the simulator's counters are off (PARLAB_SIM_CHECK=0); "
                    "grade on a machine with an NVIDIA GPU to measure it";
}

void fail_without_kernel_work(const SimCheckSpec& check, TestResult& r) {
  r.status = TestStatus::failed;
  r.message = "the simulator counted no " + counter_label(check.counter) +
              ": no kernel launch did the task's work on the GPU";
}

// The figure would credit a kernel for work the host did (sim_counters.hpp).
TestResult fail_for_host_work(const CounterTotals& got, const CounterTotals& reference, TestResult& r) {
  r.status = TestStatus::failed;
  r.points = 0;
  r.message = "the host side of your code read or wrote memory " + std::to_string(got.host_accesses) +
              " times in this run (the reference's: " + std::to_string(reference.host_accesses) +
              "): the simulator credits the work kernels do, and an answer computed on the CPU "
              "is not the GPU's work (on a GPU it would cost the speed tests too). Compute the "
              "result in a kernel, and keep host code to allocating, copying and launching";
  r.message += "\n" + counters_side_by_side(got, reference);
  return r;
}

// The kernels' memory requests ran on few threads of their warps (sim_counters'
// ran_on_few_threads): the work was not spread over the GPU's threads.
TestResult fail_for_few_threads(const CounterTotals& got, const CounterTotals& reference,
                                TestResult& r) {
  const auto average = [](const CounterTotals& t) {
    return one_decimal(threads_per_request(t).value_or(0));
  };
  r.status = TestStatus::failed;
  r.points = 0;
  r.message = "your kernels' global memory requests were made by " + average(got) +
              " threads of a warp on average (the reference's: " + average(reference) +
              "): the work ran on a few threads, which a GPU runs one lane of its thousands at a "
              "time however little each loads (on a GPU it would cost the speed tests too). "
              "Give each thread a small part of the output (one element, or a few), and let "
              "the threads of a block share what they load";
  r.message += "\n" + counters_side_by_side(got, reference);
  return r;
}

// The kernels made far more requests per output than the reference's (sim_counters'
// made_many_requests): each request served few threads.
TestResult fail_for_many_requests(const CounterTotals& got, const CounterTotals& reference,
                                  std::uint64_t elements, TestResult& r) {
  const auto per_output = [elements](const CounterTotals& t) {
    return one_decimal(requests_per_output(t, elements).value_or(0));
  };
  r.status = TestStatus::failed;
  r.points = 0;
  r.message = "your kernels made " + per_output(got) +
              " memory requests (global and shared, one per warp and instruction) per output "
              "element, the reference's " + per_output(reference) +
              ": a warp issues a request once for all its threads, so most of yours served few "
              "threads, and the work ran on a few of them (on a GPU it would cost the speed tests "
              "too). Give each thread a small part of the output (one element, or a few), and "
              "let every thread of a block compute from the tiles they share";
  r.message += "\n" + counters_side_by_side(got, reference);
  return r;
}

// A counted run's figure and the reference's, over the task's output elements.
struct ScoredFigures {
  double mine = 0;
  double reference = 0;
  std::uint64_t elements = 0;
};

// Scores a counted run that is consistent: the figure is measured either way (result.json
// keeps it), and a run that got it by work a GPU would not do in its kernels' threads
// earns nothing for it.
TestResult score_counted_run(const SimCheckSpec& check, const CounterTotals& got,
                             const CounterTotals& reference, const ScoredFigures& figures,
                             TestResult& r) {
  score_sim_check(check, figures.mine, figures.reference, r);
  if (host_did_task_work(got, reference, figures.elements)) return fail_for_host_work(got, reference, r);
  if (ran_on_few_threads(got, reference)) return fail_for_few_threads(got, reference, r);
  if (made_many_requests(got, reference, figures.elements)) {
    return fail_for_many_requests(got, reference, figures.elements, r);
  }
  r.message += "\n" + counters_side_by_side(got, reference);
  return r;
}

}  // namespace

TestResult run_sim_check(GradingContext& ctx, const TestSpec& t,
                         const std::map<std::string, TestResult>& done,
                         const std::optional<CounterTotals>& reference, bool counters_on) {
  TestResult r = ctx.base_result(t);
  const TestSpec small = sim_check_test(t);
  const SimCheckSpec& check = *t.sim_check;
  r.dataset = ctx.dataset_label(small.dataset);
  if (auto why = ctx.not_measured_reason(t, done)) {
    r.status = why->status;
    r.message = why->reason;
    return r;
  }
  if (!reference) {
    not_graded_without_reference(check, counters_on, r);
    return r;
  }
  const Params params = ctx.resolve_params(t.params);
  const ExpectedOutputs& expected = ctx.reference_run(small, t.task, params);
  // The scored figures are totals per element the task must produce: the same count
  // for both runs, from the expected outputs (not from the submission's).
  const std::uint64_t elements = output_elements(expected.outputs);
  const std::optional<double> reference_value = counter_value(*reference, check.counter, elements);
  if (!reference_value) {
    not_graded_without_reference(check, counters_on, r);
    return r;
  }
  TaskInvocation inv{ctx.executable, t.task, params, ctx.dataset_dir(small.dataset), 0, 1, ctx.limits(t)};
  inv.env = sim_scored_counting_environment();
  const auto t0 = std::chrono::steady_clock::now();
  const TaskRun got = ctx.submission_runs.run(inv, run_slug(t.name));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!got.ok()) {
    fail_from_run(r, got);
    if (!leave_out_unsupported_feature(got, r)) add_fault_place(ctx, got, r);  // a fault: its line
    return r;
  }
  r.outcome = RunOutcome::ok;
  try {
    const CompareOutcome cmp = compare_outputs(expected.outputs, LabRunner::outputs(got), t.compare);
    if (!cmp.ok) {
      r.status = TestStatus::failed;
      r.message = ctx.lab.dataset(small.dataset).hidden
                      ? "wrong result in the simulator on hidden data"
                      : "wrong result in the simulator on " + small.dataset + ": " + cmp.message;
      return r;
    }
  } catch (const harness::OutputFormatError& e) {
    r.status = TestStatus::failed;
    r.outcome = RunOutcome::bad_output;
    r.message = std::string("unreadable output: ") + e.what();
    return r;
  }
  const SimReport report =
      read_sim_report(got.runs_root, got.run_name, kSimCountersFile, "counters", kSimCountersFileCap);
  if (!report.problem.empty()) {
    r.status = TestStatus::failed;
    r.message = tampered_report_message(report.problem);
    return r;
  }
  const std::optional<CounterTotals> counted =
      report.text ? parse_sim_counters(*report.text) : std::nullopt;
  const std::optional<double> value =
      counted ? counter_value(*counted, check.counter, elements) : std::nullopt;
  if (!value) {
    fail_without_kernel_work(check, r);
    return r;
  }
  if (const std::string why = contradictory_counts(*counted); !why.empty()) {
    r.status = TestStatus::failed;
    r.message = "the simulator's report was tampered with: its counts contradict each other (" +
                why + "), so this check earns nothing";
    return r;
  }
  return score_counted_run(check, *counted, *reference, {*value, *reference_value, elements}, r);
}

}  // namespace parlab::grader
