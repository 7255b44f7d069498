// The cluster's machine document (docs/cluster.md): the slowest node's roofs plus the network
// roofs at the top (what a point for one node's share of a distributed step is judged against),
// and a "cluster" section with every node, the aggregates, the stragglers and the network sweep.
#include <algorithm>
#include <map>
#include <set>

#include "roofline/cluster.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::cluster {
namespace {

using nlohmann::json;

json aggregate_to_json(const RoofAggregate& a, const NodeReport& slowest, const UnitSystem& u) {
  json stragglers = json::array();
  for (const auto& s : a.stragglers)
    stragglers.push_back(
        {{"rank", s.rank}, {"host", s.host}, {"value", s.value}, {"below_median", s.below_median}});
  json per_node = json::array();
  for (size_t i = 0; i < a.values.size(); ++i)
    per_node.push_back({{"rank", a.ranks[i]}, {"value", a.values[i]}});
  return {{"roof", a.roof},
          {"kind", a.compute ? "compute" : "memory"},
          {"unit", a.compute ? u.work_rate() : u.traffic_rate()},
          {"nodes", a.values.size()},
          {"sum", a.sum},
          {"min", a.min},
          {"median", a.median},
          {"max", a.max},
          {"min_rank", a.min_rank},
          {"min_host", slowest.host},
          {"per_node", per_node},
          {"stragglers", stragglers}};
}

json network_to_json(const NetworkMeasurement& net) {
  json p2p = json::array();
  for (const auto& s : net.ping_pong) {
    json one_way = json::array();
    for (double t : s.one_way_seconds) one_way.push_back(t);
    p2p.push_back({{"bytes", s.bytes},
                   {"one_way_seconds", one_way},
                   {"median_seconds", s.median_seconds()},
                   {"bandwidth", s.bandwidth()}});
  }
  json ar = json::array();
  for (const auto& s : net.allreduce)
    ar.push_back({{"bytes", s.bytes},
                  {"seconds", s.seconds},
                  {"algbw", s.algbw().value},
                  {"busbw", s.busbw(net.ranks).value}});
  json pairs = json::array();
  for (const auto& [a, b] : net.pairs) pairs.push_back({a, b});
  json j = {
      {"ranks", net.ranks},
      {"pairs", pairs},
      {"repetitions", net.repetitions},
      {"shared_memory", net.shared_memory},
      {"ping_pong", p2p},
      {"allreduce", ar},
      {"busbw_formula", "busbw = algbw x 2(n-1)/n, algbw = S/t (NCCL-tests, doc/PERFORMANCE.md)"}};
  if (!net.ping_pong.empty()) j["latency_seconds"] = network_latency(net);
  return j;
}

/// The unit system every node measured in (they must agree).
UnitSystem common_units(const std::vector<NodeReport>& nodes) {
  const UnitSystem units = nodes.front().machine.roofs.units;
  for (const auto& n : nodes)
    if (!(n.machine.roofs.units == units))
      throw InputError("cluster document: rank " + std::to_string(n.rank) + " measured in " +
                       n.machine.roofs.units.work + "/" + n.machine.roofs.units.traffic +
                       " but rank " + std::to_string(nodes.front().rank) + " in " + units.work +
                       "/" + units.traffic);
  return units;
}

const NodeReport& node_with_rank(const std::vector<NodeReport>& nodes, int rank) {
  for (const auto& n : nodes)
    if (n.rank == rank) return n;
  throw InputError("cluster document: no node with rank " + std::to_string(rank));
}

/// Top-level roofs: per roof the slowest node's, when every node has the roof; then the
/// network's. The defaults are the first node's where the cluster has them.
void cluster_top_level_roofs(RoofSet& roofs, const std::vector<NodeReport>& nodes,
                             const std::vector<RoofAggregate>& aggregates,
                             const std::optional<NetworkMeasurement>& network,
                             std::vector<std::string>& notes) {
  const std::string count = std::to_string(nodes.size());
  json incomplete = json::array();
  for (const auto& a : aggregates) {
    if (a.values.size() != nodes.size()) {
      incomplete.push_back(a.roof);
      continue;
    }
    const NodeReport& slowest = node_with_rank(nodes, a.min_rank);
    const std::string from = "slowest of " + count + " node" + (nodes.size() == 1 ? "" : "s") +
                             " (rank " + std::to_string(slowest.rank) + ", " + slowest.host + ")";
    if (a.compute) {
      ComputeRoof r = *slowest.machine.roofs.find_compute(a.roof);
      r.source = from + (r.source.empty() ? "" : ": " + r.source);
      roofs.compute.push_back(std::move(r));
    } else {
      MemoryRoof r = *slowest.machine.roofs.find_memory(a.roof);
      r.source = from + (r.source.empty() ? "" : ": " + r.source);
      roofs.memory.push_back(std::move(r));
    }
  }
  if (!incomplete.empty())
    notes.push_back(
        "roofs not measured on every node are left out of the top-level roofs "
        "(see cluster.roofs): " +
        incomplete.dump());
  if (network) {
    auto net_roofs = network_roofs(*network);
    for (auto& r : net_roofs) roofs.memory.push_back(std::move(r));
    if (net_roofs.empty()) notes.push_back("network: nothing measured");
  } else {
    notes.push_back(nodes.size() < 2 ? "network: not measured (one rank: nothing to talk to)"
                                     : "network: not measured (disabled)");
  }
  const auto& first = nodes.front().machine.roofs;
  if (roofs.find_compute(first.default_compute)) roofs.default_compute = first.default_compute;
  if (roofs.find_memory(first.default_memory)) roofs.default_memory = first.default_memory;
  if (roofs.compute.empty() && roofs.memory.empty())
    throw InputError("cluster document: the nodes share no roof and no network was measured");
  // Every point is judged against a compute roof: a document of network roofs alone would be
  // written and then refused by every reader ("has no compute roof").
  if (roofs.compute.empty()) {
    std::string each;
    for (const auto& n : nodes) {
      std::vector<std::string> names;
      for (const auto& c : n.machine.roofs.compute) names.push_back(c.name);
      each += (each.empty() ? "" : "; ") + std::string("rank ") + std::to_string(n.rank) + ": " +
              (names.empty() ? std::string("none") : join(names));
    }
    throw InputError("cluster document: the nodes share no compute roof (" + terminal_safe(each) +
                     "): a point is judged against one; give every node the same kind of "
                     "machine document or measurement");
  }
  roofs.validate();
}

/// The document's "cluster" section: ranks and hosts, every roof's aggregate, the stragglers,
/// each node's own document, the network and the notes.
json cluster_section(const std::vector<NodeReport>& nodes,
                     const std::vector<RoofAggregate>& aggregates,
                     const std::map<std::string, int>& per_host, const std::set<int>& stragglers,
                     const std::optional<NetworkMeasurement>& network,
                     const ClusterOptions& options, const std::vector<std::string>& notes) {
  const UnitSystem& units = nodes.front().machine.roofs.units;
  json aggregates_json = json::array();
  for (const auto& a : aggregates)
    aggregates_json.push_back(aggregate_to_json(a, node_with_rank(nodes, a.min_rank), units));
  json nodes_json = json::array();
  for (const auto& n : nodes) {
    json m = machine_to_json(n.machine);
    nodes_json.push_back({{"rank", n.rank},
                          {"host", n.host},
                          {"seconds", n.seconds},
                          {"straggler", stragglers.count(n.rank) > 0},
                          {"machine", m}});
  }
  json cluster = {{"ranks", nodes.size()},
                  {"hosts", per_host.size()},
                  {"ranks_per_host", per_host},
                  {"node_probe", options.node_probe},
                  {"straggler_threshold", options.straggler_threshold},
                  {"top_level_roofs",
                   "per roof, the slowest node's (a bulk-synchronous step "
                   "waits for it); sums are in cluster.roofs"},
                  {"roofs", aggregates_json},
                  {"stragglers", json(std::vector<int>(stragglers.begin(), stragglers.end()))},
                  {"nodes", nodes_json},
                  {"notes", notes}};
  if (network) cluster["network"] = network_to_json(*network);
  return cluster;
}

}  // namespace

MachineDocument assemble_cluster_document(const std::vector<NodeReport>& nodes,
                                          const std::optional<NetworkMeasurement>& network,
                                          const ClusterOptions& options) {
  return assemble_cluster(nodes, network, options).document;
}

ClusterDocument assemble_cluster(const std::vector<NodeReport>& nodes,
                                 const std::optional<NetworkMeasurement>& network,
                                 const ClusterOptions& options) {
  if (nodes.empty()) throw InputError("cluster document: no nodes");
  const UnitSystem units = common_units(nodes);
  const auto aggregates = aggregate_roofs(nodes, options.straggler_threshold);

  ClusterDocument out;
  MachineDocument& doc = out.document;
  RoofSet& roofs = doc.roofs;
  roofs.units = units;
  roofs.name = options.name.empty() ? "cluster-" + std::to_string(nodes.size()) + "x" +
                                          nodes.front().machine.roofs.name
                                    : options.name;
  std::vector<std::string> notes;
  cluster_top_level_roofs(roofs, nodes, aggregates, network, notes);

  std::map<std::string, int> per_host;
  for (const auto& n : nodes) ++per_host[n.host];
  const bool shared_hosts = per_host.size() < nodes.size();
  if (shared_hosts)
    notes.push_back(
        "several ranks share a host: each rank measured its share of the host "
        "(threads divided among them), so sums are per host, not per rank");
  std::set<int> straggler_ranks;
  for (const auto& a : aggregates)
    for (const auto& s : a.stragglers) straggler_ranks.insert(s.rank);

  doc.sections["cluster"] =
      cluster_section(nodes, aggregates, per_host, straggler_ranks, network, options, notes);
  doc.info = {{"kind", "cluster"}, {"nodes", nodes.size()}, {"hosts", per_host.size()}};
  if (!nodes.front().machine.info.empty()) doc.info["node"] = nodes.front().machine.info;

  ClusterSummary& s = out.summary;
  s.ranks = static_cast<int>(nodes.size());
  s.hosts = static_cast<int>(per_host.size());
  s.node_probe = options.node_probe;
  s.straggler_threshold = options.straggler_threshold;
  s.roofs = aggregates;
  s.stragglers.assign(straggler_ranks.begin(), straggler_ranks.end());
  s.network = network;
  s.notes = notes;
  return out;
}

}  // namespace roofline::cluster
