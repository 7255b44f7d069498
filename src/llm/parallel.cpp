// Parallelism beyond tensor parallelism: the interconnect facts a machine document carries
// (link latency, NVLink domain), pipeline stages and their bubbles, and the warnings of a
// layout the machine cannot hold. Expert and context parallelism change the operators
// themselves (step.cpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {

LinkFacts link_facts(const MachineFacts& facts, const std::string& link) {
  LinkFacts f;
  const InterconnectFacts* entry = facts.interconnect(link);
  // The caveat is the named link's own (none for a rate given by --interconnect-bandwidth).
  if (entry) f.caveat = entry->caveat;
  if (!entry && !facts.interconnects.empty()) entry = &facts.interconnects.front();
  if (entry) {
    if (!entry->problem.empty()) throw InputError(entry->problem);
    if (entry->latency) {
      f.latency = entry->latency;
      f.latency_source = entry->latency_source.empty() ? entry->source : entry->latency_source;
    }
    if (entry->domain_size) {
      f.domain_size = entry->domain_size;
      f.domain_source = entry->domain_source.empty() ? entry->source : entry->domain_source;
    }
  }
  if (!f.domain_size && !facts.scale_up_domain_problem.empty())
    throw InputError(facts.scale_up_domain_problem);
  if (!f.domain_size && facts.scale_up_domain) {
    f.domain_size = facts.scale_up_domain;
    f.domain_source = facts.scale_up_domain_source;
  }
  return f;
}

void apply_link_facts(Roofs& r, const LinkFacts& facts, std::optional<Seconds> latency_override,
                      std::optional<double> domain_override) {
  r.link_caveat = facts.caveat;
  if (latency_override) {
    r.link_latency = latency_override;
    r.link_latency_source = "--link-latency";
  } else if (facts.latency) {
    r.link_latency = facts.latency;
    r.link_latency_source = facts.latency_source.empty() ? "catalogue" : facts.latency_source;
  }
  if (domain_override) {
    r.domain_size = domain_override;
    r.domain_source = "--domain-size";
  } else if (facts.domain_size) {
    r.domain_size = facts.domain_size;
    r.domain_source = facts.domain_source.empty() ? "catalogue" : facts.domain_source;
  }
}

int replica_devices(const Scenario& s) {
  return std::max(1, s.tp) * std::max(1, s.cp) * std::max(1, s.pp);
}

std::vector<std::string> estimate_warnings(const ModelConfig& m, const Scenario& s,
                                           const Roofs& r) {
  std::vector<std::string> w = scenario_warnings(m, s);
  for (auto& p : parallel_warnings(s, r)) w.push_back(std::move(p));
  return w;
}

std::vector<std::string> parallel_warnings(const Scenario& s, const Roofs& r) {
  std::vector<std::string> w;
  if (r.compute_accumulates_narrow)
    w.push_back("the compute roof '" + r.compute_name + "' of " + r.machine +
                " accumulates narrower than fp32, which frameworks use for matrix products and "
                "which runs at half that rate on GeForce tensor cores: compute-bound times are "
                "optimistic (give --peak for the fp32-accumulate rate)");
  if (r.vector_fallback)
    w.push_back(r.machine + " has no vector (non-tensor) roof of " + s.dtypes.activations.name +
                ": element-wise operators (norms, residual adds, activations, softmax) are "
                "judged on the compute roof '" +
                r.compute_name + "', so their compute times are optimistic");
  const int devices = replica_devices(s);
  const bool collectives = s.tp > 1 || s.cp > 1 || s.pp > 1;
  // The link's name, or "interconnect" where the rate came from --interconnect-bandwidth.
  const std::string link = r.interconnect_name.empty() || r.interconnect_name.rfind("--", 0) == 0
                               ? "interconnect"
                               : r.interconnect_name;
  if (r.domain_size) {
    if (s.tp > *r.domain_size)
      w.push_back("--tp " + std::to_string(s.tp) + " exceeds the " + format_number(*r.domain_size) +
                  "-device " + link + " domain of " + r.machine + " (" + r.domain_source +
                  "): its all-reduces would cross a slower network, which is not modelled — "
                  "they are costed at the " +
                  link + " rate");
    else if (devices > *r.domain_size)
      w.push_back("the replica's " + std::to_string(devices) +
                  " devices (tp × cp × pp) span more "
                  "than one " +
                  format_number(*r.domain_size) + "-device " + link +
                  " domain: traffic between domains is costed at the " + link +
                  " rate, which it would not get");
  } else if (s.tp > 1 || devices > 1) {
    w.push_back("the " + link + " domain size of " + r.machine +
                " is not in the catalogue: the layout is not checked against it "
                "(give --domain-size N)");
  }
  if (collectives && !r.link_caveat.empty())
    w.push_back("collectives are costed over " + link + " of " + r.machine + ", " + r.link_caveat +
                ": give --interconnect-bandwidth for the link between devices");
  if (collectives && !r.link_latency)
    w.push_back("the link latency of " + r.machine +
                " is not in the catalogue: collectives are "
                "costed by bandwidth alone, optimistic at small batch (give --link-latency, "
                "e.g. \"3 us\")");
  return w;
}

namespace {

// A step's time split where pipeline stages split it: the per-layer operators (layers/pp of
// them on each stage), the embedding (first stage), the final norm, LM head and logits (last).
struct StageParts {
  double layers = 0, first = 0, last = 0;
  /// The slowest of `stages` stages: its share of the layers and the heavier end.
  double slowest(double stages) const { return layers / stages + std::max(first, last); }
  /// Every stage once, one after another: the whole step.
  double path() const { return layers + first + last; }
};

StageParts stage_parts(const StepResult& st) {
  StageParts p;
  for (std::size_t i = 0; i < st.cost.size; ++i) {
    const OpCost& op = st.cost.ops[i];
    const double t = st.timing[i].time.value * op.count;
    if (op.per_layer)
      p.layers += t;
    else if (op.kind == OpKind::embedding || std::string(op.name) == "embedding all-reduce")
      p.first += t;
    else
      p.last += t;
  }
  return p;
}

// Hidden states crossing one stage boundary, one way: each tensor-parallel device sends its
// replica of rows·d activations; prompt rows are split over the cp devices of a prompt.
double boundary_bytes(const ModelConfig& m, const Scenario& s, double prompt_rows,
                      double decode_rows) {
  return (prompt_rows / std::max(1, s.cp) + decode_rows) * m.hidden * s.dtypes.activations.bytes;
}

// Hidden states sent by one stage and received by the next: twice the bytes against the
// bidirectional interconnect roof, one message (α).
Seconds boundary_time(const ModelConfig& m, const Scenario& s, double prompt_rows,
                      double decode_rows, const Roofs& r) {
  if (!r.interconnect)
    throw InputError("--pp " + std::to_string(s.pp) + ": machine '" + r.machine +
                     "' has no roof of kind \"interconnect\"; give --interconnect-bandwidth");
  const double bytes = 2 * boundary_bytes(m, s, prompt_rows, decode_rows);
  return Seconds(bytes / r.interconnect->value + (r.link_latency ? r.link_latency->value : 0));
}

}  // namespace

// The sampled token ids (int32, 4 bytes per sampled sequence) sent by the last stage and
// received by the first: the next decode step's input. One message (α); the bytes are a
// handful beside the hidden states.
Seconds pipeline_token_return(double sampled, const Roofs& r) {
  constexpr double kTokenIdBytes = 4;
  if (!r.interconnect) return Seconds(0);
  const double bytes = 2 * sampled * kTokenIdBytes;
  return Seconds(bytes / r.interconnect->value + (r.link_latency ? r.link_latency->value : 0));
}

std::vector<Seconds> pipeline_stage_times(const ModelConfig& m, const Scenario& s,
                                          const StepResult& step, double prompt_rows,
                                          double decode_rows, double sampled, const Roofs& r) {
  const int stages = std::max(1, s.pp);
  const StageParts p = stage_parts(step);
  const Seconds boundary = boundary_time(m, s, prompt_rows, decode_rows, r);
  std::vector<Seconds> out;
  // P stages have P − 1 boundaries of hidden states; the last stage sends token ids back.
  for (int k = 0; k < stages; ++k) {
    const bool last = k == stages - 1;
    const Seconds send = !last        ? boundary
                         : stages > 1 ? pipeline_token_return(sampled, r)
                                      : Seconds(0);
    out.push_back(Seconds(p.layers / stages + (k == 0 ? p.first : 0) + (last ? p.last : 0)) + send);
  }
  return out;
}

// The slowest stage holds layers/pp of the per-layer operators and the heavier end: the
// embedding (first stage) or the final norm, LM head and logits (last stage). Each boundary
// passes one micro-batch's hidden states, rows·d activations, sent by one stage and received
// by the next: counted twice against the bidirectional roof, one message (α).
// A micro-batch's path through the pipe is every stage once (the whole step) and the pp − 1
// boundaries between them; a decode step's cycle adds the return of its sampled token ids from
// the last stage to the first (4 bytes a sequence and one α, not rows·d hidden states);
// behind it, each further micro-batch waits for the slowest stage (GPipe, Huang et al. 2019:
// (m + pp − 1) stage times when the stages are equal). The stages are not equal (the LM head is
// on the last one), so the path is the sum of the stages, not pp times the slowest: with one
// micro-batch over 32 stages of Llama-2-7B, 32 × the slowest overstated a decode step by 57%.
PipelineStep pipeline_step(const ModelConfig& m, const Scenario& s, Phase phase, const Roofs& r) {
  PipelineStep p;
  p.stages = std::max(1, s.pp);
  const double stages = p.stages;
  p.micro_batches =
      s.micro_batches > 0 ? s.micro_batches : std::max(1.0, std::min(stages, std::floor(s.batch)));
  if (p.stages == 1) p.micro_batches = 1;
  if (p.micro_batches > s.batch)
    throw InputError("--micro-batches " + format_number(p.micro_batches) + " exceeds --batch " +
                     format_number(s.batch) + ": a micro-batch holds at least one sequence");
  if (stages > m.layers)
    throw InputError("--pp " + std::to_string(s.pp) + ": more stages than the " +
                     format_number(m.layers) + " layers of " + m.name);
  p.micro_batch = s.batch / p.micro_batches;
  Scenario one = s;
  one.batch = p.micro_batch;
  const StepResult st = evaluate_step(m, one, phase, r);
  if (stages == 1) {
    p.stage = st.time;
  } else {
    const double rows = phase == Phase::prefill ? p.micro_batch * s.prompt : p.micro_batch;
    const bool prompt = phase == Phase::prefill;
    p.stage = Seconds(stage_parts(st).slowest(stages));
    p.transfer_bytes = Bytes(2 * boundary_bytes(m, s, prompt ? rows : 0, prompt ? 0 : rows));
    p.transfer = boundary_time(m, s, prompt ? rows : 0, prompt ? 0 : rows, r);
  }
  const double per = p.stage.value + p.transfer.value;
  const double path = stages == 1 ? per : stage_parts(st).path() + (stages - 1) * p.transfer.value;
  if (stages > 1) p.token_return = pipeline_token_return(p.micro_batch, r);
  p.path = Seconds(path);
  p.fill_drain = Seconds(path + (p.micro_batches - 1) * per);
  p.steady = Seconds(std::max(path + p.token_return.value, p.micro_batches * per));
  p.bubble = (stages - 1) / (p.micro_batches + stages - 1);
  return p;
}

}  // namespace roofline::llm
