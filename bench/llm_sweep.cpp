// Speed target of `roofline llm` (a full sweep of a 70B model over batch 1–1024 × 8
// context lengths finishes in ≤ 0.5 s). Runs the library's sweep — decode and prefill steps,
// footprint and fit for every (batch, context) — over every batch 1, 2, ..., 1024 and 8 contexts,
// repeats it, and prints the median time against the target. Exit 1 when the target is missed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "roofline/llm.hpp"

int main(int argc, char** argv) {
  using namespace roofline;
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
  // Roofs: NVIDIA A100 80GB SXM datasheet (fp16 tensor 312 TFLOP/s, HBM2e 2.039 TB/s, 80 GB;
  // NVLink 600 GB/s, both directions, as the catalogue) — any roofs do; the cost does not
  // depend on them.
  RoofSet set;
  set.name = "a100-80gb (datasheet)";
  ComputeRoof c;
  c.name = "fp16 tensor";
  c.precision = "fp16";
  c.peak = WorkRate(312e12);
  set.compute.push_back(c);
  MemoryRoof hbm;
  hbm.level = "HBM";
  hbm.bandwidth = ByteRate(2.039e12);
  hbm.size_bytes = 80.0 * 1024 * 1024 * 1024;
  set.memory.push_back(hbm);
  MemoryRoof nvlink;
  nvlink.level = "NVLink";
  nvlink.kind = "interconnect";
  nvlink.bandwidth = ByteRate(600e9);
  set.memory.push_back(nvlink);

  const llm::ModelConfig model = llm::resolve_model("llama-3-70b");
  llm::Scenario base;
  base.prompt = 0;  // each row's prompt is its context
  base.tp = 8;
  const llm::Roofs roofs = llm::select_roofs(set, base.dtypes.compute);
  std::vector<double> batches;
  for (int b = 1; b <= 1024; ++b) batches.push_back(b);
  const std::vector<double> contexts{128, 256, 512, 1024, 2048, 4096, 8192, 16384};

  std::vector<double> seconds;
  double checksum = 0;
  std::size_t rows = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto out = llm::sweep(model, base, batches, contexts, roofs);
    const auto t1 = std::chrono::steady_clock::now();
    seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
    rows = out.size();
    for (const auto& row : out) checksum += row.tokens_per_s;  // keep the work observable
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  const double target = 0.5;
  std::printf("llm sweep: %s, tp %d, %zu batches × %zu contexts = %zu rows\n", model.name.c_str(),
              base.tp, batches.size(), contexts.size(), rows);
  std::printf("  median %.4f s over %d runs (min %.4f, max %.4f); %.2f us per row\n", median,
              repeats, seconds.front(), seconds.back(), 1e6 * median / static_cast<double>(rows));
  std::printf("  target ≤ %.1f s: %s (%.0fx headroom)  [checksum %.6g]\n", target,
              median <= target ? "met" : "MISSED", target / median, checksum);
  return median <= target ? 0 : 1;
}
