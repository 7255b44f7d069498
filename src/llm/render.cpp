// Text, JSON and CSV forms of an LLM report and of a sweep.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "roofline/json_out.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/table.hpp"

namespace roofline::llm {
namespace {

/// A micro-batch's sequences: a batch that the micro-batches do not divide (8 over 3) is
/// modelled at its average size, which the words say: "2.667 sequences on average (2 and 3)".
std::string micro_batch_words(double size) {
  if (size == std::floor(size)) return format_number(size) + " sequences";
  return format_number(size) + " sequences on average (" + format_number(std::floor(size)) +
         " and " + format_number(std::ceil(size)) + ")";
}

std::string bound_of(const OpCost& op, const OpTiming& t) {
  if (t.compute_bound) return "compute";
  return op.interconnect ? "interconnect" : "memory";
}

std::string intensity_text(Work w, Bytes q) {
  if (q.value <= 0) return "-";
  return format_number((w / q).value, 4);
}

/// W of `total` (of which `vector` is element-wise) as the tables print it: one figure, or, when
/// the element-wise work counts FLOP apart from the products' OP (Roofs::counts_apart), each in
/// its own unit — "14.2 GOP + 68.2 MFLOP", either alone when the other is zero — never added;
/// no work at all reads in the unit of `unit`'s roof (an embedding lookup: "0 FLOP").
std::string work_cell(Work total, Work vector, const Roofs& r,
                      ComputeUnit unit = ComputeUnit::matrix) {
  if (!r.counts_apart()) return format_work(total, r.units);
  const Work matrix = total - vector;
  if (matrix.value == 0 && vector.value == 0)
    return format_work(total, unit == ComputeUnit::vector ? r.vector_units : r.units);
  std::string out;
  if (matrix.value != 0) out = format_work(matrix, r.units);
  if (vector.value != 0) out += (out.empty() ? "" : " + ") + format_work(vector, r.vector_units);
  return out;
}

/// I = W/Q as work_cell splits W: a bare number in the header's unit, or, counted apart, each
/// part with its unit ("1.7 OP/byte + 0.0082 FLOP/byte").
std::string intensity_cell(Work total, Work vector, Bytes q, const Roofs& r,
                           ComputeUnit unit = ComputeUnit::matrix) {
  if (!r.counts_apart() || q.value <= 0) return intensity_text(total, q);
  const Work matrix = total - vector;
  if (matrix.value == 0 && vector.value == 0)
    return intensity_text(total, q) + " " +
           (unit == ComputeUnit::vector ? r.vector_units : r.units).intensity();
  std::string out;
  if (matrix.value != 0) out = format_number((matrix / q).value, 4) + " " + r.units.intensity();
  if (vector.value != 0)
    out += (out.empty() ? "" : " + ") + format_number((vector / q).value, 4) + " " +
           r.vector_units.intensity();
  return out;
}

/// The I column's header: its unit, or "I" when each cell says its own (counts_apart).
std::string intensity_header(const Roofs& r) {
  return r.counts_apart() ? "I" : "I (" + r.units.intensity() + ")";
}

/// How a critical batch's I, I* and w read. Counted apart (Roofs::counts_apart), a selection of
/// one kind of work reads in its unit (element-wise work in FLOP/byte against π_v/β); one of
/// both (fused attention, a layer, the step) in matrix-equivalent OP, its element-wise FLOP as
/// the OP the same time buys on π (× π/π_v): W_eq/Q against π/β, the comparison B* is solved
/// for (operators.cpp, decode_wq). `scale` turns its I and w into that count (W_eq/W).
struct CriticalFigures {
  double scale = 1;
  std::string unit;  ///< "" when not counted apart
};
CriticalFigures critical_figures(const CriticalBatch& c, const Roofs& r) {
  if (!r.counts_apart()) return {};
  if (c.vector_share >= 1) return {1, r.vector_units.intensity()};
  if (c.vector_share <= 0 || !(c.ridge.value > 0)) return {1, r.units.intensity()};
  return {r.ridge().value / c.ridge.value, r.units.intensity() + " equiv."};
}

std::string batch_text(const CriticalBatch& c) {
  if (c.never) return "never";
  if (c.batch <= 0) return "any";
  return format_number(c.batch, 4) + " (B ≥ " + format_number(std::ceil(c.batch - 1e-9), 10) + ")";
}

nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json step_to_json(const StepResult& s, const Roofs& r) {
  nlohmann::json ops = nlohmann::json::array();
  for (std::size_t i = 0; i < s.cost.size; ++i) {
    const OpCost& op = s.cost.ops[i];
    const OpTiming& t = s.timing[i];
    // work … time_no_overlap: one occurrence (one layer); *_total: × count, the step's share
    // (what the table, CSV and `share` give).
    const double n = op.count;
    // Counted apart (an integer compute roof): work, work_total and intensity are the products'
    // OP, vector_work and its kin the element-wise FLOP (docs/llm.md).
    const Work work = r.in_compute_units(op.work, op.vector_work());
    nlohmann::json o = {
        {"name", op.name},
        {"kind", to_string(op.kind)},
        {"per_layer", op.per_layer},
        {"count", op.count},
        {"work", work.value},
        {"traffic", op.traffic().value},
        {"weights", op.weights.value},
        {"activations", op.activations.value},
        {"kv_cache", op.kv.value},
        {"work_total", work.value * n},
        {"traffic_total", op.traffic().value * n},
        {"weights_total", op.weights.value * n},
        {"activations_total", op.activations.value * n},
        {"kv_cache_total", op.kv.value * n},
        {"time_total", t.time.value * n},
        {"time_no_overlap_total", t.time_no_overlap.value * n},
        {"intensity", op.traffic().value > 0 ? nlohmann::json((work / op.traffic()).value)
                                             : nlohmann::json(nullptr)},
        {"unit", to_string(op.unit)},
        {"vector_work", op.vector_work().value},
        {"compute_roof", compute_roof_of(op, r)},
        {"roof", op.interconnect ? r.interconnect_name : r.memory_level},
        {"bound", bound_of(op, t)},
        {"time", t.time.value},
        {"time_no_overlap", t.time_no_overlap.value},
        {"share", t.time.value * op.count / s.time.value}};
    if (r.counts_apart()) {
      o["vector_work_total"] = op.vector_work().value * n;
      o["vector_intensity"] = op.traffic().value > 0
                                  ? nlohmann::json((op.vector_work() / op.traffic()).value)
                                  : nlohmann::json(nullptr);
    }
    ops.push_back(std::move(o));
  }
  const Work work = r.in_compute_units(s.work, s.vector_work);
  nlohmann::json j = {{"tokens", s.cost.tokens},
                      {"work", work.value},
                      {"traffic", s.traffic.value},
                      {"interconnect_traffic", s.interconnect.value},
                      {"intensity", (work / s.traffic).value},
                      {"time", s.time.value},
                      {"time_no_overlap", s.time_no_overlap.value},
                      {"operators", ops}};
  if (r.counts_apart()) {
    j["vector_work"] = s.vector_work.value;
    j["vector_intensity"] = (s.vector_work / s.traffic).value;
  }
  return j;
}

nlohmann::json aggregate_to_json(const Aggregate& a, const Roofs& r) {
  const Work work = r.in_compute_units(a.work, a.vector_work);
  nlohmann::json j = {{"name", a.name},
                      {"work", work.value},
                      {"traffic", a.traffic.value},
                      {"intensity", (work / a.traffic).value},
                      {"bound", a.compute_bound(r) ? "compute" : "memory"},
                      {"time", a.time.value}};
  if (r.counts_apart()) {
    j["vector_work"] = a.vector_work.value;
    j["vector_intensity"] = (a.vector_work / a.traffic).value;
  }
  return j;
}

std::string dtype_line(const Dtypes& d) {
  return "weights " + d.weights.name + ", activations " + d.activations.name + ", KV cache " +
         d.kv_cache.name + ", compute " + d.compute.name;
}

/// The parallel layout as the headers say it: ", tensor parallel 2 (experts: expert parallel),
/// context parallel 2, pipeline 2 stages"; "" on one device.
std::string layout_words(const Scenario& s) {
  return (s.tp > 1 ? ", tensor parallel " + std::to_string(s.tp) : "") +
         (s.ep ? " (experts: expert parallel)" : "") +
         (s.cp > 1 ? ", context parallel " + std::to_string(s.cp) : "") +
         (s.pp > 1
              ? ", pipeline " + std::to_string(s.pp) + " stages" +
                    (s.micro_batches > 0 ? " (" + format_number(s.micro_batches) + " micro-batches)"
                                         : "")
              : "");
}

/// The scenario in one line, then the model: parameters and KV cache per token.
std::string scenario_line(const Report& r) {
  const Scenario& s = r.scenario;
  std::string out;
  out += r.model.name + " on " + r.roofs.machine + " — " + to_string(r.phase) + ", batch " +
         format_number(s.batch) + ", context " + format_number(s.context) + ", prompt " +
         format_number(s.prompt) + layout_words(s) + ", " + attention_words(s.flash) + "\n";
  out +=
      "  model: " + format_si(r.params.total, "") + " parameters" +
      (r.model.moe() ? " (" + format_si(r.params.active, "") + " active per token" + ")" : "") +
      (r.model.published_params > 0 ? " (published " + format_si(r.model.published_params, "") + ")"
                                    : "") +
      "; KV cache " + format_bytes(kv_bytes_per_token(r.model, s.dtypes.kv_cache)) + " per token\n";
  return out;
}

/// What is particular to the model: local or chunked attention, MLA, dense and MoE layers,
/// multi-token prediction, fields taken from defaults.
std::string model_lines(const Report& r) {
  const Scenario& s = r.scenario;
  std::string out;
  const ModelConfig& m = r.model;
  if (m.sliding_layers > 0 && m.sliding_layers == m.layers)
    out += "  attention: sliding window of " + format_number(m.sliding_window, 10) +
           " tokens — a decode step at context " + format_number(s.context, 10) + " attends over " +
           format_number(m.attended(s.context), 10) + " keys; the KV cache holds at most " +
           format_number(m.sliding_window, 10) + " tokens per sequence\n";
  else if (m.sliding_layers > 0 || m.chunked_layers > 0)
    out += "  attention: " +
           (m.sliding_layers > 0 ? format_number(m.sliding_layers, 10) + " local layers (window " +
                                       format_number(m.sliding_window, 10) + "), "
                                 : std::string()) +
           (m.chunked_layers > 0 ? format_number(m.chunked_layers, 10) + " chunked layers (chunk " +
                                       format_number(m.attention_chunk, 10) + "), "
                                 : std::string()) +
           format_number(m.global_layers(), 10) +
           " global layers; local and chunked layers cache at most one window or chunk\n";
  if (m.is_mla())
    out += "  attention: multi-head latent attention (kv_lora_rank " +
           format_number(m.mla.kv_lora_rank) + " + rope " + format_number(m.mla.qk_rope_head_dim) +
           " cached per token and layer" +
           (m.mla.q_lora_rank > 0 ? ", q_lora_rank " + format_number(m.mla.q_lora_rank) : "") +
           "), form " + to_string(s.mla_form) +
           (s.mla_form == MlaForm::automatic ? " (naive for prompts, absorbed for decode)" : "") +
           "\n";
  if (m.moe() && m.dense_layers > 0)
    out += "  mlp: " + format_number(m.dense_layers) + " dense layers (" +
           format_number(m.intermediate) + "), " + format_number(m.moe_layers()) + " MoE layers (" +
           format_number(m.experts) + " experts of " + format_number(m.expert_intermediate) +
           (m.shared_intermediate > 0 ? " + shared " + format_number(m.shared_intermediate) : "") +
           ")\n";
  if (m.mtp_layers > 0)
    out += "  multi-token prediction: " + format_number(m.mtp_layers) + " module(s), " +
           format_si(r.params.mtp, "") +
           " parameters outside the count above (a speculative draft: --draft mtp)\n";
  if (!m.defaulted.empty()) {
    out +=
        "  config: not in the file, taken from the config class's defaults: " + join(m.defaulted) +
        "\n";
  }
  return out;
}

/// The dtypes and the roofs the step is timed on: π, β, calibration, interconnect.
std::string roof_lines(const Report& r) {
  const Roofs& roofs = r.roofs;
  const Scenario& s = r.scenario;
  std::string out;
  out += "  dtypes: " + dtype_line(s.dtypes) + "\n";
  out += "  roofs: π = " + format_work_rate(roofs.peak, roofs.units) + " (" + roofs.compute_name +
         "), β = " + format_byte_rate(roofs.bandwidth) + " (" + roofs.memory_level +
         ") ⇒ ridge I* = π/β = " + format_intensity(roofs.ridge(), roofs.units) + "\n";
  // Element-wise operators are judged on the vector roof (docs/llm.md, "Matrix and vector work").
  out +=
      "  element-wise operators: π_v = " + format_work_rate(roofs.vector_peak, roofs.vector_units) +
      " (" + roofs.vector_name +
      (roofs.vector_fallback ? ": no vector roof of " + s.dtypes.activations.name + ")"
       : roofs.vector_widened
           ? ": no vector roof of " + s.dtypes.activations.name + ", fp32's stands in)"
           : ")") +
      (s.flash ? ", and fused attention's non-matmul work beside its products on π\n" : "\n");
  if (!roofs.calibration.empty())
    out += "  calibrated: " + roofs.calibration +
           " (datasheet π = " + format_work_rate(roofs.document_peak, roofs.units) +
           ", β = " + format_byte_rate(roofs.document_bandwidth) + ")\n";
  if (roofs.interconnect)
    out += "  interconnect: " + format_byte_rate(*roofs.interconnect) + " (" +
           roofs.interconnect_name + ")" +
           (roofs.link_latency ? ", latency α = " + format_seconds(*roofs.link_latency) + " (" +
                                     roofs.link_latency_source + ")"
                               : std::string()) +
           (roofs.domain_size ? ", domain of " + format_number(*roofs.domain_size) + " devices (" +
                                    roofs.domain_source + ")"
                              : std::string()) +
           "\n";

  return out;
}

/// The operator table of the phase shown, with its total and the overlap bound.
std::string step_table(const Report& r) {
  const Roofs& roofs = r.roofs;
  std::string out;
  const StepResult& st = r.phase == Phase::prefill ? r.prefill : r.decode;
  out +=
      "\n" + std::string(r.phase == Phase::prefill ? "Prefill" : "Decode") +
      " step, per device (×N: runs N times, once per layer of its kind; W, Q, time are totals)\n";
  Table t({"operator", "×", "W", "Q", intensity_header(roofs), "roof", "bound", "time", "share"});
  for (std::size_t i = 0; i < st.cost.size; ++i) {
    const OpCost& op = st.cost.ops[i];
    const OpTiming& tm = st.timing[i];
    // Element-wise work is counted in its roof's unit (FLOP on an fp16 vector roof when the
    // products are int8 OP), fused attention's in both.
    t.add_row({op.name, format_number(op.count),
               work_cell(op.work * op.count, op.vector_work() * op.count, roofs, op.unit),
               format_bytes(op.traffic() * op.count),
               intensity_cell(op.work, op.vector_work(), op.traffic(), roofs, op.unit),
               compute_roof_of(op, roofs), bound_of(op, tm), format_seconds(tm.time * op.count),
               format_number(100 * tm.time.value * op.count / st.time.value, 3) + "%"});
  }
  t.add_row({"total", "", work_cell(st.work, st.vector_work, roofs), format_bytes(st.traffic),
             intensity_cell(st.work, st.vector_work, st.traffic, roofs), "",
             // Where most of the step's time goes, as a sweep row's bound (step_bound).
             step_bound(st), format_seconds(st.time), "100%"});
  out += t.render();
  out += "  time = Σ max(W/π, Q/β) = " + format_seconds(st.time) +
         "; without overlap Σ (W/π + Q/β) = " + format_seconds(st.time_no_overlap) +
         " (W/π: matrix work on π, element-wise work on π_v)\n";
  if (st.interconnect.value > 0)
    out += "  interconnect traffic " + format_bytes(st.interconnect) +
           " per step and device (sent + received, against the both-directions roof)\n";

  return out;
}

/// The three summary points (prefill, decode linear, decode attention).
std::string summary_points(const Report& r) {
  const Roofs& roofs = r.roofs;
  const Scenario& s = r.scenario;
  std::string out;
  out += "\nSummary points\n";
  if (s.tp > 1) {
    // The points sum the memory-roof operators; the collectives are on the interconnect roof.
    Seconds prefill_ic{0};
    for (std::size_t i = 0; i < r.prefill.cost.size; ++i)
      if (r.prefill.cost.ops[i].interconnect)
        prefill_ic += r.prefill.timing[i].time * r.prefill.cost.ops[i].count;
    out +=
        "  (memory-roof operators only: the all-reduce and all-gather operators are on the "
        "interconnect roof and left out — " +
        format_seconds(prefill_ic) + " of the prefill's " + format_seconds(r.prefill.time) + ")\n";
  }
  Table sp({"point", "W", "Q", intensity_header(roofs), "bound", "time"});
  for (const Aggregate* a : {&r.prefill_point, &r.decode_linear, &r.decode_attention})
    sp.add_row({a->name, work_cell(a->work, a->vector_work, roofs), format_bytes(a->traffic),
                intensity_cell(a->work, a->vector_work, a->traffic, roofs),
                a->compute_bound(roofs) ? "compute" : "memory", format_seconds(a->time)});
  out += sp.render();

  return out;
}

/// With stages: the GPipe fill and drain of prefill, the steady decode.
std::string pipeline_lines(const Report& r) {
  std::string out;
  for (const auto* p : {&r.pipeline_prefill, &r.pipeline_decode}) {
    if (!*p) continue;
    const PipelineStep& ps = **p;
    const bool pre = p == &r.pipeline_prefill;
    out += std::string(pre ? "\nPipeline (GPipe): " : "") +
           (pre ? std::to_string(ps.stages) + " stages, " + format_number(ps.micro_batches) +
                      " micro-batches of " + micro_batch_words(ps.micro_batch) + "\n"
                : std::string()) +
           "  " + (pre ? "prefill" : "decode") + ": slowest stage " + format_seconds(ps.stage) +
           " + boundary " + format_seconds(ps.transfer) + " (" + format_bytes(ps.transfer_bytes) +
           ") per micro-batch; " +
           (pre ? "fill and drain: path " + format_seconds(ps.path) +
                      " + (m − 1) × … = " + format_seconds(ps.fill_drain) + ", bubble " +
                      format_number(100 * ps.bubble, 3) + "%"
                : "steady max(path " + format_seconds(ps.path) + " + token ids back " +
                      format_seconds(ps.token_return) + ", m × …) = " + format_seconds(ps.steady)) +
           "\n";
  }

  return out;
}

std::string latency_lines(const Report& r) {
  const Scenario& s = r.scenario;
  std::string out;
  out += "\nLatency and throughput\n";
  out += "  TTFT (prefill of " + format_number(s.batch) + " × " + format_number(s.prompt) +
         " tokens) = " + format_seconds(r.ttft) + "\n";
  out += "  time per output token (one decode step at context " + format_number(s.context) +
         ") = " + format_seconds(r.time_per_token) + "\n";
  out += "  tokens/s = B / step time = " + format_number(r.tokens_per_s, 4) + "\n";

  return out;
}

/// Weights + KV cache + activations per device against the memory's capacity.
std::string memory_lines(const Report& r) {
  const Roofs& roofs = r.roofs;
  std::string out;
  const Footprint& f = r.memory;
  out += "\nMemory per device\n";
  out += "  weights " + format_bytes(f.weights) + " + KV cache " + format_bytes(f.kv_cache) +
         " + activations " + format_bytes(f.activations) +
         (f.prefill_chunk > 0
              ? " (prefill in chunks of " + format_number(f.prefill_chunk, 10) + " tokens)"
              : "") +
         " = " + format_bytes(f.total());
  if (f.capacity)
    out += " of " + format_bytes(Bytes(*f.capacity)) + " (" + roofs.memory_level +
           "): " + (*f.fits ? "fits" : "does NOT fit");
  else
    out += " (capacity of " + roofs.memory_level + " unknown)";
  out += "\n";

  return out;
}

/// The smallest batch at which each operator reaches the ridge.
std::string critical_batch(const Report& r) {
  const Roofs& roofs = r.roofs;
  const Scenario& s = r.scenario;
  std::string out;
  out += "\nCritical batch (decode at context " + format_number(s.context) +
         "): smallest B with I(B) ≥ I* = " + format_number(roofs.ridge().value, 4) +
         (roofs.counts_apart() ? " " + roofs.units.intensity() : "") +
         " (element-wise work on π_v: its own I*, docs/llm.md)\n";
  Table cb({"operator", "I at B=1", "I*", "B*", "how"});
  for (const auto& c : r.critical) {
    const CriticalFigures f = critical_figures(c, roofs);
    const auto figure = [&](double v) {
      return format_number(v * f.scale, 4) + (f.unit.empty() ? "" : " " + f.unit);
    };
    cb.add_row({c.name, figure(c.at_batch_1.value), figure(c.ridge.value), batch_text(c),
                c.closed_form ? (c.never ? "I(B) → w/q1 = " + figure(c.w / c.q1) + " < I*"
                                         : "I*·q0/(w − I*·q1)")
                              : "bisection (MoE)"});
  }
  out += cb.render();
  if (roofs.counts_apart())
    out += "  (" + roofs.units.intensity() + " equiv.: the element-wise " +
           roofs.vector_units.work + " counted as the " + roofs.units.work +
           " the same time buys on π, × π/π_v = " +
           format_number(roofs.peak.value / roofs.vector_peak.value, 4) + ")\n";

  return out;
}

/// With a measured throughput: MFU, bandwidth utilisation, share of the prediction.
std::string measured_lines(const Report& r) {
  std::string out;
  if (r.measured) {
    const Utilisation& u = *r.measured;
    out += "\nMeasured " + format_number(u.tokens_per_s, 6) + " tokens/s (" + to_string(r.phase) +
           measured_replicas(u.replicas) + ")\n";
    if (u.replicas > 1)
      out += "  per replica " + format_number(u.tokens_per_s / u.replicas, 6) +
             " tokens/s: the shares below are of one replica's step\n";
    out +=
        "  MFU = " + format_work(u.work_per_token, r.roofs.units) + "/token" +
        (r.roofs.counts_apart()
             ? " (the products; the element-wise " +
                   format_work(u.vector_work_per_token, r.roofs.vector_units) + "/token are on π_v)"
             : std::string()) +
        " × tokens/s ÷ π = " + format_number(100 * u.mfu, 3) + "%\n";
    out += "  bandwidth utilisation = " + format_bytes(u.bytes_per_token) +
           "/token × tokens/s ÷ β = " + format_number(100 * u.bandwidth, 3) + "%\n";
    out += "  of the roofline prediction: " + format_number(100 * u.of_roofline, 3) + "%\n";
    if (!u.above_roof.empty()) out += "  above the roofs: see the warning above\n";
  }
  return out;
}

}  // namespace

std::string chart_title(const Report& r) {
  const Scenario& s = r.scenario;
  return r.model.name + " on " + r.roofs.machine + ": " + to_string(r.phase) +
         " operators, batch " + format_number(s.batch) + ", context " + format_number(s.context) +
         ", prompt " + format_number(s.prompt);
}

std::string sweep_chart_title(const ModelConfig& m, const Roofs& r) {
  return m.name + " on " + r.machine + ": decode step per (batch, context)";
}

std::string render_text(const Report& r) {
  std::string out = scenario_line(r) + model_lines(r);
  for (const auto& w : r.warnings) out += "  warning: " + w + "\n";
  return out + roof_lines(r) + step_table(r) + summary_points(r) + pipeline_lines(r) +
         latency_lines(r) + memory_lines(r) + critical_batch(r) + measured_lines(r);
}

std::string render_report_text(const Report& r, const std::string& sections) {
  return render_text(r) + sections;
}

std::vector<std::string> report_warnings(const Report& r,
                                         const std::vector<std::string>& sections) {
  std::vector<std::string> all = r.warnings;
  for (const auto& w : sections)
    if (std::find(all.begin(), all.end(), w) == all.end()) all.push_back(w);
  return all;
}

namespace {
nlohmann::json pipeline_to_json(const PipelineStep& st) {
  return {{"stages", st.stages},
          {"micro_batches", st.micro_batches},
          {"micro_batch", st.micro_batch},
          {"stage", st.stage.value},
          {"transfer", st.transfer.value},
          {"transfer_bytes", st.transfer_bytes.value},
          {"path", st.path.value},
          {"token_return", st.token_return.value},
          {"fill_drain", st.fill_drain.value},
          {"steady", st.steady.value},
          {"bubble", st.bubble}};
}
}  // namespace

namespace {
/// The critical batches as the text gives them (critical_figures).
nlohmann::json critical_to_json(const Report& r) {
  nlohmann::json crit = nlohmann::json::array();
  for (const auto& c : r.critical) {
    // Counted apart, each in the unit its `intensity_unit` names.
    const CriticalFigures f = critical_figures(c, r.roofs);
    nlohmann::json j = {{"name", c.name},
                        {"ridge", c.ridge.value * f.scale},
                        {"intensity_at_batch_1", c.at_batch_1.value * f.scale},
                        {"batch", number_or_null(c.batch)},
                        {"never", c.never},
                        {"closed_form", c.closed_form}};
    if (!f.unit.empty()) j["intensity_unit"] = f.unit;
    if (c.closed_form) j["coefficients"] = {{"w", c.w * f.scale}, {"q0", c.q0}, {"q1", c.q1}};
    crit.push_back(j);
  }
  return crit;
}
}  // namespace

nlohmann::json to_json(const Report& r) {
  const Scenario& s = r.scenario;
  const nlohmann::json crit = critical_to_json(r);
  nlohmann::json mem = {
      {"weights", r.memory.weights.value},
      {"kv_cache", r.memory.kv_cache.value},
      {"activations", r.memory.activations.value},
      {"total", r.memory.total().value},
      {"capacity",
       r.memory.capacity ? nlohmann::json(*r.memory.capacity) : nlohmann::json(nullptr)},
      {"fits", r.memory.fits ? nlohmann::json(*r.memory.fits) : nlohmann::json(nullptr)}};
  // With a chunked prefill the activations are its largest chunk's (tokens per prompt).
  if (r.memory.prefill_chunk > 0) mem["prefill_chunk"] = r.memory.prefill_chunk;
  nlohmann::json j = {
      {"schema", "roofline.llm"},
      {"version", 1},
      {"model", model_to_json(r.model)},
      {"units", result_units_to_json(r.roofs.units)},
      {"machine",
       {{"name", r.roofs.machine},
        {"compute_roof", r.roofs.compute_name},
        {"peak", r.roofs.peak.value},
        {"vector_roof", r.roofs.vector_name},
        {"vector_peak", r.roofs.vector_peak.value},
        {"vector_fallback", r.roofs.vector_fallback},
        {"vector_widened", r.roofs.vector_widened},
        {"memory_level", r.roofs.memory_level},
        {"bandwidth", r.roofs.bandwidth.value},
        {"ridge", r.roofs.ridge().value},
        {"interconnect", r.roofs.interconnect ? nlohmann::json(r.roofs.interconnect->value)
                                              : nlohmann::json(nullptr)},
        {"link_latency", r.roofs.link_latency ? nlohmann::json(r.roofs.link_latency->value)
                                              : nlohmann::json(nullptr)},
        {"link_latency_source", r.roofs.link_latency_source},
        {"domain_size",
         r.roofs.domain_size ? nlohmann::json(*r.roofs.domain_size) : nlohmann::json(nullptr)},
        {"domain_source", r.roofs.domain_source},
        {"calibration", r.roofs.calibration},
        {"datasheet_peak", r.roofs.document_peak.value},
        {"datasheet_bandwidth", r.roofs.document_bandwidth.value}}},
      {"scenario",
       {{"phase", to_string(r.phase)},
        {"batch", s.batch},
        {"prompt", s.prompt},
        {"context", s.context},
        {"attended_context", r.model.attended(s.context)},
        {"tp", s.tp},
        {"ep", s.ep},
        {"cp", s.cp},
        {"pp", s.pp},
        {"mla_form", to_string(s.mla_form)},
        {"flash", s.flash},
        {"dtypes",
         {{"weights", s.dtypes.weights.name},
          {"activations", s.dtypes.activations.name},
          {"kv_cache", s.dtypes.kv_cache.name},
          {"compute", s.dtypes.compute.name}}}}},
      {"kv_bytes_per_token", kv_bytes_per_token(r.model, s.dtypes.kv_cache).value},
      {"warnings", r.warnings},
      {"prefill", step_to_json(r.prefill, r.roofs)},
      {"decode", step_to_json(r.decode, r.roofs)},
      {"summary",
       {{"prefill", aggregate_to_json(r.prefill_point, r.roofs)},
        {"decode_linear", aggregate_to_json(r.decode_linear, r.roofs)},
        {"decode_attention", aggregate_to_json(r.decode_attention, r.roofs)}}},
      {"ttft", r.ttft.value},
      {"time_per_output_token", r.time_per_token.value},
      {"tokens_per_s", r.tokens_per_s},
      {"memory", mem},
      {"critical_batch", crit}};
  // Counted apart: the element-wise work's units (vector_work, vector_intensity), `units` the
  // products'.
  if (r.roofs.counts_apart()) j["vector_units"] = result_units_to_json(r.roofs.vector_units);
  for (const auto* p : {&r.pipeline_prefill, &r.pipeline_decode}) {
    if (!*p) continue;
    j[p == &r.pipeline_prefill ? "pipeline_prefill" : "pipeline_decode"] = pipeline_to_json(**p);
  }
  if (r.measured)
    j["measured"] = {
        {"tokens_per_s", r.measured->tokens_per_s},
        {"replicas", r.measured->replicas},
        {"tokens_per_s_per_replica", r.measured->tokens_per_s / r.measured->replicas},
        {"work_per_token", r.measured->work_per_token.value},
        {"bytes_per_token", r.measured->bytes_per_token.value},
        {"mfu", r.measured->mfu},
        {"bandwidth_utilisation", r.measured->bandwidth},
        {"of_roofline", r.measured->of_roofline},
        {"above_roof", r.measured->above_roof.empty() ? nlohmann::json(nullptr)
                                                      : nlohmann::json(r.measured->above_roof)}};
  if (r.measured && r.roofs.counts_apart())
    j["measured"]["vector_work_per_token"] = r.measured->vector_work_per_token.value;
  return j;
}

std::string operators_csv(const Report& r) {
  const StepResult& st = r.phase == Phase::prefill ? r.prefill : r.decode;
  const Roofs& roofs = r.roofs;
  const std::string work = lower(roofs.units.work);  // "op" on an integer compute roof
  // Counted apart (--cdtype int8): a column of the products' OP and one of the element-wise
  // FLOP, each operator's parts in them.
  const bool apart = roofs.counts_apart();
  const std::string vwork = lower(roofs.vector_units.work);
  std::string out = "phase,operator,kind,count,work_" + work + (apart ? ",work_" + vwork : "") +
                    ",traffic_bytes,weight_bytes,activation_bytes,kv_bytes,intensity_" + work +
                    "_per_byte" + (apart ? ",intensity_" + vwork + "_per_byte" : "") +
                    ",compute_roof,bound,time_s,time_no_overlap_s,share\n";
  for (std::size_t i = 0; i < st.cost.size; ++i) {
    const OpCost& op = st.cost.ops[i];
    const OpTiming& t = st.timing[i];
    const double n = op.count;
    const Work w = roofs.in_compute_units(op.work, op.vector_work());
    const bool moves = op.traffic().value > 0;
    out += to_string(r.phase) + "," + csv_cell(op.name, true) + "," + to_string(op.kind) + "," +
           csv_number(n) + "," + csv_number(w.value * n) + "," +
           (apart ? csv_number(op.vector_work().value * n) + "," : "") +
           csv_number(op.traffic().value * n) + "," + csv_number(op.weights.value * n) + "," +
           csv_number(op.activations.value * n) + "," + csv_number(op.kv.value * n) + "," +
           (moves ? csv_number((w / op.traffic()).value) : "") + "," +
           (apart ? (moves ? csv_number((op.vector_work() / op.traffic()).value) : "") + "," : "") +
           csv_cell(compute_roof_of(op, r.roofs), true) + "," + bound_of(op, t) + "," +
           csv_number(t.time.value * n) + "," + csv_number(t.time_no_overlap.value * n) + "," +
           csv_number(t.time.value * n / st.time.value) + "\n";
  }
  return out;
}

std::string render_sweep_text(const std::vector<SweepRow>& rows, const ModelConfig& m,
                              const Roofs& r, const Scenario& s) {
  std::string out =
      m.name + " on " + r.machine + ": batch × context sweep" + layout_words(s) + ", " +
      attention_words(s.flash) + " (ridge I* = " + format_intensity(r.ridge(), r.units) +
      (r.counts_apart() ? "; I counts the products' " + r.units.work + ", the element-wise " +
                              r.vector_units.work + " left out"
                        : "") +
      ")\n";
  Table t({"batch", "context", "prompt", "TTFT", "time/token", "tokens/s", "I decode", "I linear",
           "I attention", "bound", "memory", "fits"});
  for (const auto& row : rows)
    t.add_row({format_number(row.batch), format_number(row.context), format_number(row.prompt),
               format_seconds(row.ttft), format_seconds(row.time_per_token),
               format_number(row.tokens_per_s, 4), format_number(row.decode_intensity.value, 4),
               format_number(row.linear_intensity.value, 4),
               format_number(row.attention_intensity.value, 4), row.decode_bound,
               format_bytes(row.memory), row.fits ? (*row.fits ? "yes" : "no") : "?"});
  return out + t.render();
}

namespace {
/// A sweep row's JSON object, written into `e` key by key: where `e` holds the previous row, only
/// the values change (json_text_with_arrays hands the same object back), so no object is
/// destroyed row by row — nlohmann's destroy allocates, and a failure there cannot throw.
void sweep_row_into(const SweepRow& row, const Roofs& r, nlohmann::json& e) {
  e["batch"] = row.batch;
  e["context"] = row.context;
  e["prompt"] = row.prompt;
  e["ttft"] = row.ttft.value;
  e["time_per_output_token"] = row.time_per_token.value;
  e["tokens_per_s"] = row.tokens_per_s;
  e["decode_work"] = row.decode_work.value;
  e["decode_traffic"] = row.decode_traffic.value;
  e["decode_intensity"] = row.decode_intensity.value;
  e["linear_intensity"] = row.linear_intensity.value;
  e["attention_intensity"] = row.attention_intensity.value;
  e["prefill_intensity"] = row.prefill_intensity.value;
  e["decode_bound"] = row.decode_bound;
  e["memory"] = row.memory.value;
  if (row.fits)
    e["fits"] = *row.fits;
  else
    e["fits"] = nullptr;
  if (r.counts_apart()) e["decode_vector_work"] = row.decode_vector_work.value;
}

/// The sweep document without its rows.
nlohmann::json sweep_head_json(const std::vector<SweepRow>& rows, const ModelConfig& m,
                               const Scenario& s, const Roofs& r) {
  nlohmann::json out = {{"schema", "roofline.llm-sweep"},
                        {"version", 1},
                        {"model", model_to_json(m)},
                        {"units", result_units_to_json(r.units)},
                        {"warnings", sweep_estimate_warnings(rows, m, s, r)},
                        {"machine",
                         {{"name", r.machine},
                          {"compute_roof", r.compute_name},
                          {"peak", r.peak.value},
                          {"vector_roof", r.vector_name},
                          {"vector_peak", r.vector_peak.value},
                          {"bandwidth", r.bandwidth.value},
                          {"ridge", r.ridge().value}}},
                        {"tp", s.tp},
                        {"ep", s.ep},
                        {"cp", s.cp},
                        {"pp", s.pp},
                        {"micro_batches", s.micro_batches},
                        {"flash", s.flash},
                        {"dtypes",
                         {{"weights", s.dtypes.weights.name},
                          {"activations", s.dtypes.activations.name},
                          {"kv_cache", s.dtypes.kv_cache.name},
                          {"compute", s.dtypes.compute.name}}}};
  if (r.counts_apart()) out["vector_units"] = result_units_to_json(r.vector_units);
  return out;
}

/// The rows one by one into the element json_text_with_arrays hands over, each checked finite
/// (refuse_non_finite, its place "/rows/i/...").
JsonElement sweep_rows(const std::vector<SweepRow>& rows, const Roofs& r, const std::string& what) {
  return [&rows, &r, what](std::size_t i, nlohmann::json& e) {
    if (i >= rows.size()) return false;
    sweep_row_into(rows[i], r, e);
    refuse_non_finite(e, what, "/rows/" + std::to_string(i));
    return true;
  };
}
}  // namespace

nlohmann::json sweep_to_json(const std::vector<SweepRow>& rows, const ModelConfig& m,
                             const Scenario& s, const Roofs& r) {
  nlohmann::json out = sweep_head_json(rows, m, s, r);
  nlohmann::json& arr = out["rows"] = nlohmann::json::array();
  for (const auto& row : rows) sweep_row_into(row, r, arr.emplace_back());
  return out;
}

std::string sweep_json_text(const std::vector<SweepRow>& rows, const ModelConfig& m,
                            const Scenario& s, const Roofs& r, const std::string& what) {
  nlohmann::json head = sweep_head_json(rows, m, s, r);
  refuse_non_finite(head, what);
  std::string text =
      json_text_with_arrays(head, {{"rows", sweep_rows(rows, r, what)}}, ArrayPlace::in_key_order);
  release_json(head);  // written with the text at its largest: destroyed without allocating
  return text;
}

void refuse_non_finite_sweep(const std::vector<SweepRow>& rows, const ModelConfig& m,
                             const Scenario& s, const Roofs& r, const std::string& what) {
  refuse_non_finite(sweep_head_json(rows, m, s, r), what);
  const JsonElement row = sweep_rows(rows, r, what);
  nlohmann::json e;
  for (std::size_t i = 0; i < rows.size(); ++i) row(i, e);
  release_json(e);
}

std::string sweep_csv(const std::vector<SweepRow>& rows, const Roofs& r) {
  // Counted apart (--cdtype int8): the element-wise FLOP in a column of their own.
  const bool apart = r.counts_apart();
  std::string out =
      "batch,context,prompt,ttft_s,time_per_output_token_s,tokens_per_s,decode_work_" +
      lower(r.units.work) + (apart ? ",decode_work_" + lower(r.vector_units.work) : "") +
      ",decode_traffic_bytes,decode_intensity,linear_intensity,attention_intensity,"
      "prefill_intensity,decode_bound,memory_bytes,fits\n";
  for (const auto& row : rows)
    out += csv_number(row.batch) + "," + csv_number(row.context) + "," + csv_number(row.prompt) +
           "," + csv_number(row.ttft.value) + "," + csv_number(row.time_per_token.value) + "," +
           csv_number(row.tokens_per_s) + "," + csv_number(row.decode_work.value) + "," +
           (apart ? csv_number(row.decode_vector_work.value) + "," : "") +
           csv_number(row.decode_traffic.value) + "," + csv_number(row.decode_intensity.value) +
           "," + csv_number(row.linear_intensity.value) + "," +
           csv_number(row.attention_intensity.value) + "," +
           csv_number(row.prefill_intensity.value) + "," + row.decode_bound + "," +
           csv_number(row.memory.value) + "," + (row.fits ? (*row.fits ? "yes" : "no") : "") + "\n";
  return out;
}

std::string render_presets_text(const std::vector<ModelConfig>& models) {
  Table t({"preset", "parameters", "layers", "hidden", "heads", "kv heads", "mlp", "source"});
  for (const auto& m : models)
    t.add_row({m.name, format_si(count_parameters(m).total, ""), format_number(m.layers),
               format_number(m.hidden), format_number(m.heads), format_number(m.kv_heads),
               m.moe()
                   ? format_number(m.experts) + " experts × " + format_number(m.expert_intermediate)
                   : format_number(m.intermediate),
               m.source});
  return t.render();
}

}  // namespace roofline::llm
