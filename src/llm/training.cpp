// One step of training on the roofline: the forward as the operator model computes it (every
// token's logits), the backward as twice the forward (Kaplan et al. 2020's 6·N·D), recompute,
// the data-parallel all-reduce of gradients, the optimizer update, the memory per device, and
// MFU/HFU (Chowdhery et al. 2022, PaLM, Appendix B; Korthikanti et al. 2022).
#include <cmath>
#include <string>

#include "counting.hpp"
#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {

std::string to_string(Recompute r) {
  switch (r) {
    case Recompute::selective:
      return "selective";
    case Recompute::full:
      return "full";
    case Recompute::none:
      break;
  }
  return "none";
}

Recompute parse_recompute(const std::string& s) {
  if (s == "none" || s.empty()) return Recompute::none;
  if (s == "selective") return Recompute::selective;
  if (s == "full") return Recompute::full;
  throw InputError("--recompute: must be none, selective or full (got '" + s + "')");
}

double activation_bytes_per_layer(const ModelConfig& m, const Scenario& s,
                                  const TrainingOptions& o) {
  const double sq = o.sequence, b = o.micro_batch, h = m.hidden, a = m.heads;
  const double t = std::max(1, s.tp);
  const double sbh = sq * b * h * s.dtypes.activations.bytes / 2;  // the formula counts 16-bit
  if (o.recompute == Recompute::full) return 2 * sbh;
  // The attention score, softmax and dropout tensors: 5·a·s/h per s·b·h; gone with selective
  // recompute or a fused attention kernel (which never stores them).
  const double scores = o.recompute == Recompute::selective || s.flash ? 0 : 5 * a * sq / (h * t);
  if (o.sequence_parallel) return sbh * (34 / t + scores);
  return sbh * (10 + 24 / t + scores);
}

namespace {

/// Checks the options against the scenario and machine; returns the global batch in sequences.
double training_global_batch(const Scenario& s, const TrainingOptions& o, const Roofs& r) {
  auto whole = [](double v) { return std::isfinite(v) && v >= 1 && v == std::floor(v); };
  if (!whole(o.sequence))
    throw InputError("--seq: must be a whole number ≥ 1 (got " + format_number(o.sequence) + ")");
  if (!whole(o.micro_batch))
    throw InputError("--micro-batch: must be a whole number ≥ 1 (got " +
                     format_number(o.micro_batch) + ")");
  check_dp(o.dp);
  if (o.zero < 0 || o.zero > 3) throw InputError("--zero: must be 0, 1, 2 or 3");
  if (s.pp > 1) throw InputError("--train with --pp: pipelined training is not modelled");
  if (o.sequence_parallel && s.tp <= 1)
    throw InputError(
        "--sequence-parallel splits activations over the tensor-parallel group: it needs --tp "
        "greater than 1");
  // Context-parallel training would split each sequence's activations and add the gradient
  // all-reduce over the cp group and the ring's backward exchange; none of that is modelled,
  // so it is refused rather than costed as compute ÷ cp.
  if (s.cp > 1)
    throw InputError("--train with --cp " + std::to_string(s.cp) +
                     ": context-parallel training is not modelled (activations, the ring's "
                     "backward and the gradient all-reduce over the cp group)");
  const double per_pass = o.micro_batch * o.dp;
  if (o.global_batch != 0 && !whole(o.global_batch))  // 0: one pass (the default)
    throw InputError(
        "--global-batch: must be a whole number ≥ 1, or 0 for --micro-batch × --dp "
        "(got " +
        format_number(o.global_batch) + ")");
  const double global = o.global_batch > 0 ? o.global_batch : per_pass;
  if (!whole(global) || std::fmod(global, per_pass) != 0)
    throw InputError("--global-batch " + format_number(global) +
                     ": must be a multiple of --micro-batch × --dp (" + format_number(per_pass) +
                     ")");
  if (o.dp > 1 && !r.interconnect)
    throw InputError("--dp " + format_number(o.dp) + ": machine '" + r.machine +
                     "' has no roof of kind \"interconnect\"; give --interconnect-bandwidth");
  return global;
}

/// The forward of one micro-batch on one device, and what recompute adds to it.
struct TrainingForward {
  StepResult forward;
  double recomputed_time = 0;  ///< s
  double recomputed_work = 0;  ///< in the compute roof's unit (Roofs::in_compute_units)
};

TrainingForward training_forward(const ModelConfig& m, const Scenario& sc, const TrainingOptions& o,
                                 const Roofs& r) {
  // Every position's logits (training's loss).
  SequenceGroup g;
  g.sequences = o.micro_batch;
  g.fresh = o.sequence;
  g.past = 0;
  g.logits = o.sequence;
  g.prompt = true;
  TrainingForward f{evaluate_cost(step_cost(m, sc, Phase::prefill, &g, 1), sc, r)};
  const StepResult& fwd = f.forward;
  double attention_time = 0, attention_work = 0;
  for (std::size_t i = 0; i < fwd.cost.size; ++i) {
    const OpKind k = fwd.cost.ops[i].kind;
    if (k == OpKind::attention_scores || k == OpKind::softmax || k == OpKind::attention_values ||
        k == OpKind::attention_fused) {
      attention_time += fwd.timing[i].time.value * fwd.cost.ops[i].count;
      attention_work +=
          r.in_compute_units(fwd.cost.ops[i].work, fwd.cost.ops[i].vector_work()).value *
          fwd.cost.ops[i].count;
    }
  }
  // Recomputed forward work: all of it (full), the attention core (selective).
  f.recomputed_time = o.recompute == Recompute::full        ? fwd.time.value
                      : o.recompute == Recompute::selective ? attention_time
                                                            : 0;
  f.recomputed_work = o.recompute == Recompute::full
                          ? r.in_compute_units(fwd.work, fwd.vector_work).value
                      : o.recompute == Recompute::selective ? attention_work
                                                            : 0;
  return f;
}

/// Memory per device (ZeRO §3.1, K = 12): 16-bit weights and gradients, fp32 master weights,
/// momentum and variance; stage 1 shards the optimizer state, 2 the gradients, 3 the weights.
void training_memory(TrainingResult& t, const ModelConfig& m, const Scenario& s,
                     const TrainingOptions& o, const Roofs& r, double psi, double grad_bytes) {
  t.weights = Bytes(psi * s.dtypes.weights.bytes / (o.zero >= 3 ? o.dp : 1));
  t.gradients = Bytes(grad_bytes / (o.zero >= 2 ? o.dp : 1));
  t.optimizer_state = Bytes(12 * psi / (o.zero >= 1 ? o.dp : 1));
  t.activations = Bytes(m.layers * activation_bytes_per_layer(m, s, o));
  if (r.memory_capacity) t.fits = t.memory().value <= *r.memory_capacity;
}

}  // namespace

TrainingResult training_step(const ModelConfig& m, const Scenario& s, const TrainingOptions& o,
                             const Roofs& r) {
  const double global = training_global_batch(s, o, r);
  const double per_pass = o.micro_batch * o.dp;
  Scenario sc = s;
  sc.batch = o.micro_batch;
  sc.prompt = o.sequence;
  sc.context = o.sequence;
  validate_scenario(m, sc);

  TrainingResult t;
  t.options = o;
  t.flash = s.flash;
  t.micro_steps = global / per_pass;
  t.tokens = global * o.sequence;
  const ParameterCount all = count_parameters(m);
  t.parameters = all.active - all.embedding;
  t.six_nd = Work(6 * t.parameters * t.tokens);

  const TrainingForward f = training_forward(m, sc, o, r);
  const StepResult& fwd = f.forward;
  const double devices = std::max(1, s.tp) * o.dp;  // --cp is refused (training_global_batch)
  // Per device: micro_steps forwards and backwards (backward ≈ 2 × forward in W and in time).
  // In the compute roof's unit: on an integer roof the products' OP, the element-wise FLOP left
  // out (Roofs::counts_apart).
  t.forward = Work(r.in_compute_units(fwd.work, fwd.vector_work).value * t.micro_steps * devices);
  t.model_work = Work(3 * t.forward.value);
  t.hardware_work = Work(t.model_work.value + f.recomputed_work * t.micro_steps * devices);
  t.compute = Seconds(t.micro_steps * (3 * fwd.time.value + f.recomputed_time));

  // Gradients all-reduced over the dp replicas in the activation dtype (ring; ZeRO-3 adds the
  // parameter all-gathers: 1.5× the volume, Rajbhandari et al. 2020 §7.2.2).
  const ParameterCount dev = count_parameters(m, s.tp);
  const double psi = dev.total;
  const double grad_bytes = psi * s.dtypes.activations.bytes;
  if (o.dp > 1) {
    const double volume = counting::all_reduce_bytes(grad_bytes, o.dp) * (o.zero == 3 ? 1.5 : 1);
    t.gradient_traffic = Bytes(volume);
    t.gradient_all_reduce =
        Seconds(volume / r.interconnect->value +
                counting::all_reduce_hops(o.dp) * (r.link_latency ? r.link_latency->value : 0));
  }
  // The Adam update (counting.hpp), memory-bound and element-wise (the vector roof); ZeRO ≥ 1
  // updates 1/dp of the parameters per device.
  const double updated = psi / (o.zero >= 1 ? o.dp : 1);
  t.optimizer = time_bound(Work(counting::kAdamFlopPerParameter * updated),
                           Bytes(counting::kAdamBytesPerParameter * updated),
                           r.vector_peak.value > 0 ? r.vector_peak : r.peak, r.bandwidth);
  t.step = t.compute + t.gradient_all_reduce + t.optimizer;
  const double per_device_model = t.model_work.value / devices;
  const double per_device_hw = t.hardware_work.value / devices;
  t.mfu = per_device_model / (t.step.value * r.peak.value);
  t.hfu = per_device_hw / (t.step.value * r.peak.value);
  if (o.measured_step_s) {
    if (!(*o.measured_step_s > 0) || !std::isfinite(*o.measured_step_s))
      throw InputError("--measured-step-s: must be > 0 (got " + format_number(*o.measured_step_s) +
                       ")");
    t.measured_mfu = per_device_model / (*o.measured_step_s * r.peak.value);
    t.measured_hfu = per_device_hw / (*o.measured_step_s * r.peak.value);
    if (const std::string why =
            above_the_roofs({{"measured MFU", *t.measured_mfu},
                             {"measured HFU", *t.measured_hfu},
                             {"the modelled step", t.step.value / *o.measured_step_s}});
        !why.empty())
      t.notes.push_back(why);
  }
  training_memory(t, m, s, o, r, psi, grad_bytes);
  // As inference warns of a context past max_position_embeddings.
  if (m.max_positions > 0 && o.sequence > m.max_positions)
    t.notes.push_back(
        "sequence " + format_number(o.sequence, 10) + " exceeds " + m.name +
        "'s max_position_embeddings " + format_number(m.max_positions, 10) +
        (m.positions > 0
             ? ": its positions are a learned table, and a token past the table has no "
               "embedding: the model cannot train at this length (the cost is of a model that "
               "could)"
             : ": training past it needs a position scheme that extends (RoPE scaling); the "
               "cost is modelled, the quality is not"));
  t.notes.push_back(
      "activations: Korthikanti et al. 2022's per-layer count for a GPT layer "
      "(multi-head attention, 4d MLP); for other layers an approximation");
  t.notes.push_back(
      "backward counted as twice the forward in work and in time; the gradient "
      "all-reduce is not overlapped with compute (an upper bound on the step)");
  if (o.dp > 1)
    t.notes.push_back("the gradient all-reduce is costed on " + r.interconnect_name +
                      "; replicas on other nodes would use the slower network");
  return t;
}

}  // namespace roofline::llm
