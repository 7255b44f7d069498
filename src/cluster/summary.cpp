// Text summary of a cluster document: its roofs, the per-roof aggregates over the nodes, the
// network (latency and roofs) and the stragglers. Reads the document's "cluster" section, so it
// works on a document just measured or one read back from a file.
#include <string>

#include "roofline/cluster.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/table.hpp"

namespace roofline::cluster {

std::string render_cluster(const MachineDocument& doc, const std::string& roofs_table) {
  const auto it = doc.sections.find("cluster");
  if (it == doc.sections.end() || !it->is_object())
    throw InputError(doc.origin + ": not a cluster document (no \"cluster\" section)");
  const nlohmann::json& c = *it;
  const UnitSystem& u = doc.roofs.units;
  std::string out = doc.roofs.name + ": " + std::to_string(c.value("ranks", 0)) + " ranks on " +
                    std::to_string(c.value("hosts", 0)) + " host" +
                    (c.value("hosts", 0) == 1 ? "" : "s");
  const std::string probe = c.value("node_probe", std::string());
  if (!probe.empty()) out += " (nodes measured by: " + probe + ")";
  out += "\n\nper roof over the nodes (the cluster's total is the sum):\n";
  Table t({"roof", "sum", "min", "median", "max", "slowest rank", "stragglers"});
  for (const auto& a : c.value("roofs", nlohmann::json::array())) {
    const bool compute = a.value("kind", std::string()) == "compute";
    const ComputeRoof* roof =
        compute ? doc.roofs.find_compute(a.value("roof", std::string())) : nullptr;
    const UnitSystem ru = roof ? doc.roofs.units_of(*roof) : u;  // int8 roofs in OP/s
    auto fmt = [&](const char* key) {
      const double v = a.value(key, 0.0);
      return compute ? format_work_rate(WorkRate(v), ru) : format_byte_rate(ByteRate(v), ru);
    };
    std::string stragglers;
    for (const auto& s : a.value("stragglers", nlohmann::json::array()))
      stragglers += (stragglers.empty() ? "" : ", ") + std::to_string(s.value("rank", -1)) + " (" +
                    format_number(100 * s.value("below_median", 0.0), 3) + "% below)";
    t.add_row({a.value("roof", std::string()), fmt("sum"), fmt("min"), fmt("median"), fmt("max"),
               std::to_string(a.value("min_rank", 0)), stragglers.empty() ? "none" : stragglers});
  }
  out += t.render();
  if (const auto net = c.find("network"); net != c.end()) {
    out += "\nnetwork (" + std::to_string(net->value("ranks", 0)) + " ranks, " +
           std::to_string(net->value("pairs", nlohmann::json::array()).size()) +
           " ping-pong pair(s) at once" +
           (net->value("shared_memory", false) ? ", shared-memory transport" : "") + "):\n";
    if (net->contains("latency_seconds"))
      out += "  latency (one-way, smallest message) = " +
             format_seconds(Seconds(net->value("latency_seconds", 0.0))) + "\n";
    Table nt({"message", "p2p bandwidth", "allreduce algbw", "allreduce busbw"});
    const auto p2p = net->value("ping_pong", nlohmann::json::array());
    const auto ar = net->value("allreduce", nlohmann::json::array());
    for (size_t i = 0; i < std::max(p2p.size(), ar.size()); ++i) {
      const double bytes = i < p2p.size() ? p2p[i].value("bytes", 0.0) : ar[i].value("bytes", 0.0);
      nt.add_row({format_bytes(Bytes(bytes)),
                  i < p2p.size() ? format_byte_rate(ByteRate(p2p[i].value("bandwidth", 0.0))) : "",
                  i < ar.size() ? format_byte_rate(ByteRate(ar[i].value("algbw", 0.0))) : "",
                  i < ar.size() ? format_byte_rate(ByteRate(ar[i].value("busbw", 0.0))) : ""});
    }
    out += nt.render();
  }
  if (!roofs_table.empty())
    out +=
        "\nroofs of the document (one node's share: per roof the slowest node, plus the "
        "network):\n" +
        roofs_table;
  const auto stragglers = c.value("stragglers", nlohmann::json::array());
  out += "\nstragglers (more than " + format_number(100 * c.value("straggler_threshold", 0.0), 3) +
         "% below the median on a roof): " + (stragglers.empty() ? "none" : stragglers.dump()) +
         "\n";
  for (const auto& n : c.value("notes", nlohmann::json::array()))
    out += "note: " + n.get<std::string>() + "\n";
  return out;
}

}  // namespace roofline::cluster
