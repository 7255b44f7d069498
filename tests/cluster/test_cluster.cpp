// The cluster layer without MPI: aggregation (sum, min / median / max, stragglers), the allreduce
// bus-bandwidth formula, the network roofs, and the cluster document assembled from fake node
// measurements — then judged like any machine document.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "roofline/cluster.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/statistics.hpp"
#include "roofline/strings.hpp"

using namespace roofline;
using namespace roofline::cluster;

namespace ROOFLINE_UNITY_ID {

// A fake node measurement: one fp64 compute roof, a DRAM roof, and one more roof when asked.
MachineDocument fake_node(double peak, double dram, bool with_l3 = true) {
  MachineDocument m;
  m.roofs.name = "fake";
  ComputeRoof c;
  c.name = "fp64 avx2 fma";
  c.precision = "fp64";
  c.unit = "avx2 fma";
  c.peak = WorkRate(peak);
  c.provenance = Provenance::measured;
  c.source = "fake";
  m.roofs.compute.push_back(c);
  MemoryRoof d;
  d.level = "DRAM";
  d.kind = "memory";
  d.bandwidth = ByteRate(dram);
  d.provenance = Provenance::measured;
  m.roofs.memory.push_back(d);
  if (with_l3) {
    MemoryRoof l3 = d;
    l3.level = "L3";
    l3.kind = "cache";
    l3.bandwidth = ByteRate(4 * dram);
    m.roofs.memory.push_back(l3);
  }
  m.roofs.default_compute = c.name;
  m.roofs.default_memory = "DRAM";
  set_info(m, {{"cpu", "fake cpu"}});
  return m;
}

NodeReport report(int rank, const std::string& host, MachineDocument m) {
  NodeReport r;
  r.rank = rank;
  r.host = host;
  r.machine = std::move(m);
  r.seconds = 1.5;
  return r;
}

const RoofAggregate& find(const std::vector<RoofAggregate>& all, const std::string& roof) {
  for (const auto& a : all)
    if (a.roof == roof) return a;
  throw std::runtime_error("no aggregate " + roof);
}

NetworkMeasurement fake_network(int ranks) {
  NetworkMeasurement net;
  net.ranks = ranks;
  net.repetitions = 3;
  for (int r = 0; r + 1 < ranks; r += 2) net.pairs.push_back({r, r + 1});
  // Two pairs: one-way 2 us and 4 us for 8 B; 1 ms and 2 ms for 8 MB.
  net.ping_pong.push_back({Bytes(8), {2e-6, 4e-6}});
  net.ping_pong.push_back({Bytes(8e6), {1e-3, 2e-3}});
  net.allreduce.push_back({Bytes(8), Seconds(10e-6)});
  net.allreduce.push_back({Bytes(8e6), Seconds(4e-3)});
  return net;
}

TEST(ClusterAggregate, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7}), 7);
  EXPECT_THROW(median({}), InputError);
}

TEST(ClusterAggregate, SumMinMedianMaxAndStragglers) {
  // Median 95; threshold 10% ⇒ anything below 85.5 is a straggler: only 80 (15.8% below).
  const auto a =
      aggregate_values("fp64", true, {0, 1, 2, 3}, {"a", "b", "c", "d"}, {100, 95, 80, 95}, 0.10);
  EXPECT_DOUBLE_EQ(a.sum, 370);
  EXPECT_DOUBLE_EQ(a.min, 80);
  EXPECT_DOUBLE_EQ(a.max, 100);
  EXPECT_DOUBLE_EQ(a.median, 95);
  EXPECT_EQ(a.min_rank, 2);
  ASSERT_EQ(a.stragglers.size(), 1u);
  EXPECT_EQ(a.stragglers[0].rank, 2);
  EXPECT_EQ(a.stragglers[0].host, "c");
  EXPECT_NEAR(a.stragglers[0].below_median, 1 - 80.0 / 95, 1e-12);
  // A looser threshold (20%) flags nobody; a tighter one (1%) flags 80 only (95 is the median).
  EXPECT_TRUE(
      aggregate_values("x", true, {0, 1, 2, 3}, {"a", "b", "c", "d"}, {100, 95, 80, 95}, 0.2)
          .stragglers.empty());
  EXPECT_EQ(aggregate_values("x", true, {0, 1, 2, 3}, {"a", "b", "c", "d"}, {100, 95, 80, 95}, 0.01)
                .stragglers.size(),
            1u);
  EXPECT_THROW(aggregate_values("x", true, {0}, {"a"}, {1}, 1.5), InputError);
  EXPECT_THROW(aggregate_values("x", true, {0, 1}, {"a"}, {1, 2}, 0.1), InputError);
}

TEST(ClusterAggregate, RoofsMatchedByNameAcrossNodes) {
  std::vector<NodeReport> nodes{report(0, "n0", fake_node(100e9, 20e9)),
                                report(1, "n1", fake_node(80e9, 22e9)),
                                report(2, "n2", fake_node(102e9, 21e9, /*with_l3=*/false))};
  // A node's own network roof (an InfiniBand datasheet figure) is a roof of that node like any
  // other (it was left out, and with it the docs' example's default memory roof).
  MemoryRoof net;
  net.level = "InfiniBand";
  net.kind = "network";
  net.bandwidth = ByteRate(1e9);
  nodes[0].machine.roofs.memory.push_back(net);
  const auto all = aggregate_roofs(nodes, 0.10);
  ASSERT_EQ(all.size(), 4u);  // fp64, DRAM, L3, InfiniBand
  EXPECT_EQ(find(all, "InfiniBand").ranks, std::vector<int>{0});
  EXPECT_EQ(find(all, "InfiniBand").kind_of_roof, "network");
  const auto& fp64 = find(all, "fp64 avx2 fma");
  EXPECT_TRUE(fp64.compute);
  EXPECT_DOUBLE_EQ(fp64.sum, 282e9);
  EXPECT_DOUBLE_EQ(fp64.median, 100e9);
  EXPECT_EQ(fp64.min_rank, 1);
  ASSERT_EQ(fp64.stragglers.size(), 1u);  // 80 < 90
  EXPECT_EQ(fp64.stragglers[0].rank, 1);
  const auto& dram = find(all, "DRAM");
  EXPECT_FALSE(dram.compute);
  EXPECT_DOUBLE_EQ(dram.sum, 63e9);
  EXPECT_TRUE(dram.stragglers.empty());
  const auto& l3 = find(all, "L3");
  EXPECT_EQ(l3.ranks, (std::vector<int>{0, 1}));  // rank 2 has no L3 roof
}

TEST(ClusterNetwork, BusBandwidthIsAlgbwTimesTwoNMinusOneOverN) {
  // NCCL-tests doc/PERFORMANCE.md: busbw = algbw × 2(n−1)/n.
  EXPECT_DOUBLE_EQ(allreduce_bus_bandwidth(ByteRate(10e9), 2).value, 10e9);
  EXPECT_DOUBLE_EQ(allreduce_bus_bandwidth(ByteRate(10e9), 4).value, 15e9);
  EXPECT_DOUBLE_EQ(allreduce_bus_bandwidth(ByteRate(10e9), 8).value, 17.5e9);
  EXPECT_DOUBLE_EQ(allreduce_bus_bandwidth(ByteRate(10e9), 1).value, 0);
  EXPECT_THROW(allreduce_bus_bandwidth(ByteRate(1), 0), InputError);
  const AllreduceSample s{Bytes(8e6), Seconds(4e-3)};
  EXPECT_DOUBLE_EQ(s.algbw().value, 2e9);
  EXPECT_DOUBLE_EQ(s.busbw(4).value, 3e9);
}

TEST(ClusterNetwork, RoofsAndLatencyFromTheSweep) {
  const NetworkMeasurement net = fake_network(4);
  EXPECT_DOUBLE_EQ(net.ping_pong[1].median_seconds(), 1.5e-3);
  // The median of the pairs' rates (8 and 4 GB/s), not bytes over the mean of their times.
  EXPECT_DOUBLE_EQ(net.ping_pong[1].bandwidth().value, 6e9);
  EXPECT_DOUBLE_EQ(network_latency(net).value(), 3e-6);
  // Without a small message there is no latency to read (1 GiB gave "latency 222.7 ms").
  NetworkMeasurement big = net;
  big.ping_pong.erase(big.ping_pong.begin());
  ASSERT_GT(big.ping_pong.front().bytes.value, kLatencyMessageBytes);
  EXPECT_FALSE(network_latency(big).has_value());
  const auto roofs = network_roofs(net);
  ASSERT_EQ(roofs.size(), 2u);
  EXPECT_EQ(roofs[0].level, "network");
  EXPECT_EQ(roofs[0].kind, "network");
  EXPECT_EQ(roofs[0].provenance, Provenance::measured);
  // Highest median-pair bandwidth: 8 MB at 6 GB/s (8 B at 3 MB/s).
  EXPECT_DOUBLE_EQ(roofs[0].bandwidth.value, 6e9);
  ASSERT_TRUE(roofs[0].stats.has_value());
  EXPECT_DOUBLE_EQ(roofs[0].stats->min, 8e6 / 2e-3);  // the slower pair
  EXPECT_DOUBLE_EQ(roofs[0].stats->max, 8e6 / 1e-3);
  EXPECT_EQ(roofs[1].level, "allreduce");
  // 8 MB in 4 ms: algbw 2 GB/s, busbw 2 × 2·3/4 = 3 GB/s.
  EXPECT_DOUBLE_EQ(roofs[1].bandwidth.value, 3e9);
  EXPECT_TRUE(network_roofs(NetworkMeasurement{}).empty());
}

TEST(ClusterNetwork, DefaultMessageSizes) {
  const auto quick = default_message_sizes(true);
  EXPECT_DOUBLE_EQ(quick.front(), 8);
  EXPECT_DOUBLE_EQ(quick.back(), 4.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(quick[1], 64);
  const auto full = default_message_sizes(false);
  EXPECT_DOUBLE_EQ(full.back(), 64.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(full[1], 32);
}

TEST(ClusterDocument, SlowestNodeRoofsPlusNetworkAndAClusterSection) {
  std::vector<NodeReport> nodes{report(0, "n0", fake_node(100e9, 20e9)),
                                report(1, "n1", fake_node(80e9, 22e9, false))};
  ClusterOptions o;
  o.node_probe = "fake";
  const MachineDocument doc = assemble_cluster_document(nodes, fake_network(2), o);
  EXPECT_EQ(doc.roofs.name, "cluster-2xfake");
  ASSERT_EQ(doc.roofs.compute.size(), 1u);
  EXPECT_DOUBLE_EQ(doc.roofs.compute[0].peak.value, 80e9);  // the slowest node
  EXPECT_NE(doc.roofs.compute[0].source.find("rank 1"), std::string::npos);
  ASSERT_NE(doc.roofs.find_memory("DRAM"), nullptr);
  EXPECT_DOUBLE_EQ(doc.roofs.find_memory("DRAM")->bandwidth.value, 20e9);
  EXPECT_EQ(doc.roofs.find_memory("L3"), nullptr);  // not on every node
  ASSERT_NE(doc.roofs.find_memory("network"), nullptr);
  ASSERT_NE(doc.roofs.find_memory("allreduce"), nullptr);
  EXPECT_EQ(doc.roofs.find_memory("allreduce")->kind, "network");
  // n = 2: busbw = algbw = 8e6 / 4e-3.
  EXPECT_DOUBLE_EQ(doc.roofs.find_memory("allreduce")->bandwidth.value, 2e9);
  EXPECT_EQ(doc.roofs.default_memory, "DRAM");

  const auto& c = section_json(doc, "cluster");
  EXPECT_EQ(c["ranks"], 2);
  EXPECT_EQ(c["hosts"], 2);
  ASSERT_EQ(c["nodes"].size(), 2u);
  EXPECT_EQ(c["nodes"][1]["host"], "n1");
  EXPECT_TRUE(c["nodes"][1]["straggler"].get<bool>());  // 80 < 0.9 × median 90
  EXPECT_FALSE(c["nodes"][0]["straggler"].get<bool>());
  EXPECT_EQ(c["stragglers"], nlohmann::json::array({1}));
  // Every node's whole machine document is kept.
  EXPECT_EQ(c["nodes"][0]["machine"]["schema"], "roofline.machine");
  bool saw_fp64 = false;
  for (const auto& a : c["roofs"]) {
    if (a["roof"] != "fp64 avx2 fma") continue;
    saw_fp64 = true;
    EXPECT_DOUBLE_EQ(a["sum"].get<double>(), 180e9);
    EXPECT_DOUBLE_EQ(a["median"].get<double>(), 90e9);
    EXPECT_EQ(a["unit"], "FLOP/s");
  }
  EXPECT_TRUE(saw_fp64);
  EXPECT_DOUBLE_EQ(c["network"]["latency_seconds"].get<double>(), 3e-6);
  EXPECT_DOUBLE_EQ(c["network"]["allreduce"][1]["busbw"].get<double>(), 2e9);

  // The document is a machine document: it round-trips, and the cluster section survives.
  const MachineDocument back = machine_from_json(machine_to_json(doc), "cluster.json");
  EXPECT_EQ(section_json(back, "cluster"), c);
  EXPECT_EQ(back.roofs.memory.size(), doc.roofs.memory.size());
}

TEST(ClusterDocument, ADistributedStepIsJudgedAgainstNodeComputeAndTheNetworkRoof) {
  std::vector<NodeReport> nodes{report(0, "n0", fake_node(100e9, 20e9)),
                                report(1, "n1", fake_node(100e9, 20e9))};
  const MachineDocument doc = assemble_cluster_document(nodes, fake_network(2), {});
  // One node's share of a step: 100 MFLOP and 4 MB of allreduce bus bytes. I = 25 FLOP/byte,
  // left of the allreduce ridge 100e9 / 2e9 = 50, so attainable = 2e9 × 25 = 50 GFLOP/s.
  Point p;
  p.name = "data-parallel step";
  p.work = Work(100e6);
  p.traffic = {{"allreduce", Bytes(4e6)}};
  p.time = Seconds(2.2e-3);  // P = 45.45 GFLOP/s: 91% of 50
  const Diagnosis d = diagnose(p, doc.roofs);
  EXPECT_EQ(d.verdict, Verdict::memory_bound);
  EXPECT_EQ(d.binding_level, "allreduce");
  EXPECT_EQ(d.compute_roof, "fp64 avx2 fma");
  EXPECT_DOUBLE_EQ(d.attainable.value, 50e9);
}

TEST(ClusterDocument, SingleNodeAndBadInputs) {
  std::vector<NodeReport> one{report(0, "n0", fake_node(100e9, 20e9))};
  const MachineDocument doc = assemble_cluster_document(one, std::nullopt, {});
  EXPECT_EQ(doc.roofs.find_memory("network"), nullptr);
  EXPECT_NE(section_json(doc, "cluster")["notes"].dump().find("one rank"), std::string::npos);
  EXPECT_THROW(assemble_cluster_document({}, std::nullopt, {}), InputError);
  std::vector<NodeReport> mixed{report(0, "n0", fake_node(1, 1)), report(1, "n1", fake_node(1, 1))};
  mixed[1].machine.roofs.units = UnitSystem{"tuple", "disk read"};
  try {
    assemble_cluster_document(mixed, std::nullopt, {});
    FAIL() << "mixed units accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tuple/disk read"), std::string::npos) << e.what();
  }
  // Nodes of no common compute roof (a CPU's document beside a GPU's): refused, naming each
  // rank's roofs; the document held network roofs alone, which every reader then refused.
  std::vector<NodeReport> apart{report(0, "n0", fake_node(1, 1)), report(1, "n1", fake_node(1, 1))};
  apart[1].machine.roofs.compute[0].name = "bf16 tensor";
  apart[1].machine.roofs.compute[0].precision = "bf16";
  apart[1].machine.roofs.compute[0].unit = "tensor";
  apart[1].machine.roofs.default_compute = "bf16 tensor";
  try {
    assemble_cluster_document(apart, fake_network(2), {});
    FAIL() << "a document without a compute roof was assembled";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the nodes share no compute roof (rank 0: fp64 avx2 "
                                         "fma; rank 1: bf16 tensor)"),
              std::string::npos)
        << e.what();
  }
  // Ranks sharing a host are noted.
  std::vector<NodeReport> shared{report(0, "h", fake_node(1, 1)), report(1, "h", fake_node(1, 1))};
  const auto s = assemble_cluster_document(shared, std::nullopt, {});
  EXPECT_EQ(section_json(s, "cluster")["hosts"], 1);
  EXPECT_NE(section_json(s, "cluster")["notes"].dump().find("share a host"), std::string::npos);
}

TEST(ClusterDocument, SummaryNamesAggregatesNetworkAndStragglers) {
  std::vector<NodeReport> nodes{report(0, "n0", fake_node(100e9, 20e9)),
                                report(1, "n1", fake_node(80e9, 22e9))};
  const std::string text = render_cluster(assemble_cluster(nodes, fake_network(2), {}));
  EXPECT_NE(text.find("2 ranks on 2 hosts"), std::string::npos) << text;
  EXPECT_NE(text.find("180 GFLOP/s"), std::string::npos) << text;  // the fp64 sum
  EXPECT_NE(text.find("1 (11.1% below)"), std::string::npos) << text;
  EXPECT_NE(text.find("latency (one-way, smallest message) = 3 us"), std::string::npos) << text;
  EXPECT_NE(text.find("allreduce"), std::string::npos) << text;
  EXPECT_NE(text.find("stragglers (more than 10% below the median on a roof): [1]"),
            std::string::npos)
      << text;
  // The roofs table comes from the caller (report's render_roofs in the CLI), placed before the
  // stragglers; without one the section is left out.
  EXPECT_EQ(text.find("roofs of the document"), std::string::npos) << text;
  const std::string with =
      render_cluster(assemble_cluster(nodes, fake_network(2), {}), "ROOFS TABLE\n");
  EXPECT_LT(with.find("roofs of the document"), with.find("ROOFS TABLE"));
  EXPECT_LT(with.find("ROOFS TABLE"), with.find("stragglers (more than"));
}

TEST(ClusterDocument, SummaryTextAndDocumentSayTheSame) {
  // The text is drawn from the typed summary, the file from the JSON section: every figure the
  // section holds appears in the text, formatted.
  std::vector<NodeReport> nodes{report(0, "n0", fake_node(100e9, 20e9)),
                                report(1, "n1", fake_node(80e9, 22e9)),
                                report(2, "n1", fake_node(95e9, 21e9))};
  const ClusterDocument c = assemble_cluster(nodes, fake_network(3), {});
  const std::string text = render_cluster(c);
  const nlohmann::json& j = section_json(c.document, "cluster");
  EXPECT_NE(text.find(std::to_string(j.at("ranks").get<int>()) + " ranks on " +
                      std::to_string(j.at("hosts").get<int>()) + " hosts"),
            std::string::npos)
      << text;
  for (const auto& a : j.at("roofs")) {
    const bool compute = a.at("kind") == "compute";
    for (const char* k : {"sum", "min", "median", "max"}) {
      const double v = a.at(k).get<double>();
      const std::string f = compute ? format_work_rate(WorkRate(v)) : format_byte_rate(ByteRate(v));
      EXPECT_NE(text.find(f), std::string::npos) << a.at("roof") << " " << k << " " << f;
    }
  }
  for (const auto& ar : j.at("network").at("allreduce")) {
    EXPECT_NE(text.find(format_byte_rate(ByteRate(ar.at("algbw").get<double>()))),
              std::string::npos);
    EXPECT_NE(text.find(format_byte_rate(ByteRate(ar.at("busbw").get<double>()))),
              std::string::npos);
  }
  EXPECT_NE(text.find("latency (one-way, smallest message) = " +
                      format_seconds(Seconds(j.at("network").at("latency_seconds").get<double>()))),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find(
          "): " + (j.at("stragglers").empty() ? std::string("none") : j.at("stragglers").dump()) +
          "\n"),
      std::string::npos)
      << text;
  for (const auto& n : j.at("notes"))
    EXPECT_NE(text.find("note: " + n.get<std::string>()), std::string::npos);
  EXPECT_FALSE(j.at("notes").empty());  // three ranks on two hosts: the shared-host note
}

TEST(ClusterDocument, SummaryPrintsIntegerRoofsInOpPerSecond) {
  auto node = [](double int8) {
    MachineDocument m = fake_node(100e9, 20e9);
    ComputeRoof c;
    c.name = "int8 256-bit vpmaddubsw";
    c.precision = "int8";
    c.unit = "256-bit vpmaddubsw";
    c.integer = true;
    c.peak = WorkRate(int8);
    c.provenance = Provenance::measured;
    m.roofs.compute.push_back(c);
    return m;
  };
  std::vector<NodeReport> nodes{report(0, "n0", node(400e9)), report(1, "n1", node(380e9))};
  const std::string text = render_cluster(assemble_cluster(nodes, fake_network(2), {}));
  EXPECT_NE(text.find("780 GOP/s"), std::string::npos) << text;  // the int8 sum
  EXPECT_EQ(text.find("780 GFLOP/s"), std::string::npos) << text;
  EXPECT_NE(text.find("200 GFLOP/s"), std::string::npos) << text;  // the fp64 sum stays FLOP
}

TEST(ClusterProbe, BuiltinProbeMeasuresAndChecksTriadAndFma) {
  NodeContext n;
  n.host = "here";
  ProbeOptions o;
  o.threads = 1;
  o.quick = true;
  o.array_bytes = 1 << 20;  // small: this checks the bookkeeping, not the machine
  const MachineDocument m = builtin_node_probe(n, o);
  ASSERT_EQ(m.roofs.compute.size(), 1u);
  EXPECT_EQ(m.roofs.compute[0].precision, "fp64");
  EXPECT_EQ(m.roofs.compute[0].name.rfind("fp64 ", 0), 0u);
  EXPECT_GT(m.roofs.compute[0].peak.value, 0);
  ASSERT_TRUE(m.roofs.compute[0].stats.has_value());
  EXPECT_GE(m.roofs.compute[0].stats->repetitions, 3);
  // The engine's policy: the roof is the sustained (third-fastest) sample.
  EXPECT_DOUBLE_EQ(m.roofs.compute[0].peak.value, m.roofs.compute[0].stats->sustained);
  ASSERT_EQ(m.roofs.memory.size(), 1u);
  EXPECT_EQ(m.roofs.memory[0].level, "DRAM");
  EXPECT_EQ(m.roofs.memory[0].convention, "named");
  ASSERT_TRUE(m.roofs.memory[0].mixes.count("triad"));
  double best = 0;
  for (const auto& [mix, v] : m.roofs.memory[0].mixes) best = std::max(best, v);
  EXPECT_DOUBLE_EQ(best, m.roofs.memory[0].bandwidth.value);  // the roof is the best mix
  EXPECT_EQ(info_json(m)["threads"], 1);
  EXPECT_EQ(info_json(m)["probe"], "builtin");
  EXPECT_EQ(m.roofs.name, "here");
  EXPECT_NO_THROW(m.roofs.validate());
}
}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {

MachineDocument catalogue(const std::string& name) {
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/data/hardware/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return machine_from_json(nlohmann::json::parse(text.str()), name + ".json");
}

bool noted(const MachineDocument& doc, const std::string& what) {
  return section_json(doc, "cluster")["notes"].dump().find(what) != std::string::npos;
}

// An H100 node beside an H200 node: their main memories are HBM3 and HBM3e, a roof every node
// has under two names. It was left out ("not on every node"), and plain traffic was then judged
// against PCIe, the slowest roof left.
TEST(ClusterDocument, MixedNodesKeepTheSlowestDefaultMemoryRoof) {
  std::vector<NodeReport> nodes{report(0, "a", catalogue("h100-sxm")),
                                report(1, "b", catalogue("h200"))};
  const ClusterDocument c = assemble_cluster(nodes, std::nullopt, {});
  const MachineDocument& doc = c.document;
  EXPECT_EQ(doc.roofs.name, "cluster-1xh100-sxm+1xh200");
  EXPECT_EQ(doc.roofs.default_memory, "HBM3");
  EXPECT_EQ(doc.roofs.select_memory("").level, "HBM3");
  EXPECT_DOUBLE_EQ(doc.roofs.select_memory("").bandwidth.value, 3.35e12);
  EXPECT_NE(doc.roofs.find_memory("HBM3")->source.find("HBM3e (rank 1, b)"), std::string::npos);
  EXPECT_EQ(doc.roofs.find_memory("HBM3e"), nullptr);
  EXPECT_TRUE(
      noted(doc, "default memory roofs differ in name: HBM3 (rank 0, a), HBM3e (rank 1, b)"));
  std::string left_out;
  const nlohmann::json notes = section_json(doc, "cluster").at("notes");
  for (const auto& n : notes)
    if (n.get<std::string>().find("left out") != std::string::npos) left_out = n;
  EXPECT_NE(left_out.find("\"fp16 vector\""), std::string::npos) << left_out;  // H100 only
  EXPECT_EQ(left_out.find("HBM3"), std::string::npos) << left_out;  // paired, not left out
  const RoofAggregate& main = find(c.summary.roofs, "HBM3 / HBM3e (default memory roofs)");
  EXPECT_DOUBLE_EQ(main.sum, 3.35e12 + 4.8e12);
  EXPECT_EQ(main.min_rank, 0);
  // One straggler rule for every row: the H100's 3.35 TB/s is 17.8% below the median 4.075.
  ASSERT_EQ(main.stragglers.size(), 1u);
  EXPECT_EQ(main.stragglers[0].rank, 0);
  EXPECT_NEAR(main.stragglers[0].below_median, 1 - 3.35 / 4.075, 1e-12);
  // Plain traffic is judged against main memory, not PCIe.
  Point p;
  p.name = "step";
  p.work = Work(1e9);
  p.traffic = {{"", Bytes(1e9)}};
  p.time = Seconds(1e-3);
  EXPECT_EQ(diagnose(p, doc.roofs).binding_level, "HBM3");
  // The text says a roof on one node only is summed over that node, not the cluster.
  const std::string text = render_cluster(c);
  const size_t row = text.find("\nfp16 vector ");
  ASSERT_NE(row, std::string::npos) << text;
  const std::string line = text.substr(row + 1, text.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find(" 1 of 2 "), std::string::npos) << line;
  // An integer roof counts OP, in the document and in the table, on every node or not (the
  // sums read "FLOP/s").
  EXPECT_EQ(main.units.traffic_rate(), "byte/s");
  for (bool on_every_node : {true, false}) {
    std::vector<NodeReport> two{report(0, "a", catalogue("h100-sxm")),
                                report(1, "b", catalogue("h200"))};
    if (!on_every_node)
      std::erase_if(two[1].machine.roofs.compute,
                    [](const ComputeRoof& r) { return r.precision == "int8"; });
    const ClusterDocument cd = assemble_cluster(two, std::nullopt, {});
    EXPECT_EQ(find(cd.summary.roofs, "int8 tensor").units.work_rate(), "OP/s");
    const nlohmann::json cluster_roofs = section_json(cd.document, "cluster").at("roofs");
    for (const auto& a : cluster_roofs) {
      if (a["roof"] == "int8 tensor") {
        EXPECT_EQ(a["unit"], "OP/s") << a;
      } else if (a["kind"] == "compute") {
        EXPECT_EQ(a["unit"], "FLOP/s") << a;
      }
    }
    const std::string t = render_cluster(cd);
    const size_t i8 = t.find("\nint8 tensor ");
    ASSERT_NE(i8, std::string::npos) << t;
    const std::string int8_line = t.substr(i8 + 1, t.find('\n', i8 + 1) - i8 - 1);
    EXPECT_NE(int8_line.find(on_every_node ? " 2 " : " 1 of 2 "), std::string::npos) << int8_line;
    EXPECT_NE(int8_line.find("OP/s"), std::string::npos) << int8_line;
    EXPECT_EQ(int8_line.find("FLOP/s"), std::string::npos) << int8_line;
  }
}

TEST(ClusterDocument, DefaultComputeRoofsOfDifferentNamesPair) {
  std::vector<NodeReport> nodes{report(0, "a", fake_node(100e9, 20e9)),
                                report(1, "b", fake_node(80e9, 20e9))};
  nodes[1].machine.roofs.compute[0].name = "fp64 avx-512 fma";
  nodes[1].machine.roofs.default_compute = "fp64 avx-512 fma";
  nodes[1].machine.roofs.name = "other";
  const MachineDocument doc = assemble_cluster_document(nodes, std::nullopt, {});
  EXPECT_EQ(doc.roofs.name, "cluster-1xfake+1xother");
  ASSERT_EQ(doc.roofs.compute.size(), 1u);
  EXPECT_EQ(doc.roofs.default_compute, "fp64 avx-512 fma");  // the slower
  EXPECT_DOUBLE_EQ(doc.roofs.select_compute("").peak.value, 80e9);
  EXPECT_TRUE(noted(doc, "fp64 avx2 fma (rank 0, a), fp64 avx-512 fma (rank 1, b)"));
}

// A node with no main-memory roof: no default memory roof can be formed, and the document
// refuses plain traffic instead of judging it against a link.
TEST(ClusterDocument, NoDefaultMemoryRoofRefusesPlainTraffic) {
  std::vector<NodeReport> nodes{report(0, "a", catalogue("h100-sxm")),
                                report(1, "b", catalogue("h200"))};
  auto& mem = nodes[1].machine.roofs.memory;
  mem.erase(std::remove_if(mem.begin(), mem.end(),
                           [](const MemoryRoof& m) { return m.kind == "memory"; }),
            mem.end());
  nodes[1].machine.roofs.default_memory.clear();
  const MachineDocument doc = assemble_cluster_document(nodes, fake_network(2), {});
  EXPECT_EQ(doc.roofs.default_memory_roof(), nullptr);
  EXPECT_THROW(doc.roofs.select_memory(""), InputError);
  EXPECT_TRUE(noted(doc, "no default memory roof every node has (rank 0: HBM3, rank 1: none)"));
  EXPECT_TRUE(noted(doc, "plain traffic is refused"));
  Point p;
  p.name = "step";
  p.work = Work(1e9);
  p.traffic = {{"", Bytes(1e9)}};
  p.time = Seconds(1e-3);
  EXPECT_THROW(diagnose(p, doc.roofs), InputError);
  p.traffic = {{"allreduce", Bytes(1e9)}};  // a level named is judged
  EXPECT_EQ(diagnose(p, doc.roofs).binding_level, "allreduce");
}

// The network roof's statistics are over the pairs: one sample per pair, quartiles from them;
// the fields no sample gives (sustained, second) are left out, not written as 0.
TEST(ClusterNetwork, NetworkStatisticsHoldOnlyWhatThePairsGive) {
  const auto roofs = network_roofs(fake_network(4));
  ASSERT_TRUE(roofs[0].stats.has_value());
  const Statistics& s = *roofs[0].stats;
  EXPECT_EQ(s.repetitions, 2);  // two pairs
  EXPECT_GT(s.q1, 0);
  EXPECT_LE(s.q1, s.median);
  EXPECT_GE(s.q3, s.median);
  const nlohmann::json j = statistics_to_json(s);
  EXPECT_FALSE(j.contains("sustained")) << j.dump();
  EXPECT_FALSE(j.contains("second")) << j.dump();
  EXPECT_FALSE(j.contains("confirmed")) << j.dump();
  EXPECT_DOUBLE_EQ(j.at("q1").get<double>(), s.q1);
  // It reads back as written.
  std::vector<NodeReport> nodes{report(0, "a", fake_node(1e9, 1e9)),
                                report(1, "b", fake_node(1e9, 1e9))};
  const MachineDocument doc = assemble_cluster_document(nodes, fake_network(2), {});
  const MachineDocument back = machine_from_json(machine_to_json(doc), "c.json");
  EXPECT_DOUBLE_EQ(back.roofs.find_memory("network")->stats->q3, s.q3);
  EXPECT_EQ(back.roofs.find_memory("network")->stats->sustained, 0);
  const std::string text = render_cluster(assemble_cluster(nodes, fake_network(2), {}));
  EXPECT_NE(text.find("network (2 ranks, 1 ping-pong pair at once"), std::string::npos) << text;
}

}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {

// Ranks sharing a host split its cores, each from its own first core; more ranks than cores
// (three on two: two pinned to core 0, each timing the other, the sum above the host) is refused.
TEST(ClusterNodes, RanksSplitTheHostsCoresAndNeverShareOne) {
  NodeContext n;
  n.host = "vm";
  EXPECT_EQ(host_core_share(n, 8).threads, 0);  // one rank: the whole host
  n.ranks_on_host = 2;
  n.local_rank = 1;
  const CoreShare s = host_core_share(n, 8);
  EXPECT_EQ(s.threads, 4);
  EXPECT_EQ(s.first_core, 4);
  n.ranks_on_host = 3;
  n.local_rank = 2;
  EXPECT_EQ(host_core_share(n, 8).first_core, 4);  // 2 cores each, the 8th left out
  try {
    host_core_share(n, 2);
    ADD_FAILURE() << "three ranks on two cores were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("3 ranks share host 'vm', which has 2 cores"),
              std::string::npos)
        << e.what();
  }
}

// The run's check before anything is measured: the network sweep is refused on more ranks
// than cores too (three ranks on two cores gave a ping-pong "latency" of 9.5 ms), also when the
// nodes' documents are given and nothing else is measured on the host.
TEST(ClusterNodes, TheNetworkSweepIsRefusedOnMoreRanksThanCores) {
  NodeContext n;
  n.host = "vm";
  n.ranks_on_host = 3;
  n.local_rank = 1;
  EXPECT_NO_THROW(check_ranks_fit_host(n, 2, false, false));  // documents, no network
  EXPECT_NO_THROW(check_ranks_fit_host(n, 4, true, true));    // they fit
  try {
    check_ranks_fit_host(n, 2, false, true);
    ADD_FAILURE() << "a network sweep of three ranks on two cores was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("3 ranks share host 'vm', which has 2 cores: the network sweep would put "
                        "two ranks on one core"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("run at most 2 ranks on it, or give --no-network"), std::string::npos)
        << what;
  }
  // Nodes measured here: the measurement's refusal, before the network's.
  try {
    check_ranks_fit_host(n, 2, true, true);
    ADD_FAILURE() << "three ranks measuring two cores were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("each time the other"), std::string::npos) << e.what();
  }
}

// Documents given (--node-machine) are summed as given: the note says so instead of saying each
// rank measured its share, and ranks on one host that each give a document of that whole host
// (named as the host, as `roofline measure` names it) are warned of: every sum counts the host
// once per such rank.
TEST(ClusterDocument, GivenDocumentsOfOneHostOnSeveralRanksAreWarnedOf) {
  ClusterOptions o;
  o.nodes_given = true;
  MachineDocument host = fake_node(100e9, 20e9);
  host.roofs.name = "vm";
  set_info(host, {{"cpu", "fake cpu"}, {"cores", 2}, {"threads", 2}});
  const std::vector<NodeReport> three{report(0, "vm", host), report(1, "vm", host),
                                      report(2, "vm", host)};
  const ClusterDocument c = assemble_cluster(three, std::nullopt, o);
  ASSERT_EQ(c.summary.warnings.size(), 1u);
  EXPECT_EQ(c.summary.warnings[0],
            "ranks 0, 1, 2 share host 'vm' and each gives a document of that whole host: their "
            "roofs are summed as given, so every sum counts the host 3 times; give one rank per "
            "host, or each rank a document of its share of the host");
  EXPECT_DOUBLE_EQ(find(c.summary.roofs, "fp64 avx2 fma").sum, 300e9);  // as given, 3 × 100
  const std::string text = render_cluster(c);
  EXPECT_NE(text.find("warning: ranks 0, 1, 2 share host 'vm'"), std::string::npos) << text;
  EXPECT_NE(text.find("note: several ranks share a host: their machine documents were given, "
                      "not measured here, and their roofs are summed as given"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("each rank measured its share"), std::string::npos) << text;
  // The head names where the roofs came from: documents are read, not measured.
  ClusterOptions named = o;
  named.node_probe = "machine documents nodes/{rank}.json";
  const std::string head = render_cluster(assemble_cluster(three, std::nullopt, named));
  EXPECT_EQ(head.rfind("cluster-3xvm: 3 ranks on 1 host (nodes' roofs from: machine documents "
                       "nodes/{rank}.json)\n",
                       0),
            0u)
      << head;
  ClusterOptions probed;
  probed.node_probe = "roofline measure --quick";
  EXPECT_NE(render_cluster(assemble_cluster(three, std::nullopt, probed))
                .find(" (nodes measured by: roofline measure --quick)\n"),
            std::string::npos);
  const nlohmann::json notes = section_json(c.document, "cluster")["notes"];
  EXPECT_EQ(notes[0], c.summary.warnings[0]);

  // Documents of other machines, or each measured on a share of the host's cores (the info's
  // threads below its cores, as `roofline cluster` measures ranks sharing a host): no warning.
  std::vector<NodeReport> shares = three;
  for (auto& n : shares) set_info(n.machine, {{"cores", 2}, {"threads", 1}});
  EXPECT_TRUE(assemble_cluster(shares, std::nullopt, o).summary.warnings.empty());
  std::vector<NodeReport> others = three;
  for (auto& n : others) n.machine.roofs.name = "node-" + std::to_string(n.rank);
  EXPECT_TRUE(assemble_cluster(others, std::nullopt, o).summary.warnings.empty());
  // One such document per host: nothing counted twice.
  const std::vector<NodeReport> apart{report(0, "vm", host), report(1, "vm2", host)};
  EXPECT_TRUE(assemble_cluster(apart, std::nullopt, o).summary.warnings.empty());

  // Measured here, ranks sharing a host split it: the note says so, and nothing is warned of.
  const ClusterDocument measured = assemble_cluster(three, std::nullopt, {});
  EXPECT_TRUE(measured.summary.warnings.empty());
  EXPECT_NE(render_cluster(measured).find("note: several ranks share a host: each rank measured "
                                          "its share of the host"),
            std::string::npos);
}

}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {

// The network roof is the statistic it states: the median of the pairs' rates, inside its own
// [min, max], and noisy by the policy of every roof. Two pairs at 6.025 ms and 0.388 ms for 1 MB
// gave 311.9 MB/s (bytes over the mean of the two times: no pair's rate), beside a median of
// 1.37 GB/s and "noisy": false with a spread of 88%.
TEST(ClusterNetwork, TheNetworkRoofIsTheMedianOfThePairsRates) {
  NetworkMeasurement net;
  net.ranks = 4;
  net.repetitions = 3;
  net.pairs = {{0, 1}, {2, 3}};
  net.ping_pong.push_back({Bytes(1e6), {6.025e-3, 0.388e-3}});
  net.ping_pong.push_back({Bytes(64e3), {0.3e-3, 0.2e-3}});
  const auto roofs = network_roofs(net);
  ASSERT_FALSE(roofs.empty());
  const MemoryRoof& r = roofs[0];
  const double slow = 1e6 / 6.025e-3, fast = 1e6 / 0.388e-3;
  EXPECT_DOUBLE_EQ(r.bandwidth.value, median({slow, fast}));
  EXPECT_DOUBLE_EQ(r.bandwidth.value, (slow + fast) / 2);
  ASSERT_TRUE(r.stats.has_value());
  EXPECT_DOUBLE_EQ(r.stats->median, r.bandwidth.value);
  EXPECT_DOUBLE_EQ(r.stats->min, slow);
  EXPECT_DOUBLE_EQ(r.stats->max, fast);
  EXPECT_TRUE(r.stats->noisy);  // a spread of 176%, and two pairs are too few to agree
  EXPECT_EQ(r.stats->sustained, 0);
  EXPECT_EQ(r.stats->second, 0);
  // Every statistic but the two left out is the policy's.
  const Statistics policy = summarize_rates({slow, fast});
  EXPECT_EQ(r.stats->noisy, policy.noisy);
  EXPECT_DOUBLE_EQ(r.stats->q1, policy.q1);
  EXPECT_DOUBLE_EQ(r.stats->q3, policy.q3);
  EXPECT_DOUBLE_EQ(r.stats->cv, policy.cv);
  EXPECT_DOUBLE_EQ(net.ping_pong[0].bandwidth().value, r.bandwidth.value);
  // The document is written and read back (a roof outside its stats' [min, max] is refused).
  const std::vector<NodeReport> nodes{
      report(0, "a", fake_node(1e9, 1e9)), report(1, "b", fake_node(1e9, 1e9)),
      report(2, "c", fake_node(1e9, 1e9)), report(3, "d", fake_node(1e9, 1e9))};
  const MachineDocument doc = assemble_cluster_document(nodes, net, {});
  const MachineDocument back = machine_from_json(machine_to_json(doc), "c.json");
  EXPECT_DOUBLE_EQ(back.roofs.find_memory("network")->bandwidth.value, r.bandwidth.value);
  EXPECT_TRUE(back.roofs.find_memory("network")->stats->noisy);
  // Three pairs within 1%: the policy calls it steady; one pair is too few to agree.
  NetworkMeasurement steady = net;
  steady.ranks = 6;
  steady.pairs = {{0, 1}, {2, 3}, {4, 5}};
  steady.ping_pong = {{Bytes(1e6), {1.000e-3, 1.005e-3, 1.01e-3}}};
  const MemoryRoof s = network_roofs(steady)[0];
  EXPECT_DOUBLE_EQ(s.bandwidth.value, 1e6 / 1.005e-3);
  EXPECT_FALSE(s.stats->noisy);
  NetworkMeasurement one = net;
  one.ranks = 2;
  one.pairs = {{0, 1}};
  one.ping_pong = {{Bytes(1e6), {1e-3}}};
  EXPECT_TRUE(network_roofs(one)[0].stats->noisy);
}

}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {

const RoofAggregate* find_row(const std::vector<RoofAggregate>& all, const std::string& roof) {
  for (const auto& a : all)
    if (a.roof == roof) return &a;
  return nullptr;
}

// Rows pairing differently named default roofs flag stragglers as every row does: an A100's
// HBM2e beside an H100's HBM3 (rank 0 24% below the median), a Xeon's fp32 roof beside an
// H100's (rank 0 61% below). They said "none", and cluster.stragglers missed rank 0.
TEST(ClusterDocument, EveryRowFlagsStragglersByOneRule) {
  const ClusterDocument a100 = assemble_cluster(
      {report(0, "a", catalogue("a100-80gb")), report(1, "b", catalogue("h100-sxm"))}, std::nullopt,
      {});
  const RoofAggregate* hbm = find_row(a100.summary.roofs, "HBM2e / HBM3 (default memory roofs)");
  ASSERT_NE(hbm, nullptr);
  ASSERT_EQ(hbm->stragglers.size(), 1u);
  EXPECT_EQ(hbm->stragglers[0].rank, 0);
  EXPECT_NEAR(hbm->stragglers[0].below_median, 1 - 2.039 / ((2.039 + 3.35) / 2), 1e-9);
  const nlohmann::json& section = section_json(a100.document, "cluster");
  for (const auto& row : section.at("roofs"))
    if (row.at("roof") == hbm->roof) {
      EXPECT_EQ(row.at("stragglers").size(), 1u) << row;
    }

  const ClusterDocument xeon = assemble_cluster(
      {report(0, "a", catalogue("xeon-6980p")), report(1, "b", catalogue("h100-sxm"))},
      std::nullopt, {});
  const RoofAggregate* fp32 =
      find_row(xeon.summary.roofs, "fp32 avx-512 fma / fp32 vector (default compute roofs)");
  ASSERT_NE(fp32, nullptr);
  ASSERT_EQ(fp32->stragglers.size(), 1u);
  EXPECT_EQ(fp32->stragglers[0].rank, 0);
  EXPECT_NEAR(fp32->stragglers[0].below_median, 1 - 16.384 / ((16.384 + 66.9) / 2), 1e-9);
  EXPECT_EQ(xeon.summary.stragglers, (std::vector<int>{0, 1}));
  EXPECT_EQ(section_json(xeon.document, "cluster").at("stragglers"), nlohmann::json::array({0, 1}));
  EXPECT_TRUE(section_json(xeon.document, "cluster").at("nodes")[0].at("straggler").get<bool>());
}

}  // namespace ROOFLINE_UNITY_ID

namespace ROOFLINE_UNITY_ID {

MachineDocument document_at(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return machine_from_json(nlohmann::json::parse(text.str()), path);
}

MachineDocument test_data(const std::string& name) {
  return document_at(std::string(ROOFLINE_TEST_DATA) + "/cluster/" + name);
}

// A node document's own network roof (kind "network") is a roof every node has. The docs'
// example (NVLink of kind interconnect, InfiniBand of kind network, the default memory
// InfiniBand) lost InfiniBand: the document held NVLink alone, its note said "no default memory
// roof every node has (rank 0: InfiniBand, rank 1: InfiniBand)", and the example's points were
// refused.
TEST(ClusterDocument, NodeNetworkRoofsAreRoofsEveryNodeHas) {
  const MachineDocument example =
      document_at(std::string(ROOFLINE_SOURCE_DIR) + "/examples/custom/distributed/machine.json");
  const ClusterDocument c =
      assemble_cluster({report(0, "a", example), report(1, "b", example)}, std::nullopt, {});
  const RoofSet& roofs = c.document.roofs;
  ASSERT_NE(roofs.find_memory("InfiniBand"), nullptr);
  EXPECT_EQ(roofs.find_memory("InfiniBand")->kind, "network");
  EXPECT_DOUBLE_EQ(roofs.find_memory("InfiniBand")->bandwidth.value, 50e9);
  EXPECT_EQ(roofs.default_memory, "InfiniBand");
  EXPECT_FALSE(noted(c.document, "no default memory roof"));
  const RoofAggregate* ib = find_row(c.summary.roofs, "InfiniBand");
  ASSERT_NE(ib, nullptr);
  EXPECT_DOUBLE_EQ(ib->sum, 100e9);
  // The example's points are judged against it.
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/examples/custom/distributed/points.json");
  std::stringstream text;
  text << in.rdbuf();
  const PointsDocument points = points_from_json(nlohmann::json::parse(text.str()), "points.json");
  ASSERT_FALSE(points.points.empty());
  for (const Point& p : points.points) EXPECT_NO_THROW(diagnose(p, roofs)) << p.name;
  EXPECT_EQ(diagnose(points.points[1], roofs).binding_level, "InfiniBand");

  // DRAM beside an IB roof of kind network: the slower node's IB (200 Gb/s) is kept beside the
  // measured network roofs, which keep their names.
  const ClusterDocument ibc = assemble_cluster({report(0, "a", test_data("ib-network-0.json")),
                                                report(1, "b", test_data("ib-network-1.json"))},
                                               fake_network(2), {});
  ASSERT_NE(ibc.document.roofs.find_memory("IB"), nullptr);
  EXPECT_DOUBLE_EQ(ibc.document.roofs.find_memory("IB")->bandwidth.value, 25e9);
  EXPECT_NE(ibc.document.roofs.find_memory("IB")->source.find("rank 1"), std::string::npos);
  EXPECT_EQ(ibc.document.roofs.default_memory_roof()->level, "DRAM");
  ASSERT_NE(ibc.document.roofs.find_memory("network"), nullptr);
  EXPECT_EQ(ibc.document.roofs.find_memory("network")->provenance, Provenance::measured);
  ASSERT_NE(find_row(ibc.summary.roofs, "IB"), nullptr);
  EXPECT_EQ(find_row(ibc.summary.roofs, "IB")->stragglers.size(), 1u);  // 25 GB/s: 33% below
}

// A node roof named as a measured network roof is the node's, not the measurement: it is kept
// in cluster.roofs, and the top-level roof of that name is the measured one, with a note; with
// no network measured the node's roof stands.
TEST(ClusterDocument, ANodeRoofNamedAsTheMeasuredNetworkDoesNotReplaceIt) {
  auto node = [] {
    MachineDocument m = fake_node(100e9, 20e9);
    MemoryRoof own = m.roofs.memory[0];
    own.level = "network";
    own.kind = "network";
    own.bandwidth = ByteRate(12.5e9);
    own.provenance = Provenance::datasheet;
    m.roofs.memory.push_back(own);
    return m;
  };
  const std::vector<NodeReport> nodes{report(0, "a", node()), report(1, "b", node())};
  const ClusterDocument measured = assemble_cluster(nodes, fake_network(2), {});
  const MemoryRoof* net = measured.document.roofs.find_memory("network");
  ASSERT_NE(net, nullptr);
  EXPECT_EQ(net->provenance, Provenance::measured);
  EXPECT_DOUBLE_EQ(net->bandwidth.value, 6e9);
  EXPECT_EQ(
      std::count_if(measured.document.roofs.memory.begin(), measured.document.roofs.memory.end(),
                    [](const MemoryRoof& m) { return iequals(m.level, "network"); }),
      1);
  EXPECT_TRUE(noted(measured.document, "the nodes' own memory roof 'network'"));
  ASSERT_NE(find_row(measured.summary.roofs, "network"), nullptr);
  EXPECT_DOUBLE_EQ(find_row(measured.summary.roofs, "network")->sum, 25e9);
  const ClusterDocument not_measured = assemble_cluster(nodes, std::nullopt, {});
  ASSERT_NE(not_measured.document.roofs.find_memory("network"), nullptr);
  EXPECT_DOUBLE_EQ(not_measured.document.roofs.find_memory("network")->bandwidth.value, 12.5e9);
}

// Roofs of one name but another precision, integer-ness or kind are not one roof: `x8` int8
// (4 TOP/s) on rank 0 and fp8 (2 TFLOP/s) on rank 1 were summed to "6 TOP/s" and the top-level
// roof read "x8 2 TFLOP/s (fp8)"; level `link`, an interconnect of 10 GB/s and a cache of 1 TB/s,
// was one row. Each kind is now a roof some nodes lack.
TEST(ClusterDocument, RoofsOfOneNameButAnotherKindAreNotOneRoof) {
  const ClusterDocument c = assemble_cluster({report(0, "a", test_data("kinds-differ-0.json")),
                                              report(1, "b", test_data("kinds-differ-1.json"))},
                                             std::nullopt, {});
  const RoofSet& roofs = c.document.roofs;
  EXPECT_EQ(roofs.find_compute("x8"), nullptr);
  EXPECT_EQ(roofs.find_memory("link"), nullptr);
  ASSERT_NE(roofs.find_compute("fp64"), nullptr);
  ASSERT_NE(roofs.find_memory("DRAM"), nullptr);
  const RoofAggregate* int8 = find_row(c.summary.roofs, "x8 (int8 integer)");
  const RoofAggregate* fp8 = find_row(c.summary.roofs, "x8 (fp8)");
  ASSERT_NE(int8, nullptr);
  ASSERT_NE(fp8, nullptr);
  EXPECT_DOUBLE_EQ(int8->sum, 4e12);
  EXPECT_EQ(int8->units.work, "OP");
  EXPECT_EQ(int8->ranks, std::vector<int>{0});
  EXPECT_DOUBLE_EQ(fp8->sum, 2e12);
  EXPECT_EQ(fp8->units.work, "FLOP");
  EXPECT_EQ(fp8->ranks, std::vector<int>{1});
  EXPECT_TRUE(int8->stragglers.empty());
  const RoofAggregate* interconnect = find_row(c.summary.roofs, "link (interconnect)");
  const RoofAggregate* cache = find_row(c.summary.roofs, "link (cache)");
  ASSERT_NE(interconnect, nullptr);
  ASSERT_NE(cache, nullptr);
  EXPECT_DOUBLE_EQ(interconnect->sum, 10e9);
  EXPECT_DOUBLE_EQ(cache->sum, 1e12);
  EXPECT_EQ(find_row(c.summary.roofs, "x8"), nullptr);
  EXPECT_EQ(find_row(c.summary.roofs, "link"), nullptr);
  EXPECT_TRUE(noted(c.document,
                    "compute roof 'x8' is not one roof across the nodes (rank 0: "
                    "int8 integer, rank 1: fp8)"));
  EXPECT_TRUE(noted(c.document,
                    "memory roof 'link' is not one roof across the nodes (rank 0: "
                    "interconnect, rank 1: cache)"));
  std::string left_out;
  const nlohmann::json notes = section_json(c.document, "cluster").at("notes");
  for (const auto& n : notes)
    if (n.get<std::string>().find("left out") != std::string::npos) left_out = n;
  for (const char* row : {"\"x8 (int8 integer)\"", "\"x8 (fp8)\"", "\"link (cache)\""})
    EXPECT_NE(left_out.find(row), std::string::npos) << left_out;  // as roofs some nodes lack
  EXPECT_TRUE(c.summary.stragglers.empty());
  const std::string text = render_cluster(c);
  EXPECT_EQ(text.find("6 TOP/s"), std::string::npos) << text;
  const nlohmann::json rows = section_json(c.document, "cluster").at("roofs");
  for (const auto& row : rows)
    if (row.at("roof") == "x8 (int8 integer)") {
      EXPECT_EQ(row.at("unit"), "OP/s") << row;
    }
  // Names compare ignoring case, as the roof set finds them: "dram" and "DRAM" are one roof.
  MachineDocument lower_case = test_data("kinds-differ-1.json");
  lower_case.roofs.memory[0].level = "dram";
  const ClusterDocument l = assemble_cluster(
      {report(0, "a", test_data("kinds-differ-0.json")), report(1, "b", lower_case)}, std::nullopt,
      {});
  ASSERT_NE(find_row(l.summary.roofs, "DRAM"), nullptr);
  EXPECT_EQ(find_row(l.summary.roofs, "DRAM")->values.size(), 2u);
}

}  // namespace ROOFLINE_UNITY_ID
