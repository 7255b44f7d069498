// `roofline check`'s text (text.hpp): a line per point, the notes and the gate's verdict; and
// the points that failed, named for standard error when the report went elsewhere.
#include <string>
#include <vector>

#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"

namespace roofline {

std::string render_check_text(const std::vector<PointCheck>& checks,
                              const std::vector<std::string>& notes, bool gate_failed,
                              const std::string& summary) {
  std::string text;
  for (const auto& c : checks) {
    text += c.status == CheckStatus::failed    ? "FAIL  "
            : c.status == CheckStatus::skipped ? "SKIP  "
                                               : "PASS  ";
    text += terminal_safe(c.name) + ": ";
    for (size_t k = 0; k < c.why.size(); ++k) text += (k ? "; " : "") + c.why[k];
    text += "\n";
  }
  for (const auto& n : notes) text += "note: " + n + "\n";
  return text + (gate_failed ? "roofline check: FAILED, " : "roofline check: passed, ") + summary +
         "\n";
}

std::string render_failed_names(const std::vector<PointCheck>& checks) {
  constexpr size_t kMostNamed = 10;
  std::vector<std::string> names;
  size_t failed = 0;
  for (const auto& c : checks)
    if (c.status == CheckStatus::failed && ++failed <= kMostNamed)
      names.push_back(terminal_safe(c.name));
  if (names.empty()) return "";
  std::string s = " (failed: " + join(names, ", ");
  if (failed > kMostNamed) s += " and " + std::to_string(failed - kMostNamed) + " more";
  return s + ")";
}

}  // namespace roofline
