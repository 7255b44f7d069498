// The hardware catalogue (data/hardware): every file valid, datasheet numbers spot-checked
// against their sources, the seed's ridge points (docs/model.md §8), name resolution.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "cli/cli_runner.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/io.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"

using namespace roofline;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
const fs::path kCatalogue = fs::path(ROOFLINE_SOURCE_DIR) / "data" / "hardware";

std::vector<fs::path> catalogue_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kCatalogue))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}
MachineDocument load(const std::string& name) {
  return load_machine_file(kCatalogue / (name + ".json"));
}
double peak(const std::string& device, const std::string& roof) {
  const MachineDocument m = load(device);
  const ComputeRoof* c = m.roofs.find_compute(roof);
  EXPECT_NE(c, nullptr) << device << ": no roof " << roof;
  return c ? c->peak.value : 0;
}
double bandwidth(const std::string& device, const std::string& level) {
  const MachineDocument m = load(device);
  const MemoryRoof* r = m.roofs.find_memory(level);
  EXPECT_NE(r, nullptr) << device << ": no level " << level;
  return r ? r->bandwidth.value : 0;
}
double size_of(const std::string& device, const std::string& level) {
  const MachineDocument m = load(device);
  const MemoryRoof* r = m.roofs.find_memory(level);
  return r && r->size_bytes ? *r->size_bytes : 0;
}
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Catalogue, EveryFileLoadsAndPassesTheCatalogueRules) {
  const auto files = catalogue_files();
  ASSERT_GE(files.size(), 47u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const auto problems = catalogue_entry_problems(f);
    for (const auto& p : problems) ADD_FAILURE() << p;
    // The same rules, checked here directly rather than through the checker.
    const MachineDocument m = load_machine_file(f);
    const nlohmann::json info = info_json(m);
    const RoofSet& r = m.roofs;
    EXPECT_EQ(r.name, f.stem().string());
    EXPECT_TRUE(is_canonical_hardware_name(r.name));
    std::set<std::string> names;
    for (const auto& c : r.compute) {
      EXPECT_FALSE(c.source.empty()) << c.name;
      EXPECT_GT(c.peak.value, 0) << c.name;
      EXPECT_TRUE(std::isfinite(c.peak.value)) << c.name;
      EXPECT_TRUE(names.insert(c.name).second) << "duplicate " << c.name;
      EXPECT_EQ(c.sparse, c.name.find("sparse") != std::string::npos) << c.name;
    }
    for (const auto& mem : r.memory) {
      EXPECT_FALSE(mem.source.empty()) << mem.level;
      EXPECT_GT(mem.bandwidth.value, 0) << mem.level;
      EXPECT_TRUE(names.insert("memory:" + mem.level).second) << "duplicate " << mem.level;
    }
    ASSERT_NE(r.find_compute(r.default_compute), nullptr);
    EXPECT_FALSE(r.find_compute(r.default_compute)->sparse);
    EXPECT_FALSE(r.select_compute("").sparse);
    ASSERT_NE(r.find_memory(r.default_memory), nullptr);
    EXPECT_EQ(r.find_memory(r.default_memory)->kind, "memory");
    // Interconnects are roofs too, so a distributed point can be judged against them; every
    // GPU, TPU and accelerator has one (a CPU or an SoC may publish none).
    const std::string kind = info.value("kind", "");
    const bool has_link = std::any_of(r.memory.begin(), r.memory.end(), [](const MemoryRoof& x) {
      return x.kind == "interconnect" || x.kind == "network";
    });
    if (kind == "gpu" || kind == "tpu" || kind == "accelerator") {
      EXPECT_TRUE(has_link);
      // Capacity is part of these datasheets.
      EXPECT_TRUE(r.find_memory(r.default_memory)->size_bytes.has_value());
    }
    // Each link records its per-link latency (seconds, or null = unknown) and where that comes
    // from, for the alpha-beta collective model.
    for (const auto& link : info["interconnects"]) {
      EXPECT_TRUE(link.contains("latency")) << link.dump();
      EXPECT_TRUE(link["latency"].is_null() || link["latency"].get<double>() > 0) << link.dump();
      EXPECT_FALSE(link.value("latency_source", "").empty()) << link.dump();
    }
    // No value without a source: release year, clock, power, links, caches, disagreements,
    // roofs.
    const auto sources = value_sources(m);
    EXPECT_GE(sources.size(), r.compute.size() + r.memory.size() + 3);
    for (const auto& v : sources) EXPECT_FALSE(v.source.empty()) << v.value << " " << v.figure;
    // Values not re-read against their source are named as `hw show` names them.
    for (const auto& u : info.value("unverified", nlohmann::json::array())) {
      const bool named = std::any_of(sources.begin(), sources.end(),
                                     [&](const ValueSource& v) { return v.value == u; });
      EXPECT_TRUE(named) << "info.unverified names no value: " << u;
    }
    EXPECT_TRUE(info.contains("sources"));
    EXPECT_TRUE(info["clock"]["basis"] == "boost" || info["clock"]["basis"] == "base");
    // Power and release year name where they come from; CPUs record the base clock.
    EXPECT_FALSE(info.value("power_source", "").empty());
    EXPECT_FALSE(info.value("release_source", "").empty());
    EXPECT_FALSE(info.value("display_name", "").empty());
    if (info.value("kind", "") == "cpu") {
      EXPECT_EQ(info["clock"]["basis"], "base");
      EXPECT_TRUE(info["clock"].contains("max_turbo_mhz"));
    }
    for (const auto& c : r.compute) {
      // OP-counted: int8, int4 ... and "ops", a vendor's TOPS of unnamed precision.
      EXPECT_EQ(c.integer, c.precision.rfind("int", 0) == 0 || c.precision == "ops") << c.name;
      if (c.provenance == Provenance::theoretical) {
        EXPECT_FALSE(c.formula.empty()) << c.name;
      }
    }
    for (const auto& c : info.value("caches", nlohmann::json::array()))
      EXPECT_FALSE(c.value("source", "").empty()) << c.dump();
  }
}

TEST(Catalogue, CoversTheRequiredDevices) {
  for (const char* n :
       {"v100-sxm2", "a100-40gb", "a100-80gb", "h100-sxm", "h100-pcie", "h200", "b200", "l4",
        "l40s", "rtx-4090", "rtx-a6000", "mi250x", "mi300x", "tpu-v4", "tpu-v5e", "tpu-v5p",
        "gaudi2",
        // The devices of 2024-2026: data centre, workstation, edge, server CPUs.
        "h20", "gh200-96gb", "gh200-144gb", "gb200", "gb300", "rtx-5090", "rtx-6000-ada",
        "rtx-pro-6000-blackwell", "jetson-agx-orin-64gb", "jetson-agx-thor", "mi325x", "mi355x",
        "gaudi3", "tpu-v6e", "tpu-v7", "trainium2", "apple-m3-max", "apple-m4-max",
        "snapdragon-x-elite", "core-ultra-9-288v", "ryzen-ai-9-hx-370", "xeon-6980p", "epyc-9755",
        "grace-cpu-superchip", "graviton4"})
    EXPECT_TRUE(fs::exists(kCatalogue / (std::string(n) + ".json"))) << n;
  int cpus = 0, arm = 0;
  for (const auto& f : catalogue_files()) {
    const MachineDocument m = load_machine_file(f);
    const nlohmann::json info = info_json(m);
    if (info.value("kind", "") == "cpu") {
      ++cpus;
      if (info.value("architecture", "").find("Arm") != std::string::npos) ++arm;
    }
  }
  EXPECT_GE(cpus, 8);
  EXPECT_GE(arm, 2);  // Grace, Graviton4
}

TEST(Catalogue, NamesAndAliasesAreUnambiguous) {
  std::map<std::string, std::string> owner;  // key (no case, '-', '_', ' ') -> device
  auto key = [](std::string s) {
    std::string k;
    for (char c : s)
      if (c != '-' && c != '_' && c != ' ')
        k += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return k;
  };
  for (const auto& e : list_catalogue()) {
    if (e.path.parent_path() != kCatalogue) continue;
    std::vector<std::string> all = e.aliases;
    all.push_back(e.name);
    for (const auto& a : all) {
      auto [it, fresh] = owner.emplace(key(a), e.name);
      EXPECT_TRUE(fresh || it->second == e.name)
          << a << " names both " << it->second << " and " << e.name;
    }
  }
}

// A binary moved away from its data found no catalogue: `hw list` read "0 of 0 devices", exit 0,
// and every name was "unknown machine". Now the search fails, naming where it looked.
TEST(Catalogue, NoCatalogueAnywhereIsSaidWithTheFoldersSearched) {
  roofline::test::TempDir empty;
  const std::filesystem::path missing = empty.path / "absent";
  try {
    list_catalogue_in({empty.path, missing});
    FAIL() << "an empty catalogue was listed";
  } catch (const Unavailable& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no hardware catalogue found"), std::string::npos) << what;
    EXPECT_NE(what.find(empty.path.string() + ", " + missing.string()), std::string::npos) << what;
    EXPECT_NE(what.find("ROOFLINE_HW_PATH"), std::string::npos) << what;
  }
  // One machine file is a catalogue.
  std::filesystem::copy_file(kCatalogue / "a100-80gb.json", missing.parent_path() / "m.json");
  const auto entries = list_catalogue_in({empty.path, missing});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries.front().name, "m");
}

// Datasheet figures, asserted against the documents each roof cites.
TEST(Catalogue, SpotChecksAgainstDatasheets) {
  // NVIDIA V100 datasheet (SXM2): 7.8 / 15.7 / 125 TFLOP/s, 900 GB/s, NVLink 300 GB/s.
  EXPECT_DOUBLE_EQ(peak("v100-sxm2", "fp64 vector"), 7.8e12);
  EXPECT_DOUBLE_EQ(peak("v100-sxm2", "fp32 vector"), 15.7e12);
  EXPECT_DOUBLE_EQ(peak("v100-sxm2", "fp16 tensor"), 125e12);
  EXPECT_DOUBLE_EQ(bandwidth("v100-sxm2", "HBM2"), 900e9);
  EXPECT_DOUBLE_EQ(bandwidth("v100-sxm2", "NVLink"), 300e9);
  // NVIDIA A100 datasheet: FP64 9.7, FP64 TC 19.5, FP32 19.5, TF32 156|312, BF16 312|624,
  // INT8 624 TOPS; 40GB 1555 GB/s, 80GB 2039 GB/s; NVLink 600 GB/s.
  EXPECT_DOUBLE_EQ(peak("a100-80gb", "fp64 vector"), 9.7e12);
  EXPECT_DOUBLE_EQ(peak("a100-80gb", "fp64 tensor"), 19.5e12);
  EXPECT_DOUBLE_EQ(peak("a100-80gb", "fp32 vector"), 19.5e12);
  EXPECT_DOUBLE_EQ(peak("a100-80gb", "tf32 tensor"), 156e12);
  EXPECT_DOUBLE_EQ(peak("a100-80gb", "tf32 tensor sparse"), 312e12);
  EXPECT_DOUBLE_EQ(peak("a100-80gb", "bf16 tensor"), 312e12);
  EXPECT_DOUBLE_EQ(peak("a100-80gb", "bf16 tensor sparse"), 624e12);
  EXPECT_DOUBLE_EQ(peak("a100-40gb", "int8 tensor"), 624e12);
  // A100 whitepaper Table 1: FP16 (non-tensor) 78, BF16 (non-tensor) 39.
  for (const char* a100 : {"a100-40gb", "a100-80gb"}) {
    EXPECT_DOUBLE_EQ(peak(a100, "fp16 vector"), 78e12);
    EXPECT_DOUBLE_EQ(peak(a100, "bf16 vector"), 39e12);
  }
  EXPECT_DOUBLE_EQ(bandwidth("a100-80gb", "HBM2e"), 2.039e12);
  EXPECT_DOUBLE_EQ(bandwidth("a100-40gb", "HBM2"), 1.555e12);
  EXPECT_DOUBLE_EQ(size_of("a100-80gb", "HBM2e"), 80e9);
  EXPECT_DOUBLE_EQ(bandwidth("a100-40gb", "NVLink"), 600e9);
  // H100 whitepaper (SXM5) / datasheet: BF16 989.4 dense, FP8 1978.9, FP32 66.9; 3.35 TB/s; 900
  // GB/s.
  EXPECT_DOUBLE_EQ(peak("h100-sxm", "bf16 tensor"), 989.4e12);
  EXPECT_DOUBLE_EQ(peak("h100-sxm", "fp8 tensor"), 1978.9e12);
  EXPECT_DOUBLE_EQ(peak("h100-sxm", "fp32 vector"), 66.9e12);
  EXPECT_DOUBLE_EQ(bandwidth("h100-sxm", "HBM3"), 3.35e12);
  EXPECT_DOUBLE_EQ(bandwidth("h100-sxm", "NVLink"), 900e9);
  // Sparse roofs are the printed sparse figures, not 2 x dense (whitepaper: 989.4/1978.9).
  EXPECT_DOUBLE_EQ(peak("h100-sxm", "bf16 tensor sparse"), 1978.9e12);
  EXPECT_DOUBLE_EQ(peak("h100-sxm", "fp16 tensor sparse"), 1978.9e12);
  EXPECT_DOUBLE_EQ(peak("h100-sxm", "fp16 vector"), 133.8e12);
  // H100 PCIe datasheet: FP64 26, FP32 51, BF16 1513 sparse; whitepaper Table 3: 756 dense,
  // FP16/BF16 non-tensor 102.4; 2 TB/s.
  EXPECT_DOUBLE_EQ(peak("h100-pcie", "fp32 vector"), 51e12);
  EXPECT_DOUBLE_EQ(peak("h100-pcie", "bf16 tensor"), 756e12);
  EXPECT_DOUBLE_EQ(peak("h100-pcie", "bf16 tensor sparse"), 1513e12);
  EXPECT_DOUBLE_EQ(peak("h100-pcie", "fp16 tensor sparse"), 1513e12);
  EXPECT_DOUBLE_EQ(peak("h100-pcie", "fp16 vector"), 102.4e12);
  EXPECT_DOUBLE_EQ(peak("h100-pcie", "bf16 vector"), 102.4e12);
  EXPECT_DOUBLE_EQ(bandwidth("h100-pcie", "HBM2e"), 2.0e12);
  // H200 datasheet: 141 GB HBM3e at 4.8 TB/s, FP8 3958 sparse.
  EXPECT_DOUBLE_EQ(bandwidth("h200", "HBM3e"), 4.8e12);
  EXPECT_DOUBLE_EQ(size_of("h200", "HBM3e"), 141e9);
  EXPECT_DOUBLE_EQ(peak("h200", "fp8 tensor sparse"), 3958e12);
  // HGX B200: FP4 18 PFLOP/s sparse, FP8 9 sparse, FP32 75 TFLOP/s, 7.7 TB/s, NVLink 1.8 TB/s.
  EXPECT_DOUBLE_EQ(peak("b200", "fp4 tensor sparse"), 18000e12);
  EXPECT_DOUBLE_EQ(peak("b200", "fp8 tensor"), 4500e12);
  EXPECT_DOUBLE_EQ(peak("b200", "fp32 vector"), 75e12);
  EXPECT_DOUBLE_EQ(bandwidth("b200", "NVLink"), 1.8e12);
  // L4 datasheet: FP32 30.3, FP8 485 sparse; 300 GB/s, 72 W.
  EXPECT_DOUBLE_EQ(peak("l4", "fp32 vector"), 30.3e12);
  EXPECT_DOUBLE_EQ(peak("l4", "fp8 tensor sparse"), 485e12);
  EXPECT_DOUBLE_EQ(bandwidth("l4", "GDDR6"), 300e9);
  EXPECT_EQ(info_json(load("l4"))["power_w"], 72);
  // L40S datasheet: FP32 91.6, BF16 362.05 | 733; 864 GB/s.
  EXPECT_DOUBLE_EQ(peak("l40s", "fp32 vector"), 91.6e12);
  EXPECT_DOUBLE_EQ(peak("l40s", "bf16 tensor"), 362.05e12);
  EXPECT_DOUBLE_EQ(peak("l40s", "bf16 tensor sparse"), 733e12);
  EXPECT_DOUBLE_EQ(peak("l40s", "fp16 tensor sparse"), 733e12);
  EXPECT_DOUBLE_EQ(bandwidth("l40s", "GDDR6"), 864e9);
  // Ada whitepaper, RTX 4090: FP32 82.6, FP16 (FP32 acc.) 165.2, 1008 GB/s.
  EXPECT_DOUBLE_EQ(peak("rtx-4090", "fp32 vector"), 82.6e12);
  EXPECT_DOUBLE_EQ(peak("rtx-4090", "fp16 tensor"), 165.2e12);
  // fp16 is compared at that roof, not the fp16-accumulate one (twice as high): `hw compare
  // --precision fp16` and llm pick it.
  EXPECT_DOUBLE_EQ(select_compute_roof(load("rtx-4090").roofs, "fp16").peak.value, 165.2e12);
  EXPECT_DOUBLE_EQ(select_compute_roof(load("rtx-4090").roofs, "bf16/fp16").peak.value, 165.2e12);
  EXPECT_DOUBLE_EQ(bandwidth("rtx-4090", "GDDR6X"), 1008e9);
  // RTX A6000 datasheet: FP32 38.7, 768 GB/s, NVLink 112.5 GB/s.
  EXPECT_DOUBLE_EQ(peak("rtx-a6000", "fp32 vector"), 38.7e12);
  EXPECT_DOUBLE_EQ(bandwidth("rtx-a6000", "GDDR6"), 768e9);
  EXPECT_DOUBLE_EQ(bandwidth("rtx-a6000", "NVLink"), 112.5e9);
  // GA102 whitepaper, RTX A6000: BF16/FP16 154.8 | 309.7, INT4 619.4 | 1238.9.
  EXPECT_DOUBLE_EQ(peak("rtx-a6000", "bf16 tensor sparse"), 309.7e12);
  EXPECT_DOUBLE_EQ(peak("rtx-a6000", "fp16 tensor sparse"), 309.7e12);
  EXPECT_DOUBLE_EQ(peak("rtx-a6000", "int4 tensor sparse"), 1238.9e12);
  // AMD MI250X: FP64 vector 47.9, matrix 95.7, FP16 383; 3.2768 TB/s.
  EXPECT_DOUBLE_EQ(peak("mi250x", "fp64 vector"), 47.9e12);
  EXPECT_DOUBLE_EQ(peak("mi250x", "fp64 matrix"), 95.7e12);
  EXPECT_DOUBLE_EQ(peak("mi250x", "fp16 matrix"), 383e12);
  EXPECT_DOUBLE_EQ(bandwidth("mi250x", "HBM2e"), 3.2768e12);
  // The roofs are the whole package; ROCm shows each of its two GCDs as a GPU, and hw show says
  // so where a user reads it (the display name and the first note).
  EXPECT_NE(info_json(load("mi250x"))["display_name"].get<std::string>().find("2 GCDs"),
            std::string::npos);
  EXPECT_NE(info_json(load("mi250x"))["notes"][0].get<std::string>().find("per GCD"),
            std::string::npos);
  // AMD MI300X: FP64 vector 81.7, FP16 1307.4, FP8 2614.9; 192 GB at 5.3 TB/s.
  EXPECT_DOUBLE_EQ(peak("mi300x", "fp64 vector"), 81.7e12);
  EXPECT_DOUBLE_EQ(peak("mi300x", "fp16 matrix"), 1307.4e12);
  EXPECT_DOUBLE_EQ(peak("mi300x", "fp8 matrix"), 2614.9e12);
  EXPECT_DOUBLE_EQ(peak("mi300x", "fp16 matrix sparse"), 2614.9e12);
  EXPECT_DOUBLE_EQ(peak("mi300x", "bf16 matrix sparse"), 2614.9e12);
  EXPECT_DOUBLE_EQ(bandwidth("mi300x", "HBM3"), 5.3e12);
  EXPECT_DOUBLE_EQ(size_of("mi300x", "HBM3"), 192e9);
  // Google Cloud TPU docs: v4 275 TFLOP/s, 1200 GBps; v5e 197, 819 GBps; v5p 459, 2765 GBps.
  EXPECT_DOUBLE_EQ(peak("tpu-v4", "bf16 mxu"), 275e12);
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v4", "HBM2"), 1200e9);
  // Jouppi et al. ISCA 2023: 6 ICI links x 50 GB/s per direction; both directions, as v5e's 400.
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v4", "ICI"), 600e9);
  EXPECT_EQ(info_json(load("tpu-v4"))["interconnects"][0]["bandwidth"], 600e9);
  EXPECT_DOUBLE_EQ(peak("tpu-v5e", "bf16 mxu"), 197e12);
  EXPECT_DOUBLE_EQ(peak("tpu-v5e", "int8 mxu"), 393e12);
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v5e", "HBM2"), 819e9);  // Google: "HBM2 ... 819 GBps"
  EXPECT_EQ(load("tpu-v5e").roofs.default_memory, "HBM2");
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v5e", "ICI"), 400e9);
  EXPECT_DOUBLE_EQ(peak("tpu-v5p", "bf16 mxu"), 459e12);
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v5p", "HBM2e"), 2765e9);
  // The later revision's table: 'HBM capacity per chip (GiB) | 95' (the earlier wrote '95GB').
  EXPECT_DOUBLE_EQ(size_of("tpu-v5p", "HBM2e"), 95.0 * 1024 * 1024 * 1024);
  // Intel Gaudi 2 (Hot Chips 2024 table): BF16 432 TFLOP/s, 96 GB at 2.46 TB/s, 600 W.
  EXPECT_DOUBLE_EQ(peak("gaudi2", "bf16 mme"), 432e12);
  EXPECT_DOUBLE_EQ(bandwidth("gaudi2", "HBM2e"), 2.46e12);
  EXPECT_EQ(info_json(load("gaudi2"))["power_w"], 600);
  // Grace CPU Superchip: FP64 7.1 TFLOP/s, up to 1 TB/s LPDDR5X, NVLink-C2C 900 GB/s.
  EXPECT_DOUBLE_EQ(peak("grace-cpu-superchip", "fp64 sve2 fma"), 7.1e12);
  // Theoretical: its formula's value, 144 cores x 3.1 GHz x 32 FLOP/cycle (not 2 x 7.1 rounded).
  EXPECT_DOUBLE_EQ(peak("grace-cpu-superchip", "fp32 sve2 fma"), 144 * 3.1e9 * 32);
  EXPECT_DOUBLE_EQ(bandwidth("grace-cpu-superchip", "LPDDR5X"), 1e12);
  EXPECT_DOUBLE_EQ(bandwidth("grace-cpu-superchip", "NVLink-C2C"), 900e9);
}

// CPU roofs are derived: cores × base clock × FLOP/cycle, channels × MT/s × 8 bytes (docs/model.md
// §9).
TEST(Catalogue, CpuRoofsFollowTheirFormulas) {
  EXPECT_DOUBLE_EQ(peak("xeon-platinum-8380", "fp64 avx-512 fma"), 40 * 2.3e9 * 32);
  EXPECT_DOUBLE_EQ(bandwidth("xeon-platinum-8380", "DRAM"), 8 * 3200e6 * 8);
  EXPECT_DOUBLE_EQ(peak("xeon-platinum-8480plus", "bf16 amx"), 56 * 2.0e9 * 1024);
  EXPECT_DOUBLE_EQ(bandwidth("xeon-platinum-8480plus", "DRAM"), 307.2e9);
  EXPECT_DOUBLE_EQ(peak("xeon-platinum-8592plus", "fp64 avx-512 fma"), 64 * 1.9e9 * 32);
  EXPECT_DOUBLE_EQ(bandwidth("xeon-platinum-8592plus", "DRAM"), 358.4e9);
  EXPECT_DOUBLE_EQ(peak("epyc-7763", "fp64 avx2 fma"), 64 * 2.45e9 * 16);
  EXPECT_DOUBLE_EQ(bandwidth("epyc-7763", "DRAM"), 204.8e9);
  EXPECT_DOUBLE_EQ(peak("epyc-9654", "fp64 avx-512 fma"), 96 * 2.4e9 * 16);
  EXPECT_DOUBLE_EQ(bandwidth("epyc-9654", "DRAM"), 460.8e9);
  // The seed's "general CPUs 5-10" FLOP/byte: Genoa's FP64 ridge sits in that band.
  const MachineDocument genoa = load("epyc-9654");
  const auto r = ridge_for(genoa.roofs, {"fp64", {"fp64"}});
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->ridge.value, 8.0, 1e-9);
}

// docs/model.md §8: V100 FP16 TC ≈ 139, A100 FP16 TC ≈ 156, H100 BF16 SXM ≈ 295, TPU v5e ≈ 240.
TEST(Catalogue, SeedRidgePoints) {
  const PrecisionGroup sixteen{"bf16/fp16", {"bf16", "fp16"}};
  auto ridge_of = [&](const std::string& device) {
    const MachineDocument m = load(device);
    const auto r = ridge_for(m.roofs, sixteen);
    EXPECT_TRUE(r) << device;
    return r ? r->ridge.value : 0.0;
  };
  EXPECT_NEAR(ridge_of("v100-sxm2"), 125e12 / 900e9, 1e-9);
  EXPECT_EQ(std::lround(ridge_of("v100-sxm2")), 139);
  // The seed rounds A100's 2.039 TB/s to 2.0: 312/2.0 = 156; 312/2.039 = 153.0.
  EXPECT_NEAR(ridge_of("a100-80gb"), 312e12 / 2.039e12, 1e-9);
  EXPECT_NEAR(ridge_of("a100-80gb"), 156, 156 * 0.02);
  EXPECT_EQ(std::lround(ridge_of("h100-sxm")), 295);
  EXPECT_EQ(std::lround(ridge_of("tpu-v5e")), 241);  // 197 / 0.819 = 240.5
  EXPECT_NEAR(ridge_of("tpu-v5e"), 240, 1);
  // A100 FP32 cores: 19.5 / 2.039 ≈ 9.6 (the seed's 9.8 with β = 2.0).
  const MachineDocument a100 = load("a100-80gb");
  EXPECT_NEAR(ridge_for(a100.roofs, {"fp32", {"fp32"}})->ridge.value, 19.5 / 2.039, 1e-9);
  // V100's 16-bit column is its FP16 tensor roof (Volta has no bf16).
  EXPECT_EQ(ridge_for(load("v100-sxm2").roofs, sixteen)->compute_roof, "fp16 tensor");
}

TEST(Catalogue, SparseRoofsNeverAnswerAPrecision) {
  const MachineDocument h100 = load("h100-sxm");
  EXPECT_EQ(h100.roofs.select_compute("bf16").name, "bf16 tensor");
  EXPECT_EQ(highest_dense_roof(h100.roofs, {"fp8"})->name, "fp8 tensor");
  EXPECT_EQ(h100.roofs.select_compute("").name, "fp32 vector");
  for (const auto& r : ridges_per_roof(h100.roofs))
    EXPECT_EQ(r.compute_roof.find("sparse"), std::string::npos);
}

TEST(Catalogue, NamesResolveCaseInsensitivelyAndByAlias) {
  EXPECT_EQ(resolve_machine("A100-80GB").roofs.name, "a100-80gb");
  EXPECT_EQ(resolve_machine("a100_80gb").roofs.name, "a100-80gb");
  EXPECT_EQ(resolve_machine("A100 80GB").roofs.name, "a100-80gb");
  EXPECT_EQ(resolve_machine("a100").roofs.name, "a100-80gb");
  EXPECT_EQ(resolve_machine("H100").roofs.name, "h100-sxm");
  EXPECT_EQ(resolve_machine("TPU v5e").roofs.name, "tpu-v5e");
  EXPECT_EQ(resolve_machine("8480+").roofs.name, "xeon-platinum-8480plus");
  EXPECT_EQ(resolve_machine("Grace").roofs.name, "grace-cpu-superchip");
  const std::string msg = error_of([] { resolve_machine("a100-8gb"); });
  EXPECT_NE(msg.find("unknown machine 'a100-8gb'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean"), std::string::npos) << msg;
  EXPECT_NE(msg.find("a100-80gb"), std::string::npos) << msg;
  const std::string msg2 = error_of([] { resolve_machine("mi300"); });
  EXPECT_NE(msg2.find("mi300x"), std::string::npos) << msg2;
  // Equal distance (1 to aliases xeon-8480+ and xeon-8380): the one starting with the typed
  // text comes first.
  const std::string msg3 = error_of([] { resolve_machine("xeon-8480"); });
  EXPECT_NE(msg3.find("(did you mean: xeon-platinum-8480plus, xeon-platinum-8380"),
            std::string::npos)
      << msg3;
}

TEST(Catalogue, CheckerReportsBrokenEntries) {
  roofline::test::TempDir dir;
  const std::string good = (kCatalogue / "l4.json").string();
  nlohmann::json j = nlohmann::json::parse(roofline::test::slurp(good));
  j["compute"][0].erase("source");
  j["info"]["clock"]["basis"] = "turbo";
  j["info"].erase("vendor");
  roofline::test::write_text(dir.file("My_GPU.json"), j.dump());
  const auto problems = catalogue_entry_problems(dir.file("My_GPU.json"));
  auto has = [&](const std::string& s) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(s) != std::string::npos; });
  };
  EXPECT_TRUE(has("file name 'My_GPU' is not lower-case and hyphenated"));
  EXPECT_TRUE(has("differs from the file name"));
  EXPECT_TRUE(has("compute roof 'fp32 vector' has no source"));
  EXPECT_TRUE(has("info.clock.basis must be boost or base"));
  EXPECT_TRUE(has("info.vendor is missing"));
  EXPECT_FALSE(has("interconnects"));
  // A sparse roof without its dense twin, and an interconnect missing from the roofs.
  j = nlohmann::json::parse(roofline::test::slurp(good));
  j["compute"].erase(1);  // "tf32 tensor", leaving "tf32 tensor sparse" alone
  j["info"]["interconnects"].push_back({{"name", "NVLink"}, {"bandwidth", 1e11}, {"source", "x"}});
  roofline::test::write_text(dir.file("l4.json"), j.dump());
  const auto p2 = catalogue_entry_problems(dir.file("l4.json"));
  ASSERT_EQ(p2.size(), 2u) << (p2.empty() ? "" : p2[0]);
  EXPECT_NE(p2[0].find("sparse roof 'tf32 tensor sparse' has no lower dense roof"),
            std::string::npos)
      << p2[0];
  EXPECT_NE(p2[1].find("'NVLink' is not also a memory roof"), std::string::npos) << p2[1];
  // A sparse default is refused when the document is read (no machine judges a point by it).
  j = nlohmann::json::parse(roofline::test::slurp(good));
  j["default_compute"] = "fp16 tensor sparse";
  roofline::test::write_text(dir.file("l4.json"), j.dump());
  const auto p3 = catalogue_entry_problems(dir.file("l4.json"));
  ASSERT_EQ(p3.size(), 1u);
  EXPECT_NE(p3[0].find("default_compute 'fp16 tensor sparse' is a sparse roof"), std::string::npos)
      << p3[0];
  // What passed: a precision that is no type, a source of blanks, a peak of 1e308 (a ridge of
  // 3e295), an alias holding ESC.
  j = nlohmann::json::parse(roofline::test::slurp(good));
  j["compute"][0]["precision"] = "fp33";
  j["compute"][2]["source"] = "   ";
  j["compute"][3]["peak"] = 1e308;
  j["memory"][0]["bandwidth"] = 1e300;
  j["info"]["aliases"].push_back("l4\u001b[31m");
  roofline::test::write_text(dir.file("l4.json"), j.dump());
  const auto p4 = catalogue_entry_problems(dir.file("l4.json"));
  auto has4 = [&](const std::string& s) {
    return std::any_of(p4.begin(), p4.end(),
                       [&](const std::string& p) { return p.find(s) != std::string::npos; });
  };
  const std::string roof2 = j["compute"][2]["name"], roof3 = j["compute"][3]["name"];
  const std::string level = j["memory"][0]["level"];
  EXPECT_TRUE(has4("precision 'fp33' is no data type")) << p4.size();
  EXPECT_TRUE(has4("compute roof '" + roof2 + "' has no source"));
  EXPECT_TRUE(has4("compute roof '" + roof3 + "': peak 1e+308 is beyond any device"));
  EXPECT_TRUE(has4("memory roof '" + level + "': bandwidth 1e+300 is beyond any device"));
  EXPECT_TRUE(has4("info.aliases: 'l4\\u001b[31m' holds a control character"));
  // Every precision the catalogue uses is one (fp4, tf32, ops... pass).
  for (const auto& e : list_catalogue()) {
    if (e.path.parent_path() != kCatalogue) continue;
    for (const auto& p : catalogue_entry_problems(e.path))
      EXPECT_EQ(p.find("is no data type"), std::string::npos) << p;
  }
}

// The rules of docs/hardware.md the checker adds: formula on theoretical roofs, integer on int
// precisions, the sparse flag matching the name, cache sources, display name, the sources of
// power and release year, and the CPU clock basis.
TEST(Catalogue, CheckerEnforcesTheDocumentedRules) {
  roofline::test::TempDir dir;
  auto problems_of = [&](const nlohmann::json& j, const std::string& name) {
    roofline::test::write_text(dir.file(name + ".json"), j.dump());
    return catalogue_entry_problems(dir.file(name + ".json"));
  };
  auto has = [](const std::vector<std::string>& ps, const std::string& s) {
    return std::any_of(ps.begin(), ps.end(),
                       [&](const std::string& p) { return p.find(s) != std::string::npos; });
  };
  const nlohmann::json h100 =
      nlohmann::json::parse(roofline::test::slurp((kCatalogue / "h100-sxm.json").string()));
  EXPECT_TRUE(problems_of(h100, "h100-sxm").empty());
  nlohmann::json j = h100;
  auto roof = [&](const std::string& name) -> nlohmann::json& {
    for (auto& c : j["compute"])
      if (c["name"] == name) return c;
    throw std::runtime_error("no roof " + name);
  };
  roof("fp32 vector")["provenance"] = "theoretical";  // and no formula
  roof("fp8 tensor sparse").erase("sparse");
  roof("fp16 tensor")["sparse"] = true;
  j["info"]["caches"][0].erase("source");
  j["info"].erase("display_name");
  j["info"].erase("power_source");
  j["info"]["release_source"] = "";
  auto p = problems_of(j, "h100-sxm");
  EXPECT_TRUE(has(p, "compute roof 'fp32 vector' is theoretical but has no formula"));
  EXPECT_TRUE(has(p, "'fp8 tensor sparse': named '... sparse' but lacks \"sparse\": true"));
  EXPECT_TRUE(has(p, "'fp16 tensor': \"sparse\": true but the name does not end in ' sparse'"));
  EXPECT_TRUE(has(p, "info.caches: 'L2' has no source"));
  EXPECT_TRUE(has(p, "info.display_name is missing"));
  EXPECT_TRUE(has(p, "info.power_source is missing"));
  EXPECT_TRUE(has(p, "info.release_source is missing"));
  // An int8 roof counts OP by its precision, as every command reads it (hw check said it
  // "needs \"integer\": true" while hw compare counted it in FLOP); an "integer" that says
  // otherwise is refused, naming the field, by the reader the commands share.
  j = h100;
  roof("int8 tensor").erase("integer");
  EXPECT_TRUE(problems_of(j, "h100-sxm").empty());
  EXPECT_TRUE(
      load_machine_file(kCatalogue / "h100-sxm.json").roofs.find_compute("int8 tensor")->integer);
  roof("bf16 tensor")["integer"] = true;
  p = problems_of(j, "h100-sxm");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(has(p, "].integer: precision 'bf16' is a floating-point type, counted in FLOP"))
      << p[0];
  // A compute capability that is no MAJOR.MINOR, or one without its source.
  for (const char* bad : {"sm_90", "9", "9.0a", "9 .0", "9.x", ""}) {
    j = h100;
    j["info"]["compute_capability"] = bad;
    EXPECT_TRUE(has(problems_of(j, "h100-sxm"), "info.compute_capability must be MAJOR.MINOR"))
        << bad;
  }
  j = h100;
  j["info"].erase("compute_capability_source");
  EXPECT_TRUE(has(problems_of(j, "h100-sxm"), "info.compute_capability_source is missing"));
  // A link's caveat is one line of text (llm says it inside one warning line).
  for (const nlohmann::json& bad :
       {nlohmann::json("two\nlines"), nlohmann::json(""), nlohmann::json(3)}) {
    j = h100;
    j["info"]["interconnects"][0]["caveat"] = bad;
    EXPECT_TRUE(has(problems_of(j, "h100-sxm"), "caveat must be one line of text")) << bad;
  }
  j = h100;
  j["info"]["interconnects"][0]["caveat"] = "the host link";
  EXPECT_FALSE(has(problems_of(j, "h100-sxm"), "caveat"));

  // A theoretical memory roof without a formula; a cache without a size.
  j = h100;
  j["memory"][0]["provenance"] = "theoretical";
  j["info"]["caches"][0]["size"] = 0;
  p = problems_of(j, "h100-sxm");
  EXPECT_TRUE(has(p, "memory roof 'HBM3' is theoretical but has no formula"));
  EXPECT_TRUE(has(p, "info.caches: 'L2' needs a positive size in bytes"));
  EXPECT_EQ(p.size(), 2u);

  // A vendor figure taken from a third party's table is "reported", not "datasheet".
  j = h100;
  roof("fp32 vector")["source"] = "Tom's Hardware, a table of the vendor's figures";
  j["memory"][0]["source"] = "Verda (formerly DataCrunch), per-GPU table";
  p = problems_of(j, "h100-sxm");
  EXPECT_TRUE(has(p,
                  "compute roof 'fp32 vector' is marked datasheet but its source is a third "
                  "party's publication: mark it \"reported\""));
  EXPECT_TRUE(has(p, "memory roof 'HBM3' is marked datasheet but its source is a third party's"));
  EXPECT_EQ(p.size(), 2u);
  roof("fp32 vector")["provenance"] = "reported";
  j["memory"][0]["provenance"] = "reported";
  EXPECT_TRUE(problems_of(j, "h100-sxm").empty());

  // A CPU records its base clock and the turbo beside it.
  const nlohmann::json xeon = nlohmann::json::parse(
      roofline::test::slurp((kCatalogue / "xeon-platinum-8380.json").string()));
  EXPECT_TRUE(problems_of(xeon, "xeon-platinum-8380").empty());
  j = xeon;
  j["info"]["clock"]["basis"] = "boost";
  j["info"]["clock"].erase("max_turbo_mhz");
  p = problems_of(j, "xeon-platinum-8380");
  EXPECT_TRUE(has(p, "info.clock.basis must be base for a cpu (got 'boost')"));
  EXPECT_TRUE(has(p, "info.clock.max_turbo_mhz must be a number or null"));
  EXPECT_EQ(p.size(), 2u);
  // Not for a GPU: its boost clock is the datasheet's.
  EXPECT_TRUE(problems_of(h100, "h100-sxm").empty());
}

// The devices of 2024-2026, asserted against the documents each roof cites (the comment names
// the document and the line the figure is on).
TEST(Catalogue, NewDevicesAgainstTheirSources) {
  // Google Cloud TPU v6e system architecture, specification table: bf16 918 TFLOPs, Int8 1836
  // TOPs, 32 GB, 1638 GBps, bidirectional ICI 800 GBps.
  EXPECT_DOUBLE_EQ(peak("tpu-v6e", "bf16 mxu"), 918e12);
  EXPECT_DOUBLE_EQ(peak("tpu-v6e", "int8 mxu"), 1836e12);
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v6e", "HBM"), 1638e9);
  EXPECT_DOUBLE_EQ(size_of("tpu-v6e", "HBM"), 32e9);
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v6e", "ICI"), 800e9);
  EXPECT_TRUE(info_json(load("tpu-v6e"))["power_w"].is_null());  // Google publishes none
  // Google Cloud TPU7x (Ironwood) table: BF16 2307, FP8 4614 TFLOPs, 192 GiB; Google blog
  // 'Ironwood: The first Google TPU for the age of inference' (9 April 2025): 7.37 TB/s, ICI
  // 1.2 TBps bidirectional.
  EXPECT_DOUBLE_EQ(peak("tpu-v7", "bf16 mxu"), 2307e12);
  EXPECT_DOUBLE_EQ(peak("tpu-v7", "fp8 mxu"), 4614e12);
  EXPECT_DOUBLE_EQ(size_of("tpu-v7", "HBM"), 192.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v7", "HBM"), 7.37e12);
  EXPECT_DOUBLE_EQ(bandwidth("tpu-v7", "ICI"), 1.2e12);
  // AWS Neuron 'Trainium2 architecture' (about-neuron/, commit 7c165a3): 1,299 FP8, 667
  // BF16/FP16/TF32, 2,563 sparse, 181 FP32 TFLOPS; 96 GiB at 2.9 TB/s; NeuronLink-v3 1.28 TB/s
  // per chip. (A revision under general/ printed 1,287 / 655 / 2,551: a recorded disagreement.)
  EXPECT_DOUBLE_EQ(peak("trainium2", "fp8 neuroncore"), 1299e12);
  EXPECT_DOUBLE_EQ(peak("trainium2", "bf16 neuroncore"), 667e12);
  EXPECT_DOUBLE_EQ(peak("trainium2", "bf16 neuroncore sparse"), 2563e12);
  EXPECT_DOUBLE_EQ(peak("trainium2", "fp32 neuroncore"), 181e12);
  EXPECT_DOUBLE_EQ(size_of("trainium2", "HBM"), 96.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(bandwidth("trainium2", "HBM"), 2.9e12);
  EXPECT_DOUBLE_EQ(bandwidth("trainium2", "NeuronLink"), 1.28e12);
  // AMD Instinct MI325X data sheet: FP8 2614.9 | 5229.8 sparse, FP16/BF16 1307.4, TF32 653.7,
  // FP32 163.4 TFLOPs; 256 GB HBM3E at 6 TB/s; 1000 W.
  EXPECT_DOUBLE_EQ(peak("mi325x", "fp8 matrix"), 2614.9e12);
  EXPECT_DOUBLE_EQ(peak("mi325x", "fp8 matrix sparse"), 5229.8e12);
  EXPECT_DOUBLE_EQ(peak("mi325x", "bf16 matrix"), 1307.4e12);
  EXPECT_DOUBLE_EQ(peak("mi325x", "tf32 matrix"), 653.7e12);
  EXPECT_DOUBLE_EQ(peak("mi325x", "fp32 vector"), 163.4e12);
  EXPECT_DOUBLE_EQ(bandwidth("mi325x", "HBM3E"), 6e12);
  EXPECT_DOUBLE_EQ(size_of("mi325x", "HBM3E"), 256e9);
  EXPECT_EQ(info_json(load("mi325x"))["power_w"], 1000);
  // AMD MI355X (Advancing AI 2025): FP32 157.3 TFLOPS, INT8 5 | 10.1 POPS, 288 GB at 8 TB/s,
  // 1400 W; FP8 = 256 CUs x 2.4 GHz x 8192 FLOP/cycle (AMD at ISSCC 2026).
  EXPECT_DOUBLE_EQ(peak("mi355x", "fp32 vector"), 157.3e12);
  EXPECT_DOUBLE_EQ(peak("mi355x", "fp8 matrix"), 256 * 2.4e9 * 8192);
  // CDNA 4 whitepaper Table 1: FP16 matrix 4,096 FLOP/cycle/CU (AMD's '2.5 PFLOPS').
  EXPECT_DOUBLE_EQ(peak("mi355x", "bf16 matrix"), 256 * 2.4e9 * 4096);
  EXPECT_NEAR(peak("mi355x", "fp16 matrix"), 2.5e15, 0.02e15);
  EXPECT_DOUBLE_EQ(peak("mi355x", "int8 matrix sparse"), 10.1e15);
  // CDNA 4 whitepaper Table 2: FP64 vector and matrix 78.6 TFLOPS (256 CUs x 2.4 GHz x 128).
  EXPECT_DOUBLE_EQ(peak("mi355x", "fp64 vector"), 78.6e12);
  EXPECT_DOUBLE_EQ(peak("mi355x", "fp64 matrix"), 78.6e12);
  EXPECT_NEAR(peak("mi355x", "fp64 vector"), 256 * 2.4e9 * 128, 0.1e12);
  EXPECT_DOUBLE_EQ(bandwidth("mi355x", "HBM3E"), 8e12);
  EXPECT_DOUBLE_EQ(size_of("mi355x", "HBM3E"), 288e9);
  EXPECT_EQ(info_json(load("mi355x"))["power_w"], 1400);
  // Intel Gaudi 3 white paper: MME BF16/FP8 1835 TFLOPS, vector BF16 28.7, 128 GB HBM2e at
  // 3.7 TB/s, 96 MB SRAM at 12.8 TB/s, 24 x 200 GbE, 900 W.
  EXPECT_DOUBLE_EQ(peak("gaudi3", "bf16 mme"), 1835e12);
  EXPECT_DOUBLE_EQ(peak("gaudi3", "fp8 mme"), 1835e12);
  EXPECT_DOUBLE_EQ(peak("gaudi3", "bf16 vector"), 28.7e12);
  EXPECT_DOUBLE_EQ(bandwidth("gaudi3", "HBM2e"), 3.7e12);
  EXPECT_DOUBLE_EQ(bandwidth("gaudi3", "SRAM"), 12.8e12);
  EXPECT_DOUBLE_EQ(bandwidth("gaudi3", "RoCE"), 24 * 200e9 / 8 * 2);  // both directions
  EXPECT_EQ(info_json(load("gaudi3"))["power_w"], 900);
  // NVIDIA 'Inside NVIDIA Blackwell Ultra' (August 2025): 15 PFLOPS dense NVFP4, 20 sparse,
  // 288 GB HBM3E at 8 TB/s per GPU, NVLink 1.8 TB/s.
  EXPECT_DOUBLE_EQ(peak("gb300", "fp4 tensor"), 15e15);
  EXPECT_DOUBLE_EQ(peak("gb300", "fp4 tensor sparse"), 20e15);
  EXPECT_DOUBLE_EQ(bandwidth("gb300", "HBM3e"), 8e12);
  EXPECT_DOUBLE_EQ(size_of("gb300", "HBM3e"), 288e9);
  EXPECT_DOUBLE_EQ(bandwidth("gb300", "NVLink"), 1.8e12);
  // NVIDIA GB200 NVL72 specifications, per superchip (2 GPUs): NVFP4 40 | 20 PFLOPS (sparse |
  // dense), FP32 160 TFLOPS, FP64 / FP64 Tensor 80 TFLOPS (the launch figures 180 / 90 are kept
  // as a disagreement), 372 GB at 16 TB/s, NVLink 3.6 TB/s; per GPU half of each.
  EXPECT_DOUBLE_EQ(peak("gb200", "fp4 tensor sparse"), 20e15);
  EXPECT_DOUBLE_EQ(peak("gb200", "fp4 tensor"), 10e15);
  EXPECT_DOUBLE_EQ(peak("gb200", "fp32 vector"), 80e12);
  EXPECT_DOUBLE_EQ(peak("gb200", "fp64 vector"), 40e12);
  EXPECT_DOUBLE_EQ(peak("gb200", "fp64 tensor"), 40e12);
  EXPECT_DOUBLE_EQ(size_of("gb200", "HBM3e"), 186e9);
  EXPECT_DOUBLE_EQ(bandwidth("gb200", "NVLink"), 1.8e12);
  // NVIDIA GH200 datasheet: 96 GB HBM3 at 4 TB/s | 144 GB HBM3e at 4.9 TB/s; LPDDR5X up to
  // 480 GB at 512 GB/s; NVLink-C2C 900 GB/s.
  EXPECT_DOUBLE_EQ(bandwidth("gh200-96gb", "HBM3"), 4e12);
  EXPECT_DOUBLE_EQ(bandwidth("gh200-144gb", "HBM3e"), 4.9e12);
  EXPECT_DOUBLE_EQ(size_of("gh200-144gb", "HBM3e"), 144e9);
  EXPECT_DOUBLE_EQ(bandwidth("gh200-96gb", "LPDDR5X"), 512e9);
  EXPECT_DOUBLE_EQ(bandwidth("gh200-144gb", "NVLink-C2C"), 900e9);
  // RTX Blackwell whitepaper, RTX 5090: 21,760 CUDA cores at 2,407 MHz boost, 32 GB GDDR7 at
  // 1,792 GB/s, 575 W; FP4 3,352 AI TOPS (sparse).
  EXPECT_DOUBLE_EQ(peak("rtx-5090", "fp32 vector"), 21760 * 2 * 2.407e9);
  EXPECT_DOUBLE_EQ(peak("rtx-5090", "fp4 tensor sparse"), 3352e12);
  EXPECT_DOUBLE_EQ(bandwidth("rtx-5090", "GDDR7"), 1792e9);
  EXPECT_DOUBLE_EQ(size_of("rtx-5090", "GDDR7"), 32e9);
  EXPECT_EQ(info_json(load("rtx-5090"))["power_w"], 575);
  // RTX PRO 6000 Blackwell: 125 TFLOPS FP32, 4,000 AI TOPS, 96 GB at 1,792 GB/s, 600 W.
  EXPECT_DOUBLE_EQ(peak("rtx-pro-6000-blackwell", "fp32 vector"), 125e12);
  EXPECT_DOUBLE_EQ(size_of("rtx-pro-6000-blackwell", "GDDR7"), 96e9);
  // NVIDIA Jetson modules table, AGX Orin 64GB: 275 TOPS, 2048 cores at 1.3 GHz, 64 GB LPDDR5
  // at 204.8 GB/s; the 275 TOPS is sparse INT8 of the GPU (171) and the two DLAs (105) at MAXN
  // (NVIDIA's DLA-SW README), so it is a sparse roof beside a dense twin of half. Jetson Thor
  // T5000: 2070 FP4 TFLOPS sparse, 128 GB LPDDR5X at 273 GB/s.
  EXPECT_DOUBLE_EQ(peak("jetson-agx-orin-64gb", "int8 gpu+dla sparse"), 275e12);
  EXPECT_DOUBLE_EQ(peak("jetson-agx-orin-64gb", "int8 gpu+dla"), 137.5e12);
  EXPECT_DOUBLE_EQ(peak("jetson-agx-orin-64gb", "int8 tensor sparse"), 171e12);
  EXPECT_DOUBLE_EQ(peak("jetson-agx-orin-64gb", "int8 tensor"), 85.5e12);
  EXPECT_TRUE(load("jetson-agx-orin-64gb").roofs.find_compute("int8 gpu+dla sparse")->sparse);
  EXPECT_EQ(load("jetson-agx-orin-64gb").roofs.select_compute("").name, "fp32 vector");
  EXPECT_DOUBLE_EQ(peak("jetson-agx-orin-64gb", "fp32 vector"), 2048 * 2 * 1.3e9);
  EXPECT_DOUBLE_EQ(bandwidth("jetson-agx-orin-64gb", "LPDDR5"), 204.8e9);
  EXPECT_DOUBLE_EQ(peak("jetson-agx-thor", "fp4 tensor sparse"), 2070e12);
  EXPECT_DOUBLE_EQ(bandwidth("jetson-agx-thor", "LPDDR5X"), 273e9);
  // Edge NPUs in OP/s: Snapdragon X Elite 45 TOPS, Lunar Lake 48, Ryzen AI 300 50; Apple M4
  // Max 38 TOPS Neural Engine with 546 GB/s unified memory.
  EXPECT_DOUBLE_EQ(peak("snapdragon-x-elite", "ops npu"), 45e12);
  EXPECT_DOUBLE_EQ(peak("snapdragon-x-elite", "fp32 gpu"), 4.6e12);
  // The shipping X1E-84-100: LPDDR5X-8448 on 8 x 16-bit channels (the 136 GB/s of the 2023
  // announcement was LPDDR5X-8533); its figures are seen only in the press, so "reported".
  EXPECT_DOUBLE_EQ(bandwidth("snapdragon-x-elite", "LPDDR5X"), 8448e6 * 16);
  EXPECT_EQ(load("snapdragon-x-elite").roofs.find_compute("fp32 gpu")->provenance,
            Provenance::reported);
  EXPECT_DOUBLE_EQ(peak("core-ultra-9-288v", "ops npu"), 48e12);
  EXPECT_DOUBLE_EQ(bandwidth("core-ultra-9-288v", "LPDDR5X"), 8533e6 * 16);
  EXPECT_DOUBLE_EQ(peak("ryzen-ai-9-hx-370", "ops npu"), 50e12);
  EXPECT_DOUBLE_EQ(peak("apple-m4-max", "ops neural engine"), 38e12);
  EXPECT_DOUBLE_EQ(bandwidth("apple-m4-max", "unified memory"), 546e9);
  EXPECT_DOUBLE_EQ(bandwidth("apple-m3-max", "unified memory"), 400e9);
  EXPECT_TRUE(load("apple-m4-max").roofs.find_compute("ops neural engine")->integer);  // OP/s
}

// Server CPUs of 2024: cores x base clock x FLOP/cycle, channels x MT/s x 8 bytes.
TEST(Catalogue, NewCpuRoofsFollowTheirFormulas) {
  // Intel ARK, Xeon 6980P: 128 cores, 2.0 GHz base, 12 x DDR5-6400, 96 PCIe 5.0 lanes, 500 W.
  EXPECT_DOUBLE_EQ(peak("xeon-6980p", "fp64 avx-512 fma"), 128 * 2.0e9 * 32);
  EXPECT_DOUBLE_EQ(peak("xeon-6980p", "bf16 amx"), 128 * 2.0e9 * 1024);
  EXPECT_DOUBLE_EQ(bandwidth("xeon-6980p", "DRAM"), 12 * 6400e6 * 8);
  EXPECT_DOUBLE_EQ(bandwidth("xeon-6980p", "PCIe"), 96 * 4e9 * 2);
  EXPECT_EQ(info_json(load("xeon-6980p"))["power_w"], 500);
  // AMD EPYC 9755: 128 Zen 5 cores at 2.7 GHz base, 12 x DDR5-6000.
  EXPECT_DOUBLE_EQ(peak("epyc-9755", "fp64 avx-512 fma"), 128 * 2.7e9 * 32);
  EXPECT_DOUBLE_EQ(bandwidth("epyc-9755", "DRAM"), 12 * 6000e6 * 8);
  // AWS Graviton Technical Guide: 96 Neoverse V2 cores at 2800 MHz, 4 x 128-bit SVE2, 12 x DDR5.
  EXPECT_DOUBLE_EQ(peak("graviton4", "fp64 sve2 fma"), 96 * 2.8e9 * 16);
  EXPECT_DOUBLE_EQ(bandwidth("graviton4", "DRAM"), 12 * 5600e6 * 8);
  EXPECT_TRUE(info_json(load("graviton4"))["clock"]["max_turbo_mhz"].is_null());  // no turbo
}

// Derived figures say so: a dense roof that is half a printed sparse one is theoretical and its
// formula gives the rule (H200, B200, L4 print only sparse tensor figures).
TEST(Catalogue, DerivedDenseRoofsCarryTheirRule) {
  for (const char* device : {"h200", "b200", "l4", "gb200", "rtx-5090"}) {
    SCOPED_TRACE(device);
    const MachineDocument m = load(device);
    for (const auto& c : m.roofs.compute) {
      const ComputeRoof* twin = m.roofs.find_compute(c.name + " sparse");
      if (c.sparse || !twin) continue;
      EXPECT_EQ(c.provenance, Provenance::theoretical) << c.name;
      EXPECT_NE(c.formula.find("/ 2"), std::string::npos) << c.name << ": " << c.formula;
      EXPECT_DOUBLE_EQ(c.peak.value, twin->peak.value / 2) << c.name;
    }
  }
  // Where the source prints both (H100 SXM whitepaper), both roofs stay datasheet figures.
  EXPECT_EQ(load("h100-sxm").roofs.find_compute("bf16 tensor")->provenance, Provenance::datasheet);
}

// GB300: NVIDIA's Blackwell Ultra blog gives NVFP4, memory and NVLink; the other peaks are seen
// only in third-party tables of NVIDIA's Hot Chips 2025 figures, and say so.
TEST(Catalogue, ThirdPartyFiguresAreReportedNotDatasheet) {
  const MachineDocument m = load("gb300");
  for (const char* name : {"fp64 vector", "fp32 vector", "tf32 tensor", "bf16 tensor",
                           "fp16 tensor", "fp8 tensor", "int8 tensor"}) {
    const ComputeRoof* c = m.roofs.find_compute(name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_EQ(c->provenance, Provenance::reported) << name;
  }
  EXPECT_EQ(m.roofs.find_compute("fp4 tensor")->provenance, Provenance::datasheet);
  EXPECT_EQ(parse_provenance("Reported"), Provenance::reported);
  EXPECT_EQ(to_string(Provenance::reported), "reported");
  // hw show marks the figure beside its source.
  bool marked = false;
  for (const auto& v : value_sources(m))
    if (v.value == "fp32 vector")
      marked = v.figure.find("(reported by a third party)") != std::string::npos;
  EXPECT_TRUE(marked);
}

// Where a vendor disagrees with itself, both figures are recorded with their sources and the
// entry says which it uses and why.
TEST(Catalogue, DisagreementsAreRecordedWithBothSources) {
  auto disagreement = [](const std::string& device, const std::string& value) {
    const nlohmann::json info = info_json(load(device));
    for (const auto& d : info.value("discrepancies", nlohmann::json::array()))
      if (d.value("value", "") == value) return d;
    ADD_FAILURE() << device << ": no disagreement recorded for " << value;
    return nlohmann::json::object();
  };
  // B200: NVIDIA's HGX page (180 GB, 7.7 TB/s) against the 192 GB / 8 TB/s launch figure.
  const auto b200 = disagreement("b200", "HBM3e bandwidth");
  ASSERT_GE(b200["figures"].size(), 2u);
  EXPECT_EQ(b200["used"], "7.7 TB/s");
  EXPECT_NE(b200["figures"][1]["figure"].get<std::string>().find("8 TB/s"), std::string::npos);
  EXPECT_DOUBLE_EQ(bandwidth("b200", "HBM3e"), 7.7e12);
  // TPU v5e: Google's page revisions (819 GBps, 800 GiBps); the roof stays 819 GB/s.
  EXPECT_EQ(disagreement("tpu-v5e", "HBM2 bandwidth")["used"], "819 GB/s");
  // Trainium2: two revisions of AWS's architecture page.
  EXPECT_EQ(disagreement("trainium2", "peak compute")["figures"].size(), 2u);
  // Trainium2's chip figures (667 BF16 TFLOPS) against its eight Tensor Engines at the
  // NeuronCore-v3 page's 79 (632): the roofs keep the chip's published figure.
  const auto engines =
      disagreement("trainium2", "peak compute of the chip against its Tensor Engines");
  ASSERT_EQ(engines["figures"].size(), 2u);
  EXPECT_NE(engines["figures"][0]["figure"].get<std::string>().find("667"), std::string::npos);
  EXPECT_NE(engines["figures"][1]["figure"].get<std::string>().find("8 × 79 = 632"),
            std::string::npos);
  EXPECT_EQ(engines["used"], "1,299 / 667 / 2,563 TFLOPS");
  EXPECT_DOUBLE_EQ(peak("trainium2", "bf16 neuroncore"), 667e12);
  // GH200 HBM3e: 141 GB / 5 TB/s announced, 144 GB / 4.9 TB/s in the datasheet.
  EXPECT_EQ(disagreement("gh200-144gb", "HBM3e capacity and bandwidth")["used"],
            "144 GB, 4.9 TB/s");
  // H100 PCIe: the datasheet's 2 TB/s against the whitepaper's 2,039 GB/s; the roof stays 2 TB/s.
  EXPECT_EQ(disagreement("h100-pcie", "HBM2e bandwidth")["used"], "2 TB/s");
  // GB200: the current NVL72 table (160 / 80 TFLOPS per superchip) against the launch 180 / 90.
  EXPECT_EQ(disagreement("gb200", "FP64 and FP32 peaks")["figures"].size(), 2u);
  for (const auto& f : catalogue_files()) {
    const nlohmann::json info = info_json(load_machine_file(f));
    for (const auto& d : info.value("discrepancies", nlohmann::json::array())) {
      EXPECT_GE(d["figures"].size(), 2u) << f;
      for (const auto& fig : d["figures"]) EXPECT_FALSE(fig.value("source", "").empty()) << f;
      EXPECT_FALSE(d.value("reason", "").empty()) << f;
    }
  }
}

TEST(Catalogue, CheckerRefusesALinkFactTheCommandsCouldNotRead) {
  // A domain size is read by `roofline llm` (machine_facts, link_facts); the checker reports
  // what the same reader could not read, so a file it accepts is one every command uses.
  roofline::test::TempDir dir;
  nlohmann::json j =
      nlohmann::json::parse(roofline::test::slurp((kCatalogue / "h100-sxm.json").string()));
  j["info"]["interconnects"][0]["domain_size"] = -3;
  roofline::test::write_text(dir.file("h100-sxm.json"), j.dump());
  const auto p = catalogue_entry_problems(dir.file("h100-sxm.json"));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("info.interconnects[NVLink]: domain_size: must be > 0"), std::string::npos)
      << p[0];
  // A fraction of a device, as --domain-size refuses it (2.5 read as a domain --tp 4 exceeded).
  j["info"]["interconnects"][0]["domain_size"] = 2.5;
  roofline::test::write_text(dir.file("h100-sxm.json"), j.dump());
  const auto half = catalogue_entry_problems(dir.file("h100-sxm.json"));
  ASSERT_EQ(half.size(), 1u);
  EXPECT_NE(half[0].find("domain_size: must be a whole number of devices ≥ 1 (got 2.5)"),
            std::string::npos)
      << half[0];
  j["info"]["interconnects"][0]["domain_size"] = 8;
  roofline::test::write_text(dir.file("h100-sxm.json"), j.dump());
  EXPECT_TRUE(catalogue_entry_problems(dir.file("h100-sxm.json")).empty());
}

// A year past a 32-bit int wrapped to a plausible one (2^32 + 2023 read 2023, passed the
// checker and the --year filter); a power of 1e-300 W passed and bounded energy at inf FLOP/J.
TEST(Catalogue, AYearOrPowerOutOfRangeIsRefusedAndNeverWrapped) {
  roofline::test::TempDir dir;
  nlohmann::json j =
      nlohmann::json::parse(roofline::test::slurp((kCatalogue / "l4.json").string()));
  j["info"]["release_year"] = 4294969319ULL;
  roofline::test::write_text(dir.file("l4.json"), j.dump());
  auto p = catalogue_entry_problems(dir.file("l4.json"));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("info.release_year must be a year from 1990 to 2100"), std::string::npos)
      << p[0];
  EXPECT_FALSE(machine_facts(load_machine_file(dir.file("l4.json"))).release_year);
  EXPECT_FALSE(release_year_of(nlohmann::json(-4294965273LL)));
  EXPECT_FALSE(release_year_of(nlohmann::json(2023.5)));
  EXPECT_EQ(release_year_of(nlohmann::json(2023)), 2023);
  j["info"]["release_year"] = 2023;
  j["info"]["power_w"] = 1e-300;
  roofline::test::write_text(dir.file("l4.json"), j.dump());
  p = catalogue_entry_problems(dir.file("l4.json"));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("info.power_w must be a power from 1 mW to 10 MW"), std::string::npos)
      << p[0];
}

// The checker refuses a value without its source: a link's latency, a disagreement's figure, a
// list of unverified values that is not a list of names.
TEST(Catalogue, CheckerRefusesValuesWithoutSources) {
  roofline::test::TempDir dir;
  const nlohmann::json h100 =
      nlohmann::json::parse(roofline::test::slurp((kCatalogue / "h100-sxm.json").string()));
  auto problems_of = [&](const nlohmann::json& j) {
    roofline::test::write_text(dir.file("h100-sxm.json"), j.dump());
    return catalogue_entry_problems(dir.file("h100-sxm.json"));
  };
  auto has = [](const std::vector<std::string>& ps, const std::string& s) {
    return std::any_of(ps.begin(), ps.end(),
                       [&](const std::string& p) { return p.find(s) != std::string::npos; });
  };
  EXPECT_TRUE(problems_of(h100).empty());
  nlohmann::json j = h100;
  j["info"]["interconnects"][0].erase("latency_source");
  j["info"]["interconnects"][1]["latency"] = "fast";
  auto p = problems_of(j);
  EXPECT_TRUE(has(p, "info.interconnects: 'NVLink' has no latency_source")) << p.size();
  // Read as every command reads it (machine_facts), naming the file, the link and the field.
  EXPECT_TRUE(has(p, "h100-sxm.json: info.interconnects[PCIe]: latency: ")) << p.back();
  EXPECT_EQ(p.size(), 2u);
  // Each spelling the commands read passes: seconds with a unit, latency_us; two at once are
  // refused naming both, as which was meant cannot be told.
  j = h100;
  j["info"]["interconnects"][1]["latency"] = "5 us";
  EXPECT_TRUE(problems_of(j).empty()) << problems_of(j).front();
  j["info"]["interconnects"][1].erase("latency");
  j["info"]["interconnects"][1]["latency_us"] = 5;
  EXPECT_TRUE(problems_of(j).empty()) << problems_of(j).front();
  j["info"]["interconnects"][1].erase("latency_source");
  EXPECT_TRUE(has(problems_of(j), "info.interconnects: 'PCIe' has no latency_source"));
  j = h100;
  j["info"]["interconnects"][1]["latency"] = 1e-6;
  j["info"]["interconnects"][1]["latency_ns"] = 500;
  p = problems_of(j);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("h100-sxm.json: info.interconnects[PCIe]: latency and latency_ns are two "
                      "spellings of one field: give one"),
            std::string::npos)
      << p[0];
  // A file without latencies (written before they existed) stays valid; a number is fine with
  // its source.
  j = h100;
  for (auto& link : j["info"]["interconnects"]) {
    link.erase("latency");
    link.erase("latency_source");
  }
  EXPECT_TRUE(problems_of(j).empty());
  j["info"]["interconnects"][1]["latency"] = 1.5e-6;
  j["info"]["interconnects"][1]["latency_source"] = "a measured figure, with its document";
  EXPECT_TRUE(problems_of(j).empty());
  j = h100;
  j["info"]["discrepancies"] = {{{"value", "HBM3 bandwidth"},
                                 {"figures", {{{"figure", "3.35 TB/s"}, {"source", "datasheet"}}}},
                                 {"used", "3.35 TB/s"}}};
  j["info"]["unverified"] = {"fp32 vector", 7};
  p = problems_of(j);
  EXPECT_TRUE(has(p, "info.discrepancies: 'HBM3 bandwidth' needs at least two figures"));
  EXPECT_TRUE(has(p, "'HBM3 bandwidth' needs the figure used and the reason"));
  EXPECT_TRUE(has(p, "info.unverified must be an array of value names"));
  EXPECT_EQ(p.size(), 3u);
  j = h100;
  j["info"]["discrepancies"] = {
      {{"value", "HBM3 bandwidth"},
       {"figures", {{{"figure", "3.35 TB/s"}, {"source", "datasheet"}}, {{"figure", "3.2 TB/s"}}}},
       {"used", "3.35 TB/s"},
       {"reason", "the datasheet"}}};
  p = problems_of(j);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(has(p, "has a figure without its figure or source"));
  // "ops" (a TOPS figure of unnamed precision) is counted in OP like int8, by its precision;
  // "integer": false on it is refused.
  j = h100;
  j["compute"].push_back({{"name", "ops npu"},
                          {"precision", "ops"},
                          {"unit", "npu"},
                          {"peak", 45e12},
                          {"source", "product brief"}});
  EXPECT_TRUE(problems_of(j).empty());
  j["compute"].back()["integer"] = false;
  p = problems_of(j);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(has(p, "].integer: precision 'ops' counts integer operations (OP)")) << p[0];
}

TEST(Catalogue, ValueSourcesListEveryValueWithItsDocument) {
  const MachineDocument b200 = load("b200");
  const auto rows = value_sources(b200);
  auto row = [&](const std::string& value) -> const ValueSource* {
    for (const auto& r : rows)
      if (r.value == value) return &r;
    return nullptr;
  };
  ASSERT_NE(row("release year"), nullptr);
  EXPECT_EQ(row("release year")->figure, "2024");
  EXPECT_NE(row("release year")->source.find("18 March 2024"), std::string::npos);
  ASSERT_NE(row("power"), nullptr);
  EXPECT_EQ(row("power")->figure, "1000 W");
  ASSERT_NE(row("NVLink latency"), nullptr);
  EXPECT_EQ(row("NVLink latency")->figure, "unknown");
  EXPECT_NE(row("NVLink latency")->source.find("not published"), std::string::npos);
  ASSERT_NE(row("HBM3e bandwidth (used)"), nullptr);
  EXPECT_EQ(row("HBM3e bandwidth (used)")->figure, "7.7 TB/s");
  ASSERT_NE(row("bf16 tensor"), nullptr);
  EXPECT_NE(row("bf16 tensor")->figure.find("= bf16 tensor sparse / 2"), std::string::npos);
  ASSERT_NE(row("HBM3e"), nullptr);
  EXPECT_EQ(row("HBM3e")->figure, "7.7 TB/s, 180 GB");
  // A latency that is known prints with its unit.
  MachineDocument m = b200;
  nlohmann::json info = info_json(m);
  info["interconnects"][0]["latency"] = 2e-6;
  set_info(m, info);
  bool seen = false;
  for (const auto& r : value_sources(m)) {
    if (r.value != "NVLink latency") continue;
    seen = true;
    EXPECT_EQ(r.figure, format_seconds(Seconds(2e-6)));
    EXPECT_NE(r.figure.find("2 "), std::string::npos) << r.figure;
  }
  EXPECT_TRUE(seen);
}

TEST(Catalogue, AnUnknownLatencySaysWhy) {
  // The row's source says why the latency is unknown: the file gives none and names no source,
  // or its value could not be read (naming the field); a latency_source is said as written.
  const MachineDocument b200 = load("b200");
  auto latency_row = [&](const nlohmann::json& link_fields) {
    MachineDocument m = b200;
    nlohmann::json info = info_json(m);
    auto& link = info["interconnects"][0];
    link.erase("latency_source");
    for (const auto& [k, v] : link_fields.items()) link[k] = v;
    set_info(m, info);
    for (const auto& r : value_sources(m))
      if (r.value == "NVLink latency") return r;
    ADD_FAILURE() << "no NVLink latency row";
    return ValueSource{};
  };
  const ValueSource none = latency_row({{"latency", nullptr}});
  EXPECT_EQ(none.figure, "unknown");
  EXPECT_EQ(none.source, "not given in the file (latency null, and no latency_source says why)");
  const ValueSource bad = latency_row({{"latency", -1}, {"latency_source", "a guess"}});
  EXPECT_EQ(bad.figure, "unknown");
  EXPECT_EQ(bad.source.rfind("not read: ", 0), 0u) << bad.source;
  EXPECT_NE(bad.source.find("info.interconnects[NVLink]"), std::string::npos) << bad.source;
  EXPECT_NE(bad.source.find("latency"), std::string::npos) << bad.source;
  const ValueSource said = latency_row({{"latency", nullptr}, {"latency_source", "not published"}});
  EXPECT_EQ(said.source, "not published");
}
}  // namespace ROOFLINE_UNITY_ID
