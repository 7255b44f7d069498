// What a chart of the model's points says of memory (docs/llm.md, --report): which points'
// configurations do not fit, with the figures the text report gives. The fit itself is
// footprint()'s (Report::memory, SweepRow::fits): read here, never judged again.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"

namespace roofline::llm {

namespace {
/// "91.93 GB of 80 GB (HBM2e)", or the bytes alone when the capacity is unknown.
std::string needed_of_capacity(Bytes needed, const Roofs& r) {
  return format_bytes(needed) +
         (r.memory_capacity
              ? " of " + format_bytes(Bytes(*r.memory_capacity)) + " (" + r.memory_level + ")"
              : std::string());
}
std::string row_name(const SweepRow& row) {
  return "B=" + format_number(row.batch, 10) + " L=" + format_number(row.context, 10);
}
}  // namespace

std::map<std::size_t, std::string> points_over_memory(const Report& r) {
  std::map<std::size_t, std::string> out;
  if (!r.memory.fits || *r.memory.fits) return out;
  const std::string figures = needed_of_capacity(r.memory.total(), r.roofs);
  const std::size_t n = to_points(r).size();
  for (std::size_t k = 0; k < n; ++k) out[k] = figures;
  return out;
}

std::map<std::size_t, std::string> sweep_points_over_memory(const std::vector<SweepRow>& rows,
                                                            const Roofs& r) {
  // sweep_points makes one point per row, in row order.
  std::map<std::size_t, std::string> out;
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (rows[k].fits && !*rows[k].fits) out[k] = needed_of_capacity(rows[k].memory, r);
  return out;
}

std::vector<std::string> sweep_warnings(const std::vector<SweepRow>& rows, const Roofs& r) {
  std::vector<const SweepRow*> over;
  for (const auto& row : rows)
    if (row.fits && !*row.fits) over.push_back(&row);
  if (over.empty() || !r.memory_capacity) return {};
  // The first kSweepRowsNamed rows by name, the rest counted: the warning stays one line's worth
  // however many rows the sweep has (the table names each).
  const std::size_t named = std::min(over.size(), kSweepRowsNamed);
  const std::size_t rest = over.size() - named;
  std::string list;
  for (std::size_t k = 0; k < named; ++k)
    list += std::string(k == 0                        ? ""
                        : k + 1 == named && rest == 0 ? " and "
                                                      : ", ") +
            row_name(*over[k]) + " (" + format_bytes(over[k]->memory) + ")";
  if (rest > 0) list += " and " + std::to_string(rest) + " more";
  const bool one = over.size() == 1;
  return {list + (one ? " exceeds" : " exceed") + " the " +
          format_bytes(Bytes(*r.memory_capacity)) + " of " + r.memory_level + " per device: " +
          (one ? "it does not fit, and the times assume it did"
               : "they do not fit, and the times assume they did")};
}

std::vector<std::string> sweep_estimate_warnings(const std::vector<SweepRow>& rows,
                                                 const ModelConfig& m, const Scenario& s,
                                                 const Roofs& r) {
  Scenario longest = s;
  longest.context = 0;
  for (const auto& row : rows) longest.context = std::max(longest.context, row.context);
  return estimate_warnings(m, longest, r);
}

std::vector<std::string> sweep_chart_warnings(const std::vector<SweepRow>& rows,
                                              const ModelConfig& m, const Scenario& s,
                                              const Roofs& r) {
  std::vector<std::string> out = sweep_estimate_warnings(rows, m, s, r);
  for (auto& w : sweep_warnings(rows, r)) out.push_back(std::move(w));
  return out;
}

}  // namespace roofline::llm
