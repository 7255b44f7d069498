// `roofline check`'s text, rendered by report (text.hpp) from checks made by hand: each line's
// text, the escaping of a name from a file, and the failed points named for standard error.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>
#include <vector>

#include "roofline/text.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

TEST(CheckText, LinePerPointThenNotesAndVerdict) {
  const std::vector<PointCheck> checks = {
      {"a", CheckStatus::passed, {"attainment 0.9 >= 0.7"}},
      {"b\x1b[31m", CheckStatus::failed, {"attainment 0.5 < 0.7", "regressed 20%"}},
      {"c", CheckStatus::skipped, {}}};
  EXPECT_EQ(render_check_text(checks, {"rule 'x*' matches no point"}, true, "3 points: S"),
            "PASS  a: attainment 0.9 >= 0.7\n"
            "FAIL  b\\u001b[31m: attainment 0.5 < 0.7; regressed 20%\n"
            "SKIP  c: \n"
            "note: rule 'x*' matches no point\n"
            "roofline check: FAILED, 3 points: S\n");
  EXPECT_EQ(render_check_text({}, {}, false, "0 points"), "roofline check: passed, 0 points\n");
}

TEST(CheckText, FailedNamesAtMostTen) {
  std::vector<PointCheck> checks = {{"ok", CheckStatus::passed, {}}};
  EXPECT_EQ(render_failed_names(checks), "");
  for (int i = 1; i <= 12; ++i)
    checks.push_back({"p" + std::to_string(i), CheckStatus::failed, {}});
  EXPECT_EQ(render_failed_names(checks),
            " (failed: p1, p2, p3, p4, p5, p6, p7, p8, p9, p10 and 2 more)");
  checks.resize(3);
  EXPECT_EQ(render_failed_names(checks), " (failed: p1, p2)");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
