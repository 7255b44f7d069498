// The CUDA backend behind the engine's interface. The CUDA measurement still assembles its own
// document (roofline::cuda::measure, docs/cuda.md); its statistics are the engine's policy
// (statistics.hpp). Until it reports engine::Measurements, document() calls it directly.
#include "measure/engine/backends.hpp"
#include "roofline/cuda.hpp"

namespace roofline::engine {
namespace {

cuda::Options cuda_options(const MeasureOptions& o) {
  cuda::Options co;
  co.device = o.device_index;
  co.quick = o.quick;
  co.progress = o.progress;
  return co;
}

class CudaBackend final : public Backend {
 public:
  std::string name() const override { return "cuda"; }
  std::string status(const MeasureOptions& o) const override {
    return cuda::status(o.device_index);
  }
  Measurements measure(const MeasureOptions&) const override {
    throw Unavailable(
        "the CUDA backend assembles its own document: call document() (engine::measure)");
  }
  MachineDocument document(const MeasureOptions& o) const override {
    if (o.threads != 0 || !o.precisions.empty() || !o.levels.empty())
      throw InputError("--threads, --precisions and --levels apply to --device cpu only");
    return cuda::measure(cuda_options(o));
  }
};

}  // namespace

const Backend& cuda_backend() {
  static const CudaBackend b;
  return b;
}

}  // namespace roofline::engine
