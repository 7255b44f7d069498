// The library's messages as Python says them: the library names its inputs by the CLI's flags
// ("--tp 3: must divide num_attention_heads"), which a Python caller never typed. Every error
// the bindings raise passes through python_message (module.cpp's exception translator), so a
// flag the package takes as a parameter is named as that parameter ("tp 3: must divide ...").
#include <cctype>
#include <map>
#include <string>

#include "common.hpp"

namespace roofline::python {

namespace {

/// A CLI flag and the Python parameter that takes the same value. Only flags whose value a
/// Python function takes are here; any other flag stays as it is.
const std::map<std::string, std::string>& flag_parameters() {
  static const std::map<std::string, std::string> names = {
      // roofline llm: the scenario keywords of the LLM functions, and their own parameters.
      {"tp", "tp"},
      {"pp", "pp"},
      {"cp", "cp"},
      {"ep", "ep"},
      {"micro-batches", "micro_batches"},
      {"link-latency", "link_latency_s"},
      {"interconnect-bandwidth", "interconnect_byte_per_s"},
      {"domain-size", "domain_size"},
      {"attainment", "attainment"},
      {"calibrate", "calibrate"},
      {"mla", "mla"},
      {"attention", "flash"},
      {"flash", "flash"},
      {"wdtype", "weights"},
      {"adtype", "activations"},
      {"kvdtype", "kv_cache"},
      {"cdtype", "compute"},
      {"batch", "batch"},
      {"context", "context"},
      {"prompt", "prompt"},
      {"output-tokens", "output_tokens"},
      {"chunk", "chunk"},
      {"concurrency", "concurrency"},
      {"requests", "requests"},
      {"max-batched-tokens", "max_batched_tokens"},
      {"num-requests", "total_requests"},
      {"spec-k", "k"},
      {"spec-alpha", "alpha"},
      {"draft", "draft"},
      {"draft-tp", "draft_tp"},
      {"train", "llm.train()"},
      {"dp", "dp"},
      {"global-batch", "global_batch"},
      {"micro-batch", "micro_batch"},
      {"seq", "sequence"},
      {"zero", "zero"},
      {"recompute", "recompute"},
      {"sequence-parallel", "sequence_parallel"},
      {"measured-tokens-per-s", "measured_tokens_per_s"},
      {"measured-step-s", "measured_step_s"},
      {"price-per-hour", "price_per_hour"},
      {"power-w", "power_w"},
      // roofline measure: Machine.measure.
      {"threads", "threads"},
      {"precisions", "precisions"},
      {"levels", "levels"},
      {"no-curve", "curve=False"},
      // The roofs and what is judged on them: diagnose, check, compare, energy, Chart.
      {"hw", "machine"},
      {"machine", "machine"},
      {"peak", "peak_flop_per_s"},
      {"bandwidth", "bandwidth_byte_per_s"},
      {"precision", "precision"},
      {"level", "level"},
      {"min-attainment", "min_attainment"},
      {"noise", "noise"},
      {"baseline", "baseline"},
      {"config", "config"},
      {"eps-flop", "eps_flop"},
      {"eps-mem", "eps_mem"},
      {"pi0", "pi0"},
      {"intensity", "intensities"},
      {"touching", "touching"},
      {"width", "columns"},
  };
  return names;
}

bool flag_char(char c) {
  return std::islower(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c)) || c == '-';
}

}  // namespace

std::string python_message(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (std::size_t i = 0; i < message.size();) {
    // A flag: "--" at the start or after a character that is no part of a word or a flag.
    const bool starts = message.compare(i, 2, "--") == 0 &&
                        (i == 0 || !(flag_char(message[i - 1]) ||
                                     std::isupper(static_cast<unsigned char>(message[i - 1]))));
    if (starts) {
      std::size_t end = i + 2;
      while (end < message.size() && flag_char(message[end])) ++end;
      const auto found = flag_parameters().find(message.substr(i + 2, end - i - 2));
      if (found != flag_parameters().end()) {
        out += found->second;
        i = end;
        continue;
      }
    }
    out += message[i++];
  }
  return out;
}

}  // namespace roofline::python
