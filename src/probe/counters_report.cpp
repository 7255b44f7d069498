// What `roofline profile` prints of a counted run, and `profile --self-test`'s report: text and
// JSON of the counters' results.
#include <algorithm>

#include "roofline/counters.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline::counters {
namespace {

std::string self_test_ratio_text(const SelfTestRow& row) {
  return row.ratio ? format_number(*row.ratio, 3) : std::string("-");
}

/// A case's events with their readings, and its compared rows.
nlohmann::json self_test_run_json(const SelfTestRun& r) {
  nlohmann::json rj = {{"kernel", r.kernel}, {"level", r.level}, {"threads", r.threads}};
  if (!r.skipped.empty()) {
    rj["skipped"] = r.skipped;
    return rj;
  }
  rj["calls"] = r.calls;
  rj["check"] = r.check;
  rj["counted_threads"] = r.counted_threads;
  rj["open_failures"] = r.failures;
  nlohmann::json ev = nlohmann::json::array();
  for (std::size_t i = 0; i < r.events.size(); ++i)
    ev.push_back({{"name", r.events[i].name},
                  {"config", r.events[i].config},
                  {"weight", r.events[i].weight},
                  {"value", r.readings[i].value},
                  {"time_enabled", r.readings[i].time_enabled},
                  {"time_running", r.readings[i].time_running}});
  rj["events"] = ev;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    nlohmann::json x = {{"quantity", row.quantity}, {"events", row.events},
                        {"counted", row.counted},   {"expected", row.expected},
                        {"compared", row.compared}, {"pass", row.pass},
                        {"verdict", row.verdict},   {"why", row.why}};
    if (row.ratio) x["ratio"] = *row.ratio;
    rows.push_back(x);
  }
  rj["rows"] = rows;
  return rj;
}

/// One case: its heading line, then each row counted against expected, how, and its events.
std::string self_test_run_text(const SelfTestRun& r) {
  std::string t = "\n" + r.kernel + ", working set in " + r.level + ", " +
                  std::to_string(r.threads) + " thread(s)";
  if (!r.skipped.empty()) return t + ": skipped (" + r.skipped + ")\n";
  t += ", " + format_number(r.calls, 6) + " calls, " + std::to_string(r.counted_threads) +
       " threads of this process counted; result check " + r.check + "\n";
  for (const auto& f : r.failures) t += "  could not open " + f + "\n";
  for (const auto& row : r.rows) {
    const bool bytes = row.quantity.rfind("Q", 0) == 0;
    auto fmt = [&](double v) { return bytes ? format_bytes(Bytes(v)) : format_work(Work(v)); };
    t += "  " + row.quantity + ": ";
    if (row.compared)
      t += "counted " + fmt(row.counted) + ", expected " + fmt(row.expected) +
           ", counted/expected " + self_test_ratio_text(row) + " — " + row.verdict + "\n";
    else
      t += row.verdict + "\n";
    t += "    " + row.why + "\n";
    if (!row.events.empty()) t += "    events: " + join(row.events) + "\n";
  }
  return t;
}

}  // namespace

SelfTestVerdict self_test_verdict(const std::vector<SelfTestRun>& runs) {
  SelfTestVerdict v;
  for (const auto& r : runs)
    for (const auto& row : r.rows) {
      v.all_pass = v.all_pass && row.pass;
      v.any_compared = v.any_compared || row.compared;
    }
  return v;
}

std::string render_self_test_text(const std::vector<SelfTestRun>& runs, const EventPlan& plan) {
  const SelfTestVerdict v = self_test_verdict(runs);
  std::string t = "profile --self-test on " + plan.cpu_description + "\n";
  for (const auto& r : runs) t += self_test_run_text(r);
  for (const auto& l : plan.limits) t += "limit: " + l + "\n";
  for (const auto& m : plan.missing) t += "not counted: " + m + "\n";
  t += std::string("\nself-test: ") +
       (!v.any_compared ? "nothing could be compared"
        : v.all_pass    ? "every count within its tolerance"
                        : "a count is off (see above)") +
       "\n";
  return t;
}

std::string self_test_json_text(const std::vector<SelfTestRun>& runs, const EventPlan& plan) {
  nlohmann::json j = {{"schema", "roofline.selftest"},
                      {"version", 1},
                      {"pmu", true},
                      {"cpu", plan.cpu_description},
                      {"limits", plan.limits},
                      {"missing", plan.missing},
                      {"pass", self_test_verdict(runs).passed()}};
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& r : runs) cases.push_back(self_test_run_json(r));
  j["cases"] = cases;
  return json_text(j) + "\n";
}

std::string render_self_test_no_pmu_text(const std::string& why) {
  return "profile --self-test: no PMU — this machine gives no hardware counters, so nothing can "
         "be checked.\n" +
         why + "\n";
}

std::string self_test_no_pmu_json_text(const std::string& why) {
  return json_text(nlohmann::json(
             {{"schema", "roofline.selftest"}, {"version", 1}, {"pmu", false}, {"message", why}})) +
         "\n";
}

std::string render_profile_head(const std::string& what, const RunResult& r, const CountedPoints& o,
                                const std::vector<std::string>& messages) {
  std::string t = "profile of " + what + "\n";
  t += "  exit status " + std::to_string(r.exit_status) +
       (r.term_signal ? " (signal " + std::to_string(r.term_signal) + ")" : "") +
       ", T = " + format_seconds(Seconds(r.wall_seconds)) + " (wall clock)";
  if (r.totals.cpu_seconds > 0)
    t += ", CPU time " + format_seconds(Seconds(r.totals.cpu_seconds)) + " (" +
         format_number(r.totals.cpu_seconds / std::max(r.wall_seconds, 1e-12), 3) + " cores busy)";
  t += "\n";
  if (!r.plan.cpu_description.empty()) t += "  CPU: " + r.plan.cpu_description + "\n";
  if (r.totals.flops_counted) {
    t += "  counted W = " + format_work(Work(r.totals.flops));
    std::string parts;
    for (const auto& [prec, f] : r.totals.flops_by_precision)
      parts += (parts.empty() ? "" : ", ") + (prec.empty() ? "no precision" : prec) + " " +
               format_work(Work(f));
    t += " (" + parts + ")\n";
  }
  for (const auto& [lvl, b] : r.totals.bytes_by_level)
    t += "  counted Q(" + lvl + ") = " + format_bytes(Bytes(b)) + "\n";
  if (r.totals.min_running_fraction < 1)
    t += "  counters were multiplexed (lowest running share " +
         format_number(r.totals.min_running_fraction * 100, 3) +
         "%): counts scaled by time enabled / time running\n";
  for (const auto& l : r.plan.limits) t += "  limit: " + l + "\n";
  for (const auto& msg : messages) t += "  " + msg + "\n";
  for (const auto& n : o.notes) t += "  note: " + n + "\n";
  return t;
}

std::string profile_json_text(const std::vector<std::string>& command, const RunResult& r,
                              const CountedPoints& o, const std::vector<std::string>& messages,
                              const RoofSet* roofs) {
  PointsDocument doc;
  doc.points = o.points;
  if (roofs) doc.machine = roofs->name;
  nlohmann::json j = points_to_json(doc);
  nlohmann::json run = {
      {"command", command}, {"exit_status", r.exit_status}, {"wall_seconds", r.wall_seconds}};
  if (r.totals.cpu_seconds > 0) run["cpu_seconds"] = r.totals.cpu_seconds;
  if (r.totals.flops_counted) {
    run["flops"] = r.totals.flops;
    run["flops_by_precision"] = r.totals.flops_by_precision;
  }
  if (!r.totals.bytes_by_level.empty()) run["bytes_by_level"] = r.totals.bytes_by_level;
  run["cpu"] = r.plan.cpu_description;
  run["limits"] = r.plan.limits;
  run["messages"] = messages;
  run["notes"] = o.notes;
  run["min_running_fraction"] = r.totals.min_running_fraction;
  j["run"] = run;
  if (roofs) j["analysis"] = analyses_to_json(o.judged, *roofs);
  return json_text(j) + "\n";
}

}  // namespace roofline::counters
