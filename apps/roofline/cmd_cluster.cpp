// roofline cluster: measure a cluster's roofs with MPI (`mpirun -np N roofline cluster -o c.json`).
// Every rank measures its node at once; rank 0 writes the cluster document atomically, and only
// when every rank succeeded (docs/cluster.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

#include "commands.hpp"
#include "roofline/cluster.hpp"
#include "roofline/cpu_topology.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/measure.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"

namespace roofline::cli {
namespace {

struct ClusterArgs {
  std::string output;
  bool json = false;
  bool quick = false;
  int expect_ranks = 0;
  double straggler_threshold = 0.10;
  bool no_network = false;
  std::vector<std::string> message_sizes;
  int repetitions = 0;
  std::string node_probe = "auto";
  std::string node_machine;
  std::string name;
};

std::string substitute(std::string pattern, const std::string& key, const std::string& value) {
  for (size_t at = pattern.find(key); at != std::string::npos;
       at = pattern.find(key, at + value.size()))
    pattern.replace(at, key.size(), value);
  return pattern;
}

void run(const ClusterArgs& a) {
  // Checked before any node is measured: the name is written into the document.
  require_one_line(a.name, "--name");
  cluster::ClusterOptions o;
  o.quick = a.quick;
  o.expect_ranks = a.expect_ranks;
  o.straggler_threshold = a.straggler_threshold;
  o.network = !a.no_network;
  o.repetitions = a.repetitions;
  o.name = a.name;
  for (const auto& s : a.message_sizes) {
    const double bytes = parse_memory_size(s, "--message-sizes").value;
    // A message is a whole number of bytes, at least one (1.5 was sent as 1 and recorded 1.5),
    // and at most the library's 1 GiB.
    if (!(bytes >= 1) || bytes != std::floor(bytes) || bytes > 1073741824.0)
      throw InputError("--message-sizes: '" + s +
                       "' is not a whole number of bytes from 1 byte to 1 GiB");
    o.message_sizes.push_back(bytes);
  }
  o.log = [](const std::string& line) { say(line + "\n"); };
  // The output path is checked before any node is measured (rank 0 writes the document).
  o.check = [output = a.output] { check_outputs({{"-o", output}}); };

  cluster::NodeMeasure measure;
  if (!a.node_machine.empty()) {
    o.node_probe = "machine documents " + a.node_machine;
    o.nodes_given = true;
    measure = [pattern = a.node_machine](const cluster::NodeContext& n) {
      const std::string path =
          substitute(substitute(pattern, "{rank}", std::to_string(n.rank)), "{host}", n.host);
      return load_machine_file(path);
    };
  } else {
    std::string probe = a.node_probe;
    if (probe == "auto") probe = "full";
    if (probe == "full") {
      o.node_probe = "roofline measure" + std::string(a.quick ? " --quick" : "");
      measure = [quick = a.quick](const cluster::NodeContext& n) {
        MeasureOptions m;
        m.quick = quick;
        // Ranks sharing a host split its cores instead of oversubscribing them, each rank on
        // its own cores.
        const cluster::CoreShare share =
            cluster::host_core_share(n, cpu::detect_topology().cores());
        m.threads = share.threads;
        m.first_core = share.first_core;
        m.single_core = false;
        return roofline::measure_machine(m);
      };
    } else {
      o.node_probe = "built-in probe (widest fp64 FMA roof and DRAM access mixes)";
      measure = [](const cluster::NodeContext& n) { return cluster::builtin_node_probe(n); };
    }
  }

  const std::string output = a.output;
  const bool json = a.json;
  cluster::measure_cluster(o, measure, [&](const cluster::ClusterDocument& c) {
    const MachineDocument& doc = c.document;
    const std::string text = json_text(machine_to_json(doc)) + "\n";
    if (output == "-") {  // the document on standard output, the summary on stderr
      emit(text);
      if (!json) say(cluster::render_cluster(c, render_roofs(doc.roofs)));
      return;
    }
    if (!output.empty()) {
      write_file_atomic(output, terminal_safe_lines(text), "-o");
      say("cluster: wrote " + output + "\n");
    }
    if (json)
      emit(text);
    else
      emit(cluster::render_cluster(c, render_roofs(doc.roofs)));
  });
}

}  // namespace

void run_cluster_measurement(bool quick, const std::string& output, bool json) {
  ClusterArgs a;
  a.quick = quick;
  a.output = output;
  a.json = json;
  run(a);
}

namespace {

const Registrar register_cluster(70, [](CLI::App& root) {
  auto args = std::make_shared<ClusterArgs>();
  CLI::App* c = root.add_subcommand(
      "cluster",
      "Measure a cluster's roofs with MPI (mpirun -np N roofline cluster): every node at once, "
      "aggregates, stragglers and the network roofs");
  c->add_option("-o,--output", args->output,
                "Write the cluster document (JSON) here, atomically, on rank 0");
  c->add_flag("--json", args->json, "Print the document instead of the summary");
  c->add_flag("--quick", args->quick,
              "Quicker: fewer message sizes and repetitions, and each node measured as by `measure "
              "--quick`");
  c->add_option("--expect-ranks", args->expect_ranks,
                "Fail on every rank unless the run has exactly this many ranks")
      ->transform(whole_in(1, 1 << 24));
  c->add_option("--straggler-threshold", args->straggler_threshold,
                "Flag nodes this fraction below the median of a roof (default 0.1)")
      ->check(number_in(0.0, 0.99));
  c->add_flag("--no-network", args->no_network, "Skip the network roofs");
  c->add_option("--message-sizes", args->message_sizes,
                "Message sizes of the network sweep, e.g. 8 64K 4MiB (default 8 B to 64 MiB)");
  c->add_option("--repetitions", args->repetitions, "Repetitions per message size")
      ->transform(whole_in(1, 1000000));
  c->add_option("--node-probe", args->node_probe,
                "How each node is measured: full (roofline measure), builtin (the widest fp64 FMA "
                "roof and the DRAM roof, best of the access mixes), auto (full when available)")
      ->check(CLI::IsMember({"auto", "full", "builtin"}));
  c->add_option("--node-machine", args->node_machine,
                "Use earlier per-node machine documents instead of measuring; {rank} and {host} "
                "in the path are replaced");
  c->add_option("--name", args->name, "Name of the cluster document");
  c->callback([args] { run(*args); });
});

}  // namespace
}  // namespace roofline::cli
