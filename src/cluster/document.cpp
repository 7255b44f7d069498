// The cluster's machine document (docs/cluster.md): the slowest node's roofs plus the network
// roofs at the top (what a point for one node's share of a distributed step is judged against),
// and a "cluster" section with every node, the aggregates, the stragglers and the network sweep.
#include <algorithm>
#include <map>
#include <set>

#include "roofline/cluster.hpp"
#include "roofline/diff.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::cluster {
namespace {

using nlohmann::json;

json aggregate_to_json(const RoofAggregate& a, const NodeReport& slowest) {
  const UnitSystem& u = a.units;
  json stragglers = json::array();
  for (const auto& s : a.stragglers)
    stragglers.push_back(
        {{"rank", s.rank}, {"host", s.host}, {"value", s.value}, {"below_median", s.below_median}});
  json per_node = json::array();
  for (size_t i = 0; i < a.values.size(); ++i)
    per_node.push_back({{"rank", a.ranks[i]}, {"value", a.values[i]}});
  return {{"roof", a.roof},
          {"kind", a.compute ? "compute" : "memory"},
          {"roof_kind", a.kind_of_roof},
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
    p2p.push_back({{"bytes", s.bytes.value},
                   {"one_way_seconds", one_way},
                   {"median_seconds", s.median_seconds()},
                   {"bandwidth", s.bandwidth().value}});
  }
  json ar = json::array();
  for (const auto& s : net.allreduce)
    ar.push_back({{"bytes", s.bytes.value},
                  {"seconds", s.seconds.value},
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
  if (!net.ping_pong.empty())
    if (const auto latency = network_latency(net)) j["latency_seconds"] = *latency;
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

const std::string& roof_name(const ComputeRoof& c) {
  return c.name;
}
const std::string& roof_name(const MemoryRoof& m) {
  return m.level;
}
double roof_value(const ComputeRoof& c) {
  return c.peak.value;
}
double roof_value(const MemoryRoof& m) {
  return m.bandwidth.value;
}
const ComputeRoof* roof_named(const RoofSet& s, const ComputeRoof& c) {
  return s.find_compute(c.name);
}
const MemoryRoof* roof_named(const RoofSet& s, const MemoryRoof& m) {
  return s.find_memory(m.level);
}

/// Each node's default roof, when the nodes' defaults differ in name (HBM3 on one node, HBM3e
/// on another): paired with the first node's as `roofline diff` pairs two documents' default
/// roofs (`pair` is paired_default_compute or paired_default_memory). Empty when the names
/// agree (the roof is aggregated by name) or a node has no default roof to pair.
template <class Roof, class Pair>
std::vector<const Roof*> paired_defaults(const std::vector<NodeReport>& nodes, Pair pair) {
  const RoofSet& first = nodes.front().machine.roofs;
  const Roof* first_default = nullptr;
  for (const auto& n : nodes)
    if (const auto p = pair(first, n.machine.roofs)) {
      first_default = p->first;
      break;
    }
  if (!first_default) return {};
  std::vector<const Roof*> out;
  for (const auto& n : nodes) {
    const auto p = pair(first, n.machine.roofs);
    const Roof* r = p ? p->second : roof_named(n.machine.roofs, *first_default);
    // One roof under two names is the same kind of work or level (roof_kind, the rule that
    // roofs of one name are held to): a CPU's fp64 roof beside a GPU's bf16 tensor roof, or main
    // memory beside a cache, is not.
    if (!r || roof_kind(*r) != roof_kind(*first_default)) return {};
    out.push_back(r);
  }
  return out;
}

/// What a roof's values count in its set: OP for an integer compute roof (units_of).
UnitSystem units_in(const RoofSet& s, const ComputeRoof& c) {
  return s.units_of(c);
}
UnitSystem units_in(const RoofSet& s, const MemoryRoof&) {
  return s.units;
}

/// The cluster's default roof from the nodes' defaults paired under different names: the
/// slowest of them joins the top-level roofs (first) and becomes the default; its aggregate
/// over the nodes joins `aggregates`; a note names each node's. Returns the names paired.
template <class Roof>
std::vector<std::string> add_paired_default(const std::vector<const Roof*>& group,
                                            const std::vector<NodeReport>& nodes, bool compute,
                                            std::vector<Roof>& top, std::string& default_name,
                                            std::vector<RoofAggregate>& aggregates,
                                            double straggler_threshold,
                                            std::vector<std::string>& notes) {
  if (group.empty()) return {};
  const std::string what = compute ? "compute" : "memory";
  std::vector<std::string> names, each;
  std::vector<int> ranks;
  std::vector<std::string> hosts;
  std::vector<double> values;
  size_t slowest = 0;
  for (size_t i = 0; i < group.size(); ++i) {
    const std::string& n = roof_name(*group[i]);
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    each.push_back(n + " (rank " + std::to_string(nodes[i].rank) + ", " + nodes[i].host + ")");
    ranks.push_back(nodes[i].rank);
    hosts.push_back(nodes[i].host);
    values.push_back(roof_value(*group[i]));
    if (values[i] < values[slowest]) slowest = i;
  }
  Roof r = *group[slowest];
  const std::string name = roof_name(r);
  const std::string said = "the nodes' default " + what + " roofs differ in name: " + join(each);
  if (std::any_of(top.begin(), top.end(),
                  [&](const Roof& t) { return iequals(roof_name(t), name); })) {
    notes.push_back(said + "; the slowest, " + name + ", is also another roof every node has: no " +
                    "default " + what + " roof is formed from them");
    return {};
  }
  const std::string from = "slowest of the nodes' default " + what + " roofs (" + join(each) + ")";
  r.source = from + (r.source.empty() ? "" : ": " + r.source);
  top.insert(top.begin(), std::move(r));
  default_name = name;
  // Stragglers by the rule of every row: a node more than the threshold below the median. An
  // H100's HBM3 beside an H200's HBM3e is one: the step waits for it, whatever its name.
  RoofAggregate paired = aggregate_values(join(names, " / ") + " (default " + what + " roofs)",
                                          compute, ranks, hosts, values, straggler_threshold);
  paired.kind_of_roof = roof_kind(*group[slowest]);
  paired.units = units_in(nodes[slowest].machine.roofs, *group[slowest]);
  aggregates.push_back(std::move(paired));
  notes.push_back(said + "; they are one roof of every node, and the cluster's default " + what +
                  " roof is the slowest: " + name + " of rank " +
                  std::to_string(nodes[slowest].rank));
  return names;
}

/// A note when the document has no default memory roof every node shares: plain traffic is
/// then refused (no roof of kind memory: point and llm ask for a level) or judged against the
/// level it names.
void note_default_memory(const RoofSet& roofs, const std::vector<NodeReport>& nodes, bool paired,
                         std::vector<std::string>& notes) {
  const MemoryRoof* d = roofs.default_memory_roof();
  bool shared = d != nullptr;
  std::vector<std::string> each;
  for (const auto& n : nodes) {
    const MemoryRoof* m = n.machine.roofs.default_memory_roof();
    each.push_back("rank " + std::to_string(n.rank) + ": " + (m ? m->level : "none"));
    if (!m || !d || (!paired && !iequals(m->level, d->level))) shared = false;
  }
  if (shared || roofs.memory.empty()) return;
  notes.push_back(
      "no default memory roof every node has (" + join(each) + "): " +
      (d ? "plain traffic is judged against the document's slowest level, " + d->level
         : "plain traffic is refused (point, llm); give it at a level (--traffic-at LEVEL=BYTES)"));
}

/// A note for each name the nodes give to roofs of different kinds (roof_kind): an int8 roof
/// and an fp8 roof named "x8", or an interconnect and a cache named "link". They are not one
/// roof: each kind is a row of its own on the nodes that have it, and none is on every node.
void note_kinds_that_differ(const std::vector<RoofAggregate>& aggregates,
                            std::vector<std::string>& notes) {
  std::vector<std::string> said;
  for (const RoofAggregate& a : aggregates) {
    if (a.roof == a.name) continue;  // one kind under this name
    const std::string key = std::string(a.compute ? "compute " : "memory ") + lower(a.name);
    if (std::find(said.begin(), said.end(), key) != said.end()) continue;
    said.push_back(key);
    std::vector<std::string> each;
    for (const RoofAggregate& b : aggregates)
      if (b.compute == a.compute && iequals(b.name, a.name) && b.roof != b.name)
        for (int rank : b.ranks)
          each.push_back("rank " + std::to_string(rank) + ": " + b.kind_of_roof);
    notes.push_back(std::string(a.compute ? "compute roof '" : "memory roof '") + a.name +
                    "' is not one roof across the nodes (" + join(each) +
                    "): roofs of one name must agree in " +
                    (a.compute ? "precision, integer or floating-point work, and engine" : "kind") +
                    " to be summed and compared, so each kind is a roof some nodes lack");
  }
}

/// Top-level roofs: per roof the slowest node's, when every node has the roof (of one kind:
/// roof_kind). A node roof named as a measured network roof (`measured`: "network",
/// "allreduce") is left out of them, with a note: the measured roof stands under that name.
/// Returns the roofs not on every node.
std::vector<std::string> add_slowest_roofs(RoofSet& roofs, const std::vector<NodeReport>& nodes,
                                           const std::vector<RoofAggregate>& aggregates,
                                           const std::vector<MemoryRoof>& measured,
                                           std::vector<std::string>& notes) {
  const std::string count = std::to_string(nodes.size());
  std::vector<std::string> incomplete;
  for (const RoofAggregate& a : aggregates) {
    if (a.values.size() != nodes.size()) {
      incomplete.push_back(a.roof);
      continue;
    }
    const NodeReport& slowest = node_with_rank(nodes, a.min_rank);
    const std::string from = "slowest of " + count + " node" + (nodes.size() == 1 ? "" : "s") +
                             " (rank " + std::to_string(slowest.rank) + ", " + slowest.host + ")";
    if (a.compute) {
      ComputeRoof r = *slowest.machine.roofs.find_compute(a.name);
      r.source = from + (r.source.empty() ? "" : ": " + r.source);
      roofs.compute.push_back(std::move(r));
      continue;
    }
    if (std::any_of(measured.begin(), measured.end(),
                    [&](const MemoryRoof& m) { return iequals(m.level, a.name); })) {
      notes.push_back("the nodes' own memory roof '" + a.name +
                      "' (see cluster.roofs) is left out of the top-level roofs: the network roof "
                      "measured between the ranks has that name; rename it in the node documents "
                      "to keep both");
      continue;
    }
    MemoryRoof r = *slowest.machine.roofs.find_memory(a.name);
    r.source = from + (r.source.empty() ? "" : ": " + r.source);
    roofs.memory.push_back(std::move(r));
  }
  return incomplete;
}

/// Top-level roofs: per roof the slowest node's, when every node has the roof; the slowest of
/// the nodes' default roofs when their names differ (the default); then the network's. The
/// defaults are otherwise the first node's where the cluster has them.
void cluster_top_level_roofs(RoofSet& roofs, const std::vector<NodeReport>& nodes,
                             std::vector<RoofAggregate>& aggregates,
                             const std::optional<NetworkMeasurement>& network,
                             const ClusterOptions& options, std::vector<std::string>& notes) {
  const std::vector<MemoryRoof> net_roofs =
      network ? network_roofs(*network) : std::vector<MemoryRoof>{};
  note_kinds_that_differ(aggregates, notes);
  const std::vector<std::string> incomplete =
      add_slowest_roofs(roofs, nodes, aggregates, net_roofs, notes);
  const auto& first = nodes.front().machine.roofs;
  if (roofs.find_compute(first.default_compute)) roofs.default_compute = first.default_compute;
  if (roofs.find_memory(first.default_memory)) roofs.default_memory = first.default_memory;
  std::vector<std::string> paired = add_paired_default(
      paired_defaults<ComputeRoof>(nodes, paired_default_compute), nodes, true, roofs.compute,
      roofs.default_compute, aggregates, options.straggler_threshold, notes);
  const std::vector<std::string> memory = add_paired_default(
      paired_defaults<MemoryRoof>(nodes, paired_default_memory), nodes, false, roofs.memory,
      roofs.default_memory, aggregates, options.straggler_threshold, notes);
  paired.insert(paired.end(), memory.begin(), memory.end());
  json left_out = json::array();
  for (const auto& r : incomplete)
    if (std::find(paired.begin(), paired.end(), r) == paired.end()) left_out.push_back(r);
  if (!left_out.empty())
    notes.push_back(
        "roofs not on every node are left out of the top-level roofs (see cluster.roofs): " +
        left_out.dump());
  if (network) {
    for (const auto& r : net_roofs) roofs.memory.push_back(r);
    if (net_roofs.empty()) notes.push_back("network: nothing measured");
  } else {
    notes.push_back(nodes.size() < 2 ? "network: not measured (one rank: nothing to talk to)"
                                     : "network: not measured (disabled)");
  }
  note_default_memory(roofs, nodes, !memory.empty(), notes);
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
  json aggregates_json = json::array();
  for (const auto& a : aggregates)
    aggregates_json.push_back(aggregate_to_json(a, node_with_rank(nodes, a.min_rank)));
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

/// Whether a node's document describes its whole host: named as the host (`roofline measure`
/// names its document after the host it ran on) and not measured on a share of its cores (the
/// info's threads below its cores, as `roofline cluster` measures ranks that share a host).
bool document_of_whole_host(const NodeReport& n) {
  if (n.host.empty() || !iequals(n.machine.roofs.name, n.host)) return false;
  const json info = info_json(n.machine);
  if (!info.is_object()) return true;
  const auto threads = info.find("threads"), cores = info.find("cores");
  return threads == info.end() || cores == info.end() || !threads->is_number_integer() ||
         !cores->is_number_integer() || threads->get<long long>() >= cores->get<long long>();
}

/// Nodes given as documents whose roofs are summed as given: one warning per host on which
/// several ranks each give a document of that whole host, since each sum then counts the host
/// once per such rank.
std::vector<std::string> host_counted_twice_warnings(const std::vector<NodeReport>& nodes) {
  std::vector<std::pair<std::string, std::vector<int>>> hosts;  // in order of first rank
  for (const auto& n : nodes) {
    if (!document_of_whole_host(n)) continue;
    auto it =
        std::find_if(hosts.begin(), hosts.end(), [&](const auto& h) { return h.first == n.host; });
    if (it == hosts.end())
      hosts.push_back({n.host, {n.rank}});
    else
      it->second.push_back(n.rank);
  }
  std::vector<std::string> warnings;
  for (const auto& [host, ranks] : hosts) {
    if (ranks.size() < 2) continue;
    const std::string count = std::to_string(ranks.size());
    warnings.push_back("ranks " + join(ranks, [](int r) { return std::to_string(r); }) +
                       " share host '" + terminal_safe(host) + "' and each gives a document " +
                       "of that whole host: their roofs are summed as given, so every sum " +
                       "counts the host " + count + " times; give one rank per host, or each " +
                       "rank a document of its share of the host");
  }
  return warnings;
}

/// "cluster-2xh100-sxm" when every node is one machine; else each machine with its count in
/// order of first appearance, "cluster-1xh100-sxm+1xh200".
std::string default_cluster_name(const std::vector<NodeReport>& nodes) {
  std::vector<std::pair<std::string, int>> machines;
  for (const auto& n : nodes) {
    const std::string& m = n.machine.roofs.name;
    auto it =
        std::find_if(machines.begin(), machines.end(), [&](const auto& e) { return e.first == m; });
    if (it == machines.end())
      machines.emplace_back(m, 1);
    else
      ++it->second;
  }
  std::string name = "cluster-";
  for (size_t i = 0; i < machines.size(); ++i)
    name += (i ? "+" : "") + std::to_string(machines[i].second) + "x" + machines[i].first;
  return name;
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
  auto aggregates = aggregate_roofs(nodes, options.straggler_threshold);

  ClusterDocument out;
  MachineDocument& doc = out.document;
  RoofSet& roofs = doc.roofs;
  roofs.units = units;
  roofs.name = options.name.empty() ? default_cluster_name(nodes) : options.name;
  std::vector<std::string> notes;
  cluster_top_level_roofs(roofs, nodes, aggregates, network, options, notes);

  std::map<std::string, int> per_host;
  for (const auto& n : nodes) ++per_host[n.host];
  const bool shared_hosts = per_host.size() < nodes.size();
  std::vector<std::string> warnings;
  if (shared_hosts && options.nodes_given) {
    notes.push_back(
        "several ranks share a host: their machine documents were given, not measured here, "
        "and their roofs are summed as given");
    warnings = host_counted_twice_warnings(nodes);
  } else if (shared_hosts) {
    notes.push_back(
        "several ranks share a host: each rank measured its share of the host "
        "(threads divided among them), so sums are per host, not per rank");
  }
  std::vector<std::string> section_notes = warnings;
  section_notes.insert(section_notes.end(), notes.begin(), notes.end());
  std::set<int> straggler_ranks;
  for (const auto& a : aggregates)
    for (const auto& s : a.stragglers) straggler_ranks.insert(s.rank);

  set_section(doc, "cluster",
              cluster_section(nodes, aggregates, per_host, straggler_ranks, network, options,
                              section_notes));
  json info = {{"kind", "cluster"}, {"nodes", nodes.size()}, {"hosts", per_host.size()}};
  if (!nodes.front().machine.info.empty()) info["node"] = info_json(nodes.front().machine);
  set_info(doc, info);

  ClusterSummary& s = out.summary;
  s.ranks = static_cast<int>(nodes.size());
  s.hosts = static_cast<int>(per_host.size());
  s.node_probe = options.node_probe;
  s.nodes_given = options.nodes_given;
  s.straggler_threshold = options.straggler_threshold;
  s.roofs = aggregates;
  s.stragglers.assign(straggler_ranks.begin(), straggler_ranks.end());
  s.network = network;
  s.notes = notes;
  s.warnings = warnings;
  return out;
}

}  // namespace roofline::cluster
