//===- ThreadPool.h - persistent workers behind env->parallel_for
//-----------===//
//
// A fork-join pool sized once: `numThreads - 1` workers live as long as the
// pool, and the thread calling parallelFor is the last participant. Work is
// split into contiguous chunks claimed from an atomic counter, so a thread
// that is descheduled (or a workgroup that is slow) does not hold up the
// others. Idle workers spin briefly before sleeping on a condition variable,
// which keeps back-to-back kernels cheap without burning a core when idle.
// Runs of a module compiled with --mode=reduce-overhead hold the pool hot
// (beginHotRun/endHotRun): the workers are woken when the run starts and do
// not sleep until kHotWindow after the last such run ends, so neither the
// run's kernels nor the next request pay for waking a thread.
//
//===----------------------------------------------------------------------===//

#ifndef TC_LIB_RUNTIME_THREADPOOL_H
#define TC_LIB_RUNTIME_THREADPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tc::rt {

class ThreadPool {
public:
  using WorkFn = void (*)(void *args, int64_t begin, int64_t end);

  /// Starts `numThreads - 1` workers (numThreads >= 1). If the system
  /// refuses a thread, the workers already started are stopped again and
  /// startError() says why; the pool is then not usable.
  explicit ThreadPool(int numThreads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  int numThreads() const { return static_cast<int>(workers.size()) + 1; }
  /// Empty when every worker started.
  const std::string &startError() const { return startFailure; }

  /// Calls fn(args, begin, end) on disjoint contiguous ranges covering
  /// [0, count) and returns once all calls have returned. Safe to call from
  /// several threads (the regions take turns) and from inside fn (the nested
  /// region runs on the calling thread).
  void parallelFor(WorkFn fn, void *args, int64_t count);

  /// A run that wants no wake-up cost is starting: wakes sleeping workers
  /// and keeps every thread spinning until the matching endHotRun, and for
  /// kHotWindowNs after the last one.
  void beginHotRun();
  void endHotRun();

  /// How long the threads keep spinning after a hot run: a request every
  /// 50 ms or more often finds them awake; an idle process stops using the
  /// cores 50 ms after its last request.
  static constexpr int64_t kHotWindowNs = 50'000'000;

  /// How many times a worker went to sleep on its condition variable (for
  /// tests).
  int64_t sleeps() const { return sleepCount.load(std::memory_order_relaxed); }

private:
  /// Whether idle threads should keep spinning now.
  bool hot() const;
  /// Spins while `generation` is `seen` and the spin budget (or hot()) lasts.
  void spinWhileIdle(uint64_t seen) const;
  void workerLoop();
  /// Claims and runs chunks of the current job until none are left.
  void runChunks(WorkFn fn, void *args, int64_t count, int64_t numChunks);

  /// Stops and joins every worker started.
  void stopWorkers();

  std::vector<std::thread> workers;
  std::string startFailure;

  // Serialises parallel regions issued by different threads.
  std::mutex dispatchMutex;

  // Job state. fn/args/count/numChunks are written under `mutex` together
  // with a bump of `generation`, and only when `activeWorkers` is 0, so a
  // worker that read them under `mutex` sees one consistent job.
  std::mutex mutex;
  std::condition_variable workAvailable; // workers wait for a new generation
  std::condition_variable jobDone;       // the caller waits for completion
  std::condition_variable workersIdle;   // the next job waits for stragglers
  std::atomic<uint64_t> generation{0};
  bool stopping = false;
  WorkFn jobFn = nullptr;
  void *jobArgs = nullptr;
  int64_t jobCount = 0;
  int64_t jobNumChunks = 0;
  std::atomic<int64_t> nextChunk{0};
  std::atomic<int64_t> finishedChunks{0};
  int activeWorkers = 0; // workers holding a copy of the job; under `mutex`

  // Hot runs in flight, and the steady-clock time (ns) until which the
  // threads spin after the last one ended.
  std::atomic<int> hotRuns{0};
  std::atomic<int64_t> hotUntilNs{0};
  // Bumped under `mutex` by beginHotRun to wake sleeping workers.
  uint64_t hotEpoch = 0;
  int sleepingWorkers = 0; // under `mutex`
  std::atomic<int64_t> sleepCount{0};
};

} // namespace tc::rt

#endif // TC_LIB_RUNTIME_THREADPOOL_H
