// The CUDA backend without a GPU (and with one): status, measure's refusal, statistics, the
// machine document built from measurements, and the helpers of the measurement plan.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include "cuda/devices.hpp"
#include "measure/cuda/internal.hpp"
#include "roofline/cuda.hpp"
#include "roofline/energy_catalogue.hpp"

using namespace roofline;
using namespace roofline::cuda;

namespace ROOFLINE_UNITY_ID {

bool has_device() {
  // status() names the device when there is one; otherwise it says why not.
  const std::string s = status(0);
  return s.rfind("no CUDA device", 0) != 0 && s.rfind("CUDA not compiled in", 0) != 0;
}

TEST(CudaBackend, StatusSaysWhyThereIsNoDevice) {
  const std::string s = status(0);
  if (!compiled()) {
    EXPECT_EQ(s.rfind("CUDA not compiled in", 0), 0u) << s;
  } else if (!has_device()) {
    EXPECT_EQ(s.rfind("no CUDA device: ", 0), 0u) << s;
    EXPECT_GT(s.size(), std::string("no CUDA device: ").size() + 5) << "the reason is missing";
  } else {
    EXPECT_NE(s.find("(cuda:0, sm_"), std::string::npos) << s;
  }
}

TEST(CudaBackend, MeasureWithoutDeviceThrowsUnavailable) {
  // An ordinal no machine has: Unavailable with or without CUDA, with or without a GPU.
  Options o;
  o.device = 4096;
  try {
    (void)measure(o);
    FAIL() << "expected Unavailable";
  } catch (const Unavailable& e) {
    const std::string m = e.what();
    EXPECT_TRUE(m.find("no CUDA device") == 0 || m.find("CUDA not compiled in") == 0) << m;
    if (compiled() && has_device()) {
      EXPECT_NE(m.find("4096"), std::string::npos) << m;
    }
  }
  if (!has_device()) {
    EXPECT_THROW((void)measure(Options{}), Unavailable);
    EXPECT_EQ(status(4096).rfind(compiled() ? "no CUDA device" : "CUDA not compiled in", 0), 0u);
  }
}

TEST(CudaBackend, NoDeviceMessagesNameTheCause) {
  const std::string m =
      detail::no_device_message("cudaErrorInsufficientDriver",
                                "CUDA driver version is insufficient for CUDA runtime version");
  EXPECT_EQ(m.rfind("no CUDA device: CUDA driver version is insufficient", 0), 0u);
  EXPECT_NE(m.find("no NVIDIA driver"), std::string::npos);
  EXPECT_NE(detail::no_device_message("cudaErrorNoDevice", "no CUDA-capable device is detected")
                .find("CUDA_VISIBLE_DEVICES"),
            std::string::npos);
}

TEST(CudaBackend, RateStatistics) {
  const Statistics s = rate_statistics({4.0, 1.0, 3.0, 2.0});
  EXPECT_EQ(s.repetitions, 4);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.best, 4.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 4.0);
  // sample stddev of 1..4 = sqrt(5/3), mean 2.5
  EXPECT_NEAR(s.cv, std::sqrt(5.0 / 3.0) / 2.5, 1e-12);
  EXPECT_TRUE(s.noisy);
  const Statistics quiet = rate_statistics({100, 101, 102});
  EXPECT_DOUBLE_EQ(quiet.median, 101);
  EXPECT_FALSE(quiet.noisy);  // spread 2%
  EXPECT_THROW(rate_statistics({}), InputError);
  EXPECT_THROW(rate_statistics({1.0, -2.0}), InputError);
}

TEST(CudaBackend, DocumentPutsMeasuredNextToTheoretical) {
  const DeviceProps p = roofline::test::h200();
  const RoofSet theory = theoretical_roofs(p);

  Measurements m;
  m.compute.push_back({"bf16",
                       "tensor",
                       false,
                       "cuBLASLt matmul",
                       {8.0e14, 8.2e14, 8.1e14},
                       {{"4096³", 7.0e14}, {"8192³", 8.1e14}},
                       std::nullopt});
  m.compute.push_back({"fp32", "cuda cores", false, "FMA kernel", {6.0e13}, {}, std::nullopt});
  m.memory.push_back({"HBM",
                      "memory",
                      "read kernel",
                      std::nullopt,
                      "load",
                      {{"load", {4.3e12, 4.4e12, 4.35e12}}, {"copy", {4.1e12}}},
                      std::nullopt});
  m.working_set_sweep = {{1048576, 9e12}, {1073741824, 4.35e12}};
  m.unavailable = {"fp8-e4m3 tensor: no algorithm"};
  const MachineDocument doc =
      assemble_document(p, theory, m, {{"name", p.name}}, {{"backend", "cuda"}});

  const ComputeRoof* bf16 = doc.roofs.find_compute("bf16 tensor");
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ(bf16->provenance, Provenance::measured);
  // The sustained rate (third-fastest) of the best size's repetitions: the engine's policy.
  EXPECT_DOUBLE_EQ(bf16->peak.value, 8.0e14);
  ASSERT_TRUE(bf16->theoretical.has_value());
  EXPECT_DOUBLE_EQ(bf16->theoretical->value, 132 * 1.98e9 * 4096);
  // Assembled by the engine, as every backend's roofs are: its source line and judgements.
  EXPECT_EQ(bf16->source,
            "roofline measure --device cuda: cuBLASLt matmul, sustained best of 3 "
            "samples");
  // 0.747 of the tensor peak: below 0.92, and the theory names why (a library GEMM).
  EXPECT_NE(bf16->formula.find("132 SMs × 1.98 GHz (maximum, cudaDevAttrClockRate) × 4096 "
                               "FLOP/cycle/SM (sm_90)"),
            std::string::npos)
      << bf16->formula;
  EXPECT_NE(bf16->formula.find("limit: measured through library GEMMs"), std::string::npos);
  ASSERT_TRUE(bf16->stats.has_value());
  EXPECT_EQ(bf16->stats->repetitions, 3);

  // Not measured: kept from theory, marked theoretical.
  const ComputeRoof* fp8 = doc.roofs.find_compute("fp8-e4m3 tensor");
  ASSERT_NE(fp8, nullptr);
  EXPECT_EQ(fp8->provenance, Provenance::theoretical);

  const MemoryRoof* hbm = doc.roofs.find_memory("HBM");
  ASSERT_NE(hbm, nullptr);
  EXPECT_EQ(hbm->provenance, Provenance::measured);
  EXPECT_DOUBLE_EQ(hbm->bandwidth.value, 4.3e12);  // sustained of {4.3, 4.4, 4.35}
  EXPECT_DOUBLE_EQ(hbm->mixes.at("copy"), 4.1e12);
  EXPECT_DOUBLE_EQ(hbm->theoretical->value, 6144.0 / 8 * 3.201e9 * 2);
  EXPECT_EQ(hbm->size_bytes, 141e9);  // from the theory when the measurement gives none
  EXPECT_EQ(hbm->convention, "named");
  EXPECT_EQ(doc.roofs.default_memory, "HBM");
  EXPECT_EQ(doc.roofs.default_compute, "fp32 cuda cores");

  EXPECT_EQ(section_json(doc, "device").at("name"), "NVIDIA H200");
  const nlohmann::json meas = section_json(doc, "measurement");
  EXPECT_EQ(meas.at("working_set_sweep").size(), 2u);
  EXPECT_EQ(meas.at("compute_sweeps").at("bf16 tensor").size(), 2u);
  EXPECT_EQ(meas.at("unavailable").at(0), "fp8-e4m3 tensor: no algorithm");
  // fp32 on the CUDA cores at 6.0e13 of 132 × 1.98 GHz × 256 = 6.69e13 (0.897) with no limit
  // named: the engine says the kernel or the table is wrong, as it would for a CPU roof.
  bool fp32_judged = false;
  for (const auto& w : meas.at("warnings"))
    fp32_judged =
        fp32_judged ||
        (w.get<std::string>().find("fp32 cuda cores: measured 0.897") != std::string::npos &&
         w.get<std::string>().find("(sm_90) is wrong") != std::string::npos);
  EXPECT_TRUE(fp32_judged) << meas.at("warnings").dump();
  EXPECT_EQ(meas.at("compute").size(), 2u);
  EXPECT_EQ(meas.at("memory").at("HBM").at("best_mix"), "load");
  EXPECT_EQ(meas.at("memory").at("HBM").at("planned_mix"), "load");
  EXPECT_EQ(info_json(doc).at("kind"), "gpu");

  // The document round-trips through the machine schema.
  const MachineDocument back = machine_from_json(machine_to_json(doc), "cuda.json");
  EXPECT_DOUBLE_EQ(back.roofs.find_compute("bf16 tensor")->peak.value, 8.0e14);
  EXPECT_EQ(back.sections.count("device"), 1u);
}

TEST(CudaBackend, MeasurementPlanHelpers) {
  // GEMM sizes keep A, B and D within the memory allowed.
  EXPECT_EQ(detail::gemm_sizes(false, 2, 2, 1e12), (std::vector<int>{4096, 8192, 16384}));
  EXPECT_EQ(detail::gemm_sizes(true, 2, 2, 1e12), (std::vector<int>{4096, 8192}));
  // 8192² × (2 + 2 + 2) bytes = 402.7 MB fits 500 MB; 16384² × 6 = 1.6 GB does not.
  EXPECT_EQ(detail::gemm_sizes(false, 2, 2, 500e6), (std::vector<int>{4096, 8192}));
  EXPECT_TRUE(detail::gemm_sizes(false, 8, 8, 1e6).empty());
  // The sweep spans L2 and well beyond it.
  const double mib = 1024.0 * 1024;
  const auto s = detail::sweep_sizes(false, 50 * mib, 1e12);
  EXPECT_EQ(s.front(), mib);
  EXPECT_EQ(s.back(), 1024 * mib);
  EXPECT_EQ(s.size(), 11u);
  EXPECT_EQ(detail::sweep_sizes(true, 50 * mib, 1e12).back(), 256 * mib);
  EXPECT_EQ(detail::sweep_sizes(false, 50 * mib, 100 * mib).back(), 64 * mib);
  // NVML clock event reasons.
  EXPECT_EQ(detail::clock_event_names(0x4 | 0x40),
            (std::vector<std::string>{"software power cap", "hardware thermal slowdown"}));
  EXPECT_EQ(detail::clock_event_names(uint64_t{1} << 12), (std::vector<std::string>{"0x1000"}));
  EXPECT_TRUE(detail::clock_event_names(0).empty());
}

TEST(CudaBackend, NvmlEnergyGivesTheEnergyRoofline) {
  // The GPU path reads NVML's energy counter around each roof's timed repetitions and for a
  // quarter of a second at rest; the document carries them where the energy analysis reads
  // every backend's (docs/energy.md). Figures by hand: π0 = 100 W at rest; the fp32 FMA kernel
  // 350 J over 0.5 s = 700 W at 6.0e13 FLOP/s, so ε_flop = (700 − 100) / 6e13 = 10 pJ/FLOP;
  // the HBM read 200 J over 0.5 s = 400 W at 4.3e12 B/s, ε_mem = 300 / 4.3e12 J/B.
  const DeviceProps p = roofline::test::h200();
  Measurements m;
  m.compute.push_back({"fp32",
                       "cuda cores",
                       false,
                       "FMA kernel",
                       {6.0e13},
                       {},
                       std::nullopt,
                       EnergyUnderLoad{350, 0.5}});
  m.memory.push_back({"HBM",
                      "memory",
                      "read kernel",
                      std::nullopt,
                      "load",
                      {{"load", {4.3e12, 4.4e12, 4.35e12}}},
                      std::nullopt,
                      EnergyUnderLoad{200, 0.5}});
  const nlohmann::json energy = {{"available", true},
                                 {"source", "NVML (nvmlDeviceGetTotalEnergyConsumption)"},
                                 {"device", "NVIDIA H200 (00000000:19:00.0)"},
                                 {"idle_power_w", 100.0}};
  const MachineDocument doc = assemble_document(p, theoretical_roofs(p), m, {{"name", p.name}},
                                                {{"backend", "cuda"}, {"energy", energy}});
  const nlohmann::json detail = section_json(doc, "measurement");
  std::string why;
  const auto e = measured_energy(doc, &why);
  ASSERT_TRUE(e) << why << "\n" << detail.dump(1);
  EXPECT_EQ(e->compute_roof, "fp32 cuda cores");
  EXPECT_EQ(e->memory_level, "HBM");
  EXPECT_DOUBLE_EQ(e->compute_power_w, 700);
  EXPECT_DOUBLE_EQ(e->memory_power_w, 400);
  EXPECT_DOUBLE_EQ(e->costs.pi0, 100);
  EXPECT_NEAR(e->costs.eps_flop, 1e-11, 1e-24);
  EXPECT_NEAR(e->costs.eps_mem, 300 / 4.3e12, 1e-24);
  EXPECT_EQ(e->source, "NVML: NVIDIA H200 (00000000:19:00.0)");
  // Without the counter, the reason NVML gave is what the analysis says.
  const MachineDocument none = assemble_document(
      p, theoretical_roofs(p), m, {{"name", p.name}},
      {{"backend", "cuda"},
       {"energy", {{"available", false}, {"why", "NVML not loadable: libnvidia-ml.so.1"}}}});
  EXPECT_FALSE(measured_energy(none, &why));
  EXPECT_NE(why.find("NVML not loadable"), std::string::npos) << why;
}
}  // namespace ROOFLINE_UNITY_ID
