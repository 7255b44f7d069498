// The TDP bound of the energy roofline, from catalogue entries (their power figure and source).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "roofline/energy_catalogue.hpp"

using namespace roofline;

TEST(EnergyCatalogue, TdpBoundFromTheCatalogueWithItsSource) {
  const MachineDocument m = resolve_machine("a100-80gb");
  ASSERT_TRUE(m.info.contains("power_w"));
  const double w = m.info["power_w"].get<double>();
  const ComputeRoof& c = m.roofs.select_compute("");
  const MemoryRoof& mem = m.roofs.select_memory("");
  std::string why;
  const auto b = tdp_energy_bound(m, &why);
  ASSERT_TRUE(b) << why;
  EXPECT_DOUBLE_EQ(b->power_w, w);
  EXPECT_EQ(b->power_source, m.info["power_source"].get<std::string>());
  EXPECT_NE(b->power_source.find("datasheet"), std::string::npos) << b->power_source;
  EXPECT_EQ(b->compute_roof, c.name);
  // TDP/π J per FLOP, TDP/β J per byte, π/TDP FLOP per J.
  EXPECT_DOUBLE_EQ(b->max_joules_per_work, w / c.peak.value);
  EXPECT_DOUBLE_EQ(b->max_joules_per_byte, w / mem.bandwidth.value);
  EXPECT_DOUBLE_EQ(b->min_work_per_joule, c.peak.value / w);
}

TEST(EnergyCatalogue, NoPowerFigureIsSaidWithTheReason) {
  const MachineDocument m = resolve_machine("apple-m3-max");
  ASSERT_TRUE(m.info["power_w"].is_null());
  std::string why;
  EXPECT_FALSE(tdp_energy_bound(m, &why));
  EXPECT_NE(why.find("no power figure"), std::string::npos) << why;
  EXPECT_NE(why.find("not published"), std::string::npos) << why;
  MachineDocument measured = m;
  measured.info = nlohmann::json::object();
  EXPECT_FALSE(tdp_energy_bound(measured, &why));
  EXPECT_NE(why.find("absent"), std::string::npos) << why;
}
