// The marker runtime: regions, declared work and traffic, threads, disabled cost path, and the
// round trip through `roofline profile`.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "probe/marker/marker_internal.hpp"
#include "roofline/counters.hpp"
#include "roofline/marker.hpp"

using nlohmann::json;
namespace md = roofline::marker_detail;

namespace {
json region(const json& doc, const std::string& name) {
  for (const auto& r : doc["regions"])
    if (r["name"] == name) return r;
  return json();
}
struct MarkersOn {
  MarkersOn() {
    md::configure_for_testing(true, "");
    md::reset_for_testing();
  }
  ~MarkersOn() {
    md::reset_for_testing();
    md::configure_for_testing(false, "");
  }
};
}  // namespace

TEST(Marker, RegionsAccumulateDeclaredWorkAndTraffic) {
  MarkersOn on;
  for (int i = 0; i < 3; ++i) {
    roofline::Region r("solver");
    r.add_flops(2.0 * 1000);
    r.add_bytes(12.0 * 1000);
    {
      roofline::Region inner("inner");
      inner.add_flops(5);
      r.add_flops(1);  // to the outer region, by handle
    }
  }
  roofline_region_begin("c-api");
  roofline_region_add_flops(7);
  roofline_region_add_bytes(9);
  roofline_region_end("c-api");
  const json doc = json::parse(md::results_json());
  EXPECT_EQ(doc["schema"], "roofline.markers");
  const json s = region(doc, "solver");
  EXPECT_EQ(s["calls"], 3);
  EXPECT_DOUBLE_EQ(s["flops"].get<double>(), 3 * 2001.0);
  EXPECT_DOUBLE_EQ(s["bytes"].get<double>(), 3 * 12000.0);
  EXPECT_EQ(s["threads"], 1);
  const json in = region(doc, "inner");
  EXPECT_EQ(in["calls"], 3);
  EXPECT_DOUBLE_EQ(in["flops"].get<double>(), 15);
  EXPECT_LE(in["time"].get<double>(), s["time"].get<double>());
  EXPECT_DOUBLE_EQ(region(doc, "c-api")["flops"].get<double>(), 7);
  EXPECT_DOUBLE_EQ(region(doc, "c-api")["bytes"].get<double>(), 9);
  EXPECT_EQ(doc["unmatched_ends"], 0);
}

TEST(Marker, ThreadsMergeAndTimeIsTheLongestThread) {
  MarkersOn on;
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([t] {
      roofline::Region r("parallel");
      r.add_flops(10);
      std::this_thread::sleep_for(std::chrono::milliseconds(5 + 5 * t));
    });
  for (auto& t : ts) t.join();
  const json p = region(json::parse(md::results_json()), "parallel");
  EXPECT_EQ(p["calls"], 4);
  EXPECT_EQ(p["threads"], 4);
  EXPECT_DOUBLE_EQ(p["flops"].get<double>(), 40);
  EXPECT_GE(p["time"].get<double>(), 0.020);  // the 20 ms thread
  EXPECT_GE(p["thread_time"].get<double>(), 0.050 - 1e-3);
  EXPECT_LT(p["time"].get<double>(), p["thread_time"].get<double>());
}

TEST(Marker, UnmatchedEndIsCountedAndDisabledRecordsNothing) {
  {
    MarkersOn on;
    roofline_region_end("never-begun");
    EXPECT_EQ(json::parse(md::results_json())["unmatched_ends"], 1);
  }
  md::configure_for_testing(false, "");
  EXPECT_EQ(roofline_region_begin("off"), -1);
  EXPECT_EQ(roofline_markers_enabled(), 0);
  roofline_region_add_flops(1);
  roofline_region_end("off");
  EXPECT_TRUE(region(json::parse(md::results_json()), "off").is_null());
}

// Runs only as the child of MarkerProfile below (roofline profile -- roofline_tests ...).
TEST(MarkerChild, EmitsRegionsUnderProfile) {
  if (!std::getenv("ROOFLINE_MARKER_CHILD")) GTEST_SKIP() << "helper for MarkerProfile";
  ASSERT_EQ(roofline_markers_enabled(), 1) << "ROOFLINE_MARKER_DIR not set by roofline profile";
  for (int i = 0; i < 5; ++i) {
    roofline::Region r("solver");
    r.add_flops(2e6);
    r.add_bytes(12e6);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  roofline::Region timed_only("setup");
}

TEST(MarkerProfile, ProfilePlacesOnePointPerRegion) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const auto r = roofline::test::run_cli(
      {"profile", "--events", "none", "--json", "--", self, "--gtest_filter=MarkerChild.*"},
      "ROOFLINE_MARKER_CHILD=1");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto start = r.out.find("{\n  \"");  // the child's gtest output comes first
  ASSERT_NE(start, std::string::npos) << r.out;
  const json j = json::parse(r.out.substr(start));
  ASSERT_EQ(j["points"].size(), 1u) << j.dump(2);
  const json& p = j["points"][0];
  EXPECT_EQ(p["name"], "solver");
  EXPECT_DOUBLE_EQ(p["work"].get<double>(), 1e7);
  EXPECT_DOUBLE_EQ(p["traffic"][0]["bytes"].get<double>(), 6e7);
  EXPECT_GE(p["time"].get<double>(), 0.010);
  EXPECT_EQ(p["source"], "marker");
  // The region without declared W/Q is reported, not turned into a point.
  EXPECT_NE(j["run"]["notes"].dump().find("region 'setup'"), std::string::npos) << j["run"].dump(2);
}
