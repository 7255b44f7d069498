// The cluster's built-in node probe: the engine's probe plan (MeasureOptions::probe) — the widest
// fp64 FMA roof and the DRAM roof from every access mix at the DRAM working set, on the engine's
// pinned thread team and topology, with the engine's statistics. Quick, and nothing else linked
// than the library itself; the full node measurement is `--node-probe full`.
#include <algorithm>

#include "roofline/cluster.hpp"
#include "roofline/cpu_topology.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/measure.hpp"
#include "roofline/sanitize.hpp"

namespace roofline::cluster {

CoreShare host_core_share(const NodeContext& node, int cores) {
  const int per_host = std::max(1, node.ranks_on_host);
  cores = std::max(1, cores);
  if (per_host == 1) return {};
  if (per_host > cores)
    throw InputError(std::to_string(per_host) + " ranks share host '" + terminal_safe(node.host) +
                     "', which has " + std::to_string(cores) + " core" + (cores == 1 ? "" : "s") +
                     ": two ranks on one core would each time the other, and their sum would "
                     "exceed the host; run at most " +
                     std::to_string(cores) + " ranks on it (one per host measures it whole)");
  CoreShare s;
  s.threads = cores / per_host;
  s.first_core = node.local_rank * s.threads;
  return s;
}

void check_ranks_fit_host(const NodeContext& node, int cores, bool nodes_measured, bool network) {
  if (nodes_measured) host_core_share(node, cores);
  const int per_host = std::max(1, node.ranks_on_host);
  cores = std::max(1, cores);
  if (!network || per_host <= cores) return;
  throw InputError(std::to_string(per_host) + " ranks share host '" + terminal_safe(node.host) +
                   "', which has " + std::to_string(cores) + " core" + (cores == 1 ? "" : "s") +
                   ": the network sweep would put two ranks on one core, each waiting for the "
                   "other to be scheduled (one-way times of the scheduler, not the network); "
                   "run at most " +
                   std::to_string(cores) + " ranks on it, or give --no-network");
}

MachineDocument builtin_node_probe(const NodeContext& node, const ProbeOptions& options) {
  const int per_host = std::max(1, node.ranks_on_host);
  MeasureOptions m;
  m.probe = true;
  m.quick = options.quick || node.quick;
  // Ranks sharing a host split its cores instead of oversubscribing them, each on its own.
  if (options.threads > 0) {
    m.threads = options.threads;
  } else {
    const CoreShare share = host_core_share(node, cpu::detect_topology().cores());
    m.threads = share.threads;
    m.first_core = share.first_core;
  }
  m.curve = false;
  m.single_core = false;
  // STREAM's sizing rule (arrays 4 × the last-level cache) is the engine's DRAM working set;
  // an explicit array size gives three such arrays (triad's a, b, c).
  if (options.array_bytes > 0) m.dram_working_set = 3 * options.array_bytes;
  MachineDocument d = measure_machine(m);
  d.roofs.name = node.host.empty() ? "node" : node.host;
  nlohmann::json info = info_json(d);
  info["host"] = node.host;
  info["ranks_on_host"] = per_host;
  info["probe"] = "builtin";
  set_info(d, info);
  d.roofs.validate();
  return d;
}

}  // namespace roofline::cluster
