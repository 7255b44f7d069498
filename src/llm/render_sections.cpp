// Text and JSON of the sections beyond one step: the whole request, serving at a concurrency,
// speculative decoding, data-parallel replicas, cost per token, a training step.
#include <cmath>
#include <string>

#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"
#include "roofline/table.hpp"

namespace roofline::llm {
namespace {

nlohmann::json optional_number(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::string latency_line(const char* what, const LatencyStats& s) {
  // TPOT covers tokens 2…N: a request of one output token has none.
  if (s.count == 0)
    return std::string("  ") + what + " none: no request has the tokens it is measured over\n";
  return std::string("  ") + what + " mean " + format_seconds(s.mean) + ", median " +
         format_seconds(s.median) + ", p99 " + format_seconds(s.p99) + ", max " +
         format_seconds(s.max) + "\n";
}

nlohmann::json latency_json(const LatencyStats& s) {
  if (s.count == 0) return nullptr;
  return {{"mean", s.mean.value},
          {"median", s.median.value},
          {"p99", s.p99.value},
          {"max", s.max.value}};
}

std::string dollars(double v) {
  return "$" + format_number(v, 4);
}

}  // namespace

std::string render_request_text(const RequestTiming& t) {
  std::string out = "\nRequest (" + format_number(t.batch) + " × prompt " +
                    format_number(t.prompt) + " tokens, " + format_number(t.output) +
                    " output tokens)\n";
  out += "  TTFT = " + format_seconds(t.ttft) + " (prefill of " + format_number(t.batch) + " × " +
         format_number(t.prompt) + " tokens" +
         (t.chunk > 0 && t.chunk < t.prompt ? ", in chunks of " + format_number(t.chunk) : "") +
         ")\n";
  if (t.output > 1)
    out += "  decode: " + format_number(t.output - 1) +
           (t.output - 1 == 1 ? " step, " : " steps, ") + format_seconds(t.first_decode) +
           " at L = " + format_number(t.prompt + 1) + " … " + format_seconds(t.last_decode) +
           " at L = " + format_number(t.prompt + t.output - 1) +
           ", Σ = " + format_seconds(t.decode) + "; mean time per output token " +
           format_seconds(t.mean_tpot) + "\n";
  out += "  end-to-end = TTFT + Σ decode = " + format_seconds(t.e2e) + "; " +
         format_number(t.output_tokens_per_s, 4) + " output tokens/s, " +
         format_number(t.requests_per_s, 4) + " requests/s\n";
  for (const auto& w : t.warnings) out += "  warning: " + w + "\n";
  return out;
}

nlohmann::json request_to_json(const RequestTiming& t) {
  return {{"batch", t.batch},
          {"prompt", t.prompt},
          {"output_tokens", t.output},
          {"chunk", t.chunk},
          {"ttft", t.ttft.value},
          {"decode", t.decode.value},
          {"e2e", t.e2e.value},
          {"mean_time_per_output_token", t.mean_tpot.value},
          {"first_decode_step", t.first_decode.value},
          {"last_decode_step", t.last_decode.value},
          {"output_tokens_per_s", t.output_tokens_per_s},
          {"requests_per_s", t.requests_per_s},
          {"warnings", t.warnings}};
}

std::string render_serving_text(const ServingResult& s) {
  const ServingOptions& o = s.options;
  const std::string mix = join(o.requests, [](const auto& q) {
    return format_number(q.prompt, 10) + ":" + format_number(q.output, 10);
  });
  std::string out =
      "\nServing (continuous batching, concurrency " + format_number(o.concurrency) + ", " +
      format_number(s.requests) + " requests of prompt:output " + mix +
      (o.max_batched_tokens > 0
           ? ", chunked prefill within " + format_number(o.max_batched_tokens) + " tokens per step"
           : ", whole prompts per step") +
      (s.stages > 1 ? ", " + std::to_string(s.stages) + " pipeline stages with " +
                          format_number(s.engines) + " batches in flight"
                    : std::string()) +
      ")\n";
  out += "  " + format_number(s.output_tokens_per_s, 4) + " output tokens/s, " +
         format_number(s.input_tokens_per_s, 4) + " prompt tokens/s, " +
         format_number(s.requests_per_s, 4) + " requests/s over " + format_seconds(s.makespan) +
         " (" + format_number(s.steps, 10) + " steps, " + format_number(s.mixed_steps, 10) +
         " mixing prompt and decode tokens)\n";
  out += latency_line("TTFT", s.ttft);
  out += latency_line("TPOT", s.tpot);
  out += latency_line("E2E ", s.e2e);
  out += "  mean decode batch " + format_number(s.mean_decode_batch, 4) + " (over the " +
         format_number(s.decode_steps, 10) + " steps that decode)" +
         (s.stages > 1 ? ", mean interval between iterations " : ", mean step ") +
         format_seconds(s.mean_step) + "\n";
  out += "  peak KV cache " + format_bytes(s.peak_kv_cache) + " per device (" +
         format_number(s.peak_tokens, 10) + " tokens in flight), largest step's activations " +
         format_bytes(s.peak_activations) + "\n";
  for (const auto& w : s.warnings) out += "  warning: " + w + "\n";
  return out;
}

nlohmann::json serving_to_json(const ServingResult& s) {
  nlohmann::json req = nlohmann::json::array();
  for (const auto& q : s.options.requests)
    req.push_back({{"prompt", q.prompt}, {"output", q.output}});
  return {{"concurrency", s.options.concurrency},
          {"max_batched_tokens", s.options.max_batched_tokens},
          {"requests", req},
          {"total_requests", s.requests},
          {"steps", s.steps},
          {"mixed_steps", s.mixed_steps},
          {"decode_steps", s.decode_steps},
          {"makespan", s.makespan.value},
          {"output_tokens_per_s", s.output_tokens_per_s},
          {"input_tokens_per_s", s.input_tokens_per_s},
          {"requests_per_s", s.requests_per_s},
          {"ttft", latency_json(s.ttft)},
          {"tpot", latency_json(s.tpot)},
          {"e2e", latency_json(s.e2e)},
          {"mean_decode_batch", s.mean_decode_batch},
          {"mean_step", s.mean_step.value},
          {"pipeline_stages", s.stages},
          {"engines", s.engines},
          {"peak_kv_cache", s.peak_kv_cache.value},
          {"peak_tokens", s.peak_tokens},
          {"peak_activations", s.peak_activations.value},
          {"warnings", s.warnings}};
}

std::string render_speculative_text(const SpeculativeResult& s, const Roofs& r) {
  std::string out = "\nSpeculative decoding (k = " + format_number(s.k) + " drafted by " +
                    s.drafter +
                    (s.draft_tp > 1 ? " at tensor parallel " + std::to_string(s.draft_tp) : "") +
                    ", acceptance α = " + format_number(s.alpha, 4) + ")\n";
  out += "  tokens per verification step E = (1 − α^(k+1))/(1 − α) = " +
         format_number(s.expected_tokens, 4) + " (Leviathan et al. 2023)\n";
  out += "  draft " + format_number(s.k) + " × " + format_seconds(s.draft_step) +
         " … = " + format_seconds(s.drafting) + ", verify " + format_seconds(s.verify) + " ⇒ " +
         format_seconds(s.cycle) + " per step, " + format_seconds(s.time_per_token) +
         " per token (plain decode " + format_seconds(s.plain) + "): speed-up " +
         format_number(s.speedup, 3) + "× (the closed form, verification at a plain step's cost: " +
         format_number(s.paper_speedup, 3) + "×)\n";
  out += "  on the roofline: the verification's I = " + format_number(s.verify_intensity.value, 4) +
         " " + r.units.intensity() + " against plain decode's " +
         format_number(s.plain_intensity.value, 4) + " (ridge " +
         format_number(r.ridge().value, 4) + ", " + s.verify_bound + "-bound" +
         "); target work per kept token " + format_work(s.verify_work_per_token, r.units) +
         " against " + format_work(s.plain_work_per_token, r.units) +
         (r.counts_apart() ? " (I and work count the products' " + r.units.work +
                                 ", the element-wise " + r.vector_units.work + " left out)"
                           : "") +
         "\n";
  for (const auto& w : s.warnings) out += "  warning: " + w + "\n";
  for (const auto& n : s.notes) out += "  note: " + n + "\n";
  return out;
}

nlohmann::json speculative_to_json(const SpeculativeResult& s) {
  return {{"k", s.k},
          {"alpha", s.alpha},
          {"drafter", s.drafter},
          {"draft_tp", s.draft_tp > 0 ? nlohmann::json(s.draft_tp) : nlohmann::json(nullptr)},
          {"expected_tokens_per_step", s.expected_tokens},
          {"draft_step", s.draft_step.value},
          {"drafting", s.drafting.value},
          {"verify", s.verify.value},
          {"plain_step", s.plain.value},
          {"cycle", s.cycle.value},
          {"time_per_token", s.time_per_token.value},
          {"speedup", s.speedup},
          {"closed_form_speedup", s.paper_speedup},
          {"tokens_per_s", s.tokens_per_s},
          {"plain_intensity", s.plain_intensity.value},
          {"verify_intensity", s.verify_intensity.value},
          {"verify_bound", s.verify_bound},
          {"plain_work_per_token", s.plain_work_per_token.value},
          {"verify_work_per_kept_token", s.verify_work_per_token.value},
          {"warnings", s.warnings},
          {"notes", s.notes}};
}

std::string render_cost_text(const TokenCost& c, const std::string& what) {
  std::string out = "\nCost (" + format_number(c.devices) + " device" +
                    (c.devices == 1 ? "" : "s") + ", at " + format_number(c.tokens_per_s, 4) +
                    " tokens/s " + what + ")\n";
  if (c.usd_per_million_tokens)
    out += "  " + dollars(*c.price_per_hour) + " per device-hour ⇒ " +
           dollars(*c.usd_per_million_tokens) + " per million tokens\n";
  if (c.joules_per_token)
    out += "  " + format_number(*c.power_w) + " W per device (" + c.power_source + ") ⇒ " +
           format_number(*c.joules_per_token, 4) + " J/token (at full board power)\n";
  for (const auto& n : c.notes) out += "  note: " + n + "\n";
  return out;
}

std::string render_data_parallel_text(const DataParallelSummary& d) {
  return "\nData parallel: " + format_number(d.replicas) + " replicas of " +
         std::to_string(d.devices_per_replica) +
         " device(s): " + format_number(d.tokens_per_s_all, 4) + " tokens/s in all (" + d.what +
         ", all replicas)\n";
}

nlohmann::json data_parallel_to_json(const DataParallelSummary& d) {
  return {{"replicas", d.replicas},
          {"devices_per_replica", d.devices_per_replica},
          {"tokens_per_s", d.tokens_per_s_all}};
}

nlohmann::json cost_to_json(const TokenCost& c) {
  nlohmann::json j = {{"devices", c.devices},
                      {"tokens_per_s", c.tokens_per_s},
                      {"price_per_device_hour", optional_number(c.price_per_hour)},
                      {"usd_per_million_tokens", optional_number(c.usd_per_million_tokens)},
                      {"power_w_per_device", optional_number(c.power_w)},
                      {"power_source", c.power_source},
                      {"joules_per_token", optional_number(c.joules_per_token)},
                      {"notes", c.notes}};
  // Whose throughput: said where the caller knows it (a throughput given to llm.cost() is
  // the caller's own).
  if (!c.basis.empty()) j["basis"] = c.basis;
  return j;
}

std::string render_training_text(const TrainingResult& t, const ModelConfig& m, const Roofs& r) {
  const TrainingOptions& o = t.options;
  std::string out = m.name + " on " + r.machine + " — training step: sequence " +
                    format_number(o.sequence) + ", micro-batch " + format_number(o.micro_batch) +
                    " × dp " + format_number(o.dp) + ", " + format_number(t.micro_steps) +
                    " micro-step(s), recompute " + to_string(o.recompute) + ", ZeRO " +
                    std::to_string(o.zero) + (o.sequence_parallel ? ", sequence parallel" : "") +
                    ", " + attention_words(t.flash) + "\n";
  out += "  roofs: π = " + format_work_rate(r.peak, r.units) + " (" + r.compute_name +
         "), β = " + format_byte_rate(r.bandwidth) + " (" + r.memory_level + ")" +
         (r.calibration.empty() ? "" : "; " + r.calibration) + "\n";
  out += "  tokens per step D = " + format_number(t.tokens, 10) +
         "; 6·N·D = " + format_work(t.six_nd, r.units) + " (N = " + format_si(t.parameters, "") +
         " active parameters, the embedding lookup excluded)\n";
  out += "  model work = 3 × forward = " + format_work(t.model_work, r.units) + " (" +
         format_number(t.model_work.value / t.six_nd.value, 4) +
         (r.counts_apart() ? " × 6·N·D: attention's products; the element-wise " +
                                 r.vector_units.work + " left out"
                           : std::string(" × 6·N·D: attention and element-wise work")) +
         "); hardware work with recompute = " + format_work(t.hardware_work, r.units) + "\n";
  out += "  step = compute " + format_seconds(t.compute) + " + gradient all-reduce " +
         format_seconds(t.gradient_all_reduce) +
         (t.gradient_traffic.value > 0 ? " (" + format_bytes(t.gradient_traffic) + " per device)"
                                       : "") +
         " + optimizer " + format_seconds(t.optimizer) + " = " + format_seconds(t.step) + "\n";
  out += "  MFU " + format_number(100 * t.mfu, 3) + "%, HFU " + format_number(100 * t.hfu, 3) +
         "% (work per device ÷ (step × π))\n";
  if (t.measured_mfu)
    out += "  measured step " + format_seconds(Seconds(*o.measured_step_s)) + ": MFU " +
           format_number(100 * *t.measured_mfu, 3) + "%, HFU " +
           format_number(100 * *t.measured_hfu, 3) + "%\n";
  out += "  memory per device: weights " + format_bytes(t.weights) + " + gradients " +
         format_bytes(t.gradients) + " + optimizer state " + format_bytes(t.optimizer_state) +
         " + activations " + format_bytes(t.activations) + " = " + format_bytes(t.memory());
  if (t.fits)
    out += " of " + format_bytes(Bytes(*r.memory_capacity)) + ": " +
           (*t.fits ? "fits" : "does NOT fit");
  out += "\n";
  for (const auto& n : t.notes) out += "  note: " + n + "\n";
  return out;
}

nlohmann::json training_to_json(const TrainingResult& t) {
  const TrainingOptions& o = t.options;
  return {{"sequence", o.sequence},
          {"flash", t.flash},
          {"micro_batch", o.micro_batch},
          {"dp", o.dp},
          {"micro_steps", t.micro_steps},
          {"recompute", to_string(o.recompute)},
          {"zero", o.zero},
          {"sequence_parallel", o.sequence_parallel},
          {"tokens", t.tokens},
          {"parameters", t.parameters},
          {"six_nd", t.six_nd.value},
          {"forward_work", t.forward.value},
          {"model_work", t.model_work.value},
          {"hardware_work", t.hardware_work.value},
          {"compute_time", t.compute.value},
          {"gradient_all_reduce", t.gradient_all_reduce.value},
          {"gradient_traffic", t.gradient_traffic.value},
          {"optimizer_time", t.optimizer.value},
          {"step", t.step.value},
          {"mfu", t.mfu},
          {"hfu", t.hfu},
          {"measured_mfu", optional_number(t.measured_mfu)},
          {"measured_hfu", optional_number(t.measured_hfu)},
          {"memory",
           {{"weights", t.weights.value},
            {"gradients", t.gradients.value},
            {"optimizer_state", t.optimizer_state.value},
            {"activations", t.activations.value},
            {"total", t.memory().value},
            {"fits", t.fits ? nlohmann::json(*t.fits) : nlohmann::json(nullptr)}}},
          {"notes", t.notes}};
}

}  // namespace roofline::llm
