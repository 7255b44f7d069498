// `roofline profile`'s message when it was interrupted while its program ran (text.hpp). The
// command says it and exits with 128 + the signal number.
#include <string>
#include <vector>

#include "roofline/sanitize.hpp"
#include "roofline/text.hpp"

namespace roofline {

std::string render_profile_interrupted(const std::string& signal, int exit_status,
                                       const std::string& program_signal,
                                       const std::vector<std::string>& outputs) {
  std::string named;
  for (const auto& o : outputs)
    if (!o.empty() && o != "-") named += (named.empty() ? "" : ", ") + terminal_safe(o);
  return "roofline: interrupted (" + signal + ") while the program ran; " +
         "the signal was passed on to it and it ended with exit status " +
         std::to_string(exit_status) +
         (program_signal.empty() ? std::string() : " (" + program_signal + ")") +
         "; no point is placed and nothing written" +
         (named.empty() ? std::string() : " (" + named + " left as it was)") + "\n";
}

}  // namespace roofline
