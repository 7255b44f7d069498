// `roofline profile`'s message when it is interrupted while its program runs, rendered by report
// from its parts (render_profile_interrupted); the command says it and exits.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>

#include "roofline/text.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

TEST(ProfileInterruptedText, TheSignalTheProgramsStatusAndTheOutputsLeftAsTheyWere) {
  EXPECT_EQ(render_profile_interrupted("SIGINT", 130, "SIGINT", {"out.json", "", "chart.svg"}),
            "roofline: interrupted (SIGINT) while the program ran; the signal was passed on to "
            "it and it ended with exit status 130 (SIGINT); no point is placed and nothing "
            "written (out.json, chart.svg left as it was)\n");
  // The program caught the signal and exited: no signal of its own. Standard output ("-") and
  // outputs not asked for ("") are not named; none named, no parenthesis.
  EXPECT_EQ(render_profile_interrupted("SIGTERM", 0, "", {"-", "", ""}),
            "roofline: interrupted (SIGTERM) while the program ran; the signal was passed on to "
            "it and it ended with exit status 0; no point is placed and nothing written\n");
  EXPECT_EQ(render_profile_interrupted("SIGHUP", 1, "", {}),
            "roofline: interrupted (SIGHUP) while the program ran; the signal was passed on to "
            "it and it ended with exit status 1; no point is placed and nothing written\n");
  // A file name is made safe for the terminal.
  EXPECT_EQ(render_profile_interrupted("SIGINT", 137, "SIGKILL", {"", "c\x1b[2J.json", ""}),
            "roofline: interrupted (SIGINT) while the program ran; the signal was passed on to "
            "it and it ended with exit status 137 (SIGKILL); no point is placed and nothing "
            "written (c\\u001b[2J.json left as it was)\n");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
