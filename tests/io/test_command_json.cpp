// The JSON forms `roofline kernel --json` and `roofline energy --json` take from io: the kernel's
// count with its data type, parameters and placement, and this machine's power interface.
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

}  // namespace ROOFLINE_UNITY_ID
