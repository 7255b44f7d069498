#pragma once
// Utilisation metrics (docs/model.md §11).
//   MFU = (model work per item × items/s) / peak work rate
//   bandwidth utilisation = (bytes per item × items/s) / bandwidth
#include "roofline/units.hpp"

namespace roofline {

double model_flops_utilisation(Work work_per_item, double items_per_second, WorkRate peak);
double bandwidth_utilisation(Bytes bytes_per_item, double items_per_second, ByteRate bandwidth);

}  // namespace roofline
