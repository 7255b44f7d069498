// The whole event table against checked-in extracts of the public tables it was taken from
// (tests/data/probe/events/, README there): every row's event code, umask and weight, and every
// CPU model's event list against Linux's mapfile.csv.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "roofline/counters.hpp"
#include "roofline/io.hpp"

using namespace roofline::counters;
namespace fs = std::filesystem;
using nlohmann::json;

namespace ROOFLINE_UNITY_ID {

const fs::path kEvents = fs::path(ROOFLINE_TEST_DATA) / "probe" / "events";

const std::map<std::string, json>& extracts() {
  static const std::map<std::string, json> m = [] {
    std::map<std::string, json> out;
    for (const auto& e : fs::directory_iterator(kEvents)) {
      if (e.path().extension() != ".json") continue;
      json j = json::parse(roofline::read_text_file(e.path()));
      j["file"] = e.path().filename().string();
      const std::string id = j.at("id").get<std::string>();
      EXPECT_EQ(out.count(id), 0u) << "two extracts with id " << id;
      out[id] = j;
    }
    return out;
  }();
  return m;
}

unsigned hex(const std::string& s) {
  return static_cast<unsigned>(std::stoul(s, nullptr, 16));
}

/// The encoding a source gives for one name: event code, umask, and the description text.
struct Fact {
  bool found = false;
  unsigned event = 0, umask = 0;
  std::string text;  // description(s), scale lines
};

Fact lookup_one(const json& x, const std::string& name) {
  Fact f;
  const std::string format = x.at("format");
  if (format == "perf-json") {
    for (const auto& e : x.at("entries"))
      if (e.value("EventName", "") == name) {
        f.found = true;
        f.event = hex(e.at("EventCode").get<std::string>());
        if (e.contains("UMask")) f.umask = hex(e["UMask"].get<std::string>());
        if (e.contains("RdWrMask")) f.umask = hex(e["RdWrMask"].get<std::string>());
        f.text = e.value("BriefDescription", "") + " " + e.value("PublicDescription", "");
      }
  } else if (format == "likwid") {
    // EVENT_<E> <code> <counter>, UMASK_<E>_<sub> <umask>: <E> is the longest EVENT_ prefix.
    std::string best;
    for (const auto& l : x.at("lines")) {
      std::istringstream in(l.get<std::string>());
      std::string key, value;
      in >> key >> value;
      if (key == "UMASK_" + name) {
        f.found = true;
        f.umask = hex(value);
      }
      if (key.rfind("EVENT_", 0) == 0) {
        const std::string ev = key.substr(6);
        if ((name == ev || name.rfind(ev + "_", 0) == 0) && ev.size() > best.size()) {
          best = ev;
          f.event = hex(value);
        }
      }
    }
    if (best.empty()) f.found = false;
  } else if (format == "libpfm4") {
    const auto colon = name.find(':');
    for (const auto& e : x.at("entries"))
      if (e.at("event") == name.substr(0, colon) && e.at("uname") == name.substr(colon + 1)) {
        f.found = true;
        f.event = hex(e.at("code").get<std::string>());
        f.umask = hex(e.at("ucode").get<std::string>());
        f.text = e.at("udesc").get<std::string>();
      }
  } else if (format == "kernel-event-desc") {
    const std::regex desc("INTEL_UNCORE_EVENT_DESC\\(([a-z0-9_.]+),\\s*\"([^\"]*)\"\\)");
    for (const auto& l : x.at("lines")) {
      std::smatch m;
      const std::string line = l.get<std::string>();
      if (!std::regex_search(line, m, desc)) continue;
      if (m[1] == name) {
        std::smatch ev, um;
        const std::string def = m[2];
        if (std::regex_search(def, ev, std::regex("event=0x([0-9a-f]+)")) &&
            std::regex_search(def, um, std::regex("umask=0x([0-9a-f]+)"))) {
          f.found = true;
          f.event = hex(ev[1]);
          f.umask = hex(um[1]);
        }
      } else if (m[1] == name + ".scale" || m[1] == name + ".unit") {
        f.text += std::string(m[1]) + "=" + std::string(m[2]) + " ";
      }
    }
  }
  return f;
}

/// Several names joined by '|': the umask is the OR of theirs, the event code is shared.
Fact lookup(const json& x, const std::string& names) {
  Fact all;
  std::istringstream in(names);
  std::string n;
  bool first = true;
  while (std::getline(in, n, '|')) {
    const Fact f = lookup_one(x, n);
    if (!f.found) return Fact{};
    if (!first && f.event != all.event) return Fact{};
    all.found = true;
    all.event = f.event;
    all.umask |= f.umask;
    all.text += f.text + " ";
    first = false;
  }
  return all;
}

std::string hexs(unsigned v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

TEST(EventTable, EverySourceHasItsExtractAndEveryExtractIsUsed) {
  std::set<std::string> used;
  for (const auto& r : event_table())
    for (const auto& s : r.sources) used.insert(s.id);
  used.insert("linux:mapfile.csv");
  used.insert("linux:mapfile.csv+amdzen5");
  used.insert("linux:amdzen4/recommended.json:umc");
  used.insert("linux:uncore_snbep.c:spr_uncore_imc_events");
  std::set<std::string> declared;
  for (const auto& s : event_sources()) {
    declared.insert(s.id);
    ASSERT_EQ(extracts().count(s.id), 1u) << "no extract for source " << s.id;
    const json& x = extracts().at(s.id);
    EXPECT_EQ(x.at("repository"), s.repository) << s.id;
    EXPECT_EQ(x.at("path"), s.path) << s.id;
    EXPECT_EQ(x.at("commit"), s.version) << s.id;
    EXPECT_TRUE(used.count(s.id)) << "source " << s.id << " is not used by any row";
  }
  for (const auto& [id, x] : extracts())
    EXPECT_TRUE(declared.count(id)) << x.at("file") << ": extract " << id << " is not a source";
  for (const auto& id : used) EXPECT_TRUE(declared.count(id)) << "undeclared source " << id;
}

TEST(EventTable, EveryRowMatchesEachOfItsSources) {
  std::size_t compared = 0;
  for (const auto& r : event_table()) {
    ASSERT_FALSE(r.sources.empty()) << r.table << " " << r.name << " has no source";
    for (const auto& s : r.sources) {
      SCOPED_TRACE(r.table + " " + r.name + " against " + s.id + " '" + s.name + "'");
      ASSERT_EQ(extracts().count(s.id), 1u);
      const Fact f = lookup(extracts().at(s.id), s.name);
      ASSERT_TRUE(f.found) << "the source has no such event";
      EXPECT_EQ(hexs(f.event), hexs(r.event)) << "event code";
      EXPECT_EQ(hexs(f.umask & s.umask_bits), hexs(r.umask & s.umask_bits)) << "umask";
      ++compared;
    }
  }
  EXPECT_GE(compared, event_table().size());
}

TEST(EventTable, WeightsFollowFromTheSources) {
  const std::regex each("Each count represents ([0-9]+) comput");
  for (const auto& r : event_table()) {
    SCOPED_TRACE(r.table + " " + r.name);
    const SourceRef& s = r.sources.front();
    const Fact f = lookup(extracts().at(s.id), s.name);
    ASSERT_TRUE(f.found);
    if (r.name.rfind("FP_ARITH_INST_RETIRED.", 0) == 0) {
      std::smatch m;
      ASSERT_TRUE(std::regex_search(f.text, m, each)) << f.text;
      EXPECT_DOUBLE_EQ(r.weight, std::stod(m[1]));  // lanes per count (FMA counted twice)
    } else if (r.name.rfind("FP_ARITH_INST_RETIRED2.", 0) == 0) {
      // Halves per vector: 128/256/512 bits of 16-bit elements; the complex scalar holds 2.
      const std::string w = r.name.substr(23);
      const double want = w == "SCALAR_HALF"           ? 1
                          : w == "COMPLEX_SCALAR_HALF" ? 2
                                                       : std::stod(w.substr(0, w.find('B'))) / 16;
      EXPECT_DOUBLE_EQ(r.weight, want);
    } else if (r.role == Role::flops) {
      EXPECT_DOUBLE_EQ(r.weight, 1);  // PMCx003 counts FLOPs (MAC = 2 by the hardware)
    } else if (r.table == "amd-df") {
      EXPECT_NE(f.text.find("Requests with Data (64B)"), std::string::npos) << f.text;
      EXPECT_DOUBLE_EQ(r.weight, 64);
    } else if (r.table == "amd-umc") {
      const json& metrics = extracts().at("linux:amdzen4/recommended.json:umc");
      bool found = false;
      for (const auto& m : metrics.at("entries"))
        found = found ||
                m.at("MetricExpr").get<std::string>().find(r.name + " * 64") != std::string::npos;
      EXPECT_TRUE(found) << "no '× 64' bandwidth metric for " << r.name;
      EXPECT_DOUBLE_EQ(r.weight, 64);
    } else if (r.role == Role::dram) {
      // Kernel sources: scale 6.103515625e-5 MiB per count = 64 B.
      const SourceRef& k = r.sources.back();
      const Fact kf = lookup(extracts().at(k.id), k.name);
      ASSERT_TRUE(kf.found);
      EXPECT_NE(kf.text.find("scale=6.103515625e-5"), std::string::npos) << kf.text;
      EXPECT_NE(kf.text.find("unit=MiB"), std::string::npos) << kf.text;
      EXPECT_DOUBLE_EQ(r.weight, 6.103515625e-5 * 1024 * 1024);
    } else {
      EXPECT_EQ(r.role, Role::level);
      EXPECT_DOUBLE_EQ(r.weight, 64);  // one 64-byte line per fill
    }
  }
}

TEST(EventTable, GroupsFitTheCountersAndEveryTableIsUsed) {
  std::set<std::string> used;
  for (const auto& m : cpu_models()) {
    used.insert(m.core_table);
    used.insert(m.dram_table);
  }
  std::map<std::pair<std::string, int>, int> per_group;
  for (const auto& r : event_table()) {
    if (r.table != "intel-client-imc-free-running") {  // used through sysfs names
      EXPECT_TRUE(used.count(r.table)) << "table " << r.table << " is used by no CPU model";
    }
    if (r.role != Role::dram) per_group[{r.table, r.group}]++;
  }
  for (const auto& [k, n] : per_group) {
    // Four general-purpose counters per thread with SMT on; a Zen 5 PMCx003 takes two (its
    // MergeEvent pair), so two of them to a group.
    EXPECT_LE(n, k.first == "amd-zen5" ? 2 : 4) << k.first << " group " << k.second;
  }
  for (const auto& m : cpu_models()) {
    if (!m.core_table.empty()) {
      bool rows = false;
      for (const auto& r : event_table()) rows = rows || r.table == m.core_table;
      EXPECT_TRUE(rows) << m.name << ": no rows in " << m.core_table;
    }
  }
}

TEST(EventTable, CpuModelsFollowLinuxMapfile) {
  // mapfile.csv: "<vendor>-<family>-<model>[-<stepping>]" regular expressions, first match wins;
  // the model is upper-case hex (Intel with two digits, AMD without leading zeros).
  std::vector<std::pair<std::regex, std::string>> lines;
  for (const char* id : {"linux:mapfile.csv", "linux:mapfile.csv+amdzen5"})
    for (const auto& l : extracts().at(id).at("lines")) {
      const std::string s = l.get<std::string>();
      if (s.rfind("Family-model", 0) == 0) continue;
      std::istringstream in(s);
      std::string re, version, list;
      std::getline(in, re, ',');
      std::getline(in, version, ',');
      std::getline(in, list, ',');
      lines.emplace_back(std::regex(re, std::regex::ECMAScript), list);
    }
  auto list_for = [&](const std::string& cpuid, const std::string& with_stepping) {
    for (const auto& [re, list] : lines)
      if (std::regex_match(cpuid, re) || std::regex_match(with_stepping, re)) return list;
    return std::string();
  };
  char buf[64];
  for (const auto& m : cpu_models()) {
    for (int model = m.model_lo; model <= m.model_hi; ++model) {
      const bool intel = m.vendor == "GenuineIntel";
      std::snprintf(buf, sizeof buf, intel ? "%s-%d-%02X" : "%s-%d-%X", m.vendor.c_str(), m.family,
                    model);
      const std::string list = list_for(buf, std::string(buf) + "-0");
      EXPECT_EQ(list, m.list) << buf << " (" << m.name << ")";
      // The model resolves to this entry.
      const CpuModel* found = find_cpu_model({m.vendor, m.family, model, ""});
      ASSERT_NE(found, nullptr) << buf;
      EXPECT_EQ(found->name, m.name) << buf;
    }
  }
  // Model 0x55 is two lists by stepping; both use the Skylake-X table.
  EXPECT_EQ(list_for("", "GenuineIntel-6-55-7"), "cascadelakex");
}

TEST(EventTable, ClientFreeRunningFixtureMatchesTheKernelTable) {
  // The sysfs fixture of a Tiger Lake memory controller encodes what the table row says.
  const fs::path d = fs::path(ROOFLINE_TEST_DATA) / "import" / "sysfs" / "intel-tgl-free-running" /
                     "uncore_imc_free_running_0";
  const std::map<std::string, std::string> formats = {{"event", "config:0-7"},
                                                      {"umask", "config:8-15"}};
  for (const auto& r : event_table()) {
    if (r.table != "intel-client-imc-free-running") continue;
    const std::string def = roofline::read_text_file(d / "events" / r.name);
    EXPECT_EQ(encode_config(formats, def), r.event | (r.umask << 8)) << r.name;
  }
}
}  // namespace ROOFLINE_UNITY_ID
