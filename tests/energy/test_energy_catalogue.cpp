// The TDP bound of the energy roofline, from catalogue entries (their power figure and source).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "roofline/energy_catalogue.hpp"
#include "roofline/error.hpp"

using namespace roofline;

TEST(EnergyCatalogue, TdpBoundFromTheCatalogueWithItsSource) {
  const MachineDocument m = resolve_machine("a100-80gb");
  const nlohmann::json info = info_json(m);
  ASSERT_TRUE(info.contains("power_w"));
  const double w = info["power_w"].get<double>();
  const ComputeRoof& c = m.roofs.select_compute("");
  const MemoryRoof& mem = m.roofs.select_memory("");
  std::string why;
  const auto b = tdp_energy_bound(m, &why);
  ASSERT_TRUE(b) << why;
  EXPECT_DOUBLE_EQ(b->power_w, w);
  EXPECT_EQ(b->power_source, info["power_source"].get<std::string>());
  EXPECT_NE(b->power_source.find("datasheet"), std::string::npos) << b->power_source;
  EXPECT_EQ(b->compute_roof, c.name);
  // TDP/π J per FLOP, TDP/β J per byte, π/TDP FLOP per J.
  EXPECT_DOUBLE_EQ(b->max_joules_per_work, w / c.peak.value);
  EXPECT_DOUBLE_EQ(b->max_joules_per_byte, w / mem.bandwidth.value);
  EXPECT_DOUBLE_EQ(b->min_work_per_joule, c.peak.value / w);
  // At the roof asked for (`roofline energy --precision bf16`), not the default one: 400 W at
  // 312 TFLOP/s dense BF16 is at most 1.28 pJ per FLOP.
  const auto bf16 = tdp_energy_bound(m, &why, "bf16");
  ASSERT_TRUE(bf16) << why;
  const ComputeRoof& t = m.roofs.select_compute("bf16");
  EXPECT_EQ(bf16->compute_roof, t.name);
  EXPECT_GT(t.peak.value, c.peak.value);
  EXPECT_DOUBLE_EQ(bf16->max_joules_per_work, w / t.peak.value);
  const auto analysis = analyse_energy(m, EnergyQuery{"bf16", "", {}, {}, {}, {}});
  ASSERT_TRUE(analysis.bound);
  EXPECT_EQ(analysis.bound->compute_roof, t.name);
  EXPECT_EQ(analysis.compute_roof, t.name);
}

TEST(EnergyCatalogue, CostsDrawingMoreThanThePowerFigureAreSaid) {
  // h100-sxm (700 W, fp32 vector 66.9 TFLOP/s, HBM3 3.35 TB/s) with 10 pJ/FLOP, 100 pJ/B and
  // 100 W: at I = B_τ the model draws 66.9e12·1e-11 + 3.35e12·1e-10 + 100 = 1104 W, which the
  // output printed beside the 700 W figure without a word.
  const MachineDocument m = resolve_machine("h100-sxm");
  EnergyQuery q;
  q.eps_flop = JoulePerWork(10e-12);
  q.eps_mem = JoulePerByte(100e-12);
  q.pi0 = Watt(100);
  const auto hot = analyse_energy(m, q);
  ASSERT_TRUE(hot.bound);
  const double pi = m.roofs.select_compute("").peak.value,
               beta = m.roofs.select_memory("").bandwidth.value;
  const double most = pi * 10e-12 + beta * 100e-12 + 100;
  EXPECT_NEAR(most, 1104, 1);
  ASSERT_EQ(hot.warnings.size(), 1u);
  EXPECT_EQ(hot.warnings[0].rfind("the costs draw up to 1104 W (at I = B_τ", 0), 0u)
      << hot.warnings[0];
  EXPECT_NE(hot.warnings[0].find("above the catalogue's 700 W"), std::string::npos);
  EXPECT_EQ(energy_analysis_to_json(hot)["warnings"].size(), 1u);
  // 1 pJ/FLOP, 10 pJ/B and 100 W: 66.9 + 33.5 + 100 W, within 700 W.
  q.eps_flop = JoulePerWork(1e-12);
  q.eps_mem = JoulePerByte(10e-12);
  const auto cool = analyse_energy(m, q);
  EXPECT_TRUE(cool.warnings.empty());
  EXPECT_TRUE(energy_analysis_to_json(cool)["warnings"].empty());
  // A draw just above the figure is printed apart from it (it read "700 W … above 700 W").
  q.pi0 = Watt(700 - pi * 1e-12 - beta * 10e-12 + 0.01);
  const auto edge = analyse_energy(m, q);
  ASSERT_EQ(edge.warnings.size(), 1u);
  EXPECT_EQ(edge.warnings[0].rfind("the costs draw up to 700 W", 0), std::string::npos)
      << edge.warnings[0];
  EXPECT_EQ(edge.warnings[0].rfind("the costs draw up to 700.0", 0), 0u) << edge.warnings[0];
}

TEST(EnergyCatalogue, NoPowerFigureIsSaidWithTheReason) {
  const MachineDocument m = resolve_machine("apple-m3-max");
  ASSERT_TRUE(info_json(m)["power_w"].is_null());
  std::string why;
  EXPECT_FALSE(tdp_energy_bound(m, &why));
  EXPECT_NE(why.find("no power figure"), std::string::npos) << why;
  EXPECT_NE(why.find("not published"), std::string::npos) << why;
  MachineDocument measured = m;
  set_info(measured, nlohmann::json::object());
  EXPECT_FALSE(tdp_energy_bound(measured, &why));
  EXPECT_NE(why.find("absent"), std::string::npos) << why;
}

// A power figure so small that a bound is no number (1e-300 W: inf FLOP/J, printed "inf") is
// no bound, said with the figure.
TEST(EnergyCatalogue, APowerFigureThatBoundsNothingIsSaid) {
  MachineDocument m = resolve_machine("l4");
  nlohmann::json info = info_json(m);
  info["power_w"] = 1e-300;
  set_info(m, info);
  std::string why;
  EXPECT_FALSE(tdp_energy_bound(m, &why));
  EXPECT_NE(why.find("info.power_w 1e-300 is too far from the roofs for a bound"),
            std::string::npos)
      << why;
  info["power_w"] = 72;
  set_info(m, info);
  EXPECT_TRUE(tdp_energy_bound(m, &why));
}

TEST(EnergyCatalogue, MeasuredPowerGivesTheThreeCostsOfTheEnergyRoofline) {
  // tests/data/energy/README.md: π0 = 30 W; ε_flop = (126 − 30) W / 96 GFLOP/s = 1 nJ/FLOP;
  // ε_mem = (50 − 30) W / 20 GB/s = 1 nJ/byte.
  MachineDocument m =
      load_machine_file(std::string(ROOFLINE_TEST_DATA) + "/energy/machine-rapl.json");
  std::string why;
  auto e = measured_energy(m, &why);
  ASSERT_TRUE(e) << why;
  EXPECT_EQ(e->compute_roof, "fp64 avx2 fma");
  EXPECT_EQ(e->memory_level, "DRAM");
  EXPECT_DOUBLE_EQ(e->costs.pi0, 30.0);
  EXPECT_DOUBLE_EQ(e->costs.eps_flop, 1e-9);
  EXPECT_DOUBLE_EQ(e->costs.eps_mem, 1e-9);
  EXPECT_DOUBLE_EQ(e->costs.tau_flop, 1.0 / 96e9);
  EXPECT_DOUBLE_EQ(e->costs.tau_mem, 1.0 / 20e9);
  EXPECT_EQ(e->source, "RAPL: package-0 (intel-rapl:0)");
  EXPECT_NO_THROW(e->costs.validate());

  // Load no higher than rest: nothing to attribute, said so.
  nlohmann::json measurement = section_json(m, "measurement");
  measurement["energy"]["idle_power_w"] = 60.0;
  set_section(m, "measurement", measurement);
  e = measured_energy(m, &why);
  EXPECT_FALSE(e);
  EXPECT_NE(why.find("is not above the power at rest (60 W)"), std::string::npos) << why;
  // A machine measured without a power interface keeps the reason it recorded.
  measurement["energy"] = {{"available", false}, {"why", "no powercap interface"}};
  set_section(m, "measurement", measurement);
  EXPECT_FALSE(measured_energy(m, &why));
  EXPECT_NE(why.find("no powercap interface"), std::string::npos) << why;
  // A catalogue entry was never measured.
  EXPECT_FALSE(measured_energy(resolve_machine("a100-80gb"), &why));
  EXPECT_NE(why.find("not measured by this tool"), std::string::npos) << why;
}

TEST(EnergyCatalogue, PointsWithEnergyArePlacedAtTheModelsLevel) {
  PointsDocument doc;
  doc.units = UnitSystem::flop();
  Point a;
  a.name = "gemm";
  a.work = Work(2e12);
  a.traffic = {{"L2", Bytes(1e11)}, {"DRAM", Bytes(2e10)}};
  a.time = Seconds(0.05);
  a.energy = 12.5;
  Point b = a;
  b.name = "l2 only";
  b.traffic = {{"L2", Bytes(4e11)}};
  Point c = a;
  c.name = "no energy";
  c.energy = 0;
  Point d = a;
  d.name = "unnamed level";
  d.traffic = {{"", Bytes(5e10)}};  // at the machine's default level
  Point e = a;
  e.name = "dram on hbm";
  e.traffic = {{"dram", Bytes(4e10)}};  // main memory, named as an importer names it
  doc.points = {a, b, c, d, e};
  // A machine whose main memory is HBM, with an L2: levels are read as `point` reads them.
  RoofSet roofs;
  roofs.name = "gpu";
  roofs.compute.push_back({});
  roofs.compute[0].name = "fp32";
  roofs.compute[0].peak = WorkRate(1e12);
  MemoryRoof hbm, l2;
  hbm.level = "HBM";
  hbm.kind = "memory";
  hbm.bandwidth = ByteRate(1e12);
  l2.level = "L2";
  l2.kind = "cache";
  l2.bandwidth = ByteRate(4e12);
  roofs.memory = {hbm, l2};
  roofs.default_memory = "HBM";
  const EnergyPoints at_hbm = energy_points(doc, "p.json", "HBM", roofs);
  ASSERT_EQ(at_hbm.placed.size(), 3u);
  EXPECT_DOUBLE_EQ(at_hbm.placed[0].intensity, 100);          // 2e12 / 2e10, "DRAM" is HBM
  EXPECT_DOUBLE_EQ(at_hbm.placed[0].work_per_joule, 1.6e11);  // 2e12 / 12.5
  EXPECT_EQ(at_hbm.placed[1].name, "unnamed level");
  EXPECT_DOUBLE_EQ(at_hbm.placed[1].intensity, 40);  // 2e12 / 5e10, the default level's traffic
  EXPECT_DOUBLE_EQ(at_hbm.placed[2].intensity, 50);  // "dram": 2e12 / 4e10
  EXPECT_EQ(at_hbm.skipped, std::vector<std::string>{"no energy"});
  // No main-memory traffic: not placed (its L2 bytes gave I = 5 against the memory model).
  EXPECT_EQ(at_hbm.off_level, std::vector<std::string>{"l2 only"});
  // A model at L2: the unnamed traffic (main memory's) is not L2's.
  const EnergyPoints at_l2 = energy_points(doc, "p.json", "L2", roofs);
  ASSERT_EQ(at_l2.placed.size(), 2u);
  EXPECT_DOUBLE_EQ(at_l2.placed[1].intensity, 5);  // "l2 only": 2e12 / 4e11
  EXPECT_EQ(at_l2.off_level, (std::vector<std::string>{"unnamed level", "dram on hbm"}));
  const EnergyPoints& e_pts = at_hbm;
  EnergyCosts k;
  k.tau_flop = 1 / 100e9;
  k.tau_mem = 1 / 25e9;
  k.eps_flop = 1e-10;
  k.eps_mem = 1e-9;
  const nlohmann::json j = energy_points_to_json(e_pts.placed, k);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_DOUBLE_EQ(j[0]["roof_work_per_joule"].get<double>(), work_per_joule(k, 100));
  EXPECT_DOUBLE_EQ(j[0]["share_of_roof"].get<double>(), 1.6e11 / work_per_joule(k, 100));
  // 1.6e11 FLOP/J against a roof of 1/(1e-10 + 1e-9/100) = 9.1e9: above it, which the given
  // costs make impossible; said as `point` says it (beyond 105%).
  EXPECT_TRUE(j[0]["above_roof"].get<bool>());
  for (const auto& p : j)
    EXPECT_EQ(p["above_roof"].get<bool>(), p["share_of_roof"].get<double>() > 1.05);
  try {
    RoofSet op = roofs;
    op.units = UnitSystem{"OP", "byte"};
    (void)energy_points(doc, "p.json", "HBM", op);
    ADD_FAILURE() << "points in FLOP accepted for roofs in OP";
  } catch (const InputError& ex) {
    EXPECT_NE(std::string(ex.what()).find("p.json: points are in FLOP/byte"), std::string::npos)
        << ex.what();
  }
}
