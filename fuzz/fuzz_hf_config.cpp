// Fuzzes the Hugging Face config.json reader of `roofline llm`: bad configs must end in
// InputError; an accepted model must have a positive parameter count.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto model =
        roofline::llm::model_from_hf_json(roofline::parse_json(text, "fuzz"), "fuzz");
    const auto count = roofline::llm::count_parameters(model);
    if (!(count.total > 0) || !(count.active <= count.total * (1 + 1e-12))) std::abort();
  } catch (const roofline::InputError&) {
  }
  return 0;
}
