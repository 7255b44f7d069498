// The CUDA backend's entry points (roofline/cuda.hpp) when CUDA is compiled in: device
// discovery, the measurement plan with its time budget, and the memory and CUDA-core parts
// (the tensor-core part is gemm.cpp). Every rate is amount / time, with the amount from the
// kernel's declaration in kernels.cuh.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "measure/cuda/device/gemm.hpp"
#include "measure/cuda/device/kernels.cuh"
#include "measure/cuda/device/nvml.hpp"
#include "measure/cuda/device/runtime.hpp"
#include "measure/cuda/internal.hpp"
#include "roofline/cuda.hpp"
#include "roofline/quantity.hpp"

namespace roofline::cuda {

namespace {

using Clock = std::chrono::steady_clock;

std::string error_message(cudaError_t e) {
  return detail::no_device_message(cudaGetErrorName(e), cudaGetErrorString(e));
}

/// The device count, or Unavailable with the runtime's reason.
int device_count() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear it, so later calls start clean
    throw Unavailable(error_message(e));
  }
  if (n <= 0) throw Unavailable("no CUDA device: the driver reports none");
  return n;
}

int attribute(cudaDeviceAttr a, int device) {
  int v = 0;
  rt::check(cudaDeviceGetAttribute(&v, a, device), "reading a device attribute");
  return v;
}

DeviceProps read_props(int device) {
  const int n = device_count();
  if (device < 0 || device >= n)
    throw Unavailable("no CUDA device " + std::to_string(device) + ": the driver reports " +
                      std::to_string(n) + " device(s), numbered 0 to " + std::to_string(n - 1));
  cudaDeviceProp p{};
  rt::check(cudaGetDeviceProperties(&p, device), "reading device properties");
  DeviceProps d;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  // kHz in CUDA's attributes.
  d.sm_clock_hz = 1e3 * attribute(cudaDevAttrClockRate, device);
  d.mem_clock_hz = 1e3 * attribute(cudaDevAttrMemoryClockRate, device);
  d.bus_width_bits = p.memoryBusWidth;
  d.l2_bytes = p.l2CacheSize;
  d.memory_bytes = static_cast<double>(p.totalGlobalMem);
  d.shared_per_sm_bytes = static_cast<double>(p.sharedMemPerMultiprocessor);
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) == cudaSuccess) d.pci_bus_id = bus;
  return d;
}

std::string describe(const DeviceProps& d, int device) {
  return d.name + " (cuda:" + std::to_string(device) + ", sm_" + std::to_string(d.cc_major) +
         std::to_string(d.cc_minor) + ", " + std::to_string(d.sm_count) + " SMs, " +
         format_bytes(Bytes(d.memory_bytes)) + ")";
}

/// Time budget of each part in seconds (docs/cuda.md): the whole measurement stays ≤ 60 s.
struct Part {
  const char* name;
  double budget_s;
  double weight;  ///< share of the progress bar
};
constexpr Part kParts[] = {{"device and context", 3, 0.03},
                           {"working-set sweep (L2, HBM)", 10, 0.17},
                           {"HBM copy and triad", 4, 0.08},
                           {"L1 and shared memory", 2, 0.04},
                           {"CUDA-core FMA (fp64, fp32, fp16)", 4, 0.08},
                           {"tensor-core GEMM sweeps (cuBLASLt)", 35, 0.58},
                           {"clocks (NVML)", 2, 0.02}};

class Run {
 public:
  Run(const Options& o, const DeviceProps& p) : opt_(o), props_(p) {
    target_s_ = o.quick ? 0.01 : 0.02;
    reps_ = o.quick ? 3 : 5;
    // Persistent grids: as many 256-thread blocks as the SMs hold at once.
    blocks_per_sm_ = std::max(1, p.max_threads_per_sm / 256);
    full_grid_ = p.sm_count * blocks_per_sm_;
    sink_ = std::make_unique<rt::Buffer>(static_cast<size_t>(full_grid_) * 256 * sizeof(double),
                                         "result sink");
  }

  void progress(double f, const std::string& what) const {
    if (opt_.progress) opt_.progress(std::clamp(f, 0.0, 1.0), what);
  }

  /// Starts part i; returns the fraction done before it.
  void begin(size_t i) {
    end_part();
    part_ = i;
    part_start_ = Clock::now();
    progress(done_, kParts[i].name);
  }
  void end_part() {
    if (part_ == npos) return;
    const double s = std::chrono::duration<double>(Clock::now() - part_start_).count();
    parts_.push_back(
        {{"part", kParts[part_].name}, {"seconds", s}, {"budget_s", kParts[part_].budget_s}});
    done_ += kParts[part_].weight;
    part_ = npos;
  }

  kern::Launch launch(int grid, int block = 256) const { return {grid, block, timer_.stream()}; }
  float* sink_f() const { return sink_->as<float>(); }
  double* sink_d() const { return sink_->as<double>(); }

  void memory(Measurements& m) {
    size_t free_b = 0, total_b = 0;
    rt::check(cudaMemGetInfo(&free_b, &total_b), "reading free device memory");
    const double usable = 0.6 * static_cast<double>(free_b);

    begin(1);
    const std::vector<double> sizes = detail::sweep_sizes(opt_.quick, props_.l2_bytes, usable);
    if (sizes.empty()) throw Error("not enough free device memory for the bandwidth sweep");
    const size_t top_vec = static_cast<size_t>(sizes.back()) / 16;
    rt::Buffer data(top_vec * 16, "bandwidth sweep");
    kern::fill_f32(data.as<float>(), top_vec * 4, 7, 0, 1, launch(1024));
    std::vector<double> l2_best, hbm_rates;
    double l2_best_median = 0;
    for (double ws : sizes) {
      const size_t n = static_cast<size_t>(ws) / 16;
      const int grid = static_cast<int>(
          std::min<size_t>(static_cast<size_t>(full_grid_), std::max<size_t>(1, n / 256)));
      const rt::Rates r = rt::timed_rates(
          timer_, 1, 1 << 20, target_s_, reps_,
          [&](long passes) { return 16.0 * static_cast<double>(n) * static_cast<double>(passes); },
          [&](long passes) {
            kern::read_l2(data.as<float4>(), n, static_cast<int>(passes), sink_f(), -1.0f,
                          launch(grid));
          },
          "read sweep " + format_bytes(Bytes(ws)));
      const double median = rate_statistics(r.rates).median;
      m.working_set_sweep.push_back({ws, median});
      // L2: working sets within half the L2 (on parts with a split L2 each half serves its own
      // SMs first) — the fastest of them.
      if (ws <= props_.l2_bytes / 2 && median > l2_best_median) {
        l2_best_median = median;
        l2_best = r.rates;
      }
      if (ws == sizes.back()) hbm_rates = r.rates;
      progress(done_ + kParts[1].weight * static_cast<double>(m.working_set_sweep.size()) /
                           static_cast<double>(sizes.size()),
               kParts[1].name);
    }
    const std::string dram = dram_level_name(props_.bus_width_bits);
    if (!l2_best.empty())
      m.memory.push_back({"L2",
                          "cache",
                          "read kernel, ld.global.cg (L2 only), working set ≤ L2/2",
                          props_.l2_bytes,
                          "load",
                          {{"load", l2_best}}});
    else
      m.unavailable.push_back("L2: no working set of the sweep fits in half the L2");

    begin(2);
    // STREAM copy and triad over arrays as large as the sweep's largest working set allows.
    const size_t each_vec = std::min(top_vec, static_cast<size_t>(usable / 3) / 16);
    const int grid = full_grid_;
    rt::Buffer b(each_vec * 16, "copy/triad b"), c(each_vec * 16, "copy/triad c");
    kern::fill_f32(b.as<float>(), each_vec * 4, 8, 0, 1, launch(1024));
    kern::fill_f32(c.as<float>(), each_vec * 4, 9, 0, 1, launch(1024));
    const double vec = static_cast<double>(each_vec);
    const rt::Rates copy = rt::timed_rates(
        timer_, 1, 1000, target_s_, reps_,
        [&](long k) { return 32.0 * vec * static_cast<double>(k); },
        [&](long k) {
          for (long i = 0; i < k; ++i)
            kern::copy(b.as<float4>(), data.as<float4>(), each_vec, launch(grid));
        },
        "copy");
    const rt::Rates triad = rt::timed_rates(
        timer_, 1, 1000, target_s_, reps_,
        [&](long k) { return 48.0 * vec * static_cast<double>(k); },
        [&](long k) {
          for (long i = 0; i < k; ++i)
            kern::triad(data.as<float4>(), b.as<float4>(), c.as<float4>(), 0.5f, each_vec,
                        launch(grid));
        },
        "triad");
    m.memory.push_back({dram,
                        "memory",
                        "read kernel (ld.global.cg) over " + format_bytes(Bytes(sizes.back())) +
                            "; copy and triad (STREAM) over " + format_bytes(Bytes(vec * 16)) +
                            " arrays; bytes named by the kernels",
                        props_.memory_bytes,
                        "load",
                        {{"load", hbm_rates}, {"copy", copy.rates}, {"triad", triad.rates}}});
  }

  void near_memory(Measurements& m) {
    begin(3);
    const int l1_grid = props_.sm_count * 4;  // 4 × 16 KiB tiles per SM: fits every L1
    const size_t tile_bytes = size_t{kern::kL1Block} * kern::kL1VecPerThread * 16;
    rt::Buffer tiles(static_cast<size_t>(l1_grid) * tile_bytes, "L1 tiles");
    kern::fill_f32(tiles.as<float>(), tiles.bytes() / 4, 10, 0, 1, launch(1024));
    const rt::Rates l1 = rt::timed_rates(
        timer_, 16, 1 << 24, target_s_, reps_,
        [&](long passes) {
          return static_cast<double>(l1_grid) * static_cast<double>(tile_bytes) *
                 static_cast<double>(passes);
        },
        [&](long passes) {
          kern::read_l1(tiles.as<float4>(), static_cast<int>(passes), sink_f(), -1.0f,
                        launch(l1_grid));
        },
        "L1 read");
    m.memory.push_back({"L1",
                        "cache",
                        "read kernel, ld.global.ca, 16 KiB tile per block re-read",
                        std::nullopt,
                        "load",
                        {{"load", l1.rates}}});
    const rt::Rates shared = rt::timed_rates(
        timer_, 16, 1 << 24, target_s_, reps_,
        [&](long passes) {
          return static_cast<double>(full_grid_) * 256.0 * 16.0 * kern::kSharedVecPerPass *
                 static_cast<double>(passes);
        },
        [&](long passes) {
          kern::read_shared(static_cast<int>(passes), sink_f(), -1.0f, launch(full_grid_));
        },
        "shared-memory read");
    m.memory.push_back({"shared",
                        "cache",
                        "shared-memory read kernel, 128-bit conflict-free loads",
                        std::nullopt,
                        "load",
                        {{"load", shared.rates}}});
  }

  void cuda_cores(Measurements& m, nlohmann::json& under_load) {
    begin(4);
    const double threads = static_cast<double>(full_grid_) * 256.0;
    const double chains = kern::kFmaChains;
    const double compute_target = opt_.quick ? 0.02 : 0.05;
    auto run = [&](const char* precision, double flop_per_fma, auto enqueue) {
      const rt::Rates r = rt::timed_rates(
          timer_, 256, 1 << 30, compute_target, reps_,
          [&](long iters) { return threads * chains * flop_per_fma * static_cast<double>(iters); },
          enqueue, std::string(precision) + " FMA");
      ComputeResult c;
      c.precision = precision;
      c.unit = "cuda cores";
      c.method = std::string("FMA kernel, ") + std::to_string(kern::kFmaChains) +
                 " independent chains per thread, " + std::to_string(full_grid_) + " × 256 threads";
      if (std::string(precision) == "fp16") c.method += ", half2 (__hfma2)";
      c.best_rates = r.rates;
      m.compute.push_back(c);
      return r;
    };
    run("fp64", 2, [&](long it) {
      kern::fma_f64(static_cast<int>(it), sink_d(), -1e300, launch(full_grid_));
    });
    const rt::Rates f32 = run("fp32", 2, [&](long it) {
      kern::fma_f32(static_cast<int>(it), sink_f(), -1e30f, launch(full_grid_));
    });
    run("fp16", 4, [&](long it) {
      kern::fma_f16x2(static_cast<int>(it), sink_f(), -1e30f, launch(full_grid_));
    });
    // Clocks under load: a ~0.4 s fp32 FMA run, sampled by NVML in its middle.
    const long iters = std::max(1L, static_cast<long>(static_cast<double>(f32.scale) * 0.4 /
                                                      std::max(1e-6, f32.seconds_each)));
    kern::fma_f32(static_cast<int>(std::min<long>(iters, 1L << 30)), sink_f(), -1e30f,
                  launch(full_grid_));
    rt::check(cudaGetLastError(), "fp32 FMA (clock sample)");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    under_load = nvml::snapshot(props_.pci_bus_id);
    rt::check(cudaStreamSynchronize(timer_.stream()), "fp32 FMA (clock sample)");
  }

  void tensor(Measurements& m) {
    begin(5);
    size_t free_b = 0, total_b = 0;
    rt::check(cudaMemGetInfo(&free_b, &total_b), "reading free device memory");
    gemm::Config config;
    config.cc_major = props_.cc_major;
    config.cc_minor = props_.cc_minor;
    config.quick = opt_.quick;
    config.max_bytes = 0.5 * static_cast<double>(free_b);
    config.target_s = opt_.quick ? 0.02 : 0.05;
    config.repetitions = reps_;
    const auto names = gemm::tensor_precisions(props_.cc_major, props_.cc_minor);
    size_t k = 0;
    gemm::sweep(config, timer_, m, [&](const std::string& what) {
      progress(done_ + kParts[5].weight * static_cast<double>(k++) /
                           static_cast<double>(std::max<size_t>(1, names.size())),
               what);
    });
  }

  nlohmann::json parts() {
    end_part();
    return parts_;
  }
  void begin_clocks() { begin(6); }

 private:
  static constexpr size_t npos = static_cast<size_t>(-1);
  const Options& opt_;
  const DeviceProps& props_;
  mutable rt::Timer timer_;
  std::unique_ptr<rt::Buffer> sink_;
  double target_s_ = 0.02;
  int reps_ = 5;
  int blocks_per_sm_ = 1;
  int full_grid_ = 1;
  size_t part_ = npos;
  Clock::time_point part_start_;
  double done_ = 0;
  nlohmann::json parts_ = nlohmann::json::array();
};

}  // namespace

bool compiled() {
  return true;
}

std::string status(int device) {
  try {
    return describe(read_props(device), device);
  } catch (const Error& e) {
    return e.what();
  }
}

MachineDocument measure(const Options& options) {
  const auto start = Clock::now();
  const DeviceProps props = read_props(options.device);  // throws Unavailable without a device
  rt::check(cudaSetDevice(options.device), "selecting device " + std::to_string(options.device));
  rt::check(cudaFree(nullptr), "creating the CUDA context");
  const RoofSet theory = theoretical_roofs(props);
  const nlohmann::json before = nvml::snapshot(props.pci_bus_id);

  Measurements m;
  nlohmann::json under_load;
  nlohmann::json parts;
  {
    Run run(options, props);
    run.begin(0);
    run.memory(m);
    run.near_memory(m);
    run.cuda_cores(m, under_load);
    run.tensor(m);
    run.begin_clocks();
    parts = run.parts();
  }
  const nlohmann::json after = nvml::snapshot(props.pci_bus_id);
  const double total_s = std::chrono::duration<double>(Clock::now() - start).count();

  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  nlohmann::json device = {
      {"ordinal", options.device},
      {"name", props.name},
      {"pci_bus_id", props.pci_bus_id},
      {"compute_capability", std::to_string(props.cc_major) + "." + std::to_string(props.cc_minor)},
      {"sm_count", props.sm_count},
      {"sm_clock_hz", props.sm_clock_hz},
      {"mem_clock_hz", props.mem_clock_hz},
      {"bus_width_bits", props.bus_width_bits},
      {"l2_bytes", props.l2_bytes},
      {"memory_bytes", props.memory_bytes},
      {"shared_per_sm_bytes", props.shared_per_sm_bytes},
      {"max_threads_per_sm", props.max_threads_per_sm},
      {"cuda_driver_version", driver},
      {"cuda_runtime_version", runtime},
      {"clocks", {{"before", before}, {"under_load", under_load}, {"after", after}}},
      {"clock_note",
       "Roofs depend on the clocks the GPU ran at: lock them for reproducible roofs (e.g. "
       "nvidia-smi -lgc <sm MHz> and -lmc, DIGEST §9) and compare clocks.under_load with "
       "sm_clock_hz; power and thermal limits lower the clock under tensor-core load."}};
  nlohmann::json measurement = {{"backend", "cuda"},
                                {"quick", options.quick},
                                {"seconds", total_s},
                                {"budget_s", 60},
                                {"parts", parts}};
  if (total_s > 60) measurement["note"] = "the measurement took longer than its 60 s budget";
  MachineDocument doc = assemble_document(props, theory, m, device, measurement);
  doc.roofs.name = props.name + " (cuda:" + std::to_string(options.device) + ")";
  if (options.progress) options.progress(1.0, "done");
  return doc;
}

}  // namespace roofline::cuda
