// The sweep's JSON written row by row (sweep_json_text) is the text json_text writes for the
// whole tree (sweep_to_json), byte for byte, and refuses a number that is not finite naming its
// row, as the tree's check did.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <limits>
#include <string>
#include <vector>

#include "llm/llm_test_data.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/llm.hpp"
#include "roofline/llm_json.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

using namespace test_data;

Scenario sweep_base() {
  Scenario s;
  s.prompt = 0;  // each row's prompt is its context
  return s;
}

void expect_same_text(const std::vector<SweepRow>& rows, const ModelConfig& m, const Scenario& s,
                      const Roofs& r) {
  const std::string whole = json_text(sweep_to_json(rows, m, s, r)) + "\n";
  EXPECT_EQ(sweep_json_text(rows, m, s, r, "test"), whole);
}

TEST(LlmSweepJson, RowByRowIsTheWholeTreesText) {
  const ModelConfig& m = preset("llama-2-7b");
  const Scenario s = sweep_base();
  const auto rows = sweep(m, s, {1, 8, 64}, {512, 4096}, a100());
  ASSERT_EQ(rows.size(), 6u);
  expect_same_text(rows, m, s, a100());
  // "rows" among the keys where it sorts (after "pp", before "schema"), as the tree writes it.
  const std::string text = sweep_json_text(rows, m, s, a100(), "test");
  EXPECT_LT(text.find("\n  \"pp\": "), text.find("\n  \"rows\": [\n    {\n"));
  EXPECT_LT(text.find("\n  \"rows\": "), text.find("\n  \"schema\": "));
  const nlohmann::json back = nlohmann::json::parse(text);
  ASSERT_EQ(back["rows"].size(), 6u);
  EXPECT_EQ(back["rows"][5]["batch"], 64.0);
  EXPECT_EQ(back["rows"][5]["context"], 4096.0);
  EXPECT_EQ(back["rows"][5]["ttft"], rows[5].ttft.value);
  EXPECT_EQ(back["rows"][0]["fits"], true);   // 13.5 GB of weights in 80 GB
  EXPECT_EQ(back["rows"][5]["fits"], false);  // and 64 × 4096 tokens of 0.5 MiB each
  ASSERT_TRUE(rows[5].fits.has_value());
  EXPECT_FALSE(*rows[5].fits);
}

// Counted apart (int8 products, fp16 element-wise work): the rows' decode_vector_work and the
// document's vector_units; and a machine of unknown memory size (fits null).
TEST(LlmSweepJson, CountedApartAndUnknownFitAreTheSameText) {
  const ModelConfig& m = preset("llama-2-7b");
  const RoofSet set = load_machine_file(kData + "a100-80gb.json").roofs;
  const Roofs i8 = select_roofs(set, parse_dtype("int8"), std::nullopt, parse_dtype("fp16"));
  ASSERT_TRUE(i8.counts_apart());
  const Scenario s = sweep_base();
  const auto rows = sweep(m, s, {1, 16}, {1024}, i8);
  expect_same_text(rows, m, s, i8);
  const std::string text = sweep_json_text(rows, m, s, i8, "test");
  EXPECT_NE(text.find("\"decode_vector_work\": "), std::string::npos);
  EXPECT_NE(text.find("\"vector_units\": {"), std::string::npos);

  Roofs unknown = a100();
  unknown.memory_capacity.reset();
  const auto open = sweep(m, s, {1, 2}, {256, 512}, unknown);
  ASSERT_FALSE(open.front().fits.has_value());
  expect_same_text(open, m, s, unknown);
  EXPECT_NE(sweep_json_text(open, m, s, unknown, "test").find("\"fits\": null"), std::string::npos);
}

TEST(LlmSweepJson, ANumberThatIsNotFiniteIsRefusedNamingItsRow) {
  const ModelConfig& m = preset("llama-2-7b");
  const Scenario s = sweep_base();
  auto rows = sweep(m, s, {1, 2}, {512}, a100());
  rows[1].ttft = Seconds(std::numeric_limits<double>::infinity());
  for (int writes = 0; writes < 2; ++writes) {
    try {
      if (writes)
        (void)sweep_json_text(rows, m, s, a100(), "roofline llm");
      else
        refuse_non_finite_sweep(rows, m, s, a100(), "roofline llm");
      ADD_FAILURE() << "not refused";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                "roofline llm: /rows/1/ttft would be inf: the roofs or options are beyond what "
                "can be computed");
    }
  }
  // The tree's own check names the same place.
  EXPECT_THROW(refuse_non_finite(sweep_to_json(rows, m, s, a100()), "roofline llm"), InputError);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
