// Q by cache simulation: callgrind's files read as Valgrind's own reader reads them, and the
// machine's cache geometry given to Valgrind in a form it accepts.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "roofline/error.hpp"
#include "roofline/instrument.hpp"
#include "roofline/suite.hpp"

namespace roofline::instrument {
namespace ROOFLINE_UNITY_ID {
namespace fs = std::filesystem;
using roofline::test::slurp;
using roofline::test::TempDir;
using roofline::test::write_text;

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/instrument/";

/// callgrind_annotate's per-function table ("N (x%)" or "." per event, then file:function
/// [object]), summed by function name (it lists inlined code per file).
std::map<std::string, std::vector<double>> annotate_table(const std::string& text, size_t events) {
  std::map<std::string, std::vector<double>> out;
  std::istringstream in(text);
  std::string line;
  bool table = false;
  while (std::getline(in, line)) {
    if (line.find("file:function") != std::string::npos) {
      table = true;
      std::getline(in, line);  // the rule under the header
      continue;
    }
    if (!table) continue;
    if (line.empty()) break;  // the table ends; annotated source follows
    std::istringstream ls(line);
    std::string tok;
    std::vector<double> v;
    while (v.size() < events && ls >> tok) {
      if (tok[0] == '(' || tok.back() == ')') continue;  // percentages
      if (tok == ".") {
        v.push_back(0);
        continue;
      }
      std::string digits;
      for (char c : tok)
        if (c != ',') digits += c;
      v.push_back(std::stod(digits));
    }
    std::string rest;
    std::getline(ls, rest);
    while (!rest.empty() && (rest[0] == ' ' || rest[0] == ')')) rest.erase(0, 1);
    // Remaining percentage pieces of the last column, then "file:function [object]".
    while (rest.find("%)") != std::string::npos && rest.find("%)") < rest.find(':'))
      rest.erase(0, rest.find("%)") + 2), rest.erase(0, rest.find_first_not_of(' '));
    const auto colon = rest.find(':');
    if (v.size() != events || colon == std::string::npos) continue;
    std::string fn = rest.substr(colon + 1);
    const auto obj = fn.find(" [");
    if (obj != std::string::npos) fn.resize(obj);
    auto& acc = out[fn];
    acc.resize(events);
    for (size_t i = 0; i < events; ++i) acc[i] += v[i];
  }
  return out;
}

void check_against_annotate(const std::string& name) {
  SCOPED_TRACE(name);
  const CallgrindProfile p = parse_callgrind(slurp(kData + name + ".out"), name + ".out");
  ASSERT_EQ(p.events.size(), 12u);
  EXPECT_EQ(p.events.front(), "Ir");
  EXPECT_EQ(p.events.back(), "DLdmw");
  EXPECT_EQ(p.caches.size(), 3u);
  const auto table = annotate_table(slurp(kData + name + ".annotate"), p.events.size());
  ASSERT_GT(table.size(), 20u);
  size_t compared = 0;
  for (const auto& [fn, costs] : table) {
    const auto it = p.functions.find(fn);
    ASSERT_NE(it, p.functions.end()) << fn;
    for (size_t i = 0; i < costs.size(); ++i)
      EXPECT_EQ(it->second[i], costs[i]) << fn << " " << p.events[i];
    ++compared;
  }
  EXPECT_EQ(compared, table.size());
  // The sum over functions is the file's "totals:" line ("summary:", written before the dump,
  // counts the two instructions of the dump itself as well).
  const std::string text = slurp(kData + name + ".out");
  const auto s = text.find("\ntotals: ");
  ASSERT_NE(s, std::string::npos);
  std::istringstream summary(text.substr(s + 9, text.find('\n', s + 1) - s - 9));
  for (size_t i = 0; i < p.events.size(); ++i) {
    double v = 0;
    summary >> v;
    EXPECT_EQ(p.totals[i], v) << p.events[i];
  }
}

TEST(Callgrind, DefaultFormatReadAsCallgrindAnnotateReadsIt) {
  check_against_annotate("callgrind-axpy");
}

TEST(Callgrind, InstructionPositionsAndRelativeSubpositions) {
  check_against_annotate("callgrind-gemm-instr");
}

TEST(Callgrind, TrafficFromMissesAndWriteBacks) {
  const CallgrindProfile p =
      parse_callgrind(slurp(kData + "callgrind-axpy.out"), "callgrind-axpy.out");
  const auto& axpy = p.functions.at("axpy");
  // callgrind_annotate's row for axpy: D1mr 100,008, D1mw 0, ILmr 8, DLmr 100,008, DLmw 0,
  // ILdmr 6, DLdmr 58,187, DLdmw 0.
  const SimulatedTraffic t = simulated_traffic(p, axpy, 64, 64);
  EXPECT_EQ(t.l1_fills, 100008.0 * 64);
  EXPECT_EQ(t.ll_fills, (8.0 + 100008) * 64);
  EXPECT_EQ(t.ll_writebacks, (6.0 + 58187) * 64);
  // The run: axpy of n = 200 000 doubles twice with a 1 MiB last level, so x and y (3.2 MB)
  // stream from memory: 2·n·8 B read per call.
  EXPECT_NEAR(t.ll_fills / (2 * 2 * 200000.0 * 8), 1.0, 0.001);
}

TEST(Callgrind, BadFilesNameTheLine) {
  EXPECT_THROW(parse_callgrind("", "empty.out"), InputError);
  try {
    parse_callgrind("version: 1\nevents: Ir\nfn=f\n1 2 3\n", "x.out");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("x.out:4"), std::string::npos) << e.what();
  }
  try {
    parse_callgrind("version: 1\nevents: Ir\nfn=(3)\n", "y.out");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("used before it is defined"), std::string::npos);
  }
  EXPECT_THROW(parse_callgrind("version: 1\nevents: Ir\nfn=f\n1 x\n", "z.out"), InputError);
}

TEST(Callgrind, RecursionLevelsAreOneFunction) {
  const CallgrindProfile p = parse_callgrind(
      "version: 1\nevents: Ir Dr\nfn=f\n1 5 1\ncfn=f'2\ncalls=1 3\n3 100 10\nfn=f'2\n3 7 2\n",
      "rec.out");
  ASSERT_EQ(p.functions.size(), 1u);
  EXPECT_EQ(p.functions.at("f")[0], 12);  // 5 + 7: the call's inclusive 100 is not self cost
  EXPECT_EQ(p.totals[1], 3);
}

// --- cache geometry ---------------------------------------------------------------------------

void cache_entry(const fs::path& dir, int index, int level, const std::string& type,
                 const std::string& size, int ways, int line) {
  const fs::path d = dir / "cpu0" / "cache" / ("index" + std::to_string(index));
  fs::create_directories(d);
  write_text((d / "level").string(), std::to_string(level) + "\n");
  write_text((d / "type").string(), type + "\n");
  write_text((d / "size").string(), size + "\n");
  write_text((d / "ways_of_associativity").string(), std::to_string(ways) + "\n");
  write_text((d / "coherency_line_size").string(), std::to_string(line) + "\n");
}

TEST(SimulatorCaches, FromSysfs) {
  TempDir t;
  // Intel Sapphire Rapids per core: L1d 48K 12-way, L1i 32K 8-way, L2 2M 16-way, L3 105M 15-way.
  cache_entry(t.path, 0, 1, "Data", "48K", 12, 64);
  cache_entry(t.path, 1, 1, "Instruction", "32K", 8, 64);
  cache_entry(t.path, 2, 2, "Unified", "2048K", 16, 64);
  cache_entry(t.path, 3, 3, "Unified", "107520K", 15, 64);
  const SimulatorCaches c = detect_simulator_caches(t.path);
  EXPECT_EQ(c.d1.size, 48u * 1024);
  EXPECT_EQ(c.d1.ways, 12u);
  EXPECT_EQ(c.i1.size, 32u * 1024);
  ASSERT_EQ(c.outer.size(), 2u);
  EXPECT_EQ(c.outer[0].level, "L2");
  EXPECT_EQ(c.outer[1].level, "L3");
  EXPECT_EQ(c.outer[1].size, 107520u * 1024);
  TempDir empty;
  EXPECT_THROW(detect_simulator_caches(empty.path), Unavailable);
}

TEST(SimulatorCaches, ThisMachine) {
  if (!fs::exists("/sys/devices/system/cpu/cpu0/cache/index0"))
    GTEST_SKIP() << "no sysfs cache description here";
  const SimulatorCaches c = detect_simulator_caches();
  EXPECT_GT(c.d1.size, 0u);
  EXPECT_GT(c.d1.ways, 0u);
  EXPECT_FALSE(c.outer.empty());
}

TEST(SimulatorCaches, GeometryValgrindAccepts) {
  // A power-of-two set count already: unchanged.
  CacheGeometry g{"L3", 32u << 20, 16, 64, ""};
  EXPECT_EQ(valgrind_geometry(g).ways, 16u);
  EXPECT_TRUE(valgrind_geometry(g).note.empty());
  EXPECT_EQ(valgrind_geometry({"L1", 48u << 10, 12, 64, ""}).ways, 12u);  // 64 sets
  // 30 MiB 20-way: 24 576 sets; the same size as 30-way with 16 384 sets.
  const CacheGeometry a = valgrind_geometry({"L3", 30u << 20, 20, 64, ""});
  EXPECT_EQ(a.size, 30u << 20);
  EXPECT_EQ(a.ways, 30u);
  EXPECT_FALSE(a.note.empty());
  // 105 MiB 15-way: no whole number of ways gives 2^k sets at that size; 65 536 sets × 26 ways.
  const CacheGeometry b = valgrind_geometry({"L3", 107520u << 10, 15, 64, ""});
  EXPECT_EQ(b.size, 65536u * 26 * 64);
  EXPECT_EQ(b.ways, 26u);
  EXPECT_LE(b.size, 107520u << 10);
}

/// An executable found in PATH, or "".
std::string in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && ::access((dir + "/" + name).c_str(), X_OK) == 0) return dir + "/" + name;
  return "";
}

// Valgrind itself refuses a set count that is not a power of two and takes the adjusted one.
TEST(SimulatorCaches, ValgrindTakesTheAdjustedGeometry) {
  const std::string valgrind = in_path("valgrind");
  if (valgrind.empty()) GTEST_SKIP() << "valgrind is not installed";
  auto run = [&](const CacheGeometry& ll) {
    const std::string arg =
        std::to_string(ll.size) + "," + std::to_string(ll.ways) + "," + std::to_string(ll.line);
    TempDir t;
    return suite::run_child(
               valgrind,
               {"--tool=callgrind", "--cache-sim=yes", "--LL=" + arg,
                "--callgrind-out-file=" + t.file("cg.out"), "--log-file=/dev/null", "/bin/true"},
               {})
        .exit_code;
  };
  const CacheGeometry odd{"L3", 30u << 20, 20, 64, ""};
  EXPECT_NE(run(odd), 0);
  EXPECT_EQ(run(valgrind_geometry(odd)), 0);
}

TEST(SimulatorCaches, Spec) {
  const SimulatorCaches c = parse_cache_spec("L1=32K/8,L2=1M/8/64,L3=32M/16");
  EXPECT_EQ(c.d1.size, 32u << 10);
  EXPECT_EQ(c.i1.size, 32u << 10);
  ASSERT_EQ(c.outer.size(), 2u);
  EXPECT_EQ(c.outer[1].size, 32u << 20);
  EXPECT_EQ(c.outer[1].ways, 16u);
  for (const char* bad : {"", "L1=32K", "L1=32K/8", "L1=32X/8,L2=1M/8", "L1=32K/eight,L2=1M/8",
                          "Q1=32K/8,L2=1M/8", "L1=32K/8,L2"})
    EXPECT_THROW(parse_cache_spec(bad), InputError) << bad;
  // A level given twice (the last silently won), a level smaller than the one inside it.
  try {
    parse_cache_spec("L1=32K/8,L3=1M/16,L3=2M/16");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'L3=2M/16': level given twice"), std::string::npos)
        << e.what();
  }
  try {
    parse_cache_spec("L1=32K/8,L3=16K/16");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("L3 (16384 bytes) is smaller than L1 (32768 bytes)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_cache_spec("D1=32K/8,L1=32K/8,L2=1M/8"), InputError);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::instrument
