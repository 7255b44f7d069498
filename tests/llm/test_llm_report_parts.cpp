// The parts of `roofline llm`'s output made in the llm library rather than the command: one
// (batch, context)'s whole text and the warnings it says on standard error, and a sweep's chart
// title and warnings.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>
#include <vector>

#include "llm/llm_test_data.hpp"
#include "roofline/llm.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

using namespace test_data;

Report llama_on_a100() {
  Scenario s;
  s.batch = 8;
  s.context = 2048;
  s.prompt = 2048;
  return analyse(preset("llama-2-7b"), s, Phase::decode, a100());
}

TEST(LlmReportParts, WholeTextIsTheStepsThenTheSections) {
  const Report r = llama_on_a100();
  const std::string step = render_text(r);
  ASSERT_EQ(step.rfind("llama-2-7b", 0), 0u) << step;
  const std::string sections = "\nRequest: 128 output tokens\n  TTFT 1 ms\n";
  EXPECT_EQ(render_report_text(r, sections), step + sections);
  // No section asked for: the step's text alone.
  EXPECT_EQ(render_report_text(r, ""), step);
}

TEST(LlmReportParts, WarningsAreTheStepsThenEachSectionsNewOneOnce) {
  Report r = llama_on_a100();
  r.warnings = {"--pp 3 does not divide the 32 layers", "no vector roof"};
  // The request repeats the step's --pp warning; serving and speculative decoding each add one
  // the step does not give, and the second repeats the first.
  const std::vector<std::string> sections = {
      "--pp 3 does not divide the 32 layers", "the batch exceeds the KV cache",
      "the drafter's vocabulary differs", "the batch exceeds the KV cache"};
  EXPECT_EQ(report_warnings(r, sections),
            (std::vector<std::string>{"--pp 3 does not divide the 32 layers", "no vector roof",
                                      "the batch exceeds the KV cache",
                                      "the drafter's vocabulary differs"}));
  EXPECT_EQ(report_warnings(r, {}), r.warnings);
  r.warnings.clear();
  EXPECT_EQ(report_warnings(r, {"a", "b", "a"}), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(report_warnings(r, {}).empty());
}

TEST(LlmReportParts, SweepChartTitleNamesModelAndMachine) {
  Roofs roofs = a100();
  roofs.machine = "a100-80gb";
  EXPECT_EQ(sweep_chart_title(preset("llama-2-7b"), roofs),
            "llama-2-7b on a100-80gb: decode step per (batch, context)");
  roofs.machine = "vm (m1.json)";
  EXPECT_EQ(sweep_chart_title(preset("mixtral-8x7b"), roofs),
            "mixtral-8x7b on vm (m1.json): decode step per (batch, context)");
}

// llama-2-7b was trained to 4096 positions: a sweep to 8192 warns of its longest context only,
// whatever order the contexts come in, and its chart adds the rows that do not fit.
TEST(LlmReportParts, SweepWarnsAtItsLongestContextAndItsChartOfTheRowsOverMemory) {
  const ModelConfig& m = preset("llama-2-7b");
  Scenario s;
  s.prompt = 0;
  const Roofs roofs = a100();
  const auto rows = sweep(m, s, {1, 256}, {8192, 512}, roofs);
  const std::vector<std::string> estimate = sweep_estimate_warnings(rows, m, s, roofs);
  EXPECT_EQ(estimate, (std::vector<std::string>{
                          "context 8192 exceeds llama-2-7b's max_position_embeddings 4096: the "
                          "model was not trained for it; the cost is modelled, the quality is "
                          "not"}));
  const std::vector<std::string> over = sweep_warnings(rows, roofs);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_NE(over.front().find("B=256 L=8192"), std::string::npos) << over.front();
  EXPECT_EQ(sweep_chart_warnings(rows, m, s, roofs),
            (std::vector<std::string>{estimate.front(), over.front()}));
  // Within the trained context, no warning of it; every row fits, so the chart adds none.
  const auto short_rows = sweep(m, s, {1, 8}, {512, 4096}, roofs);
  EXPECT_TRUE(sweep_estimate_warnings(short_rows, m, s, roofs).empty());
  EXPECT_TRUE(sweep_chart_warnings(short_rows, m, s, roofs).empty());
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
