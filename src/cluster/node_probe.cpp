// The cluster's built-in node probe: the engine's probe plan (MeasureOptions::probe) — the widest
// fp64 FMA roof and the DRAM roof from every access mix at the DRAM working set, on the engine's
// pinned thread team and topology, with the engine's statistics. Quick, and nothing else linked
// than the library itself; the full node measurement is `--node-probe full`.
#include <algorithm>

#include "roofline/cluster.hpp"
#include "roofline/cpu_topology.hpp"
#include "roofline/measure.hpp"

namespace roofline::cluster {

MachineDocument builtin_node_probe(const NodeContext& node, const ProbeOptions& options) {
  const int cores = std::max(1, cpu::detect_topology().cores());
  const int per_host = std::max(1, node.ranks_on_host);
  MeasureOptions m;
  m.probe = true;
  m.quick = options.quick || node.quick;
  // Ranks sharing a host split its cores instead of oversubscribing them, each on its own.
  m.threads = options.threads > 0 ? options.threads : std::max(1, cores / per_host);
  m.first_core = options.threads > 0 ? 0 : node.local_rank * m.threads;
  m.curve = false;
  m.single_core = false;
  // STREAM's sizing rule (arrays 4 × the last-level cache) is the engine's DRAM working set;
  // an explicit array size gives three such arrays (triad's a, b, c).
  if (options.array_bytes > 0) m.dram_working_set = 3 * options.array_bytes;
  MachineDocument d = measure_machine(m);
  d.roofs.name = node.host.empty() ? "node" : node.host;
  d.info["host"] = node.host;
  d.info["ranks_on_host"] = per_host;
  d.info["probe"] = "builtin";
  d.roofs.validate();
  return d;
}

}  // namespace roofline::cluster
