#pragma once
// The engine's thread team: threads pinned one per CPU that start a job together and report the
// time from the common start to the last finish. The calling thread is member 0 (pinned while the
// team lives, its previous affinity restored afterwards), so an N-thread team uses exactly N
// CPUs. Every threaded measurement uses it — the roofs, the kernel suite, the cluster's node
// probe — so a point and the roof it is judged against ran on the same pinned threads.
#include <sched.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace roofline::engine {

class ThreadTeam {
 public:
  /// One member per entry of `cpus` (a CPU may repeat: more threads than CPUs; empty: CPU 0).
  explicit ThreadTeam(const std::vector<int>& cpus);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return static_cast<int>(cpus_.size()); }
  const std::vector<int>& cpus() const { return cpus_; }
  bool pinned() const { return pinned_.load(); }
  /// Runs job(member) on every member at once; returns seconds from the common start (all
  /// members past a barrier) to the last member's finish.
  double run(const std::function<void(int)>& job);

 private:
  void worker(int id);

  std::vector<int> cpus_;
  std::vector<std::thread> threads_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> arrived_{0};
  std::atomic<int> done_{0};
  std::atomic<bool> stop_{false};
  const std::function<void(int)>* job_ = nullptr;
  std::vector<std::int64_t> end_ns_;
  cpu_set_t saved_{};
  bool restore_ = false;
  std::atomic<bool> pinned_{true};
  std::atomic<int> started_{0};
};

/// Monotonic time in nanoseconds.
std::int64_t now_ns();

}  // namespace roofline::engine
