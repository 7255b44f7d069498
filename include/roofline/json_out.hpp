#pragma once
// Machine-readable forms of results (--json on every command).
#include <nlohmann/json.hpp>

#include "roofline/compare.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/kernels.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"

namespace roofline {

nlohmann::json diagnosis_to_json(const Diagnosis& d);
/// The point, its intensity per level, performance and diagnosis.
nlohmann::json analysis_to_json(const Point& p, const Diagnosis& d, const RoofSet& roofs);
nlohmann::json kernel_count_to_json(const KernelCount& k);
nlohmann::json comparison_to_json(const Comparison& c);

}  // namespace roofline
