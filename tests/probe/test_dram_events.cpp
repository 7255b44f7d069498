// Memory-controller events for Q from sysfs trees (tests/data/probe/sysfs/, README there):
// Granite Rapids' two schedulers per channel on both kernel namings, AMD Zen 4/5 amd_umc.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <set>

#include "roofline/counters.hpp"

using namespace roofline::counters;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
const fs::path kSysfs = fs::path(ROOFLINE_TEST_DATA) / "probe" / "sysfs";

std::string all(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

TEST(DramEvents, GraniteRapidsCountsBothSchedulersOnEitherKernelNaming) {
  for (const char* tree : {"intel-gnr-sch", "intel-gnr-old"}) {
    SCOPED_TRACE(tree);
    for (int model : {0xAD, 0xAE, 0xAF}) {  // Granite Rapids X/D, Sierra Forest
      EventPlan p;
      add_dram_events(p, {"GenuineIntel", 6, model, ""}, kSysfs / tree);
      ASSERT_EQ(p.events.size(), 8u) << model;  // 2 channels × 2 schedulers × read/write
      std::set<std::uint64_t> configs;
      for (const auto& e : p.events) {
        configs.insert(e.config);
        EXPECT_EQ(e.role, Role::dram);
        EXPECT_DOUBLE_EQ(e.weight, 64);
        EXPECT_TRUE(e.system_wide);
      }
      // event | umask << 8: scheduler 0 (0x05) and 1 (0x06), reads 0xCF, writes 0xF0.
      EXPECT_EQ(configs, (std::set<std::uint64_t>{0xCF05, 0xCF06, 0xF005, 0xF006}));
      EXPECT_EQ(p.events[0].name, "uncore_imc_0/UNC_M_CAS_COUNT_SCH0.RD/ (cpu 0)");
      EXPECT_EQ(p.events[0].type, 30u);
      EXPECT_EQ(p.events[4].type, 31u);
      EXPECT_TRUE(p.missing.empty()) << all(p.missing);
      const std::string limits = all(p.limits);
      EXPECT_NE(limits.find("both schedulers of each channel"), std::string::npos) << limits;
      EXPECT_EQ(limits.find("names only scheduler 0") != std::string::npos,
                std::string(tree) == "intel-gnr-old")
          << limits;
    }
  }
  // Sapphire Rapids on the same tree uses the kernel's names (one scheduler there).
  EventPlan spr;
  add_dram_events(spr, {"GenuineIntel", 6, 0x8F, ""}, kSysfs / "intel-gnr-old");
  ASSERT_EQ(spr.events.size(), 4u);
  EXPECT_EQ(spr.events[0].name, "uncore_imc_0/cas_count_read/ (CAS RD, cpu 0)");
}

TEST(DramEvents, AmdZen4And5CountUmcCasCommands) {
  for (int family_model : {0x1911, 0x1961, 0x1A02}) {
    const CpuIdentity cpu{"AuthenticAMD", family_model >> 8, family_model & 0xFF, ""};
    EventPlan p;
    add_dram_events(p, cpu, kSysfs / "amd-zen4-umc");
    ASSERT_EQ(p.events.size(), 8u);  // 4 UMC PMUs × rd/wr
    EXPECT_TRUE(p.missing.empty()) << all(p.missing);
    // event=0x0a (config:0-7), rdwrmask 1 = reads, 2 = writes (config:8-9).
    EXPECT_EQ(p.events[0].name, "amd_umc_0/umc_cas_cmd.rd/ (cpu 0)");
    EXPECT_EQ(p.events[0].config, 0x10Au);
    EXPECT_EQ(p.events[1].name, "amd_umc_0/umc_cas_cmd.wr/ (cpu 0)");
    EXPECT_EQ(p.events[1].config, 0x20Au);
    EXPECT_EQ(p.events[6].pmu, "amd_umc_3");
    EXPECT_EQ(p.events[6].cpu, 96);  // the second socket's PMUs count on its CPU
    for (const auto& e : p.events) {
      EXPECT_EQ(e.role, Role::dram);
      EXPECT_DOUBLE_EQ(e.weight, 64);
    }
  }
  // A kernel without the UMC part: the data fabric of Zen 4 is not used for DRAM; say what is
  // missing.
  EventPlan none;
  add_dram_events(none, {"AuthenticAMD", 0x19, 0x11, ""}, kSysfs / "amd-zen4-no-umc");
  EXPECT_TRUE(none.events.empty());
  ASSERT_EQ(none.missing.size(), 1u);
  EXPECT_NE(none.missing[0].find("amd_umc_* for this CPU"), std::string::npos) << none.missing[0];
  // The probe counts amd_umc_* as memory-controller PMUs.
  const PmuStatus s = probe_pmu(kSysfs / "amd-zen4-umc");
  EXPECT_EQ(s.uncore_pmus.size(), 4u);
}
}  // namespace ROOFLINE_UNITY_ID
