// Measures the GPU's roofs with the CUDA backend and writes the machine document (the acceptance
// check's own program is bench/gpu_check). Usage: cuda_roofs [--quick] [--device N] [--json FILE]
// Prints each roof measured next to its theoretical value, and the time the measurement took.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "roofline/cuda.hpp"
#include "roofline/quantity.hpp"

int main(int argc, char** argv) {
  roofline::cuda::Options options;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      options.quick = true;
    } else if (a == "--device" && i + 1 < argc) {
      options.device = std::atoi(argv[++i]);
    } else if (a == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--device N] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  std::printf("device: %s\n", roofline::cuda::status(options.device).c_str());
  options.progress = [](double f, const std::string& what) {
    std::fprintf(stderr, "[%3.0f%%] %s\n", 100 * f, what.c_str());
  };
  try {
    const auto start = std::chrono::steady_clock::now();
    const roofline::MachineDocument doc = roofline::cuda::measure(options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-22s %-12s %16s %16s %7s\n", "roof", "provenance", "value", "theoretical",
                "ratio");
    for (const auto& r : doc.roofs.compute) {
      const auto& u = r.integer ? roofline::UnitSystem::op() : roofline::UnitSystem::flop();
      std::printf("%-22s %-12s %16s %16s %6.1f%%\n", r.name.c_str(),
                  roofline::to_string(r.provenance).c_str(),
                  roofline::format_work_rate(r.peak, u).c_str(),
                  r.theoretical ? roofline::format_work_rate(*r.theoretical, u).c_str() : "-",
                  r.theoretical ? 100 * r.peak.value / r.theoretical->value : 0.0);
    }
    for (const auto& r : doc.roofs.memory)
      std::printf("%-22s %-12s %16s %16s %6.1f%%\n", r.level.c_str(),
                  roofline::to_string(r.provenance).c_str(),
                  roofline::format_byte_rate(r.bandwidth).c_str(),
                  r.theoretical ? roofline::format_byte_rate(*r.theoretical).c_str() : "-",
                  r.theoretical ? 100 * r.bandwidth.value / r.theoretical->value : 0.0);
    std::printf("measurement time: %.1f s\n", seconds);
    if (!json_path.empty()) {
      roofline::write_file_atomic(json_path, roofline::machine_to_json(doc).dump(2) + "\n");
      std::printf("wrote %s\n", json_path.c_str());
    }
  } catch (const roofline::Unavailable& e) {
    std::fprintf(stderr, "cuda_roofs: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuda_roofs: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
