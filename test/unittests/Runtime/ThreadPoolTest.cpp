//===- ThreadPoolTest.cpp - the CPU device's pool, and its hot runs -------===//
//
// Hot runs (reduce-overhead modules) keep the workers awake: a worker asleep
// when one begins is woken, and none sleeps again until the run has ended
// and the hot window has passed. Counted with ThreadPool::sleeps(), which
// only moves when a worker blocks on its condition variable, so the checks
// hold however the system schedules the threads.
//
//===----------------------------------------------------------------------===//

#include "../../../lib/Runtime/ThreadPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using tc::rt::ThreadPool;

namespace {

// Adds begin..end-1 into the std::atomic<int64_t> `args`.
void sumRange(void *args, int64_t begin, int64_t end) {
  int64_t sum = 0;
  for (int64_t i = begin; i < end; ++i)
    sum += i;
  static_cast<std::atomic<int64_t> *>(args)->fetch_add(sum);
}

int64_t parallelSum(ThreadPool &pool, int64_t count) {
  std::atomic<int64_t> sum{0};
  pool.parallelFor(sumRange, &sum, count);
  return sum.load();
}

/// Waits (up to 5 s) until the pool's workers have slept more than `than`
/// times; false if they never did.
bool sleepsExceed(const ThreadPool &pool, int64_t than) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (pool.sleeps() > than)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// Counts each index of the range into the std::atomic<int> array `args`.
void countRange(void *args, int64_t begin, int64_t end) {
  auto *counts = static_cast<std::atomic<int> *>(args);
  for (int64_t i = begin; i < end; ++i)
    counts[i].fetch_add(1);
}

// However the indices split into chunks and the chunks among the threads,
// every index runs once.
TEST(ThreadPoolTest, EveryIndexRunsOnceWhateverTheChunks) {
  for (int threads = 1; threads <= 4; ++threads) {
    ThreadPool pool(threads);
    for (int64_t count : {1, 2, 3, 5, 7, 8, 15, 16, 17, 33, 1000}) {
      std::vector<std::atomic<int>> counts(count);
      pool.parallelFor(countRange, counts.data(), count);
      for (int64_t i = 0; i < count; ++i)
        ASSERT_EQ(counts[i].load(), 1)
            << threads << " threads, " << count << " indices, index " << i;
    }
  }
}

TEST(ThreadPoolTest, IdleWorkersSleep) {
  ThreadPool pool(3);
  ASSERT_EQ(parallelSum(pool, 1000), 999 * 1000 / 2);
  EXPECT_TRUE(sleepsExceed(pool, 0));
}

TEST(ThreadPoolTest, HotRunWakesWorkersAndKeepsThemAwake) {
  ThreadPool pool(2);
  ASSERT_EQ(parallelSum(pool, 100), 99 * 100 / 2);
  // The worker has gone to sleep after its spin.
  ASSERT_TRUE(sleepsExceed(pool, 0));
  int64_t asleep = pool.sleeps();
  pool.beginHotRun();
  // Idle stretches inside the run, far longer than the ordinary spin.
  for (int region = 0; region < 3; ++region) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(parallelSum(pool, 4096), 4095 * 4096 / 2);
  }
  EXPECT_EQ(pool.sleeps(), asleep);
  pool.endHotRun();
  // After the hot window the worker sleeps again.
  EXPECT_TRUE(sleepsExceed(pool, asleep));
}

TEST(ThreadPoolTest, ConcurrentHotRunsComputeTheirOwnRegions) {
  ThreadPool pool(3);
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int caller = 0; caller < 4; ++caller)
    callers.emplace_back([&, caller] {
      for (int run = 0; run < 50; ++run) {
        pool.beginHotRun();
        int64_t count = 100 + caller * 37 + run;
        if (parallelSum(pool, count) != count * (count - 1) / 2)
          ++wrong;
        pool.endHotRun();
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ThreadPoolTest, ReleasingAHotPoolDoesNotWaitForTheWindow) {
  auto start = std::chrono::steady_clock::now();
  {
    ThreadPool pool(2);
    pool.beginHotRun();
    ASSERT_EQ(parallelSum(pool, 1000), 999 * 1000 / 2);
    pool.endHotRun();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start,
            std::chrono::nanoseconds(ThreadPool::kHotWindowNs));
}

} // namespace
