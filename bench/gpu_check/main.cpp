// roofline_gpu_check: the measuring program of the GPU acceptance check (bench/gpu_h200_check.sh,
// docs/cuda.md "On a GPU"). Built on its own (bench/gpu_check/CMakeLists.txt) from the CUDA
// backend and the library's core, with nothing a machine holding only the NVIDIA driver and the
// CUDA toolkit lacks.
//
//   roofline_gpu_check [--quick] [--device N] [--records FILE] [--json FILE]
//                      [--targets h200|bounds] [--deadline S]
//   roofline_gpu_check --probe [--device N]     the build, the device, the libraries found
//   roofline_gpu_check --report FILE [--targets h200|bounds]   judge a record file again
//
// Measuring writes each result to the record file (JSON lines) as soon as it is measured, then
// the machine document (--json), then the check's table. Exit status: 0 every check passed,
// 1 a check failed, 2 bad usage or input, 3 no GPU (nothing measured), 4 the measurement failed
// (what was measured before is in the record file and the table).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "measure/cuda/check.hpp"
#include "measure/cuda/device/libraries.hpp"
#include "roofline/cuda.hpp"
#include "roofline/io.hpp"
#include "roofline/sanitize.hpp"

#ifndef ROOFLINE_GPU_CHECK_BUILD
#define ROOFLINE_GPU_CHECK_BUILD "unknown build"
#endif

namespace {

using namespace roofline;
namespace check = roofline::cuda::check;

constexpr int kPass = 0, kFail = 1, kUsage = 2, kNoGpu = 3, kMeasureFailed = 4;

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--quick] [--device N] [--records FILE] [--json FILE] "
               "[--targets h200|bounds] [--deadline S]\n"
               "       %s --probe [--device N]\n"
               "       %s --report FILE [--targets h200|bounds]\n",
               argv0, argv0, argv0);
  return kUsage;
}

bool no_device(const std::string& status) {
  return status.rfind("no CUDA device", 0) == 0 || status.rfind("CUDA not compiled in", 0) == 0;
}

void print_libraries() {
  const nlohmann::json libs = cuda::libs::describe();
  for (const auto& [name, l] : libs.items()) {
    if (l.contains("path"))
      std::printf("  %-9s %s\n", name.c_str(), l["path"].get<std::string>().c_str());
    else
      std::printf("  %-9s not loaded: %s\n", name.c_str(),
                  l.value("reason", std::string("unknown")).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  cuda::Options options;
  std::string records_path, json_path, report_path, targets_name = "h200";
  bool probe = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--quick") {
      options.quick = true;
    } else if (a == "--probe") {
      probe = true;
    } else if (a == "--device" || a == "--records" || a == "--json" || a == "--report" ||
               a == "--targets" || a == "--deadline") {
      const char* v = value();
      if (!v) return usage(argv[0]);
      if (a == "--device") {
        char* end = nullptr;
        const long d = std::strtol(v, &end, 10);
        if (!end || *end || d < 0 || d > 1024) {
          std::fprintf(stderr, "roofline_gpu_check: --device: not a device ordinal: %s\n",
                       roofline::terminal_safe(v).c_str());
          return kUsage;
        }
        options.device = static_cast<int>(d);
      } else if (a == "--deadline") {
        char* end = nullptr;
        options.deadline_s = std::strtod(v, &end);
        if (!end || *end || !(options.deadline_s >= 0)) {
          std::fprintf(stderr, "roofline_gpu_check: --deadline: not a number of seconds: %s\n",
                       roofline::terminal_safe(v).c_str());
          return kUsage;
        }
      } else if (a == "--records") {
        records_path = v;
      } else if (a == "--json") {
        json_path = v;
      } else if (a == "--report") {
        report_path = v;
      } else {
        targets_name = v;
      }
    } else {
      return usage(argv[0]);
    }
  }
  check::Targets targets;
  if (targets_name == "h200") {
    targets = check::h200_targets();
  } else if (targets_name == "bounds") {
    targets = check::bounds_only();
  } else {
    std::fprintf(stderr, "roofline_gpu_check: --targets: h200 or bounds, not %s\n",
                 roofline::terminal_safe(targets_name).c_str());
    return kUsage;
  }

  if (!report_path.empty()) {
    try {
      const check::RecordFile f = check::read_records(report_path);
      check::Verdict v = check::judge(f.records, targets);
      if (f.truncated) v.notes.push_back(*f.truncated);
      std::fputs(check::render(v).c_str(), stdout);
      return v.pass() ? kPass : kFail;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "roofline_gpu_check: %s\n", roofline::terminal_safe(e.what()).c_str());
      return kUsage;
    }
  }

  std::printf("roofline_gpu_check: CUDA backend on (%s; CUDA runtime linked statically)\n",
              ROOFLINE_GPU_CHECK_BUILD);
  const std::string status = cuda::status(options.device);
  std::printf("device: %s\n", status.c_str());
  std::fflush(stdout);
  if (probe) {
    std::printf("libraries:\n");
    print_libraries();
    return no_device(status) ? kNoGpu : kPass;
  }

  // Records go to the file as they come, and to memory for the check at the end.
  std::unique_ptr<check::RecordWriter> writer;
  std::vector<nlohmann::json> records;
  try {
    if (!records_path.empty()) writer = std::make_unique<check::RecordWriter>(records_path);
    if (!json_path.empty()) check_writable_path(json_path, "--json");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roofline_gpu_check: %s\n", roofline::terminal_safe(e.what()).c_str());
    return kUsage;
  }
  auto keep = [&](const nlohmann::json& r) {
    records.push_back(r);
    if (writer) writer->write(r);
  };
  keep({{"record", "start"},
        {"program", "roofline_gpu_check"},
        {"build", ROOFLINE_GPU_CHECK_BUILD},
        {"quick", options.quick},
        {"deadline_s", options.deadline_s}});
  if (no_device(status)) {
    keep({{"record", "error"}, {"what", "no GPU: " + status}});
    std::printf("roofline_gpu_check: no GPU, nothing measured: %s\n", status.c_str());
    return kNoGpu;
  }
  std::printf("libraries:\n");
  print_libraries();
  std::fflush(stdout);

  const auto start = std::chrono::steady_clock::now();
  options.progress = [&](double f, const std::string& what) {
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "[%6.1f s %3.0f%%] %s\n", t, 100 * f, what.c_str());
  };
  options.record = keep;
  int rc = kPass;
  try {
    const MachineDocument doc = cuda::measure(options);
    if (!json_path.empty()) {
      write_file_atomic(json_path, machine_to_json(doc).dump(2) + "\n");
      std::printf("wrote %s\n", json_path.c_str());
    }
  } catch (const Unavailable& e) {
    keep({{"record", "error"}, {"what", std::string("no GPU: ") + e.what()}});
    std::printf("roofline_gpu_check: no GPU, nothing measured: %s\n", e.what());
    return kNoGpu;
  } catch (const std::exception& e) {
    try {
      keep({{"record", "error"}, {"what", e.what()}});
    } catch (const std::exception&) {
    }
    std::fprintf(stderr, "roofline_gpu_check: the measurement failed: %s\n", e.what());
    rc = kMeasureFailed;
  }
  if (!records_path.empty()) std::printf("records: %s\n", records_path.c_str());
  const check::Verdict v = check::judge(records, targets);
  std::fputs(check::render(v).c_str(), stdout);
  if (rc == kPass && !v.pass()) rc = kFail;
  return rc;
}
