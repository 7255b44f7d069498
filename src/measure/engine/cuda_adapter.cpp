// The CUDA backend behind the engine's interface. roofline::cuda::measure (docs/cuda.md) runs
// the device, turns its timed rates into engine::Measurements (cuda::engine_measurements) and
// assembles them with engine::assemble; document() calls it, because the device section and the
// clocks it records need the live device until the end.
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
    throw Unavailable("the CUDA backend is measured through document() (engine::measure)");
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
