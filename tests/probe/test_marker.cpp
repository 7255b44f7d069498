// The marker runtime: regions, declared work and traffic, threads, disabled cost path, and the
// round trip through `roofline profile`.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "probe/marker/marker_internal.hpp"
#include "roofline/counters.hpp"
#include "roofline/marker.hpp"

using nlohmann::json;
namespace md = roofline::marker_detail;

namespace ROOFLINE_UNITY_ID {
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

TEST(Marker, ReusedNameBufferCountsUnderEachName) {
  MarkersOn on;
  char name[16];
  std::strcpy(name, "alpha");
  for (int i = 0; i < 2; ++i) {
    roofline_region_begin(name);
    roofline_region_end(name);
  }
  std::strcpy(name, "beta");  // the same pointer, another name
  for (int i = 0; i < 3; ++i) {
    roofline::Region r(name);
    r.add_flops(1);
  }
  std::strcpy(name, "alpha");  // and back
  roofline_region_begin(name);
  roofline_region_end(name);
  const json doc = json::parse(md::results_json());
  EXPECT_EQ(region(doc, "alpha")["calls"], 3);
  EXPECT_EQ(region(doc, "beta")["calls"], 3);
  EXPECT_DOUBLE_EQ(region(doc, "beta")["flops"].get<double>(), 3);
  EXPECT_EQ(doc["regions"].size(), 2u);
}

TEST(Marker, ForkedChildDoesNotWriteTheParentsRegionsAgain) {
  MarkersOn on;
  roofline::test::TempDir dir;
  auto write = [&](pid_t pid) {
    std::ofstream(dir.file("markers-" + std::to_string(pid) + ".json")) << md::results_json();
  };
  {
    roofline::Region r("before-fork");
    r.add_flops(10);
  }
  const int across = roofline_region_begin("across");
  roofline_region_add_flops_to(across, 5);  // declared before the fork: the parent's
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    {
      roofline::Region r("in-child");
      r.add_flops(1);
    }
    roofline_region_add_flops(2);  // to "across", still open in the child
    roofline_region_end("across");
    write(::getpid());
    std::_Exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  roofline_region_end("across");
  write(::getpid());
  std::map<std::string, roofline::counters::RegionResult> by_name;
  for (const auto& r : roofline::counters::read_marker_results(dir.path)) by_name[r.name] = r;
  EXPECT_EQ(by_name["before-fork"].calls, 1u);  // not 2: the child did not write it again
  EXPECT_DOUBLE_EQ(by_name["before-fork"].flops, 10);
  EXPECT_EQ(by_name["in-child"].calls, 1u);
  EXPECT_EQ(by_name["across"].calls, 2u);  // closed once in each process
  EXPECT_DOUBLE_EQ(by_name["across"].flops, 5 + 2);
}

TEST(Marker, ABadRegionIsLeftOutWithANoteAndTheOthersStay) {
  // add_flops(NAN), add_flops(INFINITY) and a name that is not UTF-8 made the runtime write
  // `nan`, `inf` and raw bytes: no JSON, and profile lost every region, the good one too.
  MarkersOn on;
  roofline::test::TempDir dir;
  {
    roofline::Region r("good");
    r.add_flops(100);
    r.add_bytes(50);
  }
  {
    roofline::Region r("nanr");
    r.add_flops(std::nan(""));
  }
  {
    roofline::Region r("infr");
    r.add_bytes(INFINITY);
  }
  {
    roofline::Region r("bad\xff\xfe utf8");
    r.add_flops(1);
  }
  roofline_region_end("never-begun");
  const std::string text = md::results_json();
  const json doc = json::parse(text);  // valid JSON now
  EXPECT_TRUE(region(doc, "nanr")["flops"].is_null()) << text;
  EXPECT_TRUE(region(doc, "infr")["bytes"].is_null()) << text;
  EXPECT_EQ(region(doc, "bad\ufffd\ufffd utf8")["calls"], 1) << text;
  std::ofstream(dir.file("markers-1.json")) << text;
  std::vector<std::string> notes;
  std::map<std::string, roofline::counters::RegionResult> by_name;
  for (const auto& r : roofline::counters::read_marker_results(dir.path, &notes))
    by_name[r.name] = r;
  EXPECT_EQ(by_name.count("nanr"), 0u);
  EXPECT_EQ(by_name.count("infr"), 0u);
  ASSERT_EQ(by_name.count("good"), 1u);
  EXPECT_DOUBLE_EQ(by_name["good"].flops, 100);
  EXPECT_DOUBLE_EQ(by_name["good"].bytes, 50);
  std::string all;
  for (const auto& n : notes) all += n + "\n";
  EXPECT_NE(all.find("marker region 'nanr': flops: not a finite number"), std::string::npos) << all;
  EXPECT_NE(all.find("marker region 'infr': bytes: not a finite number"), std::string::npos) << all;
  EXPECT_NE(all.find("1 region end(s) without a begin"), std::string::npos) << all;
}

// A region longer than the whole program (a clock gone wrong, a markers file of another run) is
// left out, said; a field missing is said missing, not "not a finite number".
TEST(Marker, ARegionLongerThanTheProgramOrWithAFieldMissingIsLeftOutAndSaid) {
  roofline::test::TempDir dir;
  std::ofstream(dir.file("markers-1.json")) << R"({"schema": "roofline.markers", "version": 1,
    "regions": [
      {"name": "long", "calls": 1, "flops": 1e9, "bytes": 1e9, "time": 1000, "threads": 1,
       "thread_time": 1000},
      {"name": "fits", "calls": 1, "flops": 1e9, "bytes": 1e9, "time": 0.5, "threads": 2,
       "thread_time": 1},
      {"name": "no-threads", "calls": 1, "flops": 1, "bytes": 1, "time": 0.1,
       "thread_time": 0.1}]})";
  std::vector<std::string> notes;
  const auto regions =
      roofline::counters::read_marker_results(dir.path, &notes, roofline::Seconds(0.6));
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].name, "fits");
  std::string all;
  for (const auto& n : notes) all += n + "\n";
  EXPECT_NE(all.find("marker region 'long': time 1000 s is longer than the whole program's 600 ms"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("marker region 'no-threads': threads: missing: left out"), std::string::npos)
      << all;
  // Without the program's time (0) nothing is compared.
  EXPECT_EQ(roofline::counters::read_marker_results(dir.path, nullptr).size(), 2u);
}

// A region never called, or on no thread, was placed as a point; a thread_time beyond threads ×
// time (50 s on one thread in a region of 0.1 s) was taken.
TEST(Marker, ARegionThatCannotHaveRunIsLeftOutAndSaid) {
  roofline::test::TempDir dir;
  std::ofstream(dir.file("markers-1.json")) << R"({"schema": "roofline.markers", "version": 1,
    "regions": [
      {"name": "uncalled", "calls": 0, "flops": 1e9, "bytes": 1e9, "time": 0.1, "threads": 0,
       "thread_time": 0.1},
      {"name": "overlong", "calls": 1, "flops": 1e9, "bytes": 1e9, "time": 0.1, "threads": 1,
       "thread_time": 50},
      {"name": "fits", "calls": 3, "flops": 1e9, "bytes": 1e9, "time": 0.1, "threads": 2,
       "thread_time": 0.2}]})";
  std::vector<std::string> notes;
  const auto regions = roofline::counters::read_marker_results(dir.path, &notes);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].name, "fits");
  std::string all;
  for (const auto& n : notes) all += n + "\n";
  EXPECT_NE(all.find("marker region 'uncalled': calls 0, threads 0: a region that ran was called "
                     "on at least one thread: left out"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("marker region 'overlong': thread_time 50 s is more than its 1 thread(s) × "
                     "its time 100 ms: left out"),
            std::string::npos)
      << all;
}

TEST(Marker, OutOfMemoryIsCountedNotThrown) {
  MarkersOn on;
  md::fail_allocations_for_testing(1);
  // Region's constructor and destructor are noexcept: an exception out of the C API would end
  // the program here.
  {
    roofline::Region r("first-seen");
    r.add_flops(1);
  }
  md::fail_allocations_for_testing(0);
  const json doc = json::parse(md::results_json());
  EXPECT_EQ(doc["dropped"], 1);
  EXPECT_TRUE(region(doc, "first-seen").is_null());
  {
    roofline::Region r("first-seen");  // later calls record again
  }
  EXPECT_EQ(region(json::parse(md::results_json()), "first-seen")["calls"], 1);
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
  roofline::test::TempDir d;
  const std::string out = d.file("points.json");  // the child's gtest output is on stdout
  const auto r = roofline::test::run_cli({"profile", "--events", "none", "--json", "-o", out, "--",
                                          self, "--gtest_filter=MarkerChild.*"},
                                         "ROOFLINE_MARKER_CHILD=1");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json j = json::parse(roofline::test::slurp(out));
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

// `profile --report`: a region without declared W and Q, and the whole program without counters,
// were notes in the text alone; the chart of the one region drawn looked complete. The chart's
// line and the warnings say both now, from the list the notes come from.
TEST(MarkerProfile, TheReportSaysTheRegionsAndTheProgramItCouldNotPlace) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string program = std::filesystem::path(self).filename().string();
  roofline::test::TempDir d;
  const std::string svg = d.file("regions.svg"), out = d.file("points.json");
  const auto r = roofline::test::run_cli(
      {"profile", "--events", "none", "--hw", "xeon-platinum-8380", "--report", svg, "--json", "-o",
       out, "--", self, "--gtest_filter=MarkerChild.*"},
      "ROOFLINE_MARKER_CHILD=1");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::string chart = roofline::test::slurp(svg);
  EXPECT_NE(chart.find(">2 points not drawn: " + program +
                       " (W and Q unknown), setup (W and Q not declared)</text>"),
            std::string::npos)
      << chart;
  EXPECT_NE(chart.find("data-name=\"solver\""), std::string::npos);
  const json j = json::parse(roofline::test::slurp(out));
  // Each warning is the note of a point left out, word for word.
  for (const auto& note : j["run"]["notes"]) {
    const std::string said =
        "roofline: warning: " + svg + ": not drawn: " + note.get<std::string>() + "\n";
    const bool left_out = note.get<std::string>().find("no point") != std::string::npos;
    EXPECT_EQ(r.err.find(said) != std::string::npos, left_out) << said << r.err;
  }
  size_t warnings = 0;
  for (size_t at = 0; (at = r.err.find("roofline: warning: ", at)) != std::string::npos; ++at)
    ++warnings;
  EXPECT_EQ(warnings, 2u) << r.err;
}

// A program killed by a signal did not finish its work: its time is not the work's, so no point
// is placed and the output is left as it was (a ^C'd run wrote T = its time until the signal).
TEST(CliProfile, AProgramKilledByASignalPlacesNoPoint) {
  roofline::test::TempDir d;
  const std::string out = d.file("points.json");
  std::ofstream(out) << "previous";
  // SIGTERM, not SIGINT: a runner started in the background may pass SIGINT on ignored.
  const auto r = roofline::test::run_cli({"profile", "--work", "1e6", "--traffic", "1e6", "-o", out,
                                          "--", "sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(r.exit_code, 143) << r.err;
  EXPECT_NE(r.err.find("the program was killed by signal 15 (SIGTERM) after "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("no point is placed and " + out + " is left as it was"), std::string::npos)
      << r.err;
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "previous");
  // A program that exits with an error of its own still gets its point (it may have done its
  // work), and its status.
  const auto e = roofline::test::run_cli(
      {"profile", "--work", "1e6", "--traffic", "1e6", "-o", out, "--", "sh", "-c", "exit 7"});
  EXPECT_EQ(e.exit_code, 7) << e.err;
  EXPECT_NE(roofline::test::slurp(out).find("\"points\""), std::string::npos);
}
}  // namespace ROOFLINE_UNITY_ID
