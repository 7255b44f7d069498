#include "roofline/metrics.hpp"

#include "roofline/error.hpp"

namespace roofline {

// docs/model.md §11: MFU = (model FLOPs per token × tokens/s) / peak FLOP/s.
double model_flops_utilisation(Work work_per_item, double items_per_second, WorkRate peak) {
  if (!(peak.value > 0)) throw InputError("MFU: peak must be > 0");
  if (!(items_per_second >= 0)) throw InputError("MFU: throughput must be ≥ 0");
  return work_per_item.value * items_per_second / peak.value;
}

double bandwidth_utilisation(Bytes bytes_per_item, double items_per_second, ByteRate bandwidth) {
  if (!(bandwidth.value > 0)) throw InputError("bandwidth utilisation: bandwidth must be > 0");
  if (!(items_per_second >= 0)) throw InputError("bandwidth utilisation: throughput must be ≥ 0");
  return bytes_per_item.value * items_per_second / bandwidth.value;
}

}  // namespace roofline
