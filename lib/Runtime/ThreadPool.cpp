//===- ThreadPool.cpp - persistent workers behind env->parallel_for
//---------===//

#include "ThreadPool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TC_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define TC_CPU_RELAX() asm volatile("yield")
#else
#define TC_CPU_RELAX() ((void)0)
#endif

using namespace tc::rt;

namespace {
// Set while a thread runs chunks, so that a parallel_for issued from inside
// a workgroup runs inline instead of deadlocking on the busy pool.
thread_local bool insideParallelRegion = false;

// How long an idle thread polls before sleeping. Kernels of one model run
// back to back, so a short spin usually catches the next one; a long spin
// would steal the core from other processes.
constexpr int kSpinIterations = 4000;

// Chunks per thread: more than one lets fast threads take over the work of
// slow or descheduled ones; not many more, to keep ranges contiguous and the
// per-chunk overhead small.
constexpr int64_t kChunksPerThread = 4;

// Spins between two looks at the clock while hot: reading it is far
// cheaper than a spin, but not free.
constexpr int kSpinsPerClockRead = 64;

int64_t steadyNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
} // namespace

ThreadPool::ThreadPool(int numThreads) {
  int numWorkers = std::max(numThreads, 1) - 1;
  // Thread creation fails with std::system_error when the system runs out
  // of threads or memory for their stacks; the pool reports that instead of
  // letting the exception reach the C API.
  try {
    workers.reserve(numWorkers);
    for (int i = 0; i < numWorkers; ++i)
      workers.emplace_back([this] { workerLoop(); });
  } catch (const std::exception &error) {
    startFailure = "cannot start " + std::to_string(numThreads) +
                   " threads (the system refused thread " +
                   std::to_string(workers.size() + 2) + ": " + error.what() +
                   ")";
    stopWorkers();
  }
}

ThreadPool::~ThreadPool() { stopWorkers(); }

void ThreadPool::stopWorkers() {
  // A worker spinning for a hot run notices at its next look at the clock.
  hotRuns.store(0, std::memory_order_relaxed);
  hotUntilNs.store(0, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  workAvailable.notify_all();
  for (std::thread &worker : workers)
    worker.join();
  workers.clear();
}

void ThreadPool::runChunks(WorkFn fn, void *args, int64_t count,
                           int64_t numChunks) {
  insideParallelRegion = true;
  int64_t done = 0;
  for (int64_t chunk = nextChunk.fetch_add(1, std::memory_order_relaxed);
       chunk < numChunks;
       chunk = nextChunk.fetch_add(1, std::memory_order_relaxed)) {
    // The first count % numChunks chunks get one extra index; written so
    // that nothing overflows even for huge counts.
    int64_t base = count / numChunks, extra = count % numChunks;
    int64_t begin = chunk * base + std::min(chunk, extra);
    int64_t end = begin + base + (chunk < extra ? 1 : 0);
    fn(args, begin, end);
    ++done;
  }
  insideParallelRegion = false;
  if (done == 0)
    return;
  // acq_rel: the caller's acquire load of finishedChunks then sees every
  // write fn made.
  if (finishedChunks.fetch_add(done, std::memory_order_acq_rel) + done ==
      numChunks) {
    // Lock so the notification cannot slip between the caller's check and
    // its wait.
    std::lock_guard<std::mutex> lock(mutex);
    jobDone.notify_all();
  }
}

bool ThreadPool::hot() const {
  return hotRuns.load(std::memory_order_relaxed) > 0 ||
         steadyNanoseconds() < hotUntilNs.load(std::memory_order_relaxed);
}

void ThreadPool::spinWhileIdle(uint64_t seen) const {
  for (int i = 0; generation.load(std::memory_order_acquire) == seen; ++i) {
    if (i >= kSpinIterations && i % kSpinsPerClockRead == 0 && !hot())
      return;
    TC_CPU_RELAX();
  }
}

void ThreadPool::beginHotRun() {
  hotRuns.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mutex);
  if (sleepingWorkers == 0)
    return;
  ++hotEpoch;
  workAvailable.notify_all();
}

void ThreadPool::endHotRun() {
  int64_t until = steadyNanoseconds() + kHotWindowNs;
  int64_t previous = hotUntilNs.load(std::memory_order_relaxed);
  while (previous < until && !hotUntilNs.compare_exchange_weak(
                                 previous, until, std::memory_order_relaxed))
    ;
  hotRuns.fetch_sub(1, std::memory_order_relaxed);
}

void ThreadPool::workerLoop() {
  uint64_t seen = 0;
  while (true) {
    spinWhileIdle(seen);
    WorkFn fn;
    void *args;
    int64_t count, numChunks;
    {
      std::unique_lock<std::mutex> lock(mutex);
      uint64_t epoch = hotEpoch;
      auto ready = [&] {
        return stopping || generation.load(std::memory_order_relaxed) != seen;
      };
      // hot() under the lock: a hot run that began after the spin ended
      // either shows here or finds this worker counted as sleeping.
      if (!ready() && !hot()) {
        ++sleepingWorkers;
        sleepCount.fetch_add(1, std::memory_order_relaxed);
        workAvailable.wait(lock, [&] { return ready() || hotEpoch != epoch; });
        --sleepingWorkers;
      }
      if (stopping)
        return;
      // Woken by a hot run before its first region: spin for it.
      if (generation.load(std::memory_order_relaxed) == seen)
        continue;
      seen = generation.load(std::memory_order_relaxed);
      fn = jobFn;
      args = jobArgs;
      count = jobCount;
      numChunks = jobNumChunks;
      ++activeWorkers;
    }
    runChunks(fn, args, count, numChunks);
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (--activeWorkers == 0)
        workersIdle.notify_all();
    }
  }
}

void ThreadPool::parallelFor(WorkFn fn, void *args, int64_t count) {
  if (count <= 0)
    return;
  if (workers.empty() || count == 1 || insideParallelRegion) {
    fn(args, 0, count);
    return;
  }
  std::lock_guard<std::mutex> dispatchLock(dispatchMutex);
  int64_t numChunks = std::min<int64_t>(count, numThreads() * kChunksPerThread);
  {
    std::unique_lock<std::mutex> lock(mutex);
    // A worker that woke late for the previous job may still hold its copy
    // and be about to touch nextChunk; wait until it has let go.
    workersIdle.wait(lock, [&] { return activeWorkers == 0; });
    jobFn = fn;
    jobArgs = args;
    jobCount = count;
    jobNumChunks = numChunks;
    nextChunk.store(0, std::memory_order_relaxed);
    finishedChunks.store(0, std::memory_order_relaxed);
    generation.fetch_add(1, std::memory_order_release);
  }
  workAvailable.notify_all();

  runChunks(fn, args, count, numChunks);

  for (int i = 0;; ++i) {
    if (finishedChunks.load(std::memory_order_acquire) == numChunks)
      return;
    if (i >= kSpinIterations && i % kSpinsPerClockRead == 0 && !hot())
      break;
    TC_CPU_RELAX();
  }
  std::unique_lock<std::mutex> lock(mutex);
  jobDone.wait(lock, [&] {
    return finishedChunks.load(std::memory_order_acquire) == numChunks;
  });
}
