// One model on several machines (`roofline llm --hw a,b,c`, roofline.llm.compare): each
// machine's decode step, the whole request where asked, throughput over the replicas, memory
// per device and the cost per token, side by side (docs/llm.md).
#include "roofline/llm.hpp"

namespace roofline::llm {

MachineComparison compare_on(const ModelConfig& m, const Setup& st, const MachineFacts& facts,
                             const CompareOptions& o) {
  const Report rep = analyse(m, st.scenario, Phase::decode, st.roofs);
  MachineComparison c;
  c.machine = st.roofs.machine;
  c.compute_roof = st.roofs.compute_name;
  c.peak = st.roofs.peak;
  c.bandwidth = st.roofs.bandwidth;
  c.dtype = st.scenario.dtypes.compute.name;
  c.ttft = rep.ttft;
  c.time_per_output_token = rep.time_per_token;
  double throughput = rep.tokens_per_s;
  if (o.output_tokens > 0) {
    c.request = request_timing(m, st.scenario, o.output_tokens, st.roofs, o.chunk);
    c.ttft = c.request->ttft;
    throughput = c.request->output_tokens_per_s;
  }
  c.tokens_per_s = throughput * o.dp;
  c.memory = rep.memory.total();
  c.fits = rep.memory.fits;
  DevicePower power = device_power(facts);
  if (o.power_w) power = {*o.power_w, "--power-w"};
  c.cost = token_cost(c.tokens_per_s, replica_devices(st.scenario) * o.dp, o.price_per_hour, power,
                      st.roofs.machine);
  c.warnings = rep.warnings;
  return c;
}

nlohmann::json comparison_to_json(const MachineComparison& c) {
  nlohmann::json row = {{"machine", c.machine},
                        {"compute_roof", c.compute_roof},
                        {"peak", c.peak.value},
                        {"bandwidth", c.bandwidth.value},
                        {"dtypes", c.dtype},
                        {"ttft", c.ttft.value},
                        {"time_per_output_token", c.time_per_output_token.value},
                        {"tokens_per_s", c.tokens_per_s},
                        {"memory", c.memory.value},
                        {"fits", c.fits ? nlohmann::json(*c.fits) : nlohmann::json(nullptr)},
                        {"cost", cost_to_json(c.cost)},
                        {"warnings", c.warnings}};
  if (c.request) row["request"] = request_to_json(*c.request);
  return row;
}

}  // namespace roofline::llm
