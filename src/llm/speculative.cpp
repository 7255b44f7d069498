// Speculative decoding (Leviathan et al. 2023; Chen et al. 2023): a cheap drafter proposes k
// tokens, the target scores all k + 1 positions in one step and keeps the accepted prefix.
// On the roofline the verification is the same weight traffic as a decode step for k + 1
// times the rows: decode moves right, towards the compute roof.
#include <cmath>
#include <string>

#include "counting.hpp"
#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {
namespace {

// One MTP module's step for B sequences (DeepSeek-V3 §2.2, README_WEIGHTS.md): the previous
// depth's hidden state and the next token's embedding, each normalised (enorm, hnorm),
// concatenated and projected by eh_proj (2d → d), one transformer layer of the MoE kind, the
// shared head's norm and the shared LM head.
Seconds mtp_step(const ModelConfig& m, const Scenario& s, double context, const Roofs& r) {
  ModelConfig one = m;
  one.layers = 1;
  one.dense_layers = 0;
  one.mtp_layers = 0;
  Scenario d = s;
  d.context = context;
  const StepResult layer = evaluate_step(one, d, Phase::decode, r);
  const double B = s.batch, dm = m.hidden, sa = s.dtypes.activations.bytes,
               sw = s.dtypes.weights.bytes;
  // eh_proj: 2d → d over B rows (replicated under tensor parallelism, like the norms).
  const Work w(counting::matmul_flop(B, 2 * dm, dm));
  const Bytes q(2 * dm * dm * sw + B * (2 * dm + dm) * sa);
  // enorm and hnorm: two RMSNorms over B rows of d.
  const Work wn(2 * counting::kRmsNormFlop * B * dm);
  const Bytes qn(2 * (dm * sa + 2 * B * dm * sa));
  return layer.time + time_bound(w, q, r.peak, r.bandwidth) +
         time_bound(wn, qn, r.vector_peak.value > 0 ? r.vector_peak : r.peak,
                    r.bandwidth);  // element-wise: the vector roof
}

}  // namespace

double expected_tokens_per_step(double alpha, double k) {
  if (alpha >= 1) return k + 1;
  return (1 - std::pow(alpha, k + 1)) / (1 - alpha);
}

namespace {

/// The options checked against the target and its scenario, as the flags name them.
void check_options(const ModelConfig& target, const Scenario& s, const SpeculativeOptions& o) {
  check_count(o.k, kMostDraftedTokens, "--spec-k");
  if (!(o.alpha >= 0) || !(o.alpha <= 1))
    throw InputError("--spec-alpha: the acceptance rate must be from 0 to 1 (got " +
                     format_number(o.alpha) + ")");
  if (o.mtp && target.mtp_layers < 1)
    throw InputError("--draft mtp: " + target.name +
                     " has no multi-token-prediction modules (num_nextn_predict_layers)");
  if (!o.mtp && !o.draft_model)
    throw InputError("speculative decoding needs a drafter: --draft MODEL or --draft mtp");
  if (o.draft_tp && (o.mtp || *o.draft_tp < 1 || *o.draft_tp > std::max(1, s.tp)))
    throw InputError("--draft-tp " + std::to_string(*o.draft_tp) +
                     (o.mtp ? ": MTP modules run with the target, at its --tp"
                            : ": the drafter's tensor parallelism must be from 1 to the "
                              "target's --tp (" +
                                  std::to_string(std::max(1, s.tp)) + ")"));
}

/// One draft step of a draft model at context `context`: its own decode step at batch B, on
/// `tp` devices; the target's own forms (latent attention, expert parallelism) are not the
/// drafter's, so a dense drafter of an MLA or MoE target runs as a dense model.
Seconds draft_model_step(const ModelConfig& drafter, Scenario d, double context, int tp,
                         bool tp_given, const Roofs& r) {
  d.context = context;
  if (!drafter.is_mla()) d.mla_form = MlaForm::automatic;
  if (!drafter.moe()) d.ep = false;
  d.tp = tp;
  try {
    validate_scenario(drafter, d);
  } catch (const InputError& e) {
    throw InputError("the drafter " + drafter.name + " at tensor parallel " + std::to_string(tp) +
                     (tp_given ? " (--draft-tp)"
                               : " (the target's --tp; --draft-tp runs it on fewer devices, e.g. "
                                 "--draft-tp 1)") +
                     ": " + e.what());
  }
  return evaluate_step(drafter, d, Phase::decode, r).time;
}

}  // namespace

SpeculativeResult speculative_decoding(const ModelConfig& target, const Scenario& s,
                                       const SpeculativeOptions& o, const Roofs& r) {
  check_options(target, s, o);
  Scenario verify_s = s;
  verify_s.context = s.context + o.k;  // the last verified position's keys
  validate_scenario(target, verify_s);

  SpeculativeResult res;
  res.k = o.k;
  res.alpha = o.alpha;
  res.expected_tokens = expected_tokens_per_step(o.alpha, o.k);
  res.drafter = o.mtp ? "MTP" : o.draft_model->name;
  if (!o.mtp) res.draft_tp = o.draft_tp.value_or(std::max(1, s.tp));
  // A drafter proposes tokens of the target's vocabulary (Leviathan et al. 2023 §2: the target
  // scores the drafter's tokens): models of one family share a tokenizer, their vocab sizes
  // differing at most by padding (Qwen2.5 0.5B 151936 against 72B 152064); a drafter of another
  // tokenizer could not be verified at all. The sizes alone cannot tell padding from another
  // tokenizer, so it is a warning (in the report's warnings, on stderr), not a refusal.
  res.warnings = estimate_warnings(target, verify_s, r);
  if (o.draft_model && o.draft_model->vocab != target.vocab)
    res.warnings.push_back("the drafter's vocabulary (" + format_number(o.draft_model->vocab, 10) +
                           ") is not the target's (" + format_number(target.vocab, 10) +
                           "): a drafter must use the target's tokenizer (sizes may differ by "
                           "padding only), or its tokens cannot be verified");

  // Drafting: k sequential steps for the batch, the i-th at context L + i.
  double drafting = 0;
  for (double i = 0; i < o.k; ++i) {
    const Seconds t = o.mtp ? mtp_step(target, s, s.context + i, r)
                            : draft_model_step(*o.draft_model, s, s.context + i, res.draft_tp,
                                               o.draft_tp.has_value(), r);
    if (i == 0) res.draft_step = t;
    drafting += t.value;
  }
  res.drafting = Seconds(drafting);
  if (o.mtp && o.k > target.mtp_layers)
    res.notes.push_back("k = " + format_number(o.k) + " drafts with " +
                        format_number(target.mtp_layers) +
                        " MTP module(s): the last module is run again for the extra tokens");

  // Verification: k + 1 tokens per sequence (the last accepted one and the k drafts) after
  // L − 1 cached ones, logits for all of them.
  SequenceGroup g;
  g.sequences = s.batch;
  g.fresh = o.k + 1;
  g.past = s.context - 1;
  g.logits = o.k + 1;
  const StepResult verify = evaluate_cost(step_cost(target, s, Phase::verify, &g, 1), s, r);
  const StepResult plain = evaluate_step(target, s, Phase::decode, r);
  res.verify = verify.time;
  res.plain = plain.time;
  res.cycle = res.drafting + res.verify;
  res.time_per_token = Seconds(res.cycle.value / res.expected_tokens);
  res.speedup = res.plain.value / res.time_per_token.value;
  res.tokens_per_s = s.batch * res.expected_tokens / res.cycle.value;
  const double c = res.draft_step.value / res.plain.value;
  res.paper_speedup = res.expected_tokens / (o.k * c + 1);
  // In the compute roof's unit: on an integer roof the products' OP, the element-wise FLOP
  // left out (Roofs::counts_apart).
  const Work plain_work = r.in_compute_units(plain.work, plain.vector_work),
             verify_work = r.in_compute_units(verify.work, verify.vector_work);
  res.plain_intensity = plain_work / plain.traffic;
  res.verify_intensity = verify_work / verify.traffic;
  res.plain_work_per_token = Work(plain_work.value / s.batch);
  res.verify_work_per_token = Work(verify_work.value / (s.batch * res.expected_tokens));
  res.verify_bound = step_bound(verify);  // as a step's bound
  res.verify_compute_bound = res.verify_bound == "compute";
  if (res.speedup < 1)
    res.notes.push_back("slower than plain decoding: per step the drafting costs " +
                        format_number(res.drafting.value / res.plain.value, 3) +
                        " plain steps and the verification " +
                        format_number(res.verify.value / res.plain.value, 3) + " (intensity " +
                        format_number(verify.intensity().value, 4) + " against the ridge " +
                        format_number(r.ridge().value, 4) +
                        "), for E = " + format_number(res.expected_tokens, 4) + " tokens");
  return res;
}

}  // namespace roofline::llm
