// A long task's progress line for a terminal (roofline/text.hpp: ProgressLine).
#include <algorithm>
#include <cmath>
#include <string>

#include "roofline/sanitize.hpp"
#include "roofline/table.hpp"
#include "roofline/text.hpp"

namespace roofline {
namespace {
std::string progress_percent(double fraction) {
  const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
  std::string p = std::to_string(static_cast<int>(f * 100 + 0.5));
  return std::string(3 - p.size(), ' ') + p + "%";
}
}  // namespace

std::string ProgressLine::update(double fraction, const std::string& what) {
  // The last column is left free: a line that fills it wraps on some terminals, and the next
  // "\r" then redraws only the wrapped part.
  const size_t room = style_.columns > 1 ? style_.columns - 1 : 1;
  const std::string name = terminal_safe(what);
  if (!style_.escapes) {
    if (what == last_) return "";
    last_ = what;
    return cut_to_columns("[" + progress_percent(fraction) + "] " + name, room) + "\n";
  }
  // The bar takes a third of the line, 30 columns at most; under 5 it is left out.
  const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
  const size_t bar_width = std::min<size_t>(30, room / 3);
  std::string line;
  if (bar_width >= 5) {
    std::string bar(static_cast<size_t>(f * static_cast<double>(bar_width) + 0.5), '#');
    bar.resize(bar_width, '.');
    line = "[" + bar + "] ";
  }
  line = cut_to_columns(line + progress_percent(fraction) + " " + name, room);
  if (drawn_ && line == last_) return "";
  last_ = line;
  drawn_ = true;
  return "\r\033[K" + line;
}

std::string ProgressLine::clear() const {
  return drawn_ ? "\r\033[K" : "";
}

}  // namespace roofline
