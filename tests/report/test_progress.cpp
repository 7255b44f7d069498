// The progress line `roofline measure` draws on stderr (text.hpp: ProgressLine): within the
// terminal's width, and without escape sequences under TERM=dumb.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>

#include "roofline/table.hpp"
#include "roofline/text.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

TEST(ProgressLine, RedrawsOneLineWithinTheWidth) {
  ProgressLine p({80, true});
  EXPECT_EQ(p.clear(), "");  // nothing drawn yet: nothing to clear
  // A third of 79 columns for the bar (26), 40% of it filled (10.4 → 10).
  EXPECT_EQ(p.update(0.4, "compute roofs and clock"),
            "\r\033[K[##########................]  40% compute roofs and clock");
  EXPECT_EQ(p.update(0.4, "compute roofs and clock"), "");  // the same line is not redrawn
  EXPECT_EQ(p.update(1.0, "done"), "\r\033[K[##########################] 100% done");
  EXPECT_EQ(p.clear(), "\r\033[K");
  // 30 columns of bar at most; a name from elsewhere is shown escaped.
  ProgressLine wide({200, true});
  EXPECT_EQ(wide.update(0.5, "L1\033[2J"),
            "\r\033[K[###############...............]  50% L1\\u001b[2J");
}

TEST(ProgressLine, ANarrowTerminalGetsALineCutToItsWidth) {
  // 20 columns: 19 used, the bar (a third: 6) first, the name cut with an ellipsis.
  ProgressLine p({20, true});
  const std::string line = p.update(0.5, "compute roofs and clock (one core)");
  EXPECT_EQ(line, "\r\033[K[###...]  50% comp…");
  EXPECT_EQ(display_width(line.substr(4)), 19u);
  // Below 16 columns (a bar under 5) the bar is left out.
  ProgressLine narrow({12, true});
  EXPECT_EQ(narrow.update(0.07, "memory levels"), "\r\033[K  7% memor…");
  // Every width from 1 to 120 keeps the line within it.
  for (size_t cols = 1; cols <= 120; ++cols) {
    ProgressLine q({cols, true});
    const std::string l = q.update(0.33, "a long step name \u6771\u4eac and more of it to cut");
    EXPECT_LE(display_width(l.substr(4)), cols > 1 ? cols - 1 : 1) << cols;
  }
}

TEST(ProgressLine, ADumbTerminalGetsPlainLinesOnePerStep) {
  ProgressLine p({40, false});
  EXPECT_EQ(p.update(0.0, "first touch of the memory buffers"),
            "[  0%] first touch of the memory buffe…\n");
  EXPECT_EQ(p.update(0.1, "compute roofs and clock"), "[ 10%] compute roofs and clock\n");
  // Later updates of the same step write nothing: no "\r", no escape, no flood of lines.
  EXPECT_EQ(p.update(0.2, "compute roofs and clock"), "");
  EXPECT_EQ(p.update(0.3, "compute roofs and clock"), "");
  EXPECT_EQ(p.update(1.0, "done"), "[100%] done\n");
  EXPECT_EQ(p.clear(), "");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
