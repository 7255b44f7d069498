// `roofline run`'s text (text.hpp): the table of the suite's runs on a machine's roofs, the
// causes of a point above its roof and the BLAS story. The command only calls it; the numbers
// come from the placement (the suite's place_runs), here they are only written out.
#include <string>
#include <vector>

#include "roofline/quantity.hpp"
#include "roofline/text.hpp"

namespace roofline {

std::string run_timing_text(const RunRecord& r) {
  return format_seconds(Seconds(r.sustained)) + " (" + format_seconds(Seconds(r.median)) + ", " +
         format_number(100 * r.spread(), 2) + "%" + (r.noisy ? " noisy" : "") + ")";
}

std::string run_working_set_text(const RunRecord& r) {
  std::string s;
  if (r.params.count("m") && r.params.count("k"))
    s = "n=" + format_number(r.params.at("n"), 6);  // gemm (m, n, k): its n
  else if (r.params.count("nz"))
    s = format_number(r.params.at("nx"), 6) + "³";  // a 3-D grid: nx³
  else if (r.params.count("ny"))
    s = format_number(r.params.at("nx"), 6) + "²";  // a 2-D grid: nx²
  else if (r.params.count("rows"))
    s = "rows=" + format_si(r.params.at("rows"), "", 3);
  else if (r.params.count("n"))
    s = "n=" + format_si(r.params.at("n"), "", 3);
  return r.level + " " + format_bytes(Bytes(r.working_set_bytes)) + " " + s;
}

std::string render_blas_summary(const BlasInfo& b) {
  if (!b.available) return "OpenBLAS not available: " + b.why_not;
  std::string s = "OpenBLAS core: " + b.corename + " (" + b.config + ")";
  if (!b.best_core.empty()) s += "; best core for this CPU: " + b.best_core;
  if (b.generic) s += " — the detected core is narrower than the CPU";
  std::string env;
  for (const auto& [k, v] : b.environment) env += (env.empty() ? "" : ", ") + k + "=" + v;
  s += "\nenvironment: " + (env.empty() ? std::string("no OPENBLAS_*/OMP_NUM_THREADS set") : env);
  return s;
}

std::vector<std::string> run_table_header() {
  return {"kernel", "working set", "W", "Q", "I", "T (median, spread)", "P", "attain.", "verdict"};
}

std::vector<std::vector<std::string>> run_table_rows(const Placement& placement,
                                                     const UnitSystem& u) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : placement.placed) {
    const LevelTraffic& q = p.point.traffic.front();
    const std::string i = format_intensity(p.point.work / q.bytes, u) + " @" + q.level;
    std::string att = "—", verdict = p.why_not.empty() ? "—" : "(no roof)";
    if (p.diagnosis) {
      att = format_number(p.diagnosis->attainment, 3) + " " + p.diagnosis->binding_level;
      verdict = to_string(p.diagnosis->verdict);
    }
    if (!p.result.passed) verdict = "CHECK FAILED";
    rows.push_back({p.kernel, run_working_set_text(p.result), format_work(p.point.work, u),
                    format_bytes(q.bytes, u), i, run_timing_text(p.result),
                    format_work_rate(p.point.performance(), u), att, verdict});
  }
  for (const auto& r : placement.bandwidth_only)
    rows.push_back({r.label(), run_working_set_text(r), "0", format_bytes(r.count.traffic, u),
                    "0 (no arithmetic)", run_timing_text(r),
                    "Q/T = " + format_byte_rate(ByteRate(r.count.traffic.value / r.sustained), u),
                    "—", r.passed ? "bandwidth only" : "CHECK FAILED"});
  return rows;
}

std::string render_run_text(const Placement& placement, const RoofSet& roofs, int threads,
                            const BlasInfo* blas) {
  std::string text = "machine: " + roofs.name + "   threads: " + std::to_string(threads) + "\n";
  if (blas) text += render_blas_summary(*blas) + "\n";
  Table t(run_table_header());
  for (auto& row : run_table_rows(placement, roofs.units)) t.add_row(std::move(row));
  text += t.render();
  for (const auto& p : placement.placed)
    if (!p.above_cause.empty())
      text += p.point.name + " is " + format_number(p.diagnosis->attainment, 3) + "× its " +
              p.diagnosis->binding_level + " roof: " + p.above_cause + "\n";
  // The BLAS story: which core ran and what the flat roof above it says.
  for (const auto& p : placement.placed) {
    if (p.corename.empty() || !p.diagnosis) continue;
    text += "\n" + p.point.name + " (OpenBLAS core " + p.corename + ", judged against '" +
            p.diagnosis->compute_roof + "'): " + p.diagnosis->title + "\n  " +
            p.diagnosis->prescription + "\n";
  }
  return text;
}

}  // namespace roofline
