// `roofline energy` end to end: the model on given roofs and costs (hand-derived figures as in
// tests/energy/test_energy_model.cpp), the catalogue bound, the power interface, refusals.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::TempDir;
using roofline::test::write_text;

namespace ROOFLINE_UNITY_ID {
const std::string kFixture = std::string(ROOFLINE_TEST_DATA) + "/energy/powercap/intel-1pkg";
// A powercap folder with no RAPL zone (a VM's): "power interface: none" on any machine.
const std::string kNoRapl = std::string(ROOFLINE_TEST_DATA) + "/energy/powercap/no-rapl";

TEST(CliEnergy, AnIntegerRoofIsReadInOp) {
  // a100-80gb's int8 tensor roof, 624 TOP/s: π, ε per OP and OP/J (it printed "624 TFLOP/s
  // (int8 tensor)" and nJ/FLOP). B_τ = 624e12 / 2.039e12 = 306 OP/byte; B_ε = 8 / 1 = 8.
  const auto r = roofline::test::run_cli({"energy", "--hw", "a100-80gb", "--precision", "int8",
                                          "--eps-flop", "1 pJ", "--eps-mem", "8 pJ/B"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("π = 624 TOP/s (int8 tensor)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("time balance B_τ = π/β = 306 OP/byte; energy balance B_ε = ε_mem/ε_flop "
                       "= 8 OP/byte"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("peak 1e+12 OP/J"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FLOP"), std::string::npos) << r.out;
}

TEST(CliEnergy, ModelOnGivenRoofsAndCosts) {
  // π = 100 GFLOP/s, β = 25 GB/s, ε_flop = 100 pJ, ε_mem = 500 pJ/byte, π0 = 10 W:
  // ε̂_flop = 2e-10 J, peak 5e9 FLOP/J, balance point 3 FLOP/byte; at I = 1: 1e9 FLOP/J and
  // 25 W; at I = 8: 8/2.1e-9 FLOP/J and 26.25 W.
  auto r = run_cli({"energy", "--peak", "100G", "--bandwidth", "25G", "--eps-flop", "1e-10",
                    "--eps-mem", "5e-10", "--pi0", "10", "--intensity", "1", "--intensity", "8",
                    "--powercap", kFixture, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const json& m = j["model"];
  EXPECT_DOUBLE_EQ(m["time_balance"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(m["energy_balance"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(m["effective_eps_flop"].get<double>(), 2e-10);
  EXPECT_DOUBLE_EQ(m["balance_point"].get<double>(), 3.0);
  EXPECT_NEAR(m["at"][0]["work_per_joule"].get<double>(), 1e9, 1e-3);
  EXPECT_NEAR(m["at"][0]["power"].get<double>(), 25.0, 1e-9);
  EXPECT_NEAR(m["at"][1]["work_per_joule"].get<double>(), 8 / 2.1e-9, 1e-3);
  EXPECT_NEAR(m["at"][1]["power"].get<double>(), 26.25, 1e-9);
  ASSERT_EQ(j["power_interface"]["zones"].size(), 3u);
  EXPECT_EQ(j["power_interface"]["zones"][0]["name"], "package-0");
  EXPECT_TRUE(j["tdp_bound"].is_null());
  r = run_cli({"energy", "--peak", "100G", "--bandwidth", "25G", "--eps-flop", "1e-10", "--eps-mem",
               "5e-10", "--pi0", "10", "--powercap", kNoRapl});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("balance point (half the peak FLOP/J): I = 3 FLOP/byte"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("power interface: none"), std::string::npos) << r.out;
  // The same costs with their units give the same model: 100 pJ, 62.5 pJ per bit (= 500 pJ per
  // byte), 10 W.
  r = run_cli({"energy", "--peak", "100G", "--bandwidth", "25G", "--eps-flop", "100 pJ",
               "--eps-mem", "62.5 pJ/b", "--pi0", "10 W", "--powercap", kNoRapl, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_DOUBLE_EQ(json::parse(r.out)["model"]["balance_point"].get<double>(), 3.0);
  r = run_cli({"energy", "--peak", "100G", "--bandwidth", "25G", "--eps-flop", "5e-10", "--eps-mem",
               "0.1 nJ/FLOP", "--powercap", kNoRapl});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--eps-mem: unit 'J/FLOP' is an energy per unit of work"), std::string::npos)
      << r.err;
  // A folder the user names must exist: only the default may be missing.
  r = run_cli(
      {"energy", "--peak", "100G", "--bandwidth", "25G", "--powercap", "/no-such-powercap"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--powercap /no-such-powercap: not a folder"), std::string::npos) << r.err;
}

TEST(CliEnergy, CatalogueBoundAndNothingToSay) {
  auto r = run_cli({"energy", "--hw", "a100-80gb", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const json& b = j["tdp_bound"];
  ASSERT_FALSE(b.is_null());
  EXPECT_DOUBLE_EQ(b["power_w"].get<double>(), 400.0);  // the A100 SXM datasheet's TDP
  EXPECT_NE(b["power_source"].get<std::string>().find("datasheet"), std::string::npos);
  EXPECT_DOUBLE_EQ(b["min_work_per_joule"].get<double>() * b["max_joules_per_work"].get<double>(),
                   1.0);
  // No power figure and no costs: unavailable (3), saying why.
  r = run_cli({"energy", "--hw", "apple-m3-max"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("no energy figures"), std::string::npos) << r.err;
  // What the document says of its measurement, and what this machine has now, each named.
  EXPECT_NE(r.err.find("; this machine's power interface, now: "), std::string::npos) << r.err;
  r = run_cli({"energy", "--hw", "a100-80gb", "--eps-flop", "1e-10"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give both --eps-flop"), std::string::npos) << r.err;
  r = run_cli({"energy", "--hw", "a100-80gb", "--eps-flop", "0", "--eps-mem", "1e-10"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("eps_flop"), std::string::npos) << r.err;
  // ε_mem 0 too: it put the balance point at I = 0 and the chart's axis at 1enan.
  r = run_cli({"energy", "--hw", "a100-80gb", "--eps-flop", "1e-12", "--eps-mem", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("eps_mem: expected a finite number > 0 (got 0)"), std::string::npos)
      << r.err;
}
TEST(CliEnergy, APointDrawingFarAboveTheDevicesPowerIsSaid) {
  // 1.2 kJ in 50 ms is 24 kW on a 700 W H100 (34.3x): an energy in the wrong unit (mJ given as
  // J) or of another run, placed without a word. 50 J in 50 ms (1 kW, 1.43x) is within the
  // twice-the-figure margin a short run may reach.
  TempDir dir;
  write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "a", "work": 1e12, "traffic": 1e10, "time": 0.05, "energy": 50},
    {"name": "b", "work": 1e12, "traffic": 1e11, "time": 0.05, "energy": "1.2 kJ"},
    {"name": "c", "work": 1e12, "traffic": {"L2": 1e11}, "time": 0.05, "energy": "1.2 kJ"}]})");
  const auto r = run_cli({"energy", "--hw", "h100-sxm", "--eps-flop", "10 pJ", "--eps-mem",
                          "100 pJ/B", "--points", dir.file("p.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 2u);
  std::vector<std::string> about_points;
  for (const auto& w : j["warnings"])
    if (w.get<std::string>().rfind("point ", 0) == 0) about_points.push_back(w);
  // c, at a level the model does not read (not placed), is said as well.
  ASSERT_EQ(about_points.size(), 2u) << j["warnings"];
  EXPECT_EQ(about_points[0],
            "point 'b': E/T = 1200 J / 50 ms = 24000 W, 34.3x the device's 700 W (info.power_w): "
            "is the energy in J, and of this run?");
  EXPECT_EQ(about_points[1].rfind("point 'c': E/T = 1200 J / 50 ms = 24000 W", 0), 0u);
  EXPECT_EQ(j["points_without_traffic_at_level"], json::array({"c"}));
}

// A run's bandwidth-only records (a copy: W = 0, no point) are listed as not placed, with why,
// in the text and the JSON, as `point --points` lists them (the entry plot's JSON lists under
// not_drawn: its traffic and time none here, the document giving neither).
TEST(CliEnergy, BandwidthRunsOfAPointsDocumentAreSaidNotPlaced) {
  TempDir dir;
  write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "a", "work": 1e12, "traffic": 1e10, "time": 0.05, "energy": 50}],
    "run": {"bandwidth_only": [{"kernel": "copy", "level": "L1", "bandwidth": 2e11},
                               {"kernel": "copy", "level": "DRAM"}]}})");
  const std::vector<std::string> args = {"energy", "--hw",      "h100-sxm",        "--eps-flop",
                                         "10 pJ",  "--eps-mem", "100 pJ/B",        "--powercap",
                                         kNoRapl,  "--points",  dir.file("p.json")};
  const auto t = run_cli(args);
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const std::string l1 = "note: " + dir.file("p.json") +
                         ": copy @L1 does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run "
                         "(Q/T = 200 GB/s), not a point: not placed\n";
  const std::string dram = "note: " + dir.file("p.json") +
                           ": copy @DRAM does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth "
                           "run, not a point: not placed\n";
  EXPECT_NE(t.out.find(l1 + dram), std::string::npos) << t.out;
  // a is placed: 1e12 FLOP / 50 J = 2e10 FLOP/J.
  EXPECT_NE(t.out.find("    a: I = 100 FLOP/byte, 2e+10 FLOP/J measured"), std::string::npos)
      << t.out;
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const auto r = run_cli(json_args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["points"].size(), 1u);
  EXPECT_EQ(j["points_not_placed"],
            json::parse(R"([{"name": "copy @L1", "reason": "no arithmetic, W = 0", "detail":
              "copy @L1 does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run (Q/T = 200 GB/s), not a point",
              "bandwidth_only": true, "traffic": [], "time": null},
              {"name": "copy @DRAM", "reason": "no arithmetic, W = 0", "detail":
              "copy @DRAM does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run, not a point",
              "bandwidth_only": true, "traffic": [], "time": null}])"));
}

TEST(CliEnergy, AMachineMeasuredWithRaplGivesItsOwnCosts) {
  // tests/data/energy/README.md: π0 = 30 W, ε_flop = 1 nJ/FLOP, ε_mem = 1 nJ/byte on π = 96
  // GFLOP/s and β = 20 GB/s. ε̂_flop = 1e-9 + 30/96e9 J; at I = 1 the roofline is memory-bound
  // (I < B_τ = 4.8): T = Q/β, E = W·ε_flop + Q·ε_mem + π0·T, so W/E = 1 / (1e-9 + 1e-9 + 30/20e9)
  // FLOP/J.
  const std::string machine = std::string(ROOFLINE_TEST_DATA) + "/energy/machine-rapl.json";
  auto r = run_cli(
      {"energy", "--machine", machine, "--intensity", "1", "--powercap", kNoRapl, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["costs_origin"], "measured");
  EXPECT_DOUBLE_EQ(j["model"]["eps_flop"].get<double>(), 1e-9);
  EXPECT_DOUBLE_EQ(j["model"]["eps_mem"].get<double>(), 1e-9);
  EXPECT_DOUBLE_EQ(j["model"]["pi0"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(j["model"]["effective_eps_flop"].get<double>(), 1e-9 + 30 / 96e9);
  EXPECT_NEAR(j["model"]["at"][0]["work_per_joule"].get<double>(), 1 / (2e-9 + 30 / 20e9), 1e-3);
  EXPECT_DOUBLE_EQ(j["measured"]["compute_power_w"].get<double>(), 126.0);
  r = run_cli({"energy", "--machine", machine, "--powercap", kNoRapl});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("measured power (RAPL: package-0 (intel-rapl:0)): at rest 30 W (π0), 126 W "
                       "running fp64 avx2 fma, 50 W running DRAM's best mix"),
            std::string::npos)
      << r.out;
  // Costs given on the command line win over the measured ones.
  r = run_cli({"energy", "--machine", machine, "--eps-flop", "2e-10", "--eps-mem", "1e-9",
               "--powercap", kNoRapl, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["costs_origin"], "given");
}

}  // namespace ROOFLINE_UNITY_ID
