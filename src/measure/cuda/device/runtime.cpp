// CUDA runtime helpers (runtime.hpp).
#include "measure/cuda/device/runtime.hpp"

#include <algorithm>
#include <cmath>

namespace roofline::cuda::rt {

void check(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  throw Error(what + ": " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")");
}

Buffer::Buffer(size_t bytes, const std::string& what) : bytes_(bytes) {
  check(cudaMalloc(&ptr_, bytes), "allocating " + std::to_string(bytes) + " bytes for " + what);
}

Buffer::~Buffer() {
  if (ptr_) cudaFree(ptr_);
}

Timer::Timer() {
  check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "creating a stream");
  check(cudaEventCreate(&start_), "creating an event");
  check(cudaEventCreate(&stop_), "creating an event");
}

Timer::~Timer() {
  if (stop_) cudaEventDestroy(stop_);
  if (start_) cudaEventDestroy(start_);
  if (stream_) cudaStreamDestroy(stream_);
}

double Timer::time(const std::function<void()>& enqueue, const std::string& what) {
  check(cudaEventRecord(start_, stream_), what + ": recording the start event");
  enqueue();
  check(cudaGetLastError(), what + ": launch");
  check(cudaEventRecord(stop_, stream_), what + ": recording the stop event");
  check(cudaEventSynchronize(stop_), what + ": running");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start_, stop_), what + ": reading the events");
  return static_cast<double>(ms) * 1e-3;
}

Rates timed_rates(Timer& timer, long scale0, long max_scale, double target_s, int repetitions,
                  const std::function<double(long)>& amount,
                  const std::function<void(long)>& enqueue, const std::string& what, Probe* probe) {
  long scale = std::max(1L, scale0);
  timer.time([&] { enqueue(scale); }, what);  // first call: module loading, library set-up
  double t = timer.time([&] { enqueue(scale); }, what);
  // Grow geometrically while far from the target, then jump to the estimate.
  while (t < target_s / 8 && scale < max_scale) {
    scale = std::min(max_scale, scale * 8);
    t = timer.time([&] { enqueue(scale); }, what);
  }
  if (t > 0 && t < target_s && scale < max_scale) {
    const double want = static_cast<double>(scale) * target_s / t;
    scale = std::min(max_scale, std::max(scale, static_cast<long>(std::llround(want))));
  }
  Rates r;
  r.scale = scale;
  timer.time([&] { enqueue(scale); }, what);  // warm-up at the final scale
  struct Bracket {
    Probe* p;
    explicit Bracket(Probe* q) : p(q) {
      if (p) p->begin();
    }
    ~Bracket() {
      if (p) p->end();
    }
  } bracket(probe);
  for (int i = 0; i < repetitions; ++i) {
    const double s = timer.time([&] { enqueue(scale); }, what);
    if (!(s > 0)) throw Error(what + ": the timer read zero seconds");
    r.rates.push_back(amount(scale) / s);
    r.seconds_each += s / repetitions;
  }
  return r;
}

}  // namespace roofline::cuda::rt
