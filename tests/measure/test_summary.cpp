// The terminal summary prints what the document holds: values, ratios, flags, mixes.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <fstream>
#include <map>

#include "roofline/io.hpp"
#include "roofline/measure.hpp"
#include "roofline/quantity.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

MachineDocument sample() {
  MachineDocument m;
  m.roofs.name = "box";
  set_info(m,
           {{"cpu", "Test CPU"}, {"clock_hz", 3e9}, {"threads", 2}, {"microarchitecture", "zen3"}});
  ComputeRoof c;
  c.name = "fp64 256-bit fma";
  c.precision = "fp64";
  c.peak = WorkRate(90e9);
  c.theoretical = WorkRate(96e9);
  c.provenance = Provenance::measured;
  Statistics s;
  s.repetitions = 5;
  s.cv = 0.012;
  s.best = 90.9e9;
  s.sustained = 90e9;
  c.stats = s;
  m.roofs.compute.push_back(c);
  ComputeRoof bad = c;
  bad.name = "fp32 256-bit fma";
  bad.peak = WorkRate(110e9);
  bad.theoretical = WorkRate(100e9);
  bad.stats->best = 120e9;  // a lone fast sample, 9% above the sustained rate
  bad.stats->sustained = 110e9;
  m.roofs.compute.push_back(bad);
  MemoryRoof l;
  l.level = "DRAM";
  l.bandwidth = ByteRate(46.4e9);
  l.convention = "named";
  l.mixes = {{"load", 29.2e9}, {"update", 46.4e9}};
  l.stats = s;
  m.roofs.memory.push_back(l);
  set_section(m, "measurement", {{"warnings", {"something odd"}}, {"seconds", 9.5}});
  return m;
}

TEST(MeasureSummary, ShowsValuesRatiosAndFlags) {
  const std::string t = render_measure_summary(sample(), false);
  EXPECT_NE(t.find("Test CPU"), std::string::npos) << t;
  EXPECT_NE(t.find("3 GHz"), std::string::npos) << t;
  EXPECT_NE(t.find("90 GFLOP/s"), std::string::npos) << t;
  EXPECT_NE(t.find("96 GFLOP/s"), std::string::npos) << t;
  EXPECT_NE(t.find("0.938"), std::string::npos) << t;  // 90/96
  EXPECT_NE(t.find("1.1 ABOVE THEORY"), std::string::npos) << t;
  EXPECT_NE(t.find("1.2%"), std::string::npos) << t;
  EXPECT_NE(t.find("1.01 "), std::string::npos) << t;             // fastest / sustained = 90.9 / 90
  EXPECT_NE(t.find("1.09 unconfirmed"), std::string::npos) << t;  // 120 / 110
  EXPECT_NE(t.find("third-fastest"), std::string::npos) << t;
  EXPECT_NE(t.find("46.4 GB/s"), std::string::npos) << t;
  EXPECT_NE(t.find("update"), std::string::npos) << t;
  EXPECT_NE(t.find("29.2"), std::string::npos) << t;
  EXPECT_NE(t.find("named"), std::string::npos) << t;
  EXPECT_NE(t.find("warning: something odd"), std::string::npos) << t;
  EXPECT_EQ(t.find("FLOPS"), std::string::npos);
  EXPECT_EQ(t.find('\033'), std::string::npos);
  // With colour, the flag is red (the table's colour for the cell, its padding outside it).
  const std::string c = render_measure_summary(sample(), true);
  EXPECT_NE(c.find("\033[31m1.1 ABOVE THEORY\033[0m"), std::string::npos) << c;
}

TEST(MeasureSummary, SizeColumnIsWhatTheMemoryStepRecorded) {
  // A document `roofline measure --quick` wrote (tests/data/io/README.md): each cache level's
  // size column is its capacity per core and, where the threads reach more, that too.
  const std::string path = std::string(ROOFLINE_TEST_DATA) + "/io/zen4-quick.machine.json";
  const MachineDocument m = load_machine_file(path);
  std::ifstream in(path);
  const nlohmann::json memory = nlohmann::json::parse(in).at("measurement").at("memory");
  const std::string t = render_measure_summary(m, false);
  int reached = 0;
  for (const auto& [level, d] : memory.items()) {
    if (!d.contains("size_per_core")) continue;
    const double per_core = d.at("size_per_core").get<double>();
    const double reach = d.at("reported_size").get<double>();
    std::string cell = format_bytes(Bytes(per_core)) + "/core";
    if (reach != per_core) cell += ", " + format_bytes(Bytes(reach)) + " reached", ++reached;
    EXPECT_NE(t.find(level + " "), std::string::npos) << level;
    EXPECT_NE(t.find(cell), std::string::npos) << cell << "\n" << t;
  }
  EXPECT_GT(reached, 0);  // the shared L3: 2 cores' share is more than one core's
  EXPECT_NE(
      t.find("measured in " + format_seconds(Seconds(nlohmann::json::parse(std::ifstream(path))
                                                         .at("measurement")
                                                         .at("seconds")
                                                         .get<double>()))),
      std::string::npos)
      << t;
}

TEST(MeasureSummary, RoofsThatShareALimitShareOneNote) {
  // A document `roofline measure --quick` wrote on a Sapphire Rapids-class VM
  // (tests/data/io/README.md): the 512-bit and AMX roofs below the theory band name the same
  // limit, the clock licence, in their formula.
  const MachineDocument m =
      load_machine_file(std::string(ROOFLINE_TEST_DATA) + "/io/sapphire-class-quick.machine.json");
  const std::string t = render_measure_summary(m, false);
  std::vector<std::string> whys;            // distinct limits, in table order
  std::map<std::string, std::string> held;  // limit → the roofs it holds back, joined
  for (const auto& c : m.roofs.compute) {
    const auto at = c.formula.find("; limit: ");
    if (!c.theoretical || at == std::string::npos) continue;
    if (c.peak / *c.theoretical >= 0.92) continue;  // inside the band: no note
    const std::string why = c.formula.substr(at + 9);
    if (!held.count(why)) whys.push_back(why);
    held[why] += (held[why].empty() ? "" : ", ") + c.name;
    const auto row = t.find(c.name + " ");
    ASSERT_NE(row, std::string::npos) << c.name;
    const auto k = std::find(whys.begin(), whys.end(), why) - whys.begin() + 1;
    EXPECT_NE(t.substr(row, t.find('\n', row) - row).find("limit [" + std::to_string(k) + "]"),
              std::string::npos)
        << c.name << "\n"
        << t;
  }
  ASSERT_FALSE(whys.empty()) << t;
  for (size_t i = 0; i < whys.size(); ++i)
    EXPECT_NE(t.find("[" + std::to_string(i + 1) + "] " + held[whys[i]] + ": " + whys[i] + "\n"),
              std::string::npos)
        << t;
  EXPECT_EQ(t.find("[" + std::to_string(whys.size() + 1) + "] "), std::string::npos) << t;
  EXPECT_NE(t.find("AMX tile dot"), std::string::npos) << t;
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
