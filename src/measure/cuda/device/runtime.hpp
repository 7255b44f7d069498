#pragma once
// Small RAII and timing helpers over the CUDA runtime for the backend's host code.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "roofline/error.hpp"

namespace roofline::cuda::rt {

/// Throws roofline::Error naming `what` and the runtime's error when `e` is not cudaSuccess.
void check(cudaError_t e, const std::string& what);

/// Device memory, freed on scope exit.
class Buffer {
 public:
  explicit Buffer(size_t bytes, const std::string& what);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* get() const { return ptr_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

/// A stream and a pair of events to time work on it.
class Timer {
 public:
  Timer();
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  cudaStream_t stream() const { return stream_; }
  /// Seconds between events recorded before and after `enqueue` (which only enqueues work on
  /// stream()); synchronises. Throws on a launch or execution error.
  double time(const std::function<void()>& enqueue, const std::string& what);

 private:
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

/// Told when the timed repetitions of a measurement begin and end (the clock sampler).
class Probe {
 public:
  virtual ~Probe() = default;
  virtual void begin() = 0;
  virtual void end() = 0;
};

/// Repeated timed rates of work that scales with an integer: `enqueue(scale)` does
/// `amount(scale)` units (FLOP, OP or bytes). One untimed run at `scale0` first (it loads the
/// kernel's module, which CUDA's lazy loading defers to the first launch, and whatever a
/// library does on its first call); then the scale is grown from `scale0` until one run takes
/// about `target_s`, and the run is repeated `repetitions` times after one warm-up at that
/// scale. `probe`, when given, brackets the timed repetitions.
struct Rates {
  std::vector<double> rates;  ///< amount / seconds, one per repetition
  long scale = 0;
  double seconds_each = 0;
};
Rates timed_rates(Timer& timer, long scale0, long max_scale, double target_s, int repetitions,
                  const std::function<double(long)>& amount,
                  const std::function<void(long)>& enqueue, const std::string& what,
                  Probe* probe = nullptr);

}  // namespace roofline::cuda::rt
