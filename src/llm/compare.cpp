// One model on several machines (`roofline llm --hw a,b,c`, roofline.llm.compare): each
// machine's decode step, the whole request where asked, throughput over the replicas, memory
// per device and the cost per token, side by side (docs/llm.md).
#include "roofline/json_out.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"
#include "roofline/quantity.hpp"
#include "roofline/table.hpp"

namespace roofline::llm {

MachineComparison compare_on(const ModelConfig& m, const Setup& st, const MachineFacts& facts,
                             const CompareOptions& o) {
  AnalyseOptions ao;
  ao.prefill_chunk = o.output_tokens > 0 ? o.chunk : 0;  // the request's prefill, chunked
  const Report rep = analyse(m, st.scenario, Phase::decode, st.roofs, ao);
  MachineComparison c;
  c.machine = st.roofs.machine;
  c.compute_roof = st.roofs.compute_name;
  c.units = st.roofs.units;
  c.peak = st.roofs.peak;
  c.bandwidth = st.roofs.bandwidth;
  c.dtype = st.scenario.dtypes.compute.name;
  c.flash = st.scenario.flash;
  c.ttft = rep.ttft;
  c.time_per_output_token = rep.time_per_token;
  // Two throughputs under two names (one field used to switch meaning with output_tokens):
  // decode's B/time-per-token and, for whole requests, B·N / end-to-end (docs/llm.md).
  c.decode_tokens_per_s = rep.tokens_per_s * o.dp;
  if (o.output_tokens > 0) {
    c.request = request_timing(m, st.scenario, o.output_tokens, st.roofs, o.chunk);
    c.ttft = c.request->ttft;
    c.request_tokens_per_s = c.request->output_tokens_per_s * o.dp;
  }
  c.memory = rep.memory.total();
  c.fits = rep.memory.fits;
  DevicePower power = device_power(facts);
  if (o.power_w) power = {*o.power_w, "--power-w"};
  c.cost =
      token_cost(c.request_tokens_per_s.value_or(c.decode_tokens_per_s),
                 replica_devices(st.scenario) * o.dp, o.price_per_hour, power, st.roofs.machine);
  c.cost.basis = c.request_tokens_per_s ? "the request's output" : "decode";
  c.warnings = rep.warnings;
  return c;
}

nlohmann::json comparison_to_json(const MachineComparison& c) {
  nlohmann::json row = {
      {"machine", c.machine},
      {"compute_roof", c.compute_roof},
      {"units", result_units_to_json(c.units)},
      {"peak", c.peak.value},
      {"bandwidth", c.bandwidth.value},
      {"dtypes", c.dtype},
      {"ttft", c.ttft.value},
      {"time_per_output_token", c.time_per_output_token.value},
      {"decode_tokens_per_s", c.decode_tokens_per_s},
      {"request_tokens_per_s",
       c.request_tokens_per_s ? nlohmann::json(*c.request_tokens_per_s) : nlohmann::json(nullptr)},
      {"memory", c.memory.value},
      {"fits", c.fits ? nlohmann::json(*c.fits) : nlohmann::json(nullptr)},
      {"cost", cost_to_json(c.cost)},
      {"warnings", c.warnings}};
  if (c.request) row["request"] = request_to_json(*c.request);
  return row;
}

std::vector<std::string> comparison_notes(const std::vector<MachineComparison>& rows) {
  std::vector<std::string> notes;
  for (const auto& c : rows) {
    for (const auto& w : c.warnings) notes.push_back(c.machine + ": " + w);
    for (const auto& n : c.cost.notes) notes.push_back(c.machine + ": " + n);
  }
  return notes;
}

std::string render_comparison_text(const ModelConfig& m, double batch, double context,
                                   double output_tokens,
                                   const std::vector<MachineComparison>& rows) {
  const bool requests = output_tokens > 0;
  std::vector<std::string> head = {"machine", "roofs", "TTFT", "time/token", "decode tokens/s"};
  if (requests) head.push_back("request tokens/s");
  for (const char* h : {"memory", "fits", "$/M tokens", "J/token"}) head.push_back(h);
  Table t(head);
  for (const auto& c : rows) {
    std::vector<std::string> row = {
        c.machine, format_work_rate(c.peak, c.units) + ", " + format_byte_rate(c.bandwidth),
        format_seconds(c.ttft), format_seconds(c.time_per_output_token),
        format_number(c.decode_tokens_per_s, 4)};
    if (requests)
      row.push_back(c.request_tokens_per_s ? format_number(*c.request_tokens_per_s, 4) : "-");
    row.push_back(format_bytes(c.memory));
    row.push_back(c.fits ? (*c.fits ? "yes" : "no") : "?");
    row.push_back(c.cost.usd_per_million_tokens
                      ? "$" + format_number(*c.cost.usd_per_million_tokens, 4)
                      : "-");
    row.push_back(c.cost.joules_per_token ? format_number(*c.cost.joules_per_token, 4) : "-");
    t.add_row(row);
  }
  std::string out =
      m.name + ": batch " + format_number(batch) + ", context " + format_number(context) +
      (requests ? ", " + format_number(output_tokens) + " output tokens" : std::string()) +
      " on each machine, " + attention_words(rows.empty() || rows.front().flash) +
      " (decode tokens/s = batch / time per token" +
      (requests ? "; request tokens/s = batch × output tokens / end-to-end, prefill included; "
                  "the cost is at the request rate"
                : "") +
      ")\n" + t.render();
  for (const auto& w : comparison_notes(rows)) out += "  note: " + w + "\n";
  return out;
}

nlohmann::json comparison_document(const ModelConfig& m, double batch, double context,
                                   const std::vector<MachineComparison>& rows) {
  nlohmann::json machines = nlohmann::json::array();
  for (const auto& c : rows) machines.push_back(comparison_to_json(c));
  // Version 2: `tokens_per_s` became `decode_tokens_per_s` and `request_tokens_per_s`.
  return {{"schema", "roofline.llm-compare"},
          {"version", 2},
          {"model", model_to_json(m)},
          {"batch", batch},
          {"context", context},
          {"flash", rows.empty() || rows.front().flash},
          {"machines", machines}};
}

nlohmann::json training_document(const TrainingResult& t, const ModelConfig& m, const Roofs& r) {
  return {{"schema", "roofline.llm-training"},
          {"version", 1},
          {"model", model_to_json(m)},
          {"units", result_units_to_json(r.units)},
          {"machine",
           {{"name", r.machine},
            {"peak", r.peak.value},
            {"bandwidth", r.bandwidth.value},
            {"calibration", r.calibration}}},
          {"training", training_to_json(t)}};
}

}  // namespace roofline::llm
