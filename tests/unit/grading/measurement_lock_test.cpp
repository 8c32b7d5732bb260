// The measurement lock across processes: flock locks belong to open file descriptions,
// so two MeasurementLock objects conflict like two `grade` processes would.
#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "scratch_dir.hpp"
#include "grading/measurement_lock.hpp"

using namespace parlab::grader;
using namespace std::chrono_literals;

TEST_CASE("a measurement waits for running builds and excludes new ones") {
  parlab::testing::ScratchDir s;
  MeasurementLock builder(s.path(), std::nullopt);
  MeasurementLock measurer(s.path(), std::nullopt);
  MeasurementLock late_builder(s.path(), std::nullopt);
  builder.share();

  std::atomic<bool> measuring{false};
  std::thread m([&] {
    measurer.take_exclusive();
    measuring = true;
    std::this_thread::sleep_for(300ms);
    measuring = false;
    measurer.release();
  });
  std::this_thread::sleep_for(200ms);
  CHECK_FALSE(measuring);  // a build is still running

  // The writer is waiting now: a new builder must queue behind it (no starvation).
  std::atomic<bool> late_started{false};
  std::atomic<bool> overlapped{false};
  std::thread b([&] {
    late_builder.share();
    late_started = true;
    if (measuring) overlapped = true;
  });
  std::this_thread::sleep_for(200ms);
  CHECK_FALSE(late_started);
  builder.release();
  m.join();
  b.join();
  CHECK(late_started);
  CHECK_FALSE(overlapped);
}

TEST_CASE("shared holders run together") {
  parlab::testing::ScratchDir s;
  MeasurementLock a(s.path(), std::nullopt);
  MeasurementLock b(s.path(), std::nullopt);
  a.share();
  std::atomic<bool> got{false};
  std::thread t([&] {
    b.share();
    got = true;
  });
  t.join();
  CHECK(got);
}

TEST_CASE("GPU measurements lock their GPU, not other GPUs") {
  parlab::testing::ScratchDir s;
  MeasurementLock gpu0(s.path(), 0);
  MeasurementLock gpu1(s.path(), 1);
  MeasurementLock gpu0_again(s.path(), 0);
  gpu0.take_exclusive();
  std::atomic<bool> other_gpu{false};
  std::thread t([&] {
    gpu1.take_exclusive();
    other_gpu = true;
  });
  t.join();
  CHECK(other_gpu);

  std::atomic<bool> same_gpu{false};
  std::thread u([&] {
    gpu0_again.share();
    same_gpu = true;
  });
  std::this_thread::sleep_for(200ms);
  CHECK_FALSE(same_gpu);
  gpu0.release();
  u.join();
  CHECK(same_gpu);
}

TEST_CASE("the lock folder comes from PARLAB_LOCK_DIR") {
  ::setenv("PARLAB_LOCK_DIR", "/some/where", 1);
  CHECK(MeasurementLock::default_dir() == "/some/where");
  ::unsetenv("PARLAB_LOCK_DIR");
  // Root's folder is closed to the runs (lock_folder_test.cpp); others share /tmp's.
  CHECK(MeasurementLock::default_dir() ==
        (::geteuid() == 0 ? "/run/parlab/locks" : "/tmp/parlab-locks"));
  ::setenv("CUDA_VISIBLE_DEVICES", "3,1", 1);
  CHECK(MeasurementLock::visible_gpu() == 3);
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  CHECK(MeasurementLock::visible_gpu() == 0);
}
