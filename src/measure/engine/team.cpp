#include "measure/engine/team.hpp"
#include "roofline/io.hpp"

#include <sched.h>

#include <pthread.h>

#include <algorithm>
#include <chrono>

namespace roofline::engine {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace {
bool pin_self(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(static_cast<size_t>(cpu), &set);
  return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}
// Spin-wait step: pause, and after a while give the CPU away, so that a team with more threads
// than CPUs (or a preempted member) does not spin against the member it waits for.
inline void relax(unsigned& spins) {
  if (++spins > 4096) {
    sched_yield();
    return;
  }
#if defined(__x86_64__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

ThreadTeam::ThreadTeam(const std::vector<int>& cpus) : cpus_(cpus), end_ns_(cpus.size(), 0) {
  if (cpus_.empty()) cpus_.push_back(0), end_ns_.push_back(0);
  restore_ = pthread_getaffinity_np(pthread_self(), sizeof(saved_), &saved_) == 0;
  pinned_ = pin_self(cpus_[0]);
  {
    // The members never take the signals that end a command (they start with them held): one
    // sent to the process reaches the main thread, which handles it or holds it while writing.
    const EndingSignalsHeld held;
    for (size_t i = 1; i < cpus_.size(); ++i)
      threads_.emplace_back([this, i] { worker(static_cast<int>(i)); });
  }
  // Every member has pinned itself before the team is used (pinned() is then final).
  unsigned spins = 0;
  while (started_.load(std::memory_order_acquire) < size() - 1) relax(spins);
}

ThreadTeam::~ThreadTeam() {
  stop_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (auto& t : threads_) t.join();
  if (restore_) pthread_setaffinity_np(pthread_self(), sizeof(saved_), &saved_);
}

void ThreadTeam::worker(int id) {
  if (!pin_self(cpus_[static_cast<size_t>(id)])) pinned_.store(false);
  started_.fetch_add(1, std::memory_order_release);
  std::uint64_t seen = 0;
  for (;;) {
    generation_.wait(seen);
    seen = generation_.load();
    if (stop_.load()) return;
    const int n = size();
    arrived_.fetch_add(1);
    unsigned spins = 0;
    while (arrived_.load(std::memory_order_acquire) < n) relax(spins);
    (*job_)(id);
    end_ns_[static_cast<size_t>(id)] = now_ns();
    done_.fetch_add(1, std::memory_order_release);
  }
}

double ThreadTeam::run(const std::function<void(int)>& job) {
  const int n = size();
  job_ = &job;
  arrived_.store(0);
  done_.store(0);
  generation_.fetch_add(1);
  generation_.notify_all();
  arrived_.fetch_add(1);
  unsigned spins = 0;
  while (arrived_.load(std::memory_order_acquire) < n) relax(spins);
  const std::int64_t start = now_ns();
  job(0);
  end_ns_[0] = now_ns();
  spins = 0;
  while (done_.load(std::memory_order_acquire) < n - 1) relax(spins);
  const std::int64_t end = *std::max_element(end_ns_.begin(), end_ns_.end());
  return static_cast<double>(end - start) * 1e-9;
}

}  // namespace roofline::engine
