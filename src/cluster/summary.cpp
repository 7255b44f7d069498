// Text summary of a cluster (render_cluster in cluster.hpp): its roofs, the per-roof aggregates
// over the nodes, the network (latency and roofs) and the stragglers, from the typed summary
// assembled with the document.
#include <string>

#include "roofline/cluster.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"
#include "roofline/table.hpp"

namespace roofline::cluster {
namespace {

/// "1 rank", "2 ranks".
std::string counted(int n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string aggregates_table(const ClusterDocument& c) {
  Table t({"roof", "nodes", "sum", "min", "median", "max", "slowest rank", "stragglers"});
  for (const RoofAggregate& a : c.summary.roofs) {
    const UnitSystem& u = a.units;  // int8 roofs in OP/s
    auto fmt = [&](double v) {
      return a.compute ? format_work_rate(WorkRate(v), u) : format_byte_rate(ByteRate(v), u);
    };
    const std::string stragglers = join(a.stragglers, [](const Straggler& s) {
      return std::to_string(s.rank) + " (" + format_number(100 * s.below_median, 3) + "% below)";
    });
    // A roof some nodes lack: its sum is theirs, not the cluster's.
    const std::string nodes =
        a.values.size() == static_cast<size_t>(c.summary.ranks)
            ? std::to_string(a.values.size())
            : std::to_string(a.values.size()) + " of " + std::to_string(c.summary.ranks);
    t.add_row({a.roof, nodes, fmt(a.sum), fmt(a.min), fmt(a.median), fmt(a.max),
               std::to_string(a.min_rank), stragglers.empty() ? "none" : stragglers});
  }
  return t.render();
}

std::string network_text(const NetworkMeasurement& net) {
  std::string out = "\nnetwork (" + counted(net.ranks, "rank") + ", " +
                    counted(static_cast<int>(net.pairs.size()), "ping-pong pair") + " at once" +
                    (net.shared_memory ? ", shared-memory transport" : "") + "):\n";
  if (!net.ping_pong.empty()) {
    if (const auto latency = network_latency(net))
      out += "  latency (one-way, smallest message) = " + format_seconds(Seconds(*latency)) + "\n";
    else
      out += "  latency: not measured (the smallest message is above " +
             format_bytes(Bytes(kLatencyMessageBytes)) +
             ", where the one-way time is mostly bandwidth; give --message-sizes 8 ...)\n";
  }
  Table nt({"message", "p2p bandwidth", "allreduce algbw", "allreduce busbw"});
  const auto& p2p = net.ping_pong;
  const auto& ar = net.allreduce;
  for (size_t i = 0; i < std::max(p2p.size(), ar.size()); ++i) {
    const Bytes bytes = i < p2p.size() ? p2p[i].bytes : ar[i].bytes;
    nt.add_row({format_bytes(bytes), i < p2p.size() ? format_byte_rate(p2p[i].bandwidth()) : "",
                i < ar.size() ? format_byte_rate(ar[i].algbw()) : "",
                i < ar.size() ? format_byte_rate(ar[i].busbw(net.ranks)) : ""});
  }
  return out + nt.render();
}

}  // namespace

std::string render_cluster(const ClusterDocument& c, const std::string& roofs_table) {
  const ClusterSummary& s = c.summary;
  std::string out =
      c.document.roofs.name + ": " + counted(s.ranks, "rank") + " on " + counted(s.hosts, "host");
  if (!s.node_probe.empty())
    out += (s.nodes_given ? " (nodes' roofs from: " : " (nodes measured by: ") + s.node_probe + ")";
  out += "\n\nper roof over the nodes (the cluster's total is the sum over all of them):\n";
  out += aggregates_table(c);
  if (s.network) out += network_text(*s.network);
  if (!roofs_table.empty())
    out +=
        "\nroofs of the document (one node's share: per roof the slowest node, plus the "
        "network):\n" +
        roofs_table;
  std::string stragglers;
  for (int r : s.stragglers) stragglers += (stragglers.empty() ? "" : ",") + std::to_string(r);
  out +=
      "\nstragglers (more than " + format_number(100 * s.straggler_threshold, 3) +
      "% below the median on a roof): " + (stragglers.empty() ? "none" : "[" + stragglers + "]") +
      "\n";
  for (const auto& w : s.warnings) out += "warning: " + w + "\n";
  for (const auto& n : s.notes) out += "note: " + n + "\n";
  return out;
}

}  // namespace roofline::cluster
