// machine_facts(): the typed facts of a machine document, read once in io, against the files
// the tool and the catalogue write (each field compared with the JSON read independently).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <fstream>

#include "roofline/error.hpp"
#include "roofline/io.hpp"

using namespace roofline;
using nlohmann::json;

namespace ROOFLINE_UNITY_ID {

json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

MachineDocument with_info(const json& info) {
  MachineDocument d;
  d.origin = "m.json";
  set_info(d, info);
  return d;
}

TEST(MachineFacts, CatalogueEntryFactsAreTheFilesFigures) {
  const auto path = std::filesystem::path(ROOFLINE_SOURCE_DIR) / "data/hardware/h100-sxm.json";
  const json info = read_json(path).at("info");
  const MachineFacts f = machine_facts(load_machine_file(path));
  EXPECT_EQ(f.display_name, info.at("display_name").get<std::string>());
  EXPECT_EQ(f.vendor, "NVIDIA");
  EXPECT_EQ(f.kind, "gpu");
  EXPECT_EQ(f.aliases, info.at("aliases").get<std::vector<std::string>>());
  ASSERT_TRUE(f.release_year.has_value());
  EXPECT_EQ(*f.release_year, info.at("release_year").get<int>());
  ASSERT_TRUE(f.power.watts.has_value());
  EXPECT_EQ(*f.power.watts, info.at("power_w").get<double>());
  EXPECT_EQ(f.power.source, info.at("power_source").get<std::string>());
  ASSERT_TRUE(f.clock.has_value());
  EXPECT_EQ(f.clock->basis, info.at("clock").at("basis").get<std::string>());
  EXPECT_EQ(f.sources.size(), info.at("sources").size());
  const json& links = info.at("interconnects");
  ASSERT_EQ(f.interconnects.size(), links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    const InterconnectFacts& l = f.interconnects[i];
    EXPECT_EQ(l.name, links[i].at("name").get<std::string>());
    ASSERT_TRUE(l.bandwidth.has_value());
    EXPECT_EQ(*l.bandwidth, links[i].at("bandwidth").get<double>());
    EXPECT_EQ(l.lists_latency, links[i].contains("latency"));
    if (links[i].contains("latency") && links[i]["latency"].is_number()) {
      ASSERT_TRUE(l.latency.has_value());
      EXPECT_EQ(l.latency->value, links[i]["latency"].get<double>());
    }
    EXPECT_EQ(f.interconnect(l.name), &l);
  }
  EXPECT_EQ(f.interconnect("no such link"), nullptr);
  // A catalogue entry says nothing of a measurement.
  EXPECT_TRUE(f.memory_reach.empty());
  EXPECT_FALSE(f.measured_seconds.has_value());
}

TEST(MachineFacts, MeasuredMachineFactsAreWhatTheMeasurementRecorded) {
  // A machine document `roofline measure --quick` wrote on a Zen 4 VM (tests/data/io).
  const auto path = std::filesystem::path(ROOFLINE_TEST_DATA) / "io/zen4-quick.machine.json";
  const json j = read_json(path);
  const MachineFacts f = machine_facts(load_machine_file(path));
  EXPECT_EQ(f.cpu, j.at("info").at("cpu").get<std::string>());
  EXPECT_EQ(f.kind, "cpu");
  ASSERT_TRUE(f.clock_hz.has_value());
  EXPECT_EQ(*f.clock_hz, j.at("info").at("clock_hz").get<double>());
  const json& memory = j.at("measurement").at("memory");
  size_t with_reach = 0;
  for (const auto& [level, d] : memory.items()) {
    if (!d.contains("size_per_core")) continue;
    ++with_reach;
    ASSERT_TRUE(f.memory_reach.count(level)) << level;
    EXPECT_EQ(f.memory_reach.at(level).size_per_core, d.at("size_per_core").get<double>());
    EXPECT_EQ(f.memory_reach.at(level).reported_size, d.at("reported_size").get<double>());
  }
  EXPECT_GT(with_reach, 0u);
  EXPECT_EQ(f.memory_reach.size(), with_reach);
  EXPECT_EQ(f.warnings, j.at("measurement").at("warnings").get<std::vector<std::string>>());
  ASSERT_TRUE(f.measured_seconds.has_value());
  EXPECT_EQ(*f.measured_seconds, j.at("measurement").at("seconds").get<double>());
  // The measured caches' integer levels read as the catalogue names them.
  ASSERT_EQ(f.caches.size(), j.at("info").at("caches").size());
  EXPECT_EQ(f.caches.front().level, "L1");
  EXPECT_EQ(f.caches.front().size_bytes, 32768);
}

TEST(MachineFacts, LatencyAndDomainInEverySpellingOrNamedWhenWrong) {
  const json info = {{"interconnects",
                      {{{"name", "A"}, {"latency", "2.5 us"}, {"domain_size", 8}},
                       {{"name", "B"}, {"latency_ns", 900}, {"max_devices", "72"}},
                       {{"name", "C"}, {"latency", nullptr}, {"latency_us", 3}}}},
                     {"scale_up_domain", {{"size", 4}, {"source", "doc"}}}};
  const MachineFacts f = machine_facts(with_info(info));
  ASSERT_EQ(f.interconnects.size(), 3u);
  for (const auto& l : f.interconnects) {
    ASSERT_TRUE(l.latency.has_value()) << l.name;
    EXPECT_TRUE(l.problem.empty()) << l.problem;
  }
  ASSERT_TRUE(f.interconnects[0].domain_size.has_value());
  ASSERT_TRUE(f.interconnects[1].domain_size.has_value());
  ASSERT_TRUE(f.scale_up_domain.has_value());
  EXPECT_DOUBLE_EQ(f.interconnects[0].latency->value, 2.5e-6);
  EXPECT_EQ(*f.interconnects[0].domain_size, 8);
  EXPECT_NEAR(f.interconnects[1].latency->value, 900e-9, 1e-18);
  EXPECT_EQ(*f.interconnects[1].domain_size, 72);
  EXPECT_TRUE(f.interconnects[2].lists_latency);
  EXPECT_DOUBLE_EQ(f.interconnects[2].latency->value, 3e-6);
  EXPECT_EQ(*f.scale_up_domain, 4);
  EXPECT_EQ(f.scale_up_domain_source, "doc");

  // A figure that is there but wrong is the link's problem, naming document, link and field;
  // the other links and the machine's domain still read.
  json bad = info;
  bad["interconnects"][1]["max_devices"] = -72;
  MachineFacts g = machine_facts(with_info(bad));
  const std::string& m = g.interconnects[1].problem;
  EXPECT_NE(m.find("m.json"), std::string::npos) << m;
  EXPECT_NE(m.find("info.interconnects[B]"), std::string::npos) << m;
  EXPECT_NE(m.find("max_devices"), std::string::npos) << m;
  EXPECT_TRUE(g.interconnects[0].problem.empty());
  EXPECT_TRUE(g.interconnects[0].latency.has_value());
  bad = info;
  bad["scale_up_domain"] = {{"source", "doc"}};
  g = machine_facts(with_info(bad));
  EXPECT_NE(g.scale_up_domain_problem.find("needs \"size\""), std::string::npos);
  EXPECT_FALSE(g.scale_up_domain.has_value());
  bad = info;
  bad["interconnects"][0]["latency"] = true;
  g = machine_facts(with_info(bad));
  EXPECT_NE(g.interconnects[0].problem.find("must be a number"), std::string::npos);
  // A latency beyond any link's (1e9 s put a decode step at 1e11 s) is the link's problem too.
  bad = info;
  bad["interconnects"][0]["latency"] = 1e9;
  g = machine_facts(with_info(bad));
  EXPECT_NE(g.interconnects[0].problem.find("info.interconnects[A]: latency: 1e+09 s is beyond "
                                            "any link's latency"),
            std::string::npos)
      << g.interconnects[0].problem;
  EXPECT_FALSE(g.interconnects[0].latency.has_value());
}

TEST(MachineFacts, FreeFormFieldsOfAnotherTypeAreLeftOut) {
  const json info = {{"release_year", "soon"},
                     {"power_w", nullptr},
                     {"aliases", {"x", 3}},
                     {"clock", "fast"},
                     {"caches", {{{"level", "L2"}}}},
                     {"cpu", 7},
                     {"threads", 2.5}};
  const MachineFacts f = machine_facts(with_info(info));
  EXPECT_TRUE(f.lists_release_year);
  EXPECT_FALSE(f.release_year.has_value());
  EXPECT_TRUE(f.power.listed);
  EXPECT_FALSE(f.power.watts.has_value());
  EXPECT_EQ(f.power.written, "null");
  EXPECT_EQ(f.aliases, std::vector<std::string>{"x"});
  EXPECT_FALSE(f.clock.has_value());
  EXPECT_TRUE(f.caches.empty());  // no size
  EXPECT_TRUE(f.cpu.empty());
  EXPECT_FALSE(f.threads.has_value());
}

}  // namespace ROOFLINE_UNITY_ID
