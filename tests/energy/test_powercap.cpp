// The powercap (RAPL) reader on fixture trees laid out like /sys/class/powercap.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <fstream>

#include "measure/engine/energy.hpp"
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
TEST(Powercap, TheMeasurementsMeterSumsPackagesAndCountsAcrossAWrap) {
  // The fixture's package-0 zone (its core and dram subzones are not summed: the package holds
  // them), in a copy whose counter the test moves: +3 J, then a wrap past max_energy_range_uj.
  const auto tmp = std::filesystem::temp_directory_path() / "roofline-meter-test";
  std::filesystem::remove_all(tmp);
  std::filesystem::copy(kData / "powercap" / "intel-1pkg", tmp,
                        std::filesystem::copy_options::recursive);
  auto write = [&](const std::string& value) {
    std::ofstream(tmp / "intel-rapl:0" / "energy_uj") << value << "\n";
  };
  const auto no_pmu = kData / "perf-power" / "none";  // so no perf fallback can read this host
  const engine::EnergyMeter meter = engine::rapl_meter(tmp, no_pmu);
  ASSERT_TRUE(meter.reader) << meter.why_none;
  EXPECT_EQ(meter.zones, std::vector<std::string>{"package-0 (intel-rapl:0)"});
  EXPECT_EQ(meter.reader(), 0.0);  // the first reading is the origin
  write("26217332885");            // 26214332885 + 3 000 000 µJ
  EXPECT_DOUBLE_EQ(*meter.reader(), 3.0);
  write("1000000");  // wrapped: (262143328850 − 26217332885) + 1 000 000 µJ more
  EXPECT_DOUBLE_EQ(*meter.reader(), 3.0 + (262143328850.0 - 26217332885.0 + 1000000.0) / 1e6);
  write("not a number");
  EXPECT_FALSE(meter.reader());  // a failed reading is no reading, not zero

  // An unreadable package is said, with the reason; no interface at all too.
  write("x");
  const engine::EnergyMeter unreadable = engine::rapl_meter(tmp, no_pmu);
  EXPECT_FALSE(unreadable.reader);
  EXPECT_NE(unreadable.why_none.find("package-0 (intel-rapl:0): energy_uj is not a number"),
            std::string::npos)
      << unreadable.why_none;
  const engine::EnergyMeter none = engine::rapl_meter(kData / "powercap" / "no-rapl", no_pmu);
  EXPECT_FALSE(none.reader);
  EXPECT_NE(none.why_none.find("no RAPL zone"), std::string::npos) << none.why_none;
  EXPECT_NE(none.why_none.find("; perf: no power PMU in "), std::string::npos) << none.why_none;
  std::filesystem::remove_all(tmp);
}

TEST(PerfPower, ReadsThePackageEventAsTheKernelDescribesIt) {
  const PerfPower pp = find_perf_power(kData / "perf-power" / "rapl");
  ASSERT_TRUE(pp.package) << pp.why_none;
  EXPECT_EQ(pp.package->name, "energy-pkg");
  EXPECT_EQ(pp.package->type, 22u);
  EXPECT_EQ(pp.package->config, 0x02u);              // event=0x02 into config bits 0-7
  EXPECT_EQ(pp.package->joules_per_count, 0x1p-32);  // 2.3283064365386962890625e-10 exactly
  EXPECT_EQ(pp.package->cpus, std::vector<int>{0});
  const PerfPower none = find_perf_power(kData / "perf-power" / "none");
  EXPECT_FALSE(none.package);
  EXPECT_NE(none.why_none.find("no power PMU"), std::string::npos) << none.why_none;
}

TEST(PerfPower, AMalformedDescriptionIsRefusedNamingTheFile) {
  const auto tmp = std::filesystem::temp_directory_path() / "roofline-perf-power-test";
  std::filesystem::remove_all(tmp);
  std::filesystem::copy(kData / "perf-power" / "rapl", tmp,
                        std::filesystem::copy_options::recursive);
  std::ofstream(tmp / "power" / "events" / "energy-pkg.scale") << "lots\n";
  try {
    find_perf_power(tmp);
    ADD_FAILURE() << "a scale that is no number was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("energy-pkg.scale: not a number: 'lots'"),
              std::string::npos)
        << e.what();
  }
  std::ofstream(tmp / "power" / "events" / "energy-pkg.scale") << "2.3283064365386962890625e-10\n";
  std::ofstream(tmp / "power" / "events" / "energy-pkg.unit") << "mJ\n";
  EXPECT_THROW(find_perf_power(tmp), InputError);  // only Joules are understood
  std::filesystem::remove_all(tmp);
}

TEST(PerfPower, TheMeterFallsBackToPerfAndSaysWhyNeitherWorked) {
  // Powercap without a RAPL zone, and a power PMU whose type no kernel has (the number is the
  // kernel's choice at boot; one this large is never assigned): perf_event_open fails, and the
  // reason names both interfaces. Where it succeeds (a host with RAPL and the rights), the meter
  // reads the PMU.
  const auto tmp = std::filesystem::temp_directory_path() / "roofline-perf-meter-test";
  std::filesystem::remove_all(tmp);
  std::filesystem::copy(kData / "perf-power" / "rapl", tmp,
                        std::filesystem::copy_options::recursive);
  std::ofstream(tmp / "power" / "type") << "4000000000\n";
  const engine::EnergyMeter m = engine::rapl_meter(kData / "powercap" / "no-rapl", tmp);
  EXPECT_FALSE(m.reader);
  EXPECT_EQ(m.why_none.find("no RAPL zone"), 0u) << m.why_none;
  EXPECT_NE(m.why_none.find("; perf: perf power/energy-pkg/ on CPU 0: "), std::string::npos)
      << m.why_none;
  std::filesystem::remove_all(tmp);
}

}  // namespace ROOFLINE_UNITY_ID
