// Fuzzes the readers of `roofline profile`'s recorded inputs: a callgrind profile (the cache
// simulator's output, --instrument) and a counter recording (--replay); the first byte picks the
// reader. Bad input must end in InputError; an accepted callgrind profile must be consistent
// (each function's costs and the totals one per event, the totals the functions' sums).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "roofline/counters.hpp"
#include "roofline/error.hpp"
#include "roofline/instrument.hpp"

namespace {
void check(const roofline::instrument::CallgrindProfile& p) {
  if (p.events.empty() || p.totals.size() != p.events.size()) std::abort();
  std::vector<double> sums(p.events.size(), 0);
  for (const auto& [name, costs] : p.functions) {
    if (costs.size() != p.events.size()) std::abort();
    for (size_t i = 0; i < costs.size(); ++i) sums[i] += costs[i];
  }
  for (size_t i = 0; i < sums.size(); ++i)
    if (!(sums[i] == p.totals[i] || std::fabs(sums[i] - p.totals[i]) <= 1e-9 * std::fabs(sums[i])))
      std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    if (data[0] % 2 == 0)
      check(roofline::instrument::parse_callgrind(text, "callgrind.out.1"));
    else
      roofline::counters::recording_from_json(text, "recording.json");
  } catch (const roofline::InputError&) {
  }
  return 0;
}
