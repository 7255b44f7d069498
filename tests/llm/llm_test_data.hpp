#pragma once
// What the LLM tests share: their data folder, a preset by name, and the A100's fp16 roofs
// (tests/data/llm/a100-80gb.json) that most hand derivations use.
#include <stdexcept>
#include <string>

#include "roofline/dtype.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"

namespace roofline::llm::test_data {

inline const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/llm/";

inline const ModelConfig& preset(const std::string& name) {
  for (const auto& m : presets())
    if (m.name == name) return m;
  throw std::runtime_error("no preset " + name);
}

inline Roofs a100() {
  return select_roofs(load_machine_file(kData + "a100-80gb.json").roofs, parse_dtype("fp16"));
}

}  // namespace roofline::llm::test_data
