// Aggregating per-node roofs (sum, min / median / max, stragglers) and the network roofs from a
// ping-pong / allreduce sweep. Pure functions: no MPI here.
#include <algorithm>
#include <numeric>

#include "roofline/cluster.hpp"
#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/statistics.hpp"
#include "roofline/strings.hpp"

namespace roofline::cluster {

RoofAggregate aggregate_values(const std::string& roof, bool compute, const std::vector<int>& ranks,
                               const std::vector<std::string>& hosts,
                               const std::vector<double>& values, double straggler_threshold) {
  if (values.empty() || values.size() != ranks.size() || values.size() != hosts.size())
    throw InputError("aggregate of roof '" + roof + "': need one rank and host per value");
  if (!(straggler_threshold >= 0 && straggler_threshold < 1))
    throw InputError("straggler threshold must be in [0, 1) (got " +
                     format_number(straggler_threshold) + ")");
  RoofAggregate a;
  a.roof = roof;
  a.name = roof;
  a.compute = compute;
  a.ranks = ranks;
  a.values = values;
  a.sum = std::accumulate(values.begin(), values.end(), 0.0);
  const auto lowest = std::min_element(values.begin(), values.end());
  a.min = *lowest;
  a.min_rank = ranks[static_cast<size_t>(lowest - values.begin())];
  a.max = *std::max_element(values.begin(), values.end());
  a.median = median(values);
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < (1.0 - straggler_threshold) * a.median)
      a.stragglers.push_back({ranks[i], hosts[i], values[i], 1.0 - values[i] / a.median});
  }
  return a;
}

std::string roof_kind(const ComputeRoof& c) {
  return lower(c.precision) + (c.integer ? " integer" : "") + (c.sparse ? " sparse" : "") +
         (is_matrix_unit(c) ? " matrix" : "");
}

std::string roof_kind(const MemoryRoof& m) {
  return lower(m.kind);
}

std::vector<RoofAggregate> aggregate_roofs(const std::vector<NodeReport>& nodes,
                                           double straggler_threshold) {
  // Roofs in order of first appearance; each with the nodes that have it. A name is one roof
  // only where its kind agrees (roof_kind): an int8 and an fp8 roof named "x8" are two.
  struct Collect {
    std::string name;
    bool compute;
    std::string kind;
    std::vector<int> ranks;
    std::vector<std::string> hosts;
    std::vector<double> values;
    UnitSystem units;
  };
  std::vector<Collect> found;
  auto add = [&](const std::string& name, bool compute, const std::string& kind,
                 const NodeReport& n, double v, const UnitSystem& units) {
    auto it = std::find_if(found.begin(), found.end(), [&](const Collect& c) {
      return c.compute == compute && iequals(c.name, name) && c.kind == kind;
    });
    if (it == found.end()) {
      found.push_back({name, compute, kind, {}, {}, {}, units});
      it = found.end() - 1;
    }
    it->ranks.push_back(n.rank);
    it->hosts.push_back(n.host);
    it->values.push_back(v);
  };
  for (const auto& n : nodes) {
    for (const auto& c : n.machine.roofs.compute)
      if (!c.sparse) add(c.name, true, roof_kind(c), n, c.peak.value, n.machine.roofs.units_of(c));
    for (const auto& m : n.machine.roofs.memory)
      add(m.level, false, roof_kind(m), n, m.bandwidth.value, n.machine.roofs.units);
  }
  std::vector<RoofAggregate> out;
  out.reserve(found.size());
  for (const auto& c : found) {
    const bool several_kinds = std::any_of(found.begin(), found.end(), [&](const Collect& o) {
      return o.compute == c.compute && iequals(o.name, c.name) && o.kind != c.kind;
    });
    const std::string row = several_kinds ? c.name + " (" + c.kind + ")" : c.name;
    out.push_back(
        aggregate_values(row, c.compute, c.ranks, c.hosts, c.values, straggler_threshold));
    out.back().name = c.name;
    out.back().kind_of_roof = c.kind;
    out.back().units = c.units;
  }
  return out;
}

ByteRate allreduce_bus_bandwidth(ByteRate algbw, int ranks) {
  if (ranks < 1) throw InputError("allreduce bus bandwidth: ranks must be ≥ 1");
  // NCCL-tests doc/PERFORMANCE.md: busbw = algbw × 2(n−1)/n for AllReduce.
  const double n = static_cast<double>(ranks);
  return algbw * 2.0 * (n - 1.0) / n;
}

std::optional<double> network_latency(const NetworkMeasurement& net) {
  if (net.ping_pong.empty()) throw InputError("network latency: no ping-pong samples");
  const auto smallest = std::min_element(
      net.ping_pong.begin(), net.ping_pong.end(),
      [](const PingPongSample& a, const PingPongSample& b) { return a.bytes < b.bytes; });
  if (smallest->bytes.value > kLatencyMessageBytes) return std::nullopt;
  return smallest->median_seconds();
}

std::vector<double> PingPongSample::pair_bandwidths() const {
  std::vector<double> rates;
  rates.reserve(one_way_seconds.size());
  for (double t : one_way_seconds) rates.push_back(bytes.value / t);
  return rates;
}

ByteRate PingPongSample::bandwidth() const {
  return ByteRate(median(pair_bandwidths()));
}

std::vector<MemoryRoof> network_roofs(const NetworkMeasurement& net) {
  std::vector<MemoryRoof> roofs;
  const std::string transport =
      net.shared_memory ? " (ranks share a host: shared-memory transport, not a NIC)" : "";
  if (!net.ping_pong.empty()) {
    const auto best = std::max_element(net.ping_pong.begin(), net.ping_pong.end(),
                                       [](const PingPongSample& a, const PingPongSample& b) {
                                         return a.bandwidth() < b.bandwidth();
                                       });
    // The pairs' rates under the statistics policy of every roof (median, quartiles, spread,
    // noisy: more than 10% spread, or fewer than 3 pairs, is noisy). The roof is their median,
    // the statistic it states; the third-fastest pair (sustained) and the second-fastest are not
    // the roof and are left out.
    Statistics stats = summarize_rates(best->pair_bandwidths());
    stats.sustained = 0;
    stats.second = 0;
    MemoryRoof r;
    r.level = "network";
    r.kind = "network";
    r.bandwidth = ByteRate(stats.median);
    r.provenance = Provenance::measured;
    r.source = "MPI ping-pong between rank pairs measured at once (" +
               std::to_string(net.pairs.size()) + " pair" + (net.pairs.size() == 1 ? "" : "s") +
               "): message bytes / half the best round trip, median pair, at " +
               format_bytes(best->bytes) + transport;
    r.stats = stats;
    r.convention = "named";
    roofs.push_back(std::move(r));
  }
  if (!net.allreduce.empty() && net.ranks >= 2) {
    const int n = net.ranks;
    const auto best = std::max_element(net.allreduce.begin(), net.allreduce.end(),
                                       [n](const AllreduceSample& a, const AllreduceSample& b) {
                                         return a.busbw(n) < b.busbw(n);
                                       });
    MemoryRoof r;
    r.level = "allreduce";
    r.kind = "network";
    r.bandwidth = best->busbw(n);
    r.provenance = Provenance::measured;
    r.source = "MPI_Allreduce (fp64 sum) over " + std::to_string(n) +
               " ranks: bus bandwidth busbw = algbw x 2(n-1)/n (NCCL-tests' definition), slowest "
               "rank, best repetition, at " +
               format_bytes(best->bytes) + transport;
    r.formula = "algbw " + format_byte_rate(best->algbw()) + " x 2(" + std::to_string(n) + "-1)/" +
                std::to_string(n);
    r.convention = "named";
    roofs.push_back(std::move(r));
  }
  return roofs;
}

std::vector<double> default_message_sizes(bool quick) {
  std::vector<double> sizes;
  const double last = quick ? 4.0 * 1024 * 1024 : 64.0 * 1024 * 1024;
  const double step = quick ? 8.0 : 4.0;
  for (double s = 8; s <= last; s *= step) sizes.push_back(s);
  if (sizes.back() < last) sizes.push_back(last);
  return sizes;
}

}  // namespace roofline::cluster
