// The MPI edge of the cluster measurement: rank layout, the node measurement run on every rank
// at once, the network sweep (ping-pong between rank pairs, allreduce), gathering on rank 0, and
// the agreement after each step that turns one rank's failure into a clear error on every rank
// (an MPI_Allreduce of a status code, then every rank learns every message) instead of an
// MPI_Abort or a partial document.
//
// MPI itself lives in a separate shared module (mpi_module/roofline_mpi.c, built when CMake
// finds MPI: src/cluster/layer.cmake defines ROOFLINE_HAVE_MPI), opened with dlopen here, on
// the first MPI call of `roofline cluster` or `roofline measure --mpi`. No other command loads
// MPI or the handlers its stack installs for SIGSEGV and friends (UCX reports a crash and then
// waits, so every crash became a hang). Built without MPI, measure_cluster reports it
// unavailable.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "roofline/cluster.hpp"
#include "roofline/cpu_topology.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"

#ifdef ROOFLINE_HAVE_MPI
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "cluster/mpi_module/roofline_mpi.h"
#endif

namespace roofline::cluster {

#ifndef ROOFLINE_HAVE_MPI

bool mpi_available() {
  return false;
}

ClusterResult measure_cluster(const ClusterOptions&, const NodeMeasure&,
                              const std::function<void(const ClusterDocument&)>&) {
  throw Unavailable(
      "cluster measurement needs MPI, and this roofline was built without it: install an MPI "
      "(Debian: libmpich-dev mpich) and rebuild (CMake option ROOFLINE_MPI=ON, the default)");
}

#else

namespace {

/// Opens the MPI module once: $ROOFLINE_MPI_MODULE, else beside the executable
/// (bin/../LIBDIR/roofline/, the same in the build and the install tree), else the build
/// tree's copy (for test programs). Returns nullptr and says why in `why` when none loads.
const roofline_mpi_api* load_module(std::string* why) {
  static std::string reason;
  static const roofline_mpi_api* api = []() -> const roofline_mpi_api* {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("ROOFLINE_MPI_MODULE"); env && *env) {
      candidates.emplace_back(env);
    } else {
      std::error_code ec;
      const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
      if (!ec)
        candidates.push_back((exe.parent_path() / ".." / ROOFLINE_MPI_MODULE_RELATIVE).string());
      candidates.emplace_back(ROOFLINE_MPI_MODULE_BUILD);
    }
    for (const auto& path : candidates) {
      // RTLD_GLOBAL: some MPI libraries open their own plugins, which look for MPI's symbols.
      void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
      if (!handle) {
        const char* e = ::dlerror();
        reason += "\n  " + (e ? std::string(e) : path + ": cannot be opened");  // names the path
        continue;
      }
      auto entry = reinterpret_cast<roofline_mpi_entry>(::dlsym(handle, ROOFLINE_MPI_ENTRY));
      const roofline_mpi_api* a = entry ? entry() : nullptr;
      if (a && a->abi == ROOFLINE_MPI_ABI && a->table_size == sizeof(roofline_mpi_api)) return a;
      reason += "\n  " + path + ": not a roofline MPI module of this version";
      ::dlclose(handle);
    }
    return nullptr;
  }();
  if (!api && why) *why = reason;
  return api;
}

/// The module, or Unavailable naming where it was looked for.
const roofline_mpi_api& mpi() {
  std::string why;
  const roofline_mpi_api* api = load_module(&why);
  if (!api)
    throw Unavailable(
        "cluster measurement needs the MPI module roofline_mpi.so of this build, which could "
        "not be loaded (set ROOFLINE_MPI_MODULE to its path):" +
        why);
  return *api;
}

}  // namespace

bool mpi_available() {
  return load_module(nullptr) != nullptr;
}

namespace {

// Ordered by severity: the agreement keeps the worst kind any rank reported.
enum FailKind : int { kOk = 0, kInternal = 1, kOutput = 2, kUnavailable = 3, kInput = 4 };

struct Failure {
  int kind = kOk;
  std::string message;
};

template <class F>
Failure capture(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return {kInput, e.what()};
  } catch (const Unavailable& e) {
    return {kUnavailable, e.what()};
  } catch (const OutputError& e) {
    return {kOutput, e.what()};  // exit 4: the output could not be written (a full disk)
  } catch (const std::exception& e) {
    return {kInternal, e.what()};
  }
  return {};
}

/// Initialises MPI unless the caller already did, and finalises what it initialised — also when
/// every rank leaves by the same agreed exception, so no rank is left waiting.
class MpiSession {
 public:
  MpiSession() {
    if (mpi().finalized()) throw Unavailable("MPI was already finalised in this process");
    if (!mpi().initialized()) {
      // Funneled: the node probe runs worker threads, but only this thread calls MPI.
      if (mpi().init_funneled() != 0) throw Unavailable("MPI could not be initialised");
      owned_ = true;
    }
  }
  ~MpiSession() {
    if (owned_ && !mpi().finalized()) mpi().finalize();
  }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool owned_ = false;
};

int world_rank() {
  return mpi().rank();
}
int world_size() {
  return mpi().size();
}

std::vector<int> displacements(const std::vector<int>& lengths) {
  std::vector<int> d(lengths.size(), 0);
  for (size_t i = 1; i < lengths.size(); ++i) d[i] = d[i - 1] + lengths[i - 1];
  return d;
}

int length_of(const std::string& s) {
  if (s.size() > static_cast<size_t>(std::numeric_limits<int>::max() / 2))
    throw Error("message too long to send over MPI");
  return static_cast<int>(s.size());
}

/// Every rank's string, on every rank.
std::vector<std::string> allgather_strings(const std::string& mine) {
  const int n = world_size();
  int len = length_of(mine);
  std::vector<int> lengths(static_cast<size_t>(n));
  mpi().allgather_int(&len, lengths.data());
  const auto disp = displacements(lengths);
  std::string all(static_cast<size_t>(disp.back() + lengths.back()), '\0');
  mpi().allgatherv_char(mine.data(), len, all.data(), lengths.data(), disp.data());
  std::vector<std::string> out;
  for (size_t i = 0; i < lengths.size(); ++i)
    out.push_back(all.substr(static_cast<size_t>(disp[i]), static_cast<size_t>(lengths[i])));
  return out;
}

/// Every rank's string on rank 0 (empty vector elsewhere).
std::vector<std::string> gather_strings(const std::string& mine) {
  const int n = world_size();
  const bool root = world_rank() == 0;
  int len = length_of(mine);
  std::vector<int> lengths(root ? static_cast<size_t>(n) : 0);
  mpi().gather_int(&len, lengths.data());
  std::vector<int> disp;
  std::string all;
  if (root) {
    disp = displacements(lengths);
    all.resize(static_cast<size_t>(disp.back() + lengths.back()));
  }
  mpi().gatherv_char(mine.data(), len, all.data(), lengths.data(), disp.data());
  std::vector<std::string> out;
  for (size_t i = 0; i < lengths.size(); ++i)
    out.push_back(all.substr(static_cast<size_t>(disp[i]), static_cast<size_t>(lengths[i])));
  return out;
}

[[noreturn]] void throw_failure(int kind, const std::string& text) {
  if (kind == kInput) throw InputError(text);
  if (kind == kUnavailable) throw Unavailable(text);
  if (kind == kOutput) throw OutputError(text);
  throw Error(text);
}

/// The agreement after a step: every rank contributes its status; when any failed, every rank
/// throws the same error, naming the failed ranks (grouped by message) and what they reported.
void agree(const Failure& local, const std::string& step, const std::vector<std::string>& hosts) {
  int mine = local.kind, worst = kOk;
  mpi().allreduce_max_int(&mine, &worst);
  if (worst == kOk) return;
  const auto messages = allgather_strings(local.kind == kOk ? std::string() : local.message);
  // Group ranks by message so that the same failure on every rank reads once.
  std::vector<std::pair<std::string, std::vector<int> > > groups;
  for (size_t r = 0; r < messages.size(); ++r) {
    if (messages[r].empty()) continue;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == messages[r]; });
    if (it == groups.end())
      groups.push_back({messages[r], {static_cast<int>(r)}});
    else
      it->second.push_back(static_cast<int>(r));
  }
  std::string text = "cluster measurement failed while " + step + " (reported by rank " +
                     std::to_string(world_rank()) + " of " + std::to_string(messages.size()) +
                     "); no document written:";
  for (const auto& [msg, ranks] : groups) {
    std::string who;
    if (ranks.size() == messages.size()) {
      who = "every rank";
    } else {
      who = ranks.size() == 1 ? "rank " : "ranks ";
      for (size_t i = 0; i < ranks.size(); ++i) {
        const auto r = static_cast<size_t>(ranks[i]);
        who += (i ? ", " : "") + std::to_string(ranks[i]) +
               (r < hosts.size() ? " (" + hosts[r] + ")" : "");
      }
    }
    text += "\n  " + who + ": " + msg;
  }
  throw_failure(worst, text);
}

/// The agreement after a step rank 0 does alone (assembling the document from every rank's):
/// a failure there is the step's, not a rank's, so rank 0 says it once, naming no rank, and
/// every other rank fails with the same kind of error pointing at rank 0's message.
void agree_on_root_step(const Failure& local, const std::string& step) {
  int mine = local.kind, worst = kOk;
  mpi().allreduce_max_int(&mine, &worst);
  if (worst == kOk) return;
  const std::string head = "cluster measurement failed while " + step;
  throw_failure(worst, world_rank() == 0
                           ? head + "; no document written: " + local.message
                           : head + " (rank 0 assembles it and says why); no document written");
}

int iterations_for(double bytes, bool quick) {
  // Enough round trips that a repetition moves a few MiB (small messages: bounded by a count).
  const double target = quick ? 1.0 * 1024 * 1024 : 32.0 * 1024 * 1024;
  const double cap = quick ? 50 : 1000;
  return static_cast<int>(std::clamp(std::floor(target / bytes), 2.0, cap));
}

/// Ping-pong between ranks 2k and 2k+1, all pairs at once; then MPI_Allreduce of fp64 sums.
/// Returns the measurement on rank 0 (partial elsewhere); sets `failure` when a check fails.
NetworkMeasurement measure_network(const std::vector<double>& sizes, int repetitions, bool quick,
                                   const std::vector<std::string>& hosts, Failure& failure) {
  const int rank = world_rank(), n = world_size();
  NetworkMeasurement net;
  net.ranks = n;
  net.repetitions = repetitions;
  for (int r = 0; r + 1 < n; r += 2) net.pairs.push_back({r, r + 1});
  net.shared_memory = std::all_of(net.pairs.begin(), net.pairs.end(), [&](const auto& p) {
    return hosts[static_cast<size_t>(p.first)] == hosts[static_cast<size_t>(p.second)];
  });
  const int partner = (rank ^ 1) < n ? (rank ^ 1) : -1;
  const bool leader = rank % 2 == 0;
  const double largest = *std::max_element(sizes.begin(), sizes.end());
  std::vector<char> buffer(static_cast<size_t>(largest), 1);

  for (double size : sizes) {
    const int bytes = static_cast<int>(size);
    const int iters = iterations_for(size, quick);
    double best_round_trip = std::numeric_limits<double>::infinity();
    auto round_trips = [&](int count) {
      for (int i = 0; i < count; ++i) {
        if (leader) {
          mpi().send_bytes(buffer.data(), bytes, partner);
          mpi().recv_bytes(buffer.data(), bytes, partner);
        } else {
          mpi().recv_bytes(buffer.data(), bytes, partner);
          mpi().send_bytes(buffer.data(), bytes, partner);
        }
      }
    };
    if (partner >= 0) round_trips(2);  // warm-up: connections, registration
    for (int r = 0; r < repetitions; ++r) {
      mpi().barrier();  // all pairs start together
      if (partner < 0) continue;
      const double t0 = mpi().wtime();
      round_trips(iters);
      best_round_trip = std::min(best_round_trip, (mpi().wtime() - t0) / iters);
    }
    // One-way time of each pair, reported by its even rank; idle ranks send a negative marker.
    double one_way = partner >= 0 ? best_round_trip / 2 : -1.0;
    std::vector<double> all(rank == 0 ? static_cast<size_t>(n) : 0);
    mpi().gather_double(&one_way, all.data());
    if (rank == 0) {
      PingPongSample s;
      s.bytes = Bytes(size);
      for (const auto& p : net.pairs)
        s.one_way_seconds.push_back(all[static_cast<size_t>(p.first)]);
      net.ping_pong.push_back(std::move(s));
    }
  }

  // Allreduce of S bytes of fp64 (S/8 values), each rank contributing rank + 1, so every element
  // of the result must be n(n + 1)/2.
  const double expected = static_cast<double>(n) * (n + 1) / 2.0;
  for (double size : sizes) {
    const int count = std::max(1, static_cast<int>(size / sizeof(double)));
    std::vector<double> send(static_cast<size_t>(count), rank + 1.0), recv(send.size(), 0.0);
    const int iters = iterations_for(size, quick);
    mpi().allreduce_sum_double(send.data(), recv.data(), count);  // warm-up
    double best = std::numeric_limits<double>::infinity();
    for (int r = 0; r < repetitions; ++r) {
      mpi().barrier();
      const double t0 = mpi().wtime();
      for (int i = 0; i < iters; ++i) mpi().allreduce_sum_double(send.data(), recv.data(), count);
      const double mine = (mpi().wtime() - t0) / iters;
      double slowest = 0;
      mpi().allreduce_max_double(&mine, &slowest);
      best = std::min(best, slowest);
    }
    if (recv.front() != expected || recv.back() != expected) {
      failure = {kInternal, "allreduce of " + std::to_string(count) +
                                " fp64 values gave a wrong sum (" + std::to_string(recv.front()) +
                                ", expected " + std::to_string(expected) + ")"};
    }
    net.allreduce.push_back({Bytes(static_cast<double>(count) * sizeof(double)), Seconds(best)});
  }
  return net;
}

/// The run's rank count and options, the same on every rank when the command lines are.
void check_cluster_run(const ClusterOptions& options, int ranks) {
  if (options.expect_ranks > 0 && ranks != options.expect_ranks)
    throw InputError("expected " + std::to_string(options.expect_ranks) +
                     " ranks (--expect-ranks) but this run has " + std::to_string(ranks) +
                     (ranks == 1 ? " (was it started with mpirun -np N?)" : ""));
  if (!(options.straggler_threshold >= 0 && options.straggler_threshold < 1))
    throw InputError("--straggler-threshold must be in [0, 1) (got " +
                     std::to_string(options.straggler_threshold) + ")");
  if (options.repetitions < 0) throw InputError("--repetitions must be ≥ 1");
  for (double s : options.message_sizes)
    if (!(s >= 1 && s <= 1024.0 * 1024 * 1024))
      throw InputError("message size must be between 1 byte and 1 GiB (got " + std::to_string(s) +
                       ")");
}

/// Rank 0's view of every node: the machine document each rank sent, its host and its time.
std::vector<NodeReport> node_reports_from(const std::vector<std::string>& jsons,
                                          const std::vector<std::string>& hosts,
                                          const std::vector<double>& seconds) {
  std::vector<NodeReport> nodes;
  for (size_t r = 0; r < jsons.size(); ++r) {
    const std::string origin = "rank " + std::to_string(r) + " (" + hosts[r] + ")";
    NodeReport n;
    n.rank = static_cast<int>(r);
    n.host = hosts[r];
    n.machine = machine_from_json(parse_json(jsons[r], origin), origin);
    n.seconds = seconds[r];
    nodes.push_back(std::move(n));
  }
  return nodes;
}

}  // namespace

ClusterResult measure_cluster(const ClusterOptions& options, const NodeMeasure& measure_node,
                              const std::function<void(const ClusterDocument&)>& deliver) {
  MpiSession session;
  ClusterResult result;
  result.rank = world_rank();
  result.ranks = world_size();
  const bool root = result.rank == 0;
  auto log = [&](const std::string& line) {
    if (root && options.log) options.log(line);
  };

  NodeContext ctx;
  ctx.rank = result.rank;
  ctx.ranks = result.ranks;
  ctx.quick = options.quick;
  {
    char name[1024] = {};
    const int len = mpi().processor_name(name, static_cast<int>(sizeof name));
    ctx.host.assign(name, static_cast<size_t>(std::max(0, len)));
    mpi().host_ranks(&ctx.ranks_on_host, &ctx.local_rank);
  }
  const std::vector<std::string> hosts = allgather_strings(ctx.host);

  // 1. The run itself: rank count and options (the same on every rank when the command lines are).
  agree(capture([&] {
          check_cluster_run(options, result.ranks);
          if (ctx.ranks_on_host > 1)
            check_ranks_fit_host(ctx, cpu::detect_topology().cores(), !options.nodes_given,
                                 options.network && result.ranks >= 2);
          if (root && options.check) options.check();
        }),
        "checking the run", hosts);
  {
    std::map<std::string, int> per_host;
    for (const auto& h : hosts) ++per_host[h];
    log("cluster: " + std::to_string(result.ranks) + " rank" + (result.ranks == 1 ? "" : "s") +
        " on " + std::to_string(per_host.size()) + " host" + (per_host.size() == 1 ? "" : "s"));
  }

  // 2. Every node at once: a barrier, then each rank measures its node.
  log("cluster: measuring every node at once");
  std::string node_json;
  double node_seconds = 0;
  mpi().barrier();
  agree(capture([&] {
          const double t0 = mpi().wtime();
          const MachineDocument m = measure_node(ctx);
          node_seconds = mpi().wtime() - t0;
          node_json = json_text(machine_to_json(m), -1);
        }),
        "measuring the nodes", hosts);

  // 3. The network, when there is one.
  std::optional<NetworkMeasurement> network;
  if (options.network && result.ranks >= 2) {
    const auto sizes = options.message_sizes.empty() ? default_message_sizes(options.quick)
                                                     : options.message_sizes;
    const int reps = options.repetitions > 0 ? options.repetitions : (options.quick ? 3 : 5);
    log("cluster: measuring the network (" + std::to_string(sizes.size()) +
        " message sizes, ping-pong and allreduce)");
    Failure f;
    NetworkMeasurement net = measure_network(sizes, reps, options.quick, hosts, f);
    agree(f, "measuring the network", hosts);
    network = std::move(net);
  }

  // 4. Gather on rank 0 and assemble.
  const auto jsons = gather_strings(node_json);
  std::vector<double> seconds(root ? static_cast<size_t>(result.ranks) : 0);
  mpi().gather_double(&node_seconds, seconds.data());
  ClusterDocument doc;
  agree_on_root_step(capture([&] {
                       if (root)
                         doc = assemble_cluster(node_reports_from(jsons, hosts, seconds), network,
                                                options);
                     }),
                     "assembling the cluster document");

  // 5. Deliver (e.g. write atomically) on rank 0, and let every rank know it worked.
  agree(capture([&] {
          if (root && deliver) deliver(doc);
        }),
        "writing the cluster document", hosts);
  if (root) result.document = std::move(doc.document);
  return result;
}

#endif  // ROOFLINE_HAVE_MPI

}  // namespace roofline::cluster
