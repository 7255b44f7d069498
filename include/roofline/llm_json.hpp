#pragma once
// LLM inference on the roofline in JSON (docs/llm.md, docs/schema.md): Hugging Face config.json
// in, the reports, sweeps, comparisons and training steps of `roofline llm --json` out. Apart
// from roofline/llm.hpp so that the model and its costs are used without a JSON library.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/llm.hpp"

namespace roofline::llm {

/// A Hugging Face config.json already parsed; `origin` names the file in errors.
ModelConfig model_from_hf_json(const nlohmann::json& j, const std::string& origin);
nlohmann::json model_to_json(const ModelConfig& m);
/// `roofline llm --list --json`: each model as model_to_json gives it, in order.
nlohmann::json models_to_json(const std::vector<ModelConfig>& models);

nlohmann::json to_json(const Report& r);
/// The sweep document (schema roofline.llm-sweep) as one tree.
nlohmann::json sweep_to_json(const std::vector<SweepRow>& rows, const ModelConfig& m,
                             const Scenario& s, const Roofs& r);
/// The same document as text, written row by row (json_text_with_arrays): json_text of
/// sweep_to_json's tree and a newline, byte for byte, without that tree in memory (a sweep holds
/// up to 1e5 rows). A number that is not finite is refused as refuse_non_finite refuses it
/// (`what` names the command), naming its place ("/rows/3/ttft").
std::string sweep_json_text(const std::vector<SweepRow>& rows, const ModelConfig& m,
                            const Scenario& s, const Roofs& r, const std::string& what);
/// What sweep_json_text would refuse, refused without writing the text (the sweep's table and
/// CSV show the same numbers).
void refuse_non_finite_sweep(const std::vector<SweepRow>& rows, const ModelConfig& m,
                             const Scenario& s, const Roofs& r, const std::string& what);

nlohmann::json comparison_to_json(const MachineComparison& c);
/// `roofline llm --hw a,b,c --json`: what render_comparison_text shows, as a document (schema
/// roofline.llm-compare).
nlohmann::json comparison_document(const ModelConfig& m, double batch, double context,
                                   const std::vector<MachineComparison>& rows);

nlohmann::json request_to_json(const RequestTiming& t);
nlohmann::json serving_to_json(const ServingResult& s);
nlohmann::json speculative_to_json(const SpeculativeResult& s);
nlohmann::json cost_to_json(const TokenCost& c);
/// {"replicas", "devices_per_replica", "tokens_per_s"} (tokens_per_s: every replica's).
nlohmann::json data_parallel_to_json(const DataParallelSummary& d);
nlohmann::json training_to_json(const TrainingResult& t);
/// `roofline llm --train --json`: the model, the machine's roofs and the step (schema
/// roofline.llm-training).
nlohmann::json training_document(const TrainingResult& t, const ModelConfig& m, const Roofs& r);

}  // namespace roofline::llm
