// `llm --list`'s table, rendered by the llm layer (render_presets_text): each cell of a dense
// model's row and of a mixture of experts' row, and only the models given.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <sstream>
#include <string>
#include <vector>

#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {
namespace ROOFLINE_UNITY_ID {

/// A table line's cells: the text between runs of two or more spaces.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  size_t spaces = 0;
  for (char c : line) {
    if (c == ' ') {
      ++spaces;
      continue;
    }
    if (spaces >= 2 && !cell.empty()) {
      out.push_back(cell);
      cell.clear();
    }
    if (spaces == 1 && !cell.empty()) cell += ' ';
    spaces = 0;
    cell += c;
  }
  if (!cell.empty()) out.push_back(cell);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(LlmPresetsText, EachCellOfADenseAndAMixtureRow) {
  const ModelConfig dense = resolve_model("llama-2-70b");
  const ModelConfig moe = resolve_model("mixtral-8x7b");
  const auto lines = lines_of(render_presets_text({dense, moe}));
  ASSERT_EQ(lines.size(), 4u);  // header, rule, two rows
  EXPECT_EQ(cells(lines[0]), (std::vector<std::string>{"preset", "parameters", "layers", "hidden",
                                                       "heads", "kv heads", "mlp", "source"}));
  // Parameters as SI with no unit: 68.98e9 → "68.98 G"; the dense MLP its intermediate size.
  EXPECT_EQ(cells(lines[2]), (std::vector<std::string>{"llama-2-70b", "68.98 G", "80", "8192", "64",
                                                       "8", "28672", dense.source}));
  EXPECT_EQ(format_si(count_parameters(dense).total, ""), "68.98 G");
  // A mixture of experts: its experts × each expert's intermediate size.
  EXPECT_EQ(cells(lines[3]), (std::vector<std::string>{"mixtral-8x7b", "46.7 G", "32", "4096", "32",
                                                       "8", "8 experts × 14336", moe.source}));
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::llm
