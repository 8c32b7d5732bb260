#include "process/rlimits.hpp"

#include <sys/resource.h>

#include <catch2/catch.hpp>

using namespace parlab::grader;
using namespace parlab::grader::process;

namespace {

const RlimitSetting* find(const RlimitPlan& plan, int resource) {
  for (std::size_t i = 0; i < plan.general_count; ++i)
    if (plan.general[i].resource == resource) return &plan.general[i];
  return nullptr;
}

rlim_t hard_limit_of_this_process(int resource) {
  rlimit limit{};
  getrlimit(static_cast<__rlimit_resource_t>(resource), &limit);
  return limit.rlim_max;
}

}  // namespace

TEST_CASE("CPU limit is rounded up, with the hard limit one second later", "[process][rlimits]") {
  ResourceLimits limits;
  limits.cpu_seconds = 1.2;
  RlimitPlan plan = plan_rlimits(limits, false, 0);
  const RlimitSetting* cpu = find(plan, RLIMIT_CPU);
  REQUIRE(cpu != nullptr);
  if (hard_limit_of_this_process(RLIMIT_CPU) == RLIM_INFINITY) {
    CHECK(cpu->value.rlim_cur == 2);
    CHECK(cpu->value.rlim_max == 3);
  }
}

TEST_CASE("A non-positive CPU limit means no CPU limit", "[process][rlimits]") {
  ResourceLimits limits;
  limits.cpu_seconds = 0;
  RlimitPlan plan = plan_rlimits(limits, false, 0);
  const RlimitSetting* cpu = find(plan, RLIMIT_CPU);
  REQUIRE(cpu != nullptr);
  CHECK(cpu->value.rlim_cur == hard_limit_of_this_process(RLIMIT_CPU));
}

TEST_CASE("Address space is in MiB and 0 means unlimited", "[process][rlimits]") {
  ResourceLimits limits;
  limits.address_space_mb = 512;
  CHECK(find(plan_rlimits(limits, false, 0), RLIMIT_AS)->value.rlim_cur == 512ull << 20);
  limits.address_space_mb = 0;
  CHECK(find(plan_rlimits(limits, false, 0), RLIMIT_AS)->value.rlim_cur ==
        hard_limit_of_this_process(RLIMIT_AS));
}

TEST_CASE("File size limit is in MiB and core dumps are off", "[process][rlimits]") {
  ResourceLimits limits;
  limits.file_size_mb = 3;
  RlimitPlan plan = plan_rlimits(limits, false, 0);
  CHECK(find(plan, RLIMIT_FSIZE)->value.rlim_cur == 3ull << 20);
  CHECK(find(plan, RLIMIT_CORE)->value.rlim_cur == 0);
  CHECK(find(plan, RLIMIT_CORE)->value.rlim_max == 0);
}

TEST_CASE("The process limit is only planned with a privilege drop, plus helpers",
          "[process][rlimits]") {
  ResourceLimits limits;
  limits.max_processes = 10;
  CHECK_FALSE(plan_rlimits(limits, false, 2).limit_processes);
  RlimitPlan plan = plan_rlimits(limits, true, 2);
  REQUIRE(plan.limit_processes);
  CHECK(plan.processes.resource == RLIMIT_NPROC);
  if (hard_limit_of_this_process(RLIMIT_NPROC) == RLIM_INFINITY ||
      hard_limit_of_this_process(RLIMIT_NPROC) >= 12)
    CHECK(plan.processes.value.rlim_cur == 12);
}
