// The JSON forms `roofline kernel --json` and `roofline energy --json` take from io: the kernel's
// count with its data type, parameters and placement, this machine's power interface, and the
// energy document.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <map>
#include <string>

#include "core/kernel_counts.hpp"
#include "roofline/energy_catalogue.hpp"
#include "roofline/json_out.hpp"
#include "roofline/kernels.hpp"

using namespace roofline;
using nlohmann::json;

namespace ROOFLINE_UNITY_ID {

using test::gemm_1024_fp32;

const std::map<std::string, double> kSizes{{"k", 1024}, {"m", 1024}, {"n", 1024}};

// Without roofs: the count, "dtype" and "params", as tests/data/golden/kernel-gemm.json has it.
TEST(LeftOutJson, AChartsEntryAndPointsFlaggedOne) {
  const PointLeftOut p{"gemm bf16", "no roof for bf16 tensor",
                       "machine 'v100-sxm2' has no bf16 tensor roof"};
  EXPECT_EQ(left_out_to_json(p), (json{{"name", "gemm bf16"},
                                       {"reason", "no roof for bf16 tensor"},
                                       {"detail", "machine 'v100-sxm2' has no bf16 tensor roof"}}));
  json flagged = left_out_to_json(p, true);
  EXPECT_EQ(flagged.at("not_drawn"), true);
  flagged.erase("not_drawn");
  EXPECT_EQ(flagged, left_out_to_json(p));
}

TEST(KernelResultJson, CountWithItsTypeAndParameters) {
  const json j = kernel_result_to_json(gemm_1024_fp32(), "fp32", kSizes);
  const std::string expected =
      R"j({"blas_level":3,"dtype":"fp32","intensity":170.66666666666666,"kernel":"gemm",)j"
      R"j("note":"","params":{"k":1024.0,"m":1024.0,"n":1024.0},"traffic":12582912.0,)j"
      R"j("traffic_formula":"(m·k + k·n + m·n)·s (A, B read once, C written once) (s = 4 B,)j"
      R"j( fp32)","traffic_write_allocate":16777216.0,"work":2147483648.0,)j"
      R"j("work_formula":"2·m·n·k","work_unit":"FLOP"})j";
  EXPECT_EQ(json_text(j, -1), expected);
  EXPECT_FALSE(j.contains("machine"));
}

// On roofs of 10 TFLOP/s and 1 TB/s: the ridge at 10 FLOP/byte, gemm's I = 170.7 right of it;
// W/π = 2147483648 / 1e13 s, Q/β = 12582912 / 1e12 s. The roof's note under "machine".
TEST(KernelResultJson, PlacedOnRoofsWithTheRoofsNote) {
  const KernelCount k = gemm_1024_fp32();
  ComputeRoof c;
  c.name = "fp32 fma";
  c.precision = "fp32";
  c.peak = WorkRate(1e13);
  MemoryRoof m;
  m.level = "HBM";
  m.bandwidth = ByteRate(1e12);
  const KernelOnMachine placed{"gpu", kernel_on_roofs(k, c, m), "accumulates in fp16"};
  const json j = kernel_result_to_json(k, "fp32", kSizes, placed);
  EXPECT_EQ(j["dtype"], "fp32");
  EXPECT_EQ(j["work"], 2147483648.0);
  const json& on = j.at("machine");
  EXPECT_EQ(on.size(), 9u);
  EXPECT_EQ(on["name"], "gpu");
  EXPECT_EQ(on["compute_roof"], "fp32 fma");
  EXPECT_EQ(on["memory_level"], "HBM");
  EXPECT_DOUBLE_EQ(on["ridge"].get<double>(), 10.0);
  EXPECT_EQ(on["bound"], "compute");
  EXPECT_DOUBLE_EQ(on["attainable"].get<double>(), 1e13);
  EXPECT_DOUBLE_EQ(on["time_bound"].get<double>(), 2147483648 / 1e13);
  EXPECT_DOUBLE_EQ(on["time_no_overlap"].get<double>(), 2147483648 / 1e13 + 12582912 / 1e12);
  EXPECT_EQ(on["note"], "accumulates in fp16");
  // No note, no "note" key: the rest as kernel_on_roofs_to_json writes it.
  const KernelOnMachine plain{"gpu", placed.on, ""};
  const json p = kernel_result_to_json(k, "fp32", kSizes, plain);
  EXPECT_EQ(p["machine"], kernel_on_roofs_to_json(placed.on, "gpu"));
  EXPECT_FALSE(p["machine"].contains("note"));
}

// The power interface: the folder searched, every zone with its five fields, why none.
TEST(PowerInterfaceJson, ZonesAndWhyNone) {
  PowerInterface pi;
  pi.root = "/sys/class/powercap";
  pi.zones.push_back(
      {"intel-rapl:0", "package-0", "/sys/class/powercap/intel-rapl:0", 262143328850, true, ""});
  pi.zones.push_back({"intel-rapl:0:0", "dram", "/sys/class/powercap/intel-rapl:0:0", 0, false,
                      "permission denied (root only)"});
  const std::string expected =
      R"j({"root":"/sys/class/powercap","why_none":"","zones":[)j"
      R"j({"id":"intel-rapl:0","max_energy_range_uj":262143328850,"name":"package-0",)j"
      R"j("readable":true,"why_unreadable":""},)j"
      R"j({"id":"intel-rapl:0:0","max_energy_range_uj":0,"name":"dram",)j"
      R"j("readable":false,"why_unreadable":"permission denied (root only)"}]})j";
  EXPECT_EQ(json_text(power_interface_to_json(pi), -1), expected);
  PowerInterface none;
  none.root = "/tmp/powercap";
  none.why_none = "no RAPL zone (intel-rapl:*) in /tmp/powercap";
  const std::string expected_none =
      R"j({"root":"/tmp/powercap","why_none":"no RAPL zone (intel-rapl:*) in /tmp/powercap",)j"
      R"j("zones":[]})j";
  EXPECT_EQ(json_text(power_interface_to_json(none), -1), expected_none);
}

// A machine of fp32 10 TFLOP/s and HBM 2 TB/s, no power figure; ε_flop 10 pJ, ε_mem 100 pJ/B,
// π0 0; one intensity, 1. Points: "a" (2 GFLOP over 1 GB of HBM with 0.1 J: I = 2, 2e10 FLOP/J,
// against a roof of 1/(1e-11·(1 + 10/2)) = 1.667e10: 1.2 of it, above), "idle" (no energy),
// "l2 only" (no HBM traffic), and a bandwidth run.
EnergyDocument energy_of(bool with_copy) {
  MachineDocument m;
  m.roofs.name = "gpu";
  ComputeRoof fma;
  fma.name = "fp32 fma";
  fma.precision = "fp32";
  fma.peak = WorkRate(1e13);
  m.roofs.compute = {fma};
  MemoryRoof hbm;
  hbm.level = "HBM";
  hbm.bandwidth = ByteRate(2e12);
  MemoryRoof l2;
  l2.level = "L2";
  l2.kind = "cache";
  l2.bandwidth = ByteRate(8e12);
  m.roofs.memory = {hbm, l2};
  m.roofs.default_memory = "HBM";
  EnergyQuery q;
  q.eps_flop = JoulePerWork(1e-11);
  q.eps_mem = JoulePerByte(1e-10);
  q.intensities = {1};
  PointsDocument doc;
  Point a;
  a.name = "a";
  a.work = Work(2e9);
  a.traffic = {{"HBM", Bytes(1e9)}};
  a.time = Seconds(1e-3);
  a.energy = 0.1;
  Point idle = a;
  idle.name = "idle";
  idle.energy = 0;
  Point l2_only = a;
  l2_only.name = "l2 only";
  l2_only.traffic = {{"L2", Bytes(1e9)}};
  doc.points = {a, idle, l2_only};
  if (with_copy) doc.not_points = {{"copy @L1", "no arithmetic, W = 0", "copy @L1: no point"}};
  PowerInterface pi;
  pi.root = "/tmp/powercap";
  pi.why_none = "no RAPL zone";
  return energy_document(m, analyse_energy(m, q), pi, &doc, "p.json");
}

// The analysis's object, the power interface, the points placed and those not placed.
TEST(EnergyDocumentJson, AnalysisInterfaceAndPoints) {
  const EnergyDocument d = energy_of(true);
  // 220 W and 9.091e9 FLOP/J at I = 1, balances 5 and 10, the peak 1e11, "a" at 1.2 of its roof.
  const std::string expected =
      R"j({"compute_roof":"fp32 fma","costs_origin":"given","machine":"gpu","memory_level":"HBM",)j"
      R"j("model":{"at":[{"intensity":1.0,"power":220.00000000000003,"work_per_joule":9090909090.90909}],)j"
      R"j("balance_point":10.000000000000002,"effective_eps_flop":1e-11,"energy_balance":10.000000000000002,)j"
      R"j("eps_flop":1e-11,"eps_mem":1e-10,"peak_work_per_joule":100000000000.0,"pi0":0.0,"time_balance":5.0},)j"
      R"j("points":[{"above_roof":true,"intensity":2.0,"name":"a","roof_work_per_joule":16666666666.666666,)j"
      R"j("share_of_roof":1.2,"work_per_joule":20000000000.0}],)j"
      R"j("points_not_placed":[{"detail":"copy @L1: no point","name":"copy @L1","reason":"no arithmetic, W = 0"}],)j"
      R"j("points_without_energy":["idle"],"points_without_traffic_at_level":["l2 only"],)j"
      R"j("power_interface":{"root":"/tmp/powercap","why_none":"no RAPL zone","zones":[]},)j"
      R"j("schema":"roofline.energy","tdp_bound":null,)j"
      R"j("tdp_bound_why_not":"gpu: no power figure (info.power_w absent)","version":1,"warnings":[]})j";
  EXPECT_EQ(json_text(energy_document_to_json(d), -1), expected);
  // Without bandwidth runs, no "points_not_placed".
  json without = energy_document_to_json(energy_of(false));
  EXPECT_FALSE(without.contains("points_not_placed"));
  json with = energy_document_to_json(d);
  with.erase("points_not_placed");
  EXPECT_EQ(without, with);
  // The analysis alone (Python's energy()): the document less the interface and the points.
  for (const char* key :
       {"power_interface", "points", "points_without_energy", "points_without_traffic_at_level"})
    with.erase(key);
  EXPECT_EQ(with, energy_analysis_to_json(d.analysis));
}

}  // namespace ROOFLINE_UNITY_ID
