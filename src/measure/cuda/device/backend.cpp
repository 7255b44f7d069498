// The CUDA backend's entry points (roofline/cuda.hpp) when CUDA is compiled in: device
// discovery, the measurement plan with its time budget, and the memory and CUDA-core parts
// (the tensor-core part is gemm.cpp). Every rate is amount / time, with the amount from the
// kernel's declaration in kernels.cuh.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <thread>

#include "measure/cuda/device/gemm.hpp"
#include "measure/cuda/device/kernels.cuh"
#include "measure/cuda/device/libraries.hpp"
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
  d.max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, device);
  d.registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, device);
  d.reserved_shared_per_block_bytes = attribute(cudaDevAttrReservedSharedMemoryPerBlock, device);
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
  double weight;      ///< share of the progress bar
  const char* roofs;  ///< what is lost when the part is skipped
};
constexpr Part kParts[] = {
    {"device and context", 3, 0.03, ""},
    {"working-set sweep (L2, HBM)", 10, 0.17, "L2 and HBM"},
    {"HBM copy and triad", 4, 0.08, "HBM copy and triad"},
    {"L1 and shared memory", 2, 0.04, "L1 and shared"},
    {"CUDA-core FMA (fp64, fp32, fp16)", 4, 0.08, "fp64, fp32 and fp16 cuda cores"},
    {"tensor-core GEMM sweeps (cuBLASLt, cuBLAS)", 35, 0.58, "tensor roofs"},
    {"clocks (NVML)", 2, 0.02, ""}};

nlohmann::json stats_json(const Statistics& s) {
  return {{"repetitions", s.repetitions},
          {"median", s.median},
          {"best", s.best},
          {"min", s.min},
          {"max", s.max},
          {"cv", s.cv},
          {"sustained", s.sustained},
          {"noisy", s.noisy}};
}

nlohmann::json clock_json(const std::optional<ClockUnderLoad>& c) {
  if (!c) return nullptr;
  return {{"sm_clock_hz", c->sm_clock_hz}, {"samples", c->samples}, {"load", c->load}};
}

class Run {
 public:
  Run(const Options& o, const DeviceProps& p, const nvml::Session& session, Clock::time_point start)
      : opt_(o), props_(p), sampler_(session), start_(start) {
    target_s_ = o.quick ? 0.01 : 0.02;
    reps_ = o.quick ? 3 : 5;
    // The sink is written only when a kernel's result equals its sentinel (never), at the
    // thread's index: one double for every thread the SMs hold at once, the most any
    // persistent grid has.
    sink_ =
        std::make_unique<rt::Buffer>(static_cast<size_t>(p.sm_count) *
                                         static_cast<size_t>(p.max_threads_per_sm) * sizeof(double),
                                     "result sink");
  }

  void progress(double f, const std::string& what) const {
    if (opt_.progress) opt_.progress(std::clamp(f, 0.0, 1.0), what);
  }
  void record(const nlohmann::json& r) const {
    if (opt_.record) opt_.record(r);
  }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  bool past_deadline() const { return opt_.deadline_s > 0 && elapsed() > opt_.deadline_s; }

  /// Starts part i; false (and the part's roofs listed as not run) once the deadline passed.
  bool begin(size_t i, Measurements& m) {
    end_part();
    if (past_deadline() && kParts[i].roofs[0]) {
      m.unavailable.push_back(std::string(kParts[i].roofs) + ": not run, the run's deadline (" +
                              format_number(opt_.deadline_s) + " s) had passed");
      flush_unavailable(m);
      done_ += kParts[i].weight;
      return false;
    }
    part_ = i;
    part_start_ = Clock::now();
    progress(done_, kParts[i].name);
    return true;
  }
  void end_part() {
    if (part_ == npos) return;
    const double s = std::chrono::duration<double>(Clock::now() - part_start_).count();
    nlohmann::json j = {
        {"part", kParts[part_].name}, {"seconds", s}, {"budget_s", kParts[part_].budget_s}};
    parts_.push_back(j);
    j["record"] = "part";
    j["t"] = elapsed();
    record(j);
    done_ += kParts[part_].weight;
    part_ = npos;
  }
  void flush_unavailable(const Measurements& m) {
    for (; unavailable_sent_ < m.unavailable.size(); ++unavailable_sent_)
      record({{"record", "unavailable"},
              {"what", m.unavailable[unavailable_sent_]},
              {"t", elapsed()}});
  }

  /// A persistent grid for kernel k in blocks of `block` threads: SMs × the blocks the
  /// occupancy API says fit on one SM (recorded with the calculator's figure beside it).
  int grid(kern::Kernel k, int block = 256) {
    kern::Resources r;
    rt::check(kern::occupancy(k, block, &r), "occupancy of a kernel");
    detail::OccupancyInput in;
    in.max_threads_per_sm = props_.max_threads_per_sm;
    in.max_blocks_per_sm = props_.max_blocks_per_sm;
    in.registers_per_sm = props_.registers_per_sm;
    in.shared_per_sm_bytes = props_.shared_per_sm_bytes;
    in.reserved_shared_per_block_bytes = props_.reserved_shared_per_block_bytes;
    in.block_threads = block;
    in.registers_per_thread = r.registers;
    in.shared_per_block_bytes = static_cast<double>(r.shared_bytes);
    int calculated = -1;
    try {
      calculated = detail::occupancy_blocks_per_sm(in);
    } catch (const InputError&) {
    }
    const int g = detail::persistent_grid(props_.sm_count, r.blocks_per_sm, r.name);
    if (!occupancy_.contains(r.name))
      occupancy_[r.name] = {{"block_threads", block},
                            {"registers_per_thread", r.registers},
                            {"shared_bytes", r.shared_bytes},
                            {"blocks_per_sm", r.blocks_per_sm},
                            {"blocks_per_sm_calculated", calculated},
                            {"grid", g}};
    return g;
  }
  const nlohmann::json& occupancy() const { return occupancy_; }

  kern::Launch launch(int grid, int block = 256) const { return {grid, block, timer_.stream()}; }
  float* sink_f() const { return sink_->as<float>(); }
  double* sink_d() const { return sink_->as<double>(); }

  std::optional<ClockUnderLoad> clock(const std::string& load) const {
    return detail::clock_under_load(sampler_.samples(), load);
  }

  /// Records one measured roof with its theory at the clock it ran.
  void record_roof(const std::string& name, bool memory, const std::string& unit,
                   const std::vector<double>& rates, const std::optional<ClockUnderLoad>& clock,
                   const std::optional<EnergyUnderLoad>& energy, const std::string& method,
                   nlohmann::json extra = nlohmann::json::object()) {
    const Statistics s = rate_statistics(rates);
    // The SM clock sets the theory of the compute roofs and of L1 and shared memory; for L2 and
    // DRAM it is only recorded.
    const bool sm_clocked = !memory || name == "L1" || name == "shared";
    nlohmann::json j = {{"record", "roof"},
                        {"name", name},
                        {"kind", memory ? "memory" : "compute"},
                        {"unit", unit},
                        {"rate", roof_rate(s)},
                        {"stats", stats_json(s)},
                        {"method", method},
                        {sm_clocked ? "clock" : "sm_clock_meanwhile", clock_json(clock)},
                        {"t", elapsed()}};
    std::map<std::string, ClockUnderLoad> clocks;
    if (clock && sm_clocked) clocks[name] = *clock;
    const RoofSet theory = theoretical_roofs(props_, clocks);
    if (const ComputeRoof* c = theory.find_compute(name)) {
      j["theory"] = c->peak.value;
      j["formula"] = c->formula;
    } else if (const MemoryRoof* mem = theory.find_memory(name)) {
      j["theory"] = mem->bandwidth.value;
      j["formula"] = mem->formula;
    }
    if (energy)
      j["energy"] = {{"joules", energy->joules},
                     {"seconds", energy->seconds},
                     {"power_w", energy->joules / energy->seconds}};
    for (auto& [k, v] : extra.items()) j[k] = v;
    record(j);
  }

  void memory(Measurements& m) {
    size_t free_b = 0, total_b = 0;
    rt::check(cudaMemGetInfo(&free_b, &total_b), "reading free device memory");
    const double usable = 0.6 * static_cast<double>(free_b);

    const std::vector<double> sizes = detail::sweep_sizes(opt_.quick, props_.l2_bytes, usable);
    if (sizes.empty()) throw Error("not enough free device memory for the bandwidth sweep");
    const size_t top_vec = static_cast<size_t>(sizes.back()) / 16;
    rt::Buffer data(top_vec * 16, "bandwidth sweep");
    const std::string dram = dram_level_name(props_.bus_width_bits);
    if (begin(1, m)) {
      kern::fill_f32(data.as<float>(), top_vec * 4, 7, 0, 1, launch(1024));
      const int read_grid = grid(kern::Kernel::read_l2);
      std::vector<double> l2_best, hbm_rates;
      std::optional<ClockUnderLoad> l2_clock, hbm_clock;
      std::optional<EnergyUnderLoad> l2_energy, hbm_energy;
      double l2_best_median = 0, l2_ws = 0;
      for (double ws : sizes) {
        const size_t n = static_cast<size_t>(ws) / 16;
        const int g = static_cast<int>(
            std::min<size_t>(static_cast<size_t>(read_grid), std::max<size_t>(1, n / 256)));
        const rt::Rates r = rt::timed_rates(
            timer_, 1, 1 << 20, target_s_, reps_,
            [&](long passes) {
              return 16.0 * static_cast<double>(n) * static_cast<double>(passes);
            },
            [&](long passes) {
              kern::read_l2(data.as<float4>(), n, static_cast<int>(passes), sink_f(), -1.0f,
                            launch(g));
            },
            "read sweep " + format_bytes(Bytes(ws)), &sampler_);
        const double median = roof_rate(rate_statistics(r.rates));
        m.working_set_sweep.push_back({ws, median});
        record({{"record", "sweep"}, {"working_set", ws}, {"bandwidth", median}, {"t", elapsed()}});
        // L2: working sets within half the L2 (on parts with a split L2 each half serves its own
        // SMs first) — the fastest of them.
        if (ws <= props_.l2_bytes / 2 && median > l2_best_median) {
          l2_best_median = median;
          l2_best = r.rates;
          l2_ws = ws;
          l2_clock = clock("L2 read, " + format_bytes(Bytes(ws)));
          l2_energy = sampler_.energy();
        }
        if (ws == sizes.back()) {
          hbm_rates = r.rates;
          hbm_clock = clock(dram + " read, " + format_bytes(Bytes(ws)));
          hbm_energy = sampler_.energy();
        }
        progress(done_ + kParts[1].weight * static_cast<double>(m.working_set_sweep.size()) /
                             static_cast<double>(sizes.size()),
                 kParts[1].name);
      }
      if (!l2_best.empty()) {
        const std::string method = "read kernel, ld.global.cg (L2 only), " +
                                   format_bytes(Bytes(l2_ws)) + " working set (≤ L2/2)";
        m.memory.push_back({"L2",
                            "cache",
                            method,
                            props_.l2_bytes,
                            "load",
                            {{"load", l2_best}},
                            l2_clock,
                            l2_energy});
        record_roof("L2", true, "B/s", l2_best, l2_clock, l2_energy, method);
      } else {
        m.unavailable.push_back("L2: no working set of the sweep fits in half the L2");
      }
      hbm_load_ = hbm_rates;
      hbm_clock_ = hbm_clock;
      hbm_energy_ = hbm_energy;
      hbm_ws_ = sizes.back();
    }

    std::vector<double> copy_rates, triad_rates;
    double vec = 0;
    if (begin(2, m)) {
      // STREAM copy and triad over arrays as large as the sweep's largest working set allows.
      const size_t each_vec = std::min(top_vec, static_cast<size_t>(usable / 3) / 16);
      rt::Buffer b(each_vec * 16, "copy/triad b"), c(each_vec * 16, "copy/triad c");
      kern::fill_f32(b.as<float>(), each_vec * 4, 8, 0, 1, launch(1024));
      kern::fill_f32(c.as<float>(), each_vec * 4, 9, 0, 1, launch(1024));
      vec = static_cast<double>(each_vec);
      const int copy_grid = grid(kern::Kernel::copy), triad_grid = grid(kern::Kernel::triad);
      copy_rates =
          rt::timed_rates(
              timer_, 1, 1000, target_s_, reps_,
              [&](long k) { return 32.0 * vec * static_cast<double>(k); },
              [&](long k) {
                for (long i = 0; i < k; ++i)
                  kern::copy(b.as<float4>(), data.as<float4>(), each_vec, launch(copy_grid));
              },
              "copy")
              .rates;
      triad_rates = rt::timed_rates(
                        timer_, 1, 1000, target_s_, reps_,
                        [&](long k) { return 48.0 * vec * static_cast<double>(k); },
                        [&](long k) {
                          for (long i = 0; i < k; ++i)
                            kern::triad(data.as<float4>(), b.as<float4>(), c.as<float4>(), 0.5f,
                                        each_vec, launch(triad_grid));
                        },
                        "triad")
                        .rates;
    }
    if (hbm_load_.empty()) return;
    MemoryResult hbm{dram,
                     "memory",
                     "read kernel (ld.global.cg) over " + format_bytes(Bytes(hbm_ws_)) +
                         (copy_rates.empty() ? std::string()
                                             : "; copy and triad (STREAM) over " +
                                                   format_bytes(Bytes(vec * 16)) + " arrays") +
                         "; bytes named by the kernels",
                     props_.memory_bytes,
                     "load",
                     {{"load", hbm_load_}},
                     hbm_clock_,
                     hbm_energy_};
    nlohmann::json mixes = {{"load", roof_rate(rate_statistics(hbm_load_))}};
    if (!copy_rates.empty()) {
      hbm.mixes.push_back({"copy", copy_rates});
      hbm.mixes.push_back({"triad", triad_rates});
      mixes["copy"] = roof_rate(rate_statistics(copy_rates));
      mixes["triad"] = roof_rate(rate_statistics(triad_rates));
    }
    m.memory.push_back(hbm);
    record_roof(dram, true, "B/s", hbm_load_, hbm_clock_, hbm_energy_, hbm.method,
                {{"mixes", mixes}});
  }

  void near_memory(Measurements& m) {
    if (!begin(3, m)) return;
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
                        launch(l1_grid, kern::kL1Block));
        },
        "L1 read", &sampler_);
    const auto l1_clock = clock("L1 read");
    const std::string l1_method = "read kernel, ld.global.ca, 16 KiB tile per block re-read";
    m.memory.push_back({"L1",
                        "cache",
                        l1_method,
                        std::nullopt,
                        "load",
                        {{"load", l1.rates}},
                        l1_clock,
                        sampler_.energy()});
    record_roof("L1", true, "B/s", l1.rates, l1_clock, m.memory.back().energy, l1_method);

    const int shared_grid = grid(kern::Kernel::read_shared);
    const rt::Rates shared = rt::timed_rates(
        timer_, 16, 1 << 24, target_s_, reps_,
        [&](long passes) {
          return static_cast<double>(shared_grid) * 256.0 * 16.0 * kern::kSharedVecPerPass *
                 static_cast<double>(passes);
        },
        [&](long passes) {
          kern::read_shared(static_cast<int>(passes), sink_f(), -1.0f, launch(shared_grid));
        },
        "shared-memory read", &sampler_);
    const auto shared_clock = clock("shared-memory read");
    const std::string shared_method = "shared-memory read kernel, 128-bit conflict-free loads";
    m.memory.push_back({"shared",
                        "cache",
                        shared_method,
                        std::nullopt,
                        "load",
                        {{"load", shared.rates}},
                        shared_clock,
                        sampler_.energy()});
    record_roof("shared", true, "B/s", shared.rates, shared_clock, m.memory.back().energy,
                shared_method);
  }

  void cuda_cores(Measurements& m) {
    if (!begin(4, m)) return;
    const double compute_target = opt_.quick ? 0.02 : 0.05;
    auto run = [&](const char* precision, double flop_per_fma, kern::Kernel k, auto launcher) {
      const int g = grid(k);
      const double threads = static_cast<double>(g) * 256.0;
      const std::string load = std::string(precision) + " FMA";
      if (std::string(precision) == "fp32") sampler_.want_snapshot();
      const rt::Rates r = rt::timed_rates(
          timer_, 16, 1 << 30, compute_target, reps_,
          [&](long iters) {
            return threads * kern::kFmaPerThreadIter * flop_per_fma * static_cast<double>(iters);
          },
          [&](long iters) { launcher(static_cast<int>(iters), launch(g)); }, load, &sampler_);
      if (std::string(precision) == "fp32") under_load_["fp32 cuda cores"] = sampler_.snapshot();
      ComputeResult c;
      c.precision = precision;
      c.unit = "cuda cores";
      c.method = std::string("FMA kernel, ") + std::to_string(kern::kFmaChains) +
                 " independent chains × " + std::to_string(kern::kFmaSteps) +
                 " steps unrolled per thread, " + std::to_string(g) + " × 256 threads";
      if (std::string(precision) == "fp16") c.method += ", half2 (__hfma2)";
      c.best_rates = r.rates;
      c.clock = clock(load);
      c.energy = sampler_.energy();
      m.compute.push_back(c);
      record_roof(roof_name(c.precision, c.unit), false, "FLOP/s", c.best_rates, c.clock, c.energy,
                  c.method);
    };
    run("fp64", 2, kern::Kernel::fma_f64,
        [&](int it, kern::Launch l) { kern::fma_f64(it, sink_d(), -1e300, l); });
    run("fp32", 2, kern::Kernel::fma_f32,
        [&](int it, kern::Launch l) { kern::fma_f32(it, sink_f(), -1e30f, l); });
    run("fp16", 4, kern::Kernel::fma_f16x2,
        [&](int it, kern::Launch l) { kern::fma_f16x2(it, sink_f(), -1e30f, l); });
  }

  void tensor(Measurements& m) {
    if (!begin(5, m)) return;
    size_t free_b = 0, total_b = 0;
    rt::check(cudaMemGetInfo(&free_b, &total_b), "reading free device memory");
    gemm::Config config;
    config.cc_major = props_.cc_major;
    config.cc_minor = props_.cc_minor;
    config.quick = opt_.quick;
    config.max_bytes = 0.5 * static_cast<double>(free_b);
    config.target_s = opt_.quick ? 0.02 : 0.05;
    config.repetitions = reps_;
    config.sampler = &sampler_;
    const auto names = gemm::tensor_precisions(props_.cc_major, props_.cc_minor);
    size_t k = 0;
    gemm::Callbacks cb;
    cb.progress = [&](const std::string& what) {
      if (what.rfind("bf16", 0) == 0) sampler_.want_snapshot();
      progress(done_ + kParts[5].weight * static_cast<double>(k++) /
                           static_cast<double>(std::max<size_t>(1, names.size())),
               what);
    };
    cb.done = [&](const ComputeResult& c, const std::optional<gemm::Peer>& peer,
                  const std::string& peer_missing) {
      const std::string name = roof_name(c.precision, c.unit);
      if (c.precision == "bf16") under_load_["bf16 tensor"] = sampler_.snapshot();
      nlohmann::json sweep = nlohmann::json::array();
      for (const auto& [size, rate] : c.sweep) sweep.push_back({{"size", size}, {"rate", rate}});
      flush_unavailable(m);
      record_roof(name, false, c.integer ? "OP/s" : "FLOP/s", c.best_rates, c.clock, c.energy,
                  c.method, {{"sweep", sweep}});
      if (peer) {
        const Statistics s = rate_statistics(peer->rates);
        peers_.push_back({{"roof", name},
                          {"peer", peer->method},
                          {"rate", roof_rate(s)},
                          {"stats", stats_json(s)}});
        nlohmann::json j = peers_.back();
        j["record"] = "peer";
        j["t"] = elapsed();
        record(j);
      } else {
        peers_.push_back({{"roof", name}, {"missing", peer_missing}});
        record({{"record", "peer"}, {"roof", name}, {"missing", peer_missing}, {"t", elapsed()}});
      }
    };
    cb.stop = [&] { return past_deadline(); };
    gemm::sweep(config, timer_, m, cb);
    flush_unavailable(m);
  }

  nlohmann::json parts() {
    end_part();
    return parts_;
  }
  bool begin_clocks(Measurements& m) { return begin(6, m); }
  const nlohmann::json& under_load() const { return under_load_; }
  const nlohmann::json& peers() const { return peers_; }

 private:
  static constexpr size_t npos = static_cast<size_t>(-1);
  const Options& opt_;
  const DeviceProps& props_;
  mutable rt::Timer timer_;
  nvml::ClockSampler sampler_;
  Clock::time_point start_;
  std::unique_ptr<rt::Buffer> sink_;
  double target_s_ = 0.02;
  int reps_ = 5;
  size_t part_ = npos;
  Clock::time_point part_start_;
  double done_ = 0;
  size_t unavailable_sent_ = 0;
  std::vector<double> hbm_load_;
  std::optional<ClockUnderLoad> hbm_clock_;
  std::optional<EnergyUnderLoad> hbm_energy_;
  double hbm_ws_ = 0;
  nlohmann::json parts_ = nlohmann::json::array();
  nlohmann::json occupancy_ = nlohmann::json::object();
  nlohmann::json under_load_ = nlohmann::json::object();
  nlohmann::json peers_ = nlohmann::json::array();
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
  const nvml::Session session(props.pci_bus_id);
  const nlohmann::json before = session.snapshot();

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
      {"max_blocks_per_sm", props.max_blocks_per_sm},
      {"registers_per_sm", props.registers_per_sm},
      {"cuda_driver_version", driver},
      {"cuda_runtime_version", runtime},
      {"libraries", libs::describe()}};
  if (options.record) {
    // The device and its theory at the maximum clock, first: a run stopped at any later point
    // still says what it ran on.
    nlohmann::json theory = nlohmann::json::array();
    const RoofSet max_theory = theoretical_roofs(props);
    for (const ComputeRoof& r : max_theory.compute)
      theory.push_back({{"name", r.name},
                        {"unit", r.integer ? "OP/s" : "FLOP/s"},
                        {"rate", r.peak.value},
                        {"formula", r.formula}});
    for (const MemoryRoof& r : max_theory.memory)
      theory.push_back({{"name", r.level},
                        {"unit", "B/s"},
                        {"rate", r.bandwidth.value},
                        {"formula", r.formula}});
    nlohmann::json d = device;
    d["clocks_before"] = before;
    options.record({{"record", "device"}, {"device", d}, {"theory", theory}, {"t", 0.0}});
  }

  // The power at rest (the energy roofline's constant power π0, docs/energy.md): the device
  // idle for a quarter of a second before any kernel runs.
  nlohmann::json energy = {{"available", false}, {"why", session.energy_reason()}};
  if (session.energy_reason().empty()) {
    const auto e0 = session.energy_joules();
    const auto t0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    const auto e1 = session.energy_joules();
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    energy = {{"available", true},
              {"source", "NVML (nvmlDeviceGetTotalEnergyConsumption)"},
              {"device", props.name + " (" + props.pci_bus_id + ")"},
              {"method",
               "the device's energy counter read before and after the timed repetitions of "
               "each roof's best point (measurement.compute[].energy, "
               "measurement.memory.LEVEL.energy: joules, seconds, average power); idle: a "
               "quarter of a second with no kernel running, before the first"},
              {"idle_power_w", e0 && e1 && *e1 >= *e0 && seconds > 0
                                   ? nlohmann::json((*e1 - *e0) / seconds)
                                   : nlohmann::json(nullptr)}};
  }

  if (options.record) options.record({{"record", "energy"}, {"energy", energy}, {"t", 0.0}});

  Measurements m;
  nlohmann::json parts, occupancy, under_load, peers;
  {
    Run run(options, props, session, start);
    run.begin(0, m);
    run.memory(m);
    run.near_memory(m);
    run.cuda_cores(m);
    run.tensor(m);
    run.begin_clocks(m);
    parts = run.parts();
    occupancy = run.occupancy();
    under_load = run.under_load();
    peers = run.peers();
  }
  const nlohmann::json after = session.snapshot();
  const double total_s = std::chrono::duration<double>(Clock::now() - start).count();

  // The theory each roof is judged against: at the SM clock it sustained while measured.
  std::map<std::string, ClockUnderLoad> clocks;
  for (const ComputeResult& c : m.compute)
    if (c.clock) clocks[roof_name(c.precision, c.unit)] = *c.clock;
  for (const MemoryResult& r : m.memory)
    if (r.clock && (r.level == "L1" || r.level == "shared")) clocks[r.level] = *r.clock;
  const RoofSet theory = theoretical_roofs(props, clocks);

  device["clocks"] = {{"before", before}, {"under_load", under_load}, {"after", after}};
  device["clock_note"] =
      "Roofs depend on the clocks the GPU ran at. The backend only reads them (NVML), never "
      "sets them: each compute roof's theory is at the SM clock sampled while it ran "
      "(measurement.clocks_under_load), the maximum being sm_clock_hz. To watch the clocks "
      "yourself: nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,"
      "clocks_event_reasons.active --format=csv -lms 100";
  device["occupancy"] = occupancy;
  nlohmann::json clocks_json = nlohmann::json::object();
  for (const auto& [name, c] : clocks) clocks_json[name] = clock_json(c);
  nlohmann::json measurement = {{"backend", "cuda"},  {"quick", options.quick},
                                {"seconds", total_s}, {"budget_s", 60},
                                {"parts", parts},     {"clocks_under_load", clocks_json},
                                {"peers", peers},     {"energy", energy}};
  if (total_s > 60) measurement["note"] = "the measurement took longer than its 60 s budget";
  MachineDocument doc = assemble_document(props, theory, m, device, measurement);
  doc.roofs.name = props.name + " (cuda:" + std::to_string(options.device) + ")";
  if (options.record) options.record({{"record", "done"}, {"seconds", total_s}, {"t", total_s}});
  if (options.progress) options.progress(1.0, "done");
  return doc;
}

}  // namespace roofline::cuda
