// The checks of machine facts that need no document (roofline/machine_facts.hpp); io reads the
// facts themselves.
#include "roofline/machine_facts.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace roofline {

bool is_compute_capability(const std::string& text) {
  const auto dot = text.find('.');
  const auto digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 3 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
  };
  return dot != std::string::npos && digits(std::string_view(text).substr(0, dot)) &&
         digits(std::string_view(text).substr(dot + 1));
}

}  // namespace roofline
