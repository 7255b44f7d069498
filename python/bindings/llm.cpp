// roofline.llm (llm.hpp): a transformer's operators on a machine's roofs — prefill, decode,
// TTFT, time per token — the analysis `roofline llm` prints.
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>

#include "common.hpp"
#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/sanitize.hpp"

namespace roofline::python {

namespace {

/// A batch, context or prompt length checked as the CLI checks its flags (a whole number from
/// 1 to 1e9, llm::parse_int_list), with the same message.
double whole(double v, const char* what) {
  if (!std::isfinite(v))
    throw InputError(std::string(what) + ": must be a whole number (got " + std::to_string(v) +
                     ")");
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return llm::parse_int_list(text, what).front();
}

struct LlmReport {
  llm::Report r;
  MachineDocument machine;
};

LlmReport analyse(const llm::ModelConfig& model, const Machine& machine, double batch,
                  double context, std::optional<double> prompt, const std::string& phase, int tp,
                  bool flash, const std::string& weights, const std::string& activations,
                  const std::string& kv_cache, const std::string& compute,
                  std::optional<double> interconnect, std::optional<double> measured) {
  llm::Scenario s;
  s.batch = whole(batch, "batch");
  s.context = whole(context, "context");
  s.prompt = prompt ? whole(*prompt, "prompt") : s.context;
  if (measured && (!std::isfinite(*measured) || !(*measured > 0)))
    throw InputError("measured_tokens_per_s: must be > 0 and finite (got " +
                     std::to_string(*measured) + ")");
  s.tp = tp;
  s.flash = flash;
  // As the CLI does: an empty dtype takes the machine's native 16-bit type (bf16 on TPUs).
  s.dtypes = llm::make_dtypes(weights, activations, kv_cache, compute,
                              llm::native_16bit(machine.doc.roofs));
  std::optional<ByteRate> ic;
  if (interconnect) {
    if (!(*interconnect > 0) || !std::isfinite(*interconnect))
      throw InputError("interconnect_byte_per_s: must be > 0 and finite (got " +
                       std::to_string(*interconnect) + ")");
    ic = ByteRate(*interconnect);
  }
  const llm::Roofs roofs = llm::select_roofs(machine.doc.roofs, s.dtypes.compute, ic);
  return LlmReport{llm::analyse(model, s, llm::parse_phase(phase), roofs, measured), machine.doc};
}

}  // namespace

void register_llm(py::module_& root) {
  py::module_ m = root.def_submodule("llm", "LLM inference on the roofline (docs/llm.md).");

  py::class_<llm::ModelConfig>(m, "Model", "The shape of a decoder-only transformer.")
      .def_readonly("name", &llm::ModelConfig::name)
      .def_readonly("model_type", &llm::ModelConfig::model_type)
      .def_readonly("origin", &llm::ModelConfig::origin)
      .def_readonly("source", &llm::ModelConfig::source)
      .def_readonly("hidden", &llm::ModelConfig::hidden)
      .def_readonly("heads", &llm::ModelConfig::heads)
      .def_readonly("kv_heads", &llm::ModelConfig::kv_heads)
      .def_readonly("head_dim", &llm::ModelConfig::head_dim)
      .def_readonly("intermediate", &llm::ModelConfig::intermediate)
      .def_readonly("layers", &llm::ModelConfig::layers)
      .def_readonly("vocab", &llm::ModelConfig::vocab)
      .def_readonly("experts", &llm::ModelConfig::experts)
      .def_readonly("experts_per_token", &llm::ModelConfig::experts_per_token)
      .def_readonly("sliding_window", &llm::ModelConfig::sliding_window)
      .def_readonly("max_positions", &llm::ModelConfig::max_positions)
      .def_readonly("published_params", &llm::ModelConfig::published_params)
      .def(
          "parameters",
          [](const llm::ModelConfig& c, int tp) {
            const auto p = llm::count_parameters(c, tp);
            py::dict d;
            d["attention"] = p.attention;
            d["mlp"] = p.mlp;
            d["norms"] = p.norms;
            d["embedding"] = p.embedding;
            d["lm_head"] = p.lm_head;
            d["total"] = p.total;
            d["matmul"] = p.matmul;
            d["active"] = p.active;
            return d;
          },
          py::arg("tp") = 1, "Parameter counts (elements), of one of `tp` tensor-parallel devices.")
      .def("to_dict",
           [](const llm::ModelConfig& c) { return json_to_python(llm::model_to_json(c)); })
      .def("__repr__",
           [](const llm::ModelConfig& c) { return "<llm.Model '" + terminal_safe(c.name) + "'>"; });

  m.def("model", &llm::resolve_model, py::arg("name_or_path"),
        "A preset ('llama-2-7b', case-insensitive) or the path of a Hugging Face config.json.");
  m.def(
      "models", []() { return llm::presets(); }, "The built-in presets (`roofline llm --list`).");

  py::class_<llm::Aggregate>(m, "Aggregate", "A group of operators as one point.")
      .def_readonly("name", &llm::Aggregate::name)
      .def_property_readonly("work_flop", [](const llm::Aggregate& a) { return a.work.value; })
      .def_property_readonly("traffic_byte",
                             [](const llm::Aggregate& a) { return a.traffic.value; })
      .def_property_readonly("time_s", [](const llm::Aggregate& a) { return a.time.value; })
      .def_property_readonly("intensity_flop_per_byte",
                             [](const llm::Aggregate& a) { return a.intensity().value; });

  py::class_<LlmReport>(m, "Report",
                        "One (batch, context) on a machine: prefill and decode operators, TTFT, "
                        "time per token, tokens/s, memory, critical batch.")
      .def_property_readonly("model", [](const LlmReport& x) { return x.r.model; })
      .def_property_readonly("machine", [](const LlmReport& x) { return Machine{x.machine}; })
      .def_property_readonly("compute_roof",
                             [](const LlmReport& x) { return x.r.roofs.compute_name; })
      .def_property_readonly("memory_level",
                             [](const LlmReport& x) { return x.r.roofs.memory_level; })
      .def_property_readonly("peak_flop_per_s",
                             [](const LlmReport& x) { return x.r.roofs.peak.value; })
      .def_property_readonly("bandwidth_byte_per_s",
                             [](const LlmReport& x) { return x.r.roofs.bandwidth.value; })
      .def_property_readonly("ridge_flop_per_byte",
                             [](const LlmReport& x) { return x.r.roofs.ridge().value; })
      .def_property_readonly("prefill", [](const LlmReport& x) { return x.r.prefill_point; })
      .def_property_readonly("decode_linear", [](const LlmReport& x) { return x.r.decode_linear; })
      .def_property_readonly("decode_attention",
                             [](const LlmReport& x) { return x.r.decode_attention; })
      .def_property_readonly(
          "ttft_s", [](const LlmReport& x) { return x.r.ttft.value; },
          "time to first token: the prefill of batch × prompt tokens")
      .def_property_readonly(
          "time_per_token_s", [](const LlmReport& x) { return x.r.time_per_token.value; },
          "one decode step (each sequence gets one token)")
      .def_property_readonly(
          "tokens_per_s", [](const LlmReport& x) { return x.r.tokens_per_s; },
          "batch ÷ decode step time")
      .def_property_readonly(
          "memory_byte", [](const LlmReport& x) { return x.r.memory.total().value; },
          "weights + KV cache + largest activation working set, per device")
      .def_property_readonly(
          "fits", [](const LlmReport& x) { return x.r.memory.fits; },
          "None when the memory size is unknown")
      .def_property_readonly("warnings", [](const LlmReport& x) { return x.r.warnings; })
      .def(
          "points", [](const LlmReport& x) { return llm::to_points(x.r); },
          "The operators of the phase as Points (time = the modelled time).")
      .def(
          "to_dict", [](const LlmReport& x) { return json_to_python(llm::to_json(x.r)); },
          "The same object as `roofline llm --json`.")
      .def("__str__",
           [](const LlmReport& x) { return terminal_safe_lines(llm::render_text(x.r)); });

  m.def("analyse", &analyse, py::arg("model"), py::arg("machine"), py::arg("batch") = 1.0,
        py::arg("context") = 2048.0, py::arg("prompt") = std::nullopt, py::arg("phase") = "decode",
        py::arg("tp") = 1, py::arg("flash") = false, py::arg("weights") = "",
        py::arg("activations") = "", py::arg("kv_cache") = "", py::arg("compute") = "",
        py::arg("interconnect_byte_per_s") = std::nullopt,
        py::arg("measured_tokens_per_s") = std::nullopt,
        "`roofline llm` for one batch and context: prompt None = the context; weights, "
        "activations, kv_cache, compute are dtype names ('' = derived as the CLI does: weights in "
        "the machine's native 16-bit type, bf16 where it has no fp16 roof).");
}

}  // namespace roofline::python
