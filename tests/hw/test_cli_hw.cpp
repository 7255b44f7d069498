// `roofline hw` as a user runs it: list, show, compare (regimes), ridges, check, user catalogue
// directories (--hw-dir, $ROOFLINE_HW_PATH) and machine documents in place of names.
#include <gtest/gtest.h>

#include <algorithm>
#include "unity_id.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using nlohmann::json;
using roofline::test::run_cli;
using roofline::test::slurp;
using roofline::test::TempDir;
using roofline::test::write_text;

namespace ROOFLINE_UNITY_ID {
const std::string kCatalogue = std::string(ROOFLINE_SOURCE_DIR) + "/data/hardware";

std::string user_gpu() {
  return R"({"schema": "roofline.machine", "version": 1, "name": "my-gpu",
    "default_compute": "fp32 vector", "default_memory": "DRAM",
    "info": {"display_name": "Acme One", "vendor": "Acme", "kind": "gpu", "aliases": ["acme-1"],
             "release_year": 2030, "release_source": "spec",
             "clock": {"basis": "boost", "mhz": 1000, "source": "spec"}, "power_w": 100,
             "power_source": "spec",
             "interconnects": [], "sources": ["spec"]},
    "compute": [{"name": "fp32 vector", "precision": "fp32", "unit": "vector", "peak": "10 TFLOP/s", "source": "spec"}],
    "memory": [{"level": "DRAM", "kind": "memory", "bandwidth": "1 TB/s", "source": "spec"}]})";
}

TEST(CliHw, ListAndFilters) {
  auto r = run_cli({"hw", "list", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json all = json::parse(r.out);
  ASSERT_GE(all.size(), 47u);
  // A board power as the catalogue writes it: H100 SXM's 700 W a whole number, not 700.0.
  const auto h100 = std::find_if(all.begin(), all.end(),
                                 [](const json& row) { return row["name"] == "h100-sxm"; });
  ASSERT_NE(h100, all.end());
  EXPECT_EQ((*h100)["power_w"].dump(), "700") << h100->dump();
  r = run_cli({"hw", "list", "--kind", "cpu", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cpus = json::parse(r.out);
  EXPECT_GE(cpus.size(), 5u);
  for (const auto& e : cpus) EXPECT_EQ(e["kind"], "cpu");
  r = run_cli({"hw", "list", "--vendor", "amd", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& e : json::parse(r.out)) EXPECT_EQ(e["vendor"], "AMD");
  r = run_cli({"hw", "list", "--kind", "tpu"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tpu-v5e"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("197 TFLOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("819 GB/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("h100-sxm"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("5 of "), std::string::npos) << r.out;  // v4, v5e, v5p, v6e, v7
  r = run_cli({"hw", "list", "--kind", "fpga"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--kind: expected gpu, cpu, tpu, accelerator or soc (got 'fpga')"),
            std::string::npos)
      << r.err;
}

std::set<std::string> names_of(const std::string& out) {
  std::set<std::string> names;
  for (const auto& e : json::parse(out)) names.insert(e["name"].get<std::string>());
  return names;
}

TEST(CliHw, ListFiltersByYearMemorySearchAndKind) {
  // --year: one year, a range, an open end; every row is checked against its release year.
  auto r = run_cli({"hw", "list", "--year", "2025", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto names = names_of(r.out);
  for (const char* n :
       {"gb300", "mi355x", "rtx-5090", "rtx-pro-6000-blackwell", "tpu-v7", "jetson-agx-thor"})
    EXPECT_TRUE(names.count(n)) << n;
  for (const auto& e : json::parse(r.out)) EXPECT_EQ(e["release_year"], 2025) << e["name"];
  r = run_cli({"hw", "list", "--year", "2017-2020", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_of(r.out),
            (std::set<std::string>{"v100-sxm2", "a100-40gb", "a100-80gb", "rtx-a6000"}));
  r = run_cli({"hw", "list", "--year", "-2017", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_of(r.out), (std::set<std::string>{"v100-sxm2"}));
  // --memory-min N (GB): main memory of at least N; entries without a size (server CPUs) drop.
  r = run_cli({"hw", "list", "--memory-min", "256", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_of(r.out),
            (std::set<std::string>{"mi325x", "mi355x", "gb300", "grace-cpu-superchip"}));
  for (const auto& e : json::parse(r.out)) EXPECT_GE(e["memory_size"].get<double>(), 256e9);
  r = run_cli({"hw", "list", "--memory-min", "1 TB", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(json::parse(r.out).empty());
  // Filters combine: NVIDIA GPUs of 2024 and later with 180 GB or more.
  r = run_cli({"hw", "list", "--vendor", "NVIDIA", "--kind", "gpu", "--year", "2024-",
               "--memory-min", "180 GB", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_of(r.out), (std::set<std::string>{"b200", "gb200", "gb300"}));
  // --search: a name fragment, an alias or the display name.
  r = run_cli({"hw", "list", "--search", "gh200", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_of(r.out), (std::set<std::string>{"gh200-96gb", "gh200-144gb"}));
  r = run_cli({"hw", "list", "--search", "Ironwood", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_of(r.out), (std::set<std::string>{"tpu-v7"}));
  r = run_cli({"hw", "list", "--search", "Lunar Lake"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("core-ultra-9-288v"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 of "), std::string::npos) << r.out;
  // The edge SoCs count in OP/s.
  r = run_cli({"hw", "list", "--kind", "soc"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("50 TOP/s"), std::string::npos) << r.out;  // Ryzen AI 300 NPU, in OP/s
  r = run_cli({"hw", "list", "--kind", "soc", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_of(r.out),
            (std::set<std::string>{"apple-m3-max", "apple-m4-max", "core-ultra-9-288v",
                                   "jetson-agx-orin-64gb", "jetson-agx-thor", "ryzen-ai-9-hx-370",
                                   "snapdragon-x-elite"}));
  // Bad values: exit 2, the flag named, nothing listed.
  r = run_cli({"hw", "list", "--year", "20x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--year: expected YEAR, FROM-TO, FROM- or -TO"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  r = run_cli({"hw", "list", "--memory-min", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--memory-min"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(CliHw, ShowPrintsTheSourceOfEveryValue) {
  auto r = run_cli({"hw", "show", "b200"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nSources\n"), std::string::npos) << r.out;
  // Release year, power and the per-link latency, each with its document.
  EXPECT_NE(r.out.find("NVIDIA press release, 18 March 2024 (GTC 2024)"), std::string::npos);
  EXPECT_NE(r.out.find("HGX B200 max TDP up to 1,000 W per GPU"), std::string::npos);
  const size_t lat = r.out.find("NVLink latency");
  ASSERT_NE(lat, std::string::npos) << r.out;
  const std::string lat_line = r.out.substr(lat, r.out.find('\n', lat) - lat);
  EXPECT_NE(lat_line.find("unknown"), std::string::npos) << lat_line;
  EXPECT_NE(lat_line.find("no per-link latency"), std::string::npos) << lat_line;
  // The disagreement: both figures with their sources, the one used and why.
  EXPECT_NE(r.out.find("HBM3e bandwidth (disagreement)"), std::string::npos);
  EXPECT_NE(r.out.find("8 TB/s (192 GB)"), std::string::npos);
  EXPECT_NE(r.out.find("HBM3e bandwidth (used)"), std::string::npos);
  // Derived roofs show their rule.
  EXPECT_NE(r.out.find("theoretical: bf16 tensor sparse / 2"), std::string::npos) << r.out;
  // Values whose named source was not re-read are listed as such.
  r = run_cli({"hw", "show", "gh200-144gb"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("not re-read against their source in this revision: fp64 vector"),
            std::string::npos)
      << r.out;
}

TEST(CliHw, ShowNeverPrintsControlCharactersFromAFile) {
  TempDir dir;
  json j = json::parse(user_gpu());
  j["info"]["display_name"] = "Acme \u001b[2J One";
  j["compute"][0]["source"] = "spec\u001b]0;title\u0007";
  j["info"]["notes"] = {"note\u009b31m"};
  write_text(dir.file("my-gpu.json"), j.dump());
  auto r = run_cli({"hw", "show", dir.file("my-gpu.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(r.out.find('\x07'), std::string::npos);
  EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos);
  // Shown escaped by the one rule for text from files (roofline/sanitize.hpp).
  EXPECT_NE(r.out.find("Acme \\u001b[2J One"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("spec\\u001b]0;title\\u0007"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note\\u009b31m"), std::string::npos) << r.out;
}

// Two user entries answering to one alias: hw check names the clash, and the alias is refused
// rather than resolved to whichever file sorts first; each name still works.
TEST(CliHw, AnAliasOfTwoEntriesIsRefused) {
  TempDir dir;
  json j = json::parse(user_gpu());
  j["info"]["aliases"] = {"same-alias"};
  write_text(dir.file("box-one.json"), j.dump());
  write_text(dir.file("box-two.json"), j.dump());
  auto r = run_cli({"hw", "check", "--hw-dir", dir.path.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("box-two.json: 'same-alias' also names " + dir.file("box-one.json")),
            std::string::npos)
      << r.err;
  r = run_cli({"hw", "show", "Same_Alias", "--hw-dir", dir.path.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'Same_Alias' is an alias of both box-one (" + dir.file("box-one.json") +
                       ") and box-two (" + dir.file("box-two.json") + "): give the name"),
            std::string::npos)
      << r.err;
  r = run_cli({"hw", "show", "box-two", "--hw-dir", dir.path.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The catalogue itself answers each name and alias once.
  r = run_cli({"hw", "check"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // A copy of a catalogue entry (docs/hardware.md's way to add a machine) keeps its aliases:
  // checked by itself, it is checked against the catalogue beside it.
  const std::string l4 = std::string(ROOFLINE_SOURCE_DIR) + "/data/hardware/l4.json";
  std::filesystem::copy_file(l4, dir.file("my-l4.json"));
  r = run_cli({"hw", "check", dir.file("my-l4.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'nvidia-l4' also names"), std::string::npos) << r.err;
  // One file named twice is checked once, not found to clash with itself.
  r = run_cli({"hw", "check", l4, l4});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 catalogue file(s) valid"), std::string::npos) << r.out;
  // A changed copy under the entry's own name replaces that entry, checked by path as with
  // --hw-dir (by path it clashed with the aliases of the entry it replaces).
  TempDir own;
  json copy = json::parse(slurp(l4));
  copy["compute"][0]["peak"] = 1e12;
  write_text(own.file("l4.json"), copy.dump());
  r = run_cli({"hw", "check", own.file("l4.json")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"hw", "check", "--hw-dir", own.path.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliHw, ShowPrintsRoofsSourcesAndRidges) {
  auto r = run_cli({"hw", "show", "H100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("NVIDIA H100 SXM5 80GB (h100-sxm)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("boost clock 1980 MHz"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("989.4 TFLOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1.979 POP/s"), std::string::npos) << r.out;  // int8 counted in OP
  EXPECT_NE(r.out.find("H100 Tensor Core GPU Architecture whitepaper"), std::string::npos);
  EXPECT_NE(r.out.find("HBM3 (default)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("295.3 FLOP/byte"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sparse"), std::string::npos);
  EXPECT_NE(r.out.find("Caches (size only: no published bandwidth, so no roof): L2 50 MiB"),
            std::string::npos)
      << r.out;
  r = run_cli({"hw", "show", "h100-sxm", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["name"], "h100-sxm");
  bool found = false;
  for (const auto& p : j["ridges"]) {
    EXPECT_EQ(p["compute_roof"].get<std::string>().find("sparse"), std::string::npos);
    if (p["compute_roof"] == "bf16 tensor") {
      found = true;
      EXPECT_DOUBLE_EQ(p["ridge"].get<double>(), 989.4e12 / 3.35e12);
      EXPECT_EQ(p["memory_level"], "HBM3");
    }
  }
  EXPECT_TRUE(found);
  // Ridges against another level: NVLink as the slanted roof of a distributed point.
  r = run_cli({"hw", "show", "h100-sxm", "--level", "NVLink", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The parsed document is named: a range-for over a temporary's member would dangle.
  const json nvlink = json::parse(r.out);
  bool found_nvlink = false;
  for (const auto& p : nvlink["ridges"])
    if (p["compute_roof"] == "bf16 tensor") {
      found_nvlink = true;
      EXPECT_DOUBLE_EQ(p["ridge"].get<double>(), 989.4e12 / 900e9);
    }
  EXPECT_TRUE(found_nvlink);
}

TEST(CliHw, BadNamesExitTwoWithSuggestions) {
  auto r = run_cli({"hw", "show", "a100-8gb"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown machine 'a100-8gb'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("a100-80gb"), std::string::npos) << r.err;
  r = run_cli({"hw", "compare", "h100-sxm", "h1000", "--at", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("h100"), std::string::npos) << r.err;
  r = run_cli({"hw", "compare", "h100-sxm", "--at", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("at least two machines"), std::string::npos) << r.err;
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--at INTENSITY or --point"), std::string::npos) << r.err;
  r = run_cli({"hw", "compare", "h100-sxm", "tpu-v5e", "--at", "1", "--precision", "fp64"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("has no compute roof for 'fp64'"), std::string::npos) << r.err;
}

// docs/model.md §7: left of both ridges the ratio is the bandwidth ratio, right of both the peak
// ratio.
TEST(CliHw, CompareRegimes) {
  auto r = run_cli(
      {"hw", "compare", "a100-80gb", "h100-sxm", "--at", "1.0", "--precision", "bf16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["intensity"].get<double>(), 1.0);
  ASSERT_EQ(j["machines"].size(), 2u);
  EXPECT_EQ(j["machines"][0]["machine"], "a100-80gb");
  EXPECT_DOUBLE_EQ(j["machines"][0]["attainable"].get<double>(), 2.039e12);
  EXPECT_DOUBLE_EQ(j["machines"][1]["attainable"].get<double>(), 3.35e12);
  EXPECT_DOUBLE_EQ(j["machines"][1]["ratio"].get<double>(), 3.35 / 2.039);
  EXPECT_EQ(j["machines"][1]["regime"], "bandwidth ratio");
  EXPECT_EQ(j["machines"][1]["compute_roof"], "bf16 tensor");
  // The first machine is the reference: its ratio to itself has no regime (it said "bandwidth
  // ratio", and the terminal chart printed it).
  EXPECT_EQ(j["machines"][0]["regime"], "reference");
  const auto chart = run_cli({"plot", "a100-80gb", "--compare", "h100-sxm", "--at", "1",
                              "--precision", "bf16", "--terminal"});
  ASSERT_EQ(chart.exit_code, 0) << chart.err;
  EXPECT_EQ(chart.out.find("bandwidth ratio"), chart.out.rfind("bandwidth ratio")) << chart.out;
  EXPECT_NE(chart.out.find("bandwidth ratio"), std::string::npos) << chart.out;

  r = run_cli(
      {"hw", "compare", "a100-80gb", "h100-sxm", "--at", "1000", "--precision", "bf16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["machines"][1]["ratio"].get<double>(), 989.4 / 312);
  EXPECT_EQ(j["machines"][1]["regime"], "peak ratio");

  // I = 200: right of A100's ridge (153), left of H100's (295).
  r = run_cli(
      {"hw", "compare", "a100-80gb", "h100-sxm", "--at", "200", "--precision", "bf16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_EQ(j["machines"][0]["side"], "compute");
  EXPECT_EQ(j["machines"][1]["side"], "memory");
  EXPECT_DOUBLE_EQ(j["machines"][1]["ratio"].get<double>(), 3.35e12 * 200 / 312e12);
  EXPECT_EQ(j["machines"][1]["regime"], "mixed");

  r = run_cli(
      {"hw", "compare", "a100-80gb", "h100-sxm", "mi300x", "--at", "1", "--precision", "bf16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("At I = 1 FLOP/byte (precision bf16)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("h100-sxm vs a100-80gb: 1.643x best-case speedup (bandwidth ratio"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("mi300x vs a100-80gb: 2.599x"), std::string::npos) << r.out;
  // The slower machine against the faster: a slowdown, said so with the inverse ratio
  // (2.039 / 3.35 TB/s at I = 1, both memory-bound).
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--at", "1", "--precision", "bf16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("a100-80gb vs h100-sxm: 0.6087x: a best-case slowdown (h100-sxm is "
                       "1.643x faster) (bandwidth ratio"),
            std::string::npos)
      << r.out;
  // Against an interconnect roof: a distributed point judged on NVLink.
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--at", "10", "--precision", "bf16",
               "--level", "NVLink", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["machines"][1]["ratio"].get<double>(), 1.5);
  EXPECT_EQ(j["machines"][1]["memory_level"], "NVLink");
}

TEST(CliHw, CompareSaysBandwidthRunsAreNoPoints) {
  // A document of `roofline run`'s copy runs alone (W = 0): refused as holding bandwidth runs,
  // not points (it said "has no points to compare"); beside a point, each is said not compared.
  TempDir dir;
  const json copy = {{"kernel", "copy"}, {"level", "DRAM"}, {"variant", ""}, {"bandwidth", 2e10}};
  json doc = {{"schema", "roofline.points"},
              {"version", 1},
              {"points", json::array()},
              {"run", {{"bandwidth_only", {copy, copy}}}}};
  doc["run"]["bandwidth_only"][1]["level"] = "L1";
  write_text(dir.file("copy.json"), doc.dump());
  auto r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("copy.json")});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("hw compare: " + dir.file("copy.json") +
                       " has no points to compare: its 2 runs are bandwidth runs (no arithmetic, "
                       "W = 0, so no intensity to compare at), not points"),
            std::string::npos)
      << r.err;
  doc["run"]["bandwidth_only"].erase(1);
  write_text(dir.file("one.json"), doc.dump());
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("one.json")});
  EXPECT_NE(r.err.find("its one run is a bandwidth run (no arithmetic"), std::string::npos)
      << r.err;
  doc["points"] = json::parse(R"([{"name": "k", "work": 1e12, "traffic": 1e9, "time": 1}])");
  write_text(dir.file("mixed.json"), doc.dump());
  r = run_cli(
      {"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("mixed.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).size(), 1u) << r.out;
  EXPECT_NE(r.err.find("roofline: note: " + dir.file("mixed.json") +
                       ": copy @DRAM does no arithmetic (W = 0, so I = W/Q = 0): a bandwidth run "
                       "(Q/T = 20 GB/s), not a point: not compared\n"),
            std::string::npos)
      << r.err;
}

TEST(CliHw, CompareAtPointsFromADocument) {
  TempDir dir;
  write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "decode", "work": 1.4e10, "traffic": 1.4e10, "time": 0.01, "precision": "bf16"},
    {"name": "prefill", "work": 1e15, "traffic": 1e12, "time": 1}]})");
  auto r =
      run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("p.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["point"], "decode");
  EXPECT_DOUBLE_EQ(j[0]["intensity"].get<double>(), 1.0);
  EXPECT_EQ(j[0]["machines"][1]["regime"], "bandwidth ratio");
  // The second point names no precision: each machine's default roof (fp32 vector).
  EXPECT_DOUBLE_EQ(j[1]["intensity"].get<double>(), 1000);
  EXPECT_EQ(j[1]["machines"][0]["compute_roof"], "fp32 vector");
  EXPECT_DOUBLE_EQ(j[1]["machines"][1]["ratio"].get<double>(), 66.9 / 19.5);
  // Only the level compared matters: a point's other levels may be ones a machine lacks (an L2
  // count beside NVLink's, compared at NVLink; a CPU point's L2 beside its DRAM on GPUs).
  write_text(dir.file("levels.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e12, "time": 1, "traffic": {"NVLink": 1e9, "L2": 1e10}}]})");
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("levels.json"),
               "--level", "NVLink", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_DOUBLE_EQ(json::parse(r.out)[0]["intensity"].get<double>(), 1000);
  write_text(dir.file("cpu.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e12, "time": 1, "traffic": {"DRAM": 1e10, "L2": 1e11}}]})");
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("cpu.json")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // W in OP (a "2 TOP" string) is compared on each machine's int8 roof, as `point` judges it;
  // it was compared on the fp32 vector roofs, 3.431x at "2000 FLOP/byte".
  write_text(dir.file("op.json"), R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "int8 gemm", "work": "2 TOP", "traffic": 1e9, "time": 0.01}]})");
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("op.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json op = json::parse(r.out)[0];
  EXPECT_EQ(op["machines"][0]["compute_roof"], "int8 tensor");
  EXPECT_EQ(op["machines"][1]["compute_roof"], "int8 tensor");
  EXPECT_DOUBLE_EQ(op["machines"][1]["ratio"].get<double>(), 1978.9e12 / 624e12);
  // A FLOP roof named for it is refused, naming the point and the roof.
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--point", dir.file("op.json"),
               "--precision", "fp16"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("point 'int8 gemm': W counts OP, but roof 'fp16 tensor'"), std::string::npos)
      << r.err;
}

// A file here named as a catalogue entry stood in for it unsaid (a gate passed on a fake
// h100-sxm): the bare name is refused as ambiguous; ./NAME is the file, another name loads.
TEST(CliHw, AFileHereNamedAsACatalogueEntryIsAmbiguous) {
  TempDir dir;
  const std::string fake = R"({"schema": "roofline.machine", "version": 1, "name": "fake",
    "compute": [{"name": "fp32 vector", "precision": "fp32", "peak": 5e13}],
    "memory": [{"level": "HBM3", "bandwidth": 3.35e12}]})";
  write_text(dir.file("h100-sxm"), fake);
  write_text(dir.file("mine"), fake);
  const std::string here = "cd " + dir.path.string() + " &&";
  auto r = run_cli({"hw", "show", "h100-sxm"}, here);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'h100-sxm' is both a file here and the catalogue's h100-sxm"),
            std::string::npos)
      << r.err;
  r = run_cli({"point", "-W", "1e12", "-Q", "1e9", "-T", "1", "--hw", "h100"}, here);
  EXPECT_EQ(r.exit_code, 0) << r.err;  // no file named h100 here: the catalogue's alias
  // A folder of that name (results kept by GPU) is no machine file: the catalogue's.
  std::filesystem::create_directory(dir.file("a100"));
  r = run_cli({"point", "-W", "1e12", "-Q", "1e9", "-T", "1", "--hw", "a100"}, here);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"hw", "show", "./h100-sxm", "--json"}, here);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["name"], "fake");
  r = run_cli({"hw", "show", "mine", "--json"}, here);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["name"], "fake");
}

TEST(CliHw, ALinkLatencyReadsAlikeInShowCheckAndLlm) {
  // One reader (machine_facts) for hw show, hw check and llm: each spelling read by one is read
  // by all, and two spellings of the latency given together are refused naming both.
  TempDir dir;
  json h100 = json::parse(slurp(kCatalogue + "/h100-sxm.json"));
  h100["name"] = "mine";
  h100["info"]["aliases"] = json::array();
  auto& link = h100["info"]["interconnects"][0];
  ASSERT_EQ(link["name"], "NVLink");
  link.erase("latency");
  for (const auto& [key, value] : std::vector<std::pair<std::string, json>>{
           {"latency_us", 5}, {"latency", "5 us"}, {"latency_ns", 5000}}) {
    json m = h100;
    m["info"]["interconnects"][0][key] = value;
    write_text(dir.file("mine.json"), m.dump());
    auto r = run_cli({"hw", "show", dir.file("mine.json")}, "NO_COLOR=1");
    ASSERT_EQ(r.exit_code, 0) << key << ": " << r.err;
    const auto row = r.out.find("NVLink latency");
    ASSERT_NE(row, std::string::npos) << key << ":\n" << r.out;
    EXPECT_NE(r.out.substr(row, r.out.find('\n', row) - row).find(" 5 us "), std::string::npos)
        << key << ":\n"
        << r.out;
    r = run_cli({"hw", "check", dir.file("mine.json")});
    EXPECT_EQ(r.exit_code, 0) << key << ": " << r.out << r.err;
    r = run_cli(
        {"llm", "--model", "llama-2-7b", "--hw", dir.file("mine.json"), "--tp", "2", "--json"});
    ASSERT_EQ(r.exit_code, 0) << key << ": " << r.err;
  }
  json both = h100;
  both["info"]["interconnects"][0]["latency"] = 1e-6;
  both["info"]["interconnects"][0]["latency_ns"] = 500;
  write_text(dir.file("mine.json"), both.dump());
  const std::string said =
      "info.interconnects[NVLink]: latency and latency_ns are two spellings "
      "of one field: give one";
  auto r = run_cli({"hw", "check", dir.file("mine.json")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE((r.out + r.err).find(said), std::string::npos) << r.out << r.err;
  r = run_cli({"llm", "--model", "llama-2-7b", "--hw", dir.file("mine.json"), "--tp", "2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
}

TEST(CliHw, RidgesAtALevelNameTheMachinesWithoutIt) {
  // A machine without the --level roof is left out and named under the table, as one without
  // the precision is; the run goes on (it stopped at the first, mi250x, exit 2).
  auto r = run_cli({"hw", "ridges", "--level", "NVLink", "--kind", "gpu"}, "NO_COLOR=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("h100-sxm"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not listed (no memory roof 'NVLink'): "), std::string::npos) << r.out;
  const std::string listed = r.out.substr(r.out.find("not listed (no memory roof"));
  for (const char* name : {"mi250x", "mi300x", "l4", "rtx-4090"})
    EXPECT_NE(listed.find(name), std::string::npos) << name << ": " << listed;
  EXPECT_EQ(listed.find("h100-sxm"), std::string::npos) << listed;
  r = run_cli({"hw", "ridges", "--level", "NVLink", "--kind", "gpu", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("roofline: note: not listed (no memory roof 'NVLink'): "), std::string::npos)
      << r.err;
  r = run_cli({"hw", "ridges", "--level", "no-such-level"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--level: no machine has a memory roof 'no-such-level'"), std::string::npos)
      << r.err;
}

TEST(CliHw, RidgesTakeASparseRoofByItsName) {
  // As hw compare takes it (docs/hardware.md: a sparse roof is chosen by its own name).
  const auto r = run_cli({"hw", "ridges", "--precision", "fp16 tensor sparse", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json rows = json::parse(r.out);
  const json h100 = json::parse(slurp(kCatalogue + "/h100-sxm.json"));
  double sparse = 0;
  for (const auto& c : h100["compute"])
    if (c["name"] == "fp16 tensor sparse") sparse = c["peak"].get<double>();
  ASSERT_GT(sparse, 0);
  bool seen = false;
  for (const auto& row : rows) {
    if (row["name"] != "h100-sxm") continue;
    seen = true;
    const json& ridge = row["ridges"]["fp16 tensor sparse"];
    EXPECT_EQ(ridge["compute_roof"], "fp16 tensor sparse") << row.dump();
    EXPECT_EQ(ridge["peak"].get<double>(), sparse) << row.dump();
    EXPECT_DOUBLE_EQ(ridge["ridge"].get<double>(), sparse / ridge["bandwidth"].get<double>());
  }
  EXPECT_TRUE(seen) << r.out.substr(0, 600);
  // The text names the roof taken, a sparse one by its name (it said "highest dense roof"), and
  // the machines left out as having no roof of that name.
  const auto t = run_cli({"hw", "ridges", "--precision", "fp16 tensor sparse"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_EQ(t.out.rfind("Ridge points I* = peak / bandwidth (FLOP/byte; OP/byte for integer "
                        "roofs), sparse roof 'fp16 tensor sparse' against main memory, by "
                        "release year (docs/model.md §8)\n",
                        0),
            0u)
      << t.out.substr(0, 300);
  EXPECT_EQ(t.out.find("dense roof of each"), std::string::npos) << t.out.substr(0, 300);
  EXPECT_NE(t.out.find("\nnot listed (no roof named fp16 tensor sparse): v100-sxm2, "),
            std::string::npos)
      << t.out;
}

TEST(CliHw, RidgesReproduceTheSeedTrajectory) {
  auto r = run_cli({"hw", "ridges", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  int last_year = 0;
  std::map<std::string, double> sixteen;
  for (const auto& e : j) {
    EXPECT_GE(e["release_year"].get<int>(), last_year);
    last_year = e["release_year"].get<int>();
    if (!e["ridges"]["bf16/fp16"].is_null())
      sixteen[e["name"]] = e["ridges"]["bf16/fp16"]["ridge"].get<double>();
  }
  EXPECT_EQ(std::lround(sixteen["v100-sxm2"]), 139);
  EXPECT_NEAR(sixteen["a100-80gb"], 156, 3.2);
  EXPECT_EQ(std::lround(sixteen["h100-sxm"]), 295);
  EXPECT_NEAR(sixteen["tpu-v5e"], 240, 1);
  EXPECT_EQ(j.front()["name"], "v100-sxm2");  // 2017, the oldest

  r = run_cli({"hw", "ridges", "--precision", "bf16", "--csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(
      r.out.rfind(
          "name,vendor,kind,release_year,group,compute_roof,peak,memory_level,bandwidth,ridge,"
          "ridge_unit\n",
          0),
      0u);
  EXPECT_NE(
      r.out.find(
          "h100-sxm,NVIDIA,gpu,2022,bf16,bf16 tensor,9.894e+14,HBM3,3.35e+12,295.343,FLOP/byte"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("v100-sxm2"), std::string::npos) << "V100 has no bf16 roof";
  // An integer roof's I* is OP/byte (A100 int8 tensor 624 TOP/s over 1.555 TB/s).
  r = run_cli({"hw", "ridges", "--precision", "int8", "--csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("a100-40gb,NVIDIA,gpu,2020,int8,int8 tensor,6.24e+14,HBM2,1.555e+12,401.286,"
                       "OP/byte"),
            std::string::npos)
      << r.out;

  r = run_cli({"hw", "ridges"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("I* bf16/fp16"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("138.9"), std::string::npos) << r.out;
  // The fp8/int8 column holds a100-80gb's int8 ridge in OP/byte beside h100-sxm's fp8 in
  // FLOP/byte: the OP cells are starred and the footnote says so (they read alike).
  EXPECT_NE(r.out.find("  306*\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  590.7\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("* OP/byte: the group's highest dense roof is an integer one"),
            std::string::npos)
      << r.out;
  // RTX 5090's only fp16 tensor roof accumulates in fp16 (twice the fp32-accumulate rate that
  // frameworks get): its cell is marked, where it read 233.9 beside RTX 4090's fp32-accumulate
  // 163.9 as a 43% rise. RTX 4090's own cell (its bf16 roof accumulates in fp32) is not.
  const auto row_of = [&](const std::string& name) {
    const auto at = r.out.find("  " + name + " ");
    return at == std::string::npos ? std::string() : r.out.substr(at, r.out.find('\n', at) - at);
  };
  EXPECT_NE(row_of("rtx-5090").find("233.9†"), std::string::npos) << row_of("rtx-5090");
  EXPECT_NE(row_of("rtx-4090").find("163.9"), std::string::npos) << row_of("rtx-4090");
  EXPECT_EQ(row_of("rtx-4090").find("163.9†"), std::string::npos) << row_of("rtx-4090");
  EXPECT_NE(r.out.find("† the device's only roof of the group accumulates narrower than fp32"),
            std::string::npos)
      << r.out;
  // A device with none of the four (Apple's published roof is its NPU's TOPS) is named, where
  // it was dropped without a word.
  EXPECT_NE(r.out.find("not listed (no dense roof of fp64, fp32, bf16/fp16, fp8/int8): "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("apple-m3-max"), std::string::npos) << r.out;
  // In the JSON and CSV, which hold the rows alone, they are said on stderr.
  for (const char* format : {"--json", "--csv"}) {
    r = run_cli({"hw", "ridges", format});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("roofline: note: not listed (no dense roof of fp64, fp32, bf16/fp16, "
                         "fp8/int8): apple-m3-max"),
              std::string::npos)
        << r.err;
  }
  // A copy of a catalogue file added is that machine, one row (it was listed twice).
  {
    TempDir d;
    std::filesystem::copy_file(std::string(ROOFLINE_SOURCE_DIR) + "/data/hardware/h100-sxm.json",
                               d.file("h100copy.json"));
    r = run_cli({"hw", "ridges", "--add", d.file("h100copy.json"), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    int rows = 0;
    for (const auto& e : json::parse(r.out))
      if (e["name"] == "h100-sxm" ||
          e["name"].get<std::string>().find("h100copy") != std::string::npos)
        ++rows;
    EXPECT_EQ(rows, 1) << r.out;
  }

  r = run_cli({"hw", "ridges", "--precision", "fp3"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_cli({"hw", "ridges", "--kind", "gpus"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--kind: expected gpu, cpu, tpu, accelerator or soc (got 'gpus')"),
            std::string::npos)
      << r.err;
  r = run_cli({"hw", "ridges", "--kind", "tpu", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).size(), 5u);
}

// An installed tree moved elsewhere finds its own catalogue: PREFIX/bin/roofline reads
// PREFIX/share/roofline/hardware (it found only the paths fixed at build time).
TEST(CliHw, ARelocatedInstallReadsItsOwnCatalogue) {
  namespace fs = std::filesystem;
  TempDir dir;
  fs::create_directories(dir.path / "bin");
  fs::create_directories(dir.path / "share" / "roofline" / "hardware");
  fs::copy_file(ROOFLINE_CLI_PATH, dir.path / "bin" / "roofline");
  write_text((dir.path / "share" / "roofline" / "hardware" / "my-gpu.json").string(), user_gpu());
  const std::string out = dir.file("out.txt");
  const std::string cmd =
      "'" + (dir.path / "bin" / "roofline").string() + "' hw show my-gpu > '" + out + "' 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << slurp(out);
  EXPECT_NE(slurp(out).find("Acme One (my-gpu)"), std::string::npos) << slurp(out);
}

TEST(CliHw, UserDirectoryFlagAndEnvironment) {
  TempDir dir;
  write_text(dir.file("my-gpu.json"), user_gpu());
  auto r = run_cli({"hw", "show", "my-gpu", "--hw-dir", dir.path.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_DOUBLE_EQ(json::parse(r.out)["ridges"][0]["ridge"].get<double>(), 10.0);
  r = run_cli({"hw", "show", "ACME-1"}, "ROOFLINE_HW_PATH=" + dir.path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Acme One (my-gpu)"), std::string::npos) << r.out;
  r = run_cli({"hw", "list", "--vendor", "acme", "--json"},
              "ROOFLINE_HW_PATH=/nonexistent:" + dir.path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(json::parse(r.out).size(), 1u);
  r = run_cli({"hw", "compare", "my-gpu", "a100-80gb", "--at", "0.5", "--hw-dir", dir.path.string(),
               "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_DOUBLE_EQ(json::parse(r.out)["machines"][1]["ratio"].get<double>(), 2.039);
  r = run_cli({"hw", "check", "--hw-dir", dir.path.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Without the directory the name is unknown.
  r = run_cli({"hw", "show", "my-gpu"});
  EXPECT_EQ(r.exit_code, 2);
  // A broken user file is reported, and the rest of the catalogue still lists.
  write_text(dir.file("broken.json"), "{\"schema\": \"roofline.machine\"");
  r = run_cli({"hw", "list", "--hw-dir", dir.path.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("broken.json"), std::string::npos) << r.err;
  EXPECT_GE(json::parse(r.out).size(), 48u);
}

TEST(CliHw, MachineDocumentPathWorksLikeAName) {
  TempDir dir;
  write_text(dir.file("measured.json"), user_gpu());
  auto r =
      run_cli({"hw", "compare", dir.file("measured.json"), "h100-sxm", "--at", "0.25", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["machines"][0]["machine"], "my-gpu");
  EXPECT_DOUBLE_EQ(j["machines"][1]["ratio"].get<double>(), 3.35);
  r = run_cli({"hw", "show", dir.file("measured.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("10 FLOP/byte"), std::string::npos) << r.out;
  r = run_cli(
      {"hw", "ridges", "--add", dir.file("measured.json"), "--precision", "fp32", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).back()["name"], "my-gpu");  // 2030 sorts last
  // A machine added twice, or a catalogue entry added, is one row (a100 was listed three times
  // with --add a100 --add a100).
  const size_t rows = json::parse(r.out).size();
  r = run_cli({"hw", "ridges", "--add", dir.file("measured.json"), "--add",
               dir.file("measured.json"), "--add", "a100", "--precision", "fp32", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).size(), rows) << r.out;
  // Two files of one document name (before and after a change) are two machines, two rows; a
  // byte-for-byte copy is the same document, one row (as plot --compare and hw compare take it).
  std::filesystem::copy_file(dir.file("measured.json"), dir.file("copy.json"));
  r = run_cli({"hw", "ridges", "--add", dir.file("measured.json"), "--add", dir.file("copy.json"),
               "--precision", "fp32", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).size(), rows) << r.out;
  {
    // The same machine measured again after a change: another bandwidth.
    std::string after = user_gpu();
    after.replace(after.find("\"1 TB/s\""), 8, "\"1.2 TB/s\"");
    write_text(dir.file("after.json"), after);
  }
  r = run_cli({"hw", "ridges", "--add", dir.file("measured.json"), "--add", dir.file("after.json"),
               "--precision", "fp32", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json both = json::parse(r.out);
  ASSERT_EQ(both.size(), rows + 1) << r.out;
  // Told apart by file name, as diff and plot --compare tell them (two rows read "my-gpu"), with
  // each one's ridge: 10 TFLOP/s over 1 TB/s = 10, over 1.2 TB/s = 8.333 FLOP/byte.
  const auto ridge_of = [&](const std::string& name) {
    for (const auto& e : both)
      if (e["name"] == name) return e["ridges"]["fp32"]["ridge"].get<double>();
    ADD_FAILURE() << name << " not in " << both.dump();
    return 0.0;
  };
  EXPECT_DOUBLE_EQ(ridge_of("my-gpu (measured.json)"), 10.0);
  EXPECT_NEAR(ridge_of("my-gpu (after.json)"), 10.0 / 1.2, 1e-12);
  // The table and a chart's "not drawn" line name them so: one measured without a release year.
  json undated = json::parse(user_gpu());
  undated["info"].erase("release_year");
  undated["info"].erase("release_source");
  write_text(dir.file("m1.json"), undated.dump());
  undated["memory"][0]["bandwidth"] = "2 TB/s";
  write_text(dir.file("m2.json"), undated.dump());
  r = run_cli({"hw", "ridges", "--add", dir.file("m1.json"), "--add", dir.file("m2.json"),
               "--precision", "fp32", "--report", dir.file("rid.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("my-gpu (m1.json)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("my-gpu (m2.json)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("not drawn (no release year): my-gpu (m1.json), my-gpu (m2.json)"),
            std::string::npos)
      << r.err;
}

TEST(CliHw, CheckValidatesTheCatalogueAndRejectsBadFiles) {
  auto r = run_cli({"hw", "check"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("catalogue file(s) valid"), std::string::npos);
  TempDir dir;
  json j = json::parse(user_gpu());
  j["compute"][0].erase("source");
  write_text(dir.file("my-gpu.json"), j.dump());
  r = run_cli({"hw", "check", dir.file("my-gpu.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("compute roof 'fp32 vector' has no source"), std::string::npos) << r.err;
  // power_w as every loader reads it: watts, or a text with a power unit (docs/hardware.md);
  // "72 W" was refused by hw check alone.
  json p = json::parse(user_gpu());
  for (const auto& [power, ok] : std::vector<std::pair<json, bool>>{{json("72 W"), true},
                                                                    {json("0.072 kW"), true},
                                                                    {json(72), true},
                                                                    {json(nullptr), true},
                                                                    {json("72 GB"), false},
                                                                    {json("-5 W"), false},
                                                                    {json(0), false},
                                                                    {json(true), false}}) {
    p["info"]["power_w"] = power;
    write_text(dir.file("my-gpu.json"), p.dump());
    r = run_cli({"hw", "check", dir.file("my-gpu.json")});
    EXPECT_EQ(r.exit_code, ok ? 0 : 2) << power << ": " << r.err;
    EXPECT_EQ(r.err.find("info.power_w must be a power from 1 mW to 10 MW") != std::string::npos,
              !ok)
        << power << ": " << r.err;
  }
}

// The V100 has no bf16 roof: bf16/fp16 takes its fp16 tensor roof and H100's bf16 tensor roof,
// as `hw ridges` does.
TEST(CliHw, ComparePrecisionAlternativesAsInRidges) {
  auto r = run_cli({"hw", "compare", "v100-sxm2", "h100-sxm", "--at", "1000", "--precision",
                    "bf16/fp16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["machines"][0]["compute_roof"], "fp16 tensor");
  EXPECT_EQ(j["machines"][1]["compute_roof"], "bf16 tensor");
  EXPECT_DOUBLE_EQ(j["machines"][0]["attainable"].get<double>(), 125e12);
  EXPECT_DOUBLE_EQ(j["machines"][1]["ratio"].get<double>(), 989.4 / 125);
  EXPECT_EQ(j["machines"][1]["regime"], "peak ratio");
  EXPECT_TRUE(r.err.empty()) << r.err;
  r = run_cli({"hw", "compare", "v100-sxm2", "h100-sxm", "--at", "1", "--precision", "bf16/fp16",
               "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["machines"][1]["ratio"].get<double>(), 3.35 / 0.9);
  EXPECT_EQ(j["machines"][1]["regime"], "bandwidth ratio");
  // A single precision the V100 lacks is still an error naming the machine and its roofs.
  r = run_cli({"hw", "compare", "v100-sxm2", "h100-sxm", "--at", "1", "--precision", "bf16"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("machine 'v100-sxm2' has no compute roof for 'bf16' (dense roofs: fp64 "
                       "vector, fp32 vector, fp16 vector, fp16 tensor)"),
            std::string::npos)
      << r.err;
}

TEST(CliHw, IntegerRoofsSpeakOfOperationsInShowCompareAndDiff) {
  // gb300's seven peaks are a vendor's figures from a third party's table: show says so.
  auto r = run_cli({"hw", "show", "gb300"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t fp32 = r.out.find("fp32 vector ");
  ASSERT_NE(fp32, std::string::npos) << r.out;
  EXPECT_NE(r.out.substr(fp32, r.out.find('\n', fp32) - fp32).find("reported by a third party"),
            std::string::npos)
      << r.out;
  // An int8 roof's intensity is in OP/byte, in the heading as in the rows.
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--precision", "int8", "--at", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("At I = 100 OP/byte", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find("FLOP"), std::string::npos) << r.out;
  // diff: 1979 TOP/s → 624 TOP/s, never FLOP/s.
  r = run_cli({"diff", "h100-sxm", "a100-80gb"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("compute int8 tensor: 1.979 POP/s → 624 TOP/s"), std::string::npos) << r.out;
  // A measured Sapphire Rapids-class VM (tests/data/io/README.md) against the catalogue's Xeon
  // 8480+: the AMX roofs meet under their two names, int8 in OP/s.
  const std::string spr = std::string(ROOFLINE_TEST_DATA) + "/io/sapphire-class-quick.machine.json";
  r = run_cli({"diff", spr, "xeon-platinum-8480plus"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto line = r.out.find(
      "compute int8 AMX tile dot → int8 amx (highest int8 matrix-engine "
      "roofs): ");
  ASSERT_NE(line, std::string::npos) << r.out;
  const std::string row = r.out.substr(line, r.out.find('\n', line) - line);
  EXPECT_NE(row.find("TOP/s → 229.4 TOP/s"), std::string::npos) << row;
  EXPECT_EQ(row.find("FLOP"), std::string::npos) << row;
}

TEST(CliHw, CompareSaysWhenARatioIsOfOpToFlop) {
  // fp8/int8: h100's fp8 tensor (FLOP/s) against a100's int8 tensor (OP/s). The heading said
  // "At I = 100 FLOP/byte" and the ratio 0.6087x read as of one kind of work.
  auto r =
      run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--at", "100", "--precision", "fp8/int8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("At I = 100 FLOP/byte on the FLOP/s roofs, OP/byte on the OP/s ones", 0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("1.979 PFLOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("624 TOP/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0.6087x *"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OP/s over FLOP/s: see *"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("* the roofs count different work: a100-80gb's 'int8 tensor' (OP/s) "
                       "against h100-sxm's 'fp8 tensor' (FLOP/s)"),
            std::string::npos)
      << r.out;
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--at", "100", "--precision", "fp8/int8",
               "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["machines"][0]["units"]["performance"], "FLOP/s");
  EXPECT_EQ(j["machines"][1]["units"]["performance"], "OP/s");
  EXPECT_NE(j["note"].get<std::string>().find("count different work"), std::string::npos);
  // Roofs of one kind: no note.
  r = run_cli({"hw", "compare", "h100-sxm", "a100-80gb", "--at", "100", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(json::parse(r.out).contains("note"));
}

TEST(CliHw, CompareWarnsWhenDefaultRoofsDifferInPrecision) {
  auto r = run_cli({"hw", "compare", "v100-sxm2", "tpu-v5e", "--at", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("roofline: warning: comparing different precisions (v100-sxm2 fp32 vector, "
                       "tpu-v5e bf16 mxu); give --precision bf16/fp16 to compare like with like"),
            std::string::npos)
      << r.err;
  // Like with like: no warning.
  r = run_cli({"hw", "compare", "v100-sxm2", "tpu-v5e", "--at", "1", "--precision", "bf16/fp16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  r = run_cli({"hw", "compare", "a100-80gb", "h100-sxm", "--at", "1"});  // both fp32 vector
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  // A points document: a point without a precision falls back to the defaults, and is named.
  TempDir dir;
  write_text(dir.file("p.json"), R"({"schema": "roofline.points", "version": 1,
    "points": [{"name": "prefill", "work": 1e15, "traffic": 1e12, "time": 1},
               {"name": "decode", "work": 1e10, "traffic": 1e10, "time": 1, "precision": "bf16"}]})");
  r = run_cli({"hw", "compare", "h100-sxm", "tpu-v5e", "--point", dir.file("p.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: prefill: comparing different precisions (h100-sxm fp32 vector, "
                       "tpu-v5e bf16 mxu); give --precision bf16/fp16"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("decode"), std::string::npos) << r.err;
}

// `plot --compare --at` drew the H100's fp32 roof against TPU v5e's bf16 one ("1.22x") unsaid,
// and --precision changed nothing: it compares as `hw compare` does, and warns as it does.
TEST(CliHw, PlotComparesAtThePrecisionHwCompareDoes) {
  TempDir dir;
  auto r = run_cli(
      {"plot", "h100-sxm", "--compare", "tpu-v5e", "--at", "100", "-o", dir.file("mixed.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --at: comparing different precisions (h100-sxm fp32 vector, "
                       "tpu-v5e bf16 mxu); give --precision bf16/fp16"),
            std::string::npos)
      << r.err;
  r = run_cli({"plot", "h100-sxm", "--compare", "tpu-v5e", "--at", "100", "--precision", "bf16",
               "-o", dir.file("bf16.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const json chart = json::parse(slurp(dir.file("bf16.json")));
  r = run_cli(
      {"hw", "compare", "h100-sxm", "tpu-v5e", "--at", "100", "--precision", "bf16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cmp = json::parse(r.out);
  EXPECT_EQ(chart["workload"]["machines"], cmp["machines"]);
  EXPECT_EQ(chart["workload"]["precision"], "bf16");
  // The H100 at I = 100 on bf16: β·I = 335 TFLOP/s; TPU v5e 81.9: 0.2445 of it (it read 1.22).
  EXPECT_DOUBLE_EQ(chart["workload"]["machines"][0]["attainable"].get<double>(), 335e12);
  EXPECT_NEAR(chart["workload"]["machines"][1]["ratio"].get<double>(), 81.9 / 335, 1e-12);
  EXPECT_EQ(chart["default_roofs"]["compute"], "bf16 tensor");
  // The form the warning suggests is taken (it was refused: "no compute roof for
  // 'bf16/fp16'"), and compares as the one precision does.
  r = run_cli({"plot", "h100-sxm", "--compare", "tpu-v5e", "--at", "100", "--precision",
               "bf16/fp16", "-o", dir.file("group.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(slurp(dir.file("group.json")))["workload"]["machines"], cmp["machines"]);
  // A sparse roof is never drawn as a default: refused, named.
  r = run_cli({"plot", "h100-sxm", "--compare", "a100-80gb", "--at", "10", "--precision",
               "fp16 tensor sparse", "-o", dir.file("sparse.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'fp16 tensor sparse' of h100-sxm is a sparse roof"), std::string::npos)
      << r.err;
}
// The RTX 5090 lists only its fp16-accumulate tensor rate (twice its fp32-accumulate one):
// compared with full-precision roofs its ratio is about 2x high, said (it read 2.54x unsaid).
TEST(CliHw, ANarrowAccumulateRoofAgainstFullOnesIsSaid) {
  const std::string said = "rtx-5090 fp16 tensor fp16-accumulate accumulates narrower than fp32";
  auto r = run_cli(
      {"hw", "compare", "rtx-4090", "rtx-5090", "--at", "1000", "--precision", "bf16/fp16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("roofline: warning: " + said), std::string::npos) << r.err;
  TempDir dir;
  r = run_cli({"plot", "h100-sxm", "--compare", "rtx-5090", "--at", "1000", "--precision", "fp16",
               "-o", dir.file("p.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --at: " + said), std::string::npos) << r.err;
  // Full precision on both sides (the 4090's fp32-accumulate roof): nothing to say.
  r = run_cli({"hw", "compare", "h100-sxm", "rtx-4090", "--at", "1000", "--precision", "fp16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
}
}  // namespace ROOFLINE_UNITY_ID
