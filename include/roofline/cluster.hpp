#pragma once
// The cluster roofline (docs/cluster.md): one MPI rank per node (or per socket) measures its
// node's roofs while every other rank measures its own at the same time; rank 0 gathers them into
// one machine document with a "cluster" section (per-node roofs; per roof the sum and the
// per-node min / median / max; stragglers) and network roofs measured between the ranks
// (point-to-point ping-pong and allreduce bus bandwidth over message sizes). docs/model.md §12
// "distributed training": the x axis is FLOP per transferred (network) byte, the slanted roof
// the network bandwidth, the flat roof the node's compute.
//
// The aggregation, the bus-bandwidth formula and the document assembly are plain functions
// (testable without MPI); measure_cluster() is the MPI edge and throws Unavailable when the
// library was built without MPI.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "roofline/machine_document.hpp"
#include "roofline/statistics.hpp"

namespace roofline::cluster {

/// Where a rank runs; handed to the node measurement so it can size itself (e.g. threads per
/// rank when several ranks share a host).
struct NodeContext {
  int rank = 0;
  int ranks = 1;
  std::string host;       ///< MPI processor name
  int ranks_on_host = 1;  ///< ranks sharing this host (MPI_COMM_TYPE_SHARED)
  int local_rank = 0;     ///< this rank's index among them
  bool quick = false;
};

/// The cores a rank measures on when several share its host: the host's `cores` split evenly,
/// rank k from core k·share. More ranks than cores would put two on one core, each timing the
/// other, and their sum would exceed the host: InputError naming the host and both counts.
struct CoreShare {
  int threads = 0;  ///< 0: the whole host (one rank on it)
  int first_core = 0;
};
CoreShare host_core_share(const NodeContext& node, int cores);

/// The run's check, before anything is measured on any rank: the ranks sharing this node's host
/// fit its `cores` for what will run on them. Nodes measured here: host_core_share's refusal.
/// The network sweep: more ranks than cores puts two on one core, each ping-pong partner
/// waiting for the other to be scheduled (one-way times of milliseconds, the scheduler's and
/// not the network's): InputError naming the host and both counts, and --no-network.
void check_ranks_fit_host(const NodeContext& node, int cores, bool nodes_measured, bool network);

/// Measures one node's roofs, as on one machine (e.g. via roofline::measure_machine).
using NodeMeasure = std::function<MachineDocument(const NodeContext&)>;

struct ClusterOptions {
  bool quick = false;                 ///< a few seconds: fewer message sizes and repetitions
  int expect_ranks = 0;               ///< 0 = any number of ranks; else exactly this many
  double straggler_threshold = 0.10;  ///< a node this fraction below the median is a straggler
  bool network = true;                ///< measure the network roofs (needs ≥ 2 ranks)
  std::vector<double> message_sizes;  ///< bytes; empty = the default sweep
  int repetitions = 0;                ///< per message size; 0 = 3 (quick) or 5
  std::string name;                   ///< cluster name; empty = "cluster-<N>x<first node>"
  std::string node_probe;             ///< how nodes were measured (recorded in the document)
  /// The nodes' machine documents were given (--node-machine), not measured: their roofs are
  /// summed as given, and ranks sharing a host did not split it.
  bool nodes_given = false;
  /// Progress lines, called on rank 0 only; may be empty.
  std::function<void(const std::string&)> log;
  /// More checks of the run, on rank 0 with the rank count and options (step 1), before any
  /// node is measured: e.g. that the document's output path can be written. May be empty.
  std::function<void()> check;
};

// ---- Aggregation (pure) -------------------------------------------------------------------

/// One node's measurement as gathered on rank 0.
struct NodeReport {
  int rank = 0;
  std::string host;
  MachineDocument machine;
  double seconds = 0;  ///< wall time of the node measurement
};

/// A node more than the threshold below the median of one roof.
struct Straggler {
  int rank = 0;
  std::string host;
  double value = 0;
  double below_median = 0;  ///< 1 − value / median, e.g. 0.15 = 15% below the median
};

/// One roof across the nodes that have it.
struct RoofAggregate {
  /// The row's name: the nodes' compute roof name or memory level, with the roof's kind added
  /// ("x8 (int8 integer)", "link (cache)") where nodes give one name to roofs of different kinds
  /// (roof_kind), which are not one roof.
  std::string roof;
  std::string name;          ///< the nodes' name of the roof (compute roof name or memory level)
  std::string kind_of_roof;  ///< roof_kind() of the nodes' roofs: every node's is the same
  bool compute = true;
  std::vector<int> ranks;      ///< nodes that have the roof, in rank order
  std::vector<double> values;  ///< their peaks (work/s) or bandwidths (traffic/s)
  double sum = 0, min = 0, median = 0, max = 0;
  int min_rank = 0;  ///< the slowest node
  std::vector<Straggler> stragglers;
  /// What the values count: the nodes' units, OP for an integer compute roof (units_of; an
  /// int8 roof's sum read "FLOP/s" in the document and in the table where one node lacked it).
  UnitSystem units;
};

/// Sum, min, median, max of values; stragglers are entries with value < (1 − threshold)·median.
/// `ranks` and `hosts` name the entries (same length as values).
RoofAggregate aggregate_values(const std::string& roof, bool compute, const std::vector<int>& ranks,
                               const std::vector<std::string>& hosts,
                               const std::vector<double>& values, double straggler_threshold);

/// What must agree for two nodes' roofs of one name to be one roof (and for two default roofs
/// of different names to pair): for a compute roof its precision, whether it counts integer
/// operations (OP, not FLOP), sparse or dense, and whether it runs on a matrix engine
/// (is_matrix_unit), e.g. "int8 integer", "fp8", "bf16 matrix"; for a memory roof its kind
/// ("memory", "cache", "interconnect", "network"). An int8 roof of 4 TOP/s beside an fp8 roof of
/// 2 TFLOP/s under one name was summed to "6 TOP/s"; a 10 GB/s link beside a 1 TB/s cache was one
/// row.
std::string roof_kind(const ComputeRoof& c);
std::string roof_kind(const MemoryRoof& m);

/// Every compute roof (by name) and memory roof (by level) over the nodes, in the order of
/// first appearance, names compared ignoring case. Roofs of one name but different roof_kind
/// are different roofs: each kind is a row of its own, on the nodes that have it. The nodes' own
/// network roofs (kind "network", e.g. an InfiniBand roof of a datasheet document) are roofs
/// like any other; the network roofs measured between the ranks are not aggregated here.
std::vector<RoofAggregate> aggregate_roofs(const std::vector<NodeReport>& nodes,
                                           double straggler_threshold);

// ---- Network (pure parts) -----------------------------------------------------------------

/// Allreduce bus bandwidth from algorithm bandwidth: busbw = algbw · 2(n − 1)/n.
/// Source: NCCL-tests, doc/PERFORMANCE.md ("bus bandwidth" of AllReduce): a ring allreduce
/// moves 2(n − 1)/n of the buffer through each rank's link, so busbw is comparable with the
/// link's bandwidth whatever n is. Throws InputError for n < 1.
ByteRate allreduce_bus_bandwidth(ByteRate algbw, int ranks);

/// One message size of a point-to-point sweep, over the rank pairs measured concurrently.
struct PingPongSample {
  Bytes bytes;
  std::vector<double> one_way_seconds;  ///< per pair: half the best round trip
  /// The median of the pairs' one-way times (the latency is read from it).
  double median_seconds() const { return median(one_way_seconds); }
  /// Per pair: bytes / its one-way time.
  std::vector<double> pair_bandwidths() const;
  /// The median of the pairs' bandwidths (statistics.hpp's median). Not bytes / median_seconds():
  /// with an even number of pairs that is bytes over the mean of the two middle times, no pair's
  /// rate and not the median of the rates (6.0 ms and 0.39 ms for 1 MB gave 312 MB/s, beside
  /// pairs of 166 MB/s and 2.58 GB/s and a median of 1.37 GB/s).
  ByteRate bandwidth() const;
};

/// One message size of an allreduce sweep (time of the slowest rank, best repetition).
struct AllreduceSample {
  Bytes bytes;
  Seconds seconds;
  ByteRate algbw() const { return bytes / seconds; }  ///< NCCL-tests' algbw = S / t
  ByteRate busbw(int ranks) const { return allreduce_bus_bandwidth(algbw(), ranks); }
};

struct NetworkMeasurement {
  int ranks = 0;
  std::vector<std::pair<int, int>> pairs;  ///< ping-pong pairs (2k, 2k+1), measured at once
  int repetitions = 0;
  std::vector<PingPongSample> ping_pong;
  std::vector<AllreduceSample> allreduce;
  bool shared_memory = false;  ///< every pair shares a host: the transport is shared memory
};

/// The network roofs from a measurement: level "network" (kind "network": point-to-point
/// bandwidth, the highest median-pair bandwidth over message sizes, with the pairs' bandwidths at
/// that size as its statistics, summarised and judged noisy by the statistics policy,
/// summarize_rates: the roof is their median; sustained and second are left out, since the roof
/// is not the third-fastest sample) and level "allreduce" (kind "network": the highest bus
/// bandwidth). Their traffic is the bytes one rank sends: the message for point-to-point, 2(n −
/// 1)/n · S for an allreduce of S bytes. Empty when nothing was measured.
std::vector<MemoryRoof> network_roofs(const NetworkMeasurement& net);

/// The largest smallest-message from which a latency is read: at 1 KiB the one-way time is still
/// mostly latency on any network (a 1 GiB message gave "latency 222.7 ms").
inline constexpr double kLatencyMessageBytes = 1024;
/// Latency α: the median pair's one-way time of the smallest message (seconds); empty when the
/// smallest message is larger than kLatencyMessageBytes (its time is mostly bandwidth).
std::optional<double> network_latency(const NetworkMeasurement& net);

// ---- The document -------------------------------------------------------------------------

/// The default message sizes: 8 B to 64 MiB by ×4 (quick: 8 B to 4 MiB by ×8).
std::vector<double> default_message_sizes(bool quick);

/// Assembles the cluster's machine document on rank 0. Its roofs are those of one node — for
/// each roof the slowest node's, because a bulk-synchronous distributed step waits for the
/// slowest node — plus the network roofs; a point describes one node's share of a step (its
/// work, its network bytes, the step time). The "cluster" section holds every node's machine
/// document, per roof the sum (the whole cluster) and min / median / max, the stragglers and
/// the network sweep. Only roofs every node has become roofs of the document. Throws
/// InputError when `nodes` is empty or their unit systems differ.
MachineDocument assemble_cluster_document(const std::vector<NodeReport>& nodes,
                                          const std::optional<NetworkMeasurement>& network,
                                          const ClusterOptions& options);

/// What the "cluster" section says, typed: the text summary is drawn from it.
struct ClusterSummary {
  int ranks = 0;
  int hosts = 0;
  std::string node_probe;
  bool nodes_given =
      false;  ///< the nodes' roofs read from documents (--node-machine), not measured
  double straggler_threshold = 0;
  std::vector<RoofAggregate> roofs;  ///< every roof over the nodes, in order of appearance
  std::vector<int> stragglers;       ///< ranks below the threshold on any roof, ascending
  std::optional<NetworkMeasurement> network;
  std::vector<std::string> notes;
  /// What makes the sums wrong as given (ranks on one host each giving a document of that whole
  /// host); also first among the section's notes.
  std::vector<std::string> warnings;
};

/// The document and its summary, assembled together (assemble_cluster_document is the
/// document alone).
struct ClusterDocument {
  MachineDocument document;
  ClusterSummary summary;
};
ClusterDocument assemble_cluster(const std::vector<NodeReport>& nodes,
                                 const std::optional<NetworkMeasurement>& network,
                                 const ClusterOptions& options);

/// Text summary of a cluster: aggregates per roof, network latency and sweep, the document's
/// roofs (`roofs_table`, as the caller renders them: report's render_roofs; left out when
/// empty), stragglers and notes.
std::string render_cluster(const ClusterDocument& c, const std::string& roofs_table = "");

// ---- The measurement (MPI) ----------------------------------------------------------------

/// True when the library was built with MPI.
bool mpi_available();

struct ClusterResult {
  int rank = 0;
  int ranks = 1;
  std::optional<MachineDocument> document;  ///< on rank 0 only
};

/// Runs the cluster measurement in MPI_COMM_WORLD (initialising and finalising MPI unless the
/// caller already did): checks the rank count, measures every node at once (barrier first),
/// measures the network, gathers and assembles on rank 0, then calls `deliver` with the
/// document (with its summary) on rank 0 (e.g. to write it atomically). Every step that can fail is
/// followed by an agreement among all ranks: when any rank failed, every rank throws an error
/// naming the failed ranks and their messages (InputError when any failure was bad input,
/// Unavailable when one was a missing capability, else Error), and `deliver` is not called. Throws
/// Unavailable when built without MPI.
ClusterResult measure_cluster(const ClusterOptions& options, const NodeMeasure& measure_node,
                              const std::function<void(const ClusterDocument&)>& deliver = {});

// ---- A small built-in node probe ----------------------------------------------------------

struct ProbeOptions {
  int threads = 0;  ///< 0 = the host's cores / ranks on this host (at least 1)
  bool quick = false;
  double array_bytes = 0;  ///< per triad array; 0 = the engine's DRAM working set
};

/// A quick node measurement through the engine's probe plan (MeasureOptions::probe): the widest
/// fp64 FMA roof (results checked against the kernel's declaration) and the DRAM roof, the best
/// of every access mix (STREAM triad among them, 24 named bytes per element) at a working set
/// past the caches, on the engine's pinned threads, with the engine's statistics and
/// theoretical peak. Not a replacement for `roofline measure`: no cache levels, no other
/// precisions, no curve.
MachineDocument builtin_node_probe(const NodeContext& node, const ProbeOptions& options = {});

}  // namespace roofline::cluster
