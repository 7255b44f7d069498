// The powercap (RAPL) reader on fixture trees laid out like /sys/class/powercap.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include "roofline/error.hpp"
#include "roofline/powercap.hpp"

using namespace roofline;

namespace ROOFLINE_UNITY_ID {
const std::filesystem::path kData = std::filesystem::path(ROOFLINE_TEST_DATA) / "energy";

TEST(Powercap, FindsZonesSkipsTheControlTypeAndSaysWhatItCannotRead) {
  const PowerInterface pi = find_powercap_zones(kData / "powercap" / "intel-1pkg");
  EXPECT_TRUE(pi.why_none.empty());
  ASSERT_EQ(pi.zones.size(), 3u);  // not "intel-rapl" itself: it has no counter
  EXPECT_EQ(pi.zones[0].id, "intel-rapl:0");
  EXPECT_EQ(pi.zones[0].name, "package-0");
  EXPECT_EQ(pi.zones[0].max_energy_range_uj, 262143328850u);
  EXPECT_TRUE(pi.zones[0].readable);
  EXPECT_EQ(read_energy_uj(pi.zones[0]), 26214332885u);
  EXPECT_EQ(pi.zones[1].name, "core");
  EXPECT_EQ(read_energy_uj(pi.zones[1]), 9876543210u);
  EXPECT_EQ(pi.zones[2].name, "dram");
  EXPECT_FALSE(pi.zones[2].readable);
  EXPECT_EQ(pi.zones[2].why_unreadable, "energy_uj is not a number");
  EXPECT_FALSE(read_energy_uj(pi.zones[2]));
}

TEST(Powercap, NoInterfaceIsSaidPlainly) {
  PowerInterface pi = find_powercap_zones(kData / "powercap" / "no-rapl");
  EXPECT_TRUE(pi.zones.empty());
  EXPECT_NE(pi.why_none.find("no RAPL zone"), std::string::npos) << pi.why_none;
  pi = find_powercap_zones(kData / "powercap" / "missing");
  EXPECT_TRUE(pi.zones.empty());
  EXPECT_NE(pi.why_none.find("no powercap interface"), std::string::npos) << pi.why_none;
}

TEST(Powercap, EnergyBetweenReadingsAllowsOneWrap) {
  // 1 000 000 µJ apart: 1 J.
  EXPECT_DOUBLE_EQ(energy_joules_between(5'000'000, 6'000'000, 262143328850u), 1.0);
  // Wrapped: from 262 143 000 000 to the range 262 143 328 850 is 328 850 µJ, then 500 000 µJ
  // from 0: 828 850 µJ = 0.82885 J.
  EXPECT_NEAR(energy_joules_between(262143000000u, 500000u, 262143328850u), 0.82885, 1e-12);
  EXPECT_THROW(energy_joules_between(10, 5, 0), InputError);
  EXPECT_THROW(energy_joules_between(10, 5, 8), InputError);
}
}  // namespace ROOFLINE_UNITY_ID
