// Self-test arithmetic: counted / expected per quantity for a kernel whose W and Q are known by
// hand (`roofline profile --self-test` runs the kernels; this judges the counts).
#include <cmath>
#include <map>

#include "roofline/counters.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/kernels.hpp"
#include "roofline/quantity.hpp"

namespace roofline::counters {
namespace {

struct Sum {
  double value = 0;
  std::vector<std::string> events;
  bool ran = false;     // at least one of its counters ran
  bool missed = false;  // at least one never ran (no counter was free)
};

// Tolerances (counters.hpp): W ±5 %, equal Q 0.8-1.25, at_least from 0.9 × the bound, an
// empty precision below 1 % of W.
constexpr double kWorkLow = 0.95, kWorkHigh = 1.05;
constexpr double kTrafficLow = 0.8, kTrafficHigh = 1.25;
constexpr double kBoundSlack = 0.9;
constexpr double kStrayShare = 0.01;

SelfTestRow not_counted(const std::string& quantity, const Sum* s, const std::string& why) {
  SelfTestRow r;
  r.quantity = quantity;
  r.why = why;
  r.compared = false;
  r.pass = true;  // a missing counter is reported, not failed
  if (!s) {
    r.verdict = "no counter for this on this CPU";
  } else {
    r.events = s->events;
    r.verdict = "never ran (not opened, or no counter was free)";
  }
  return r;
}

SelfTestRow compare_work(const std::string& quantity, const Sum& s, double expected,
                         const std::string& why) {
  if (!s.ran) return not_counted(quantity, &s, why);
  SelfTestRow r;
  r.quantity = quantity;
  r.events = s.events;
  r.counted = s.value;
  r.expected = expected;
  r.why = why;
  r.compared = true;
  if (expected > 0) {
    r.ratio = s.value / expected;
    r.pass = *r.ratio >= kWorkLow && *r.ratio <= kWorkHigh;
    r.verdict = r.pass ? "ok" : "off (outside ±5 %)";
  }
  if (s.missed) r.verdict += "; some of its counters never ran";
  return r;
}

/// The readings summed per precision (W) and per level (Q), each scaled by its event's weight.
struct SumsByRole {
  std::map<std::string, Sum> work, traffic;
};

SumsByRole sum_readings(const std::vector<EventSpec>& events,
                        const std::vector<Reading>& readings) {
  SumsByRole sums;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const EventSpec& e = events[i];
    Sum* s = nullptr;
    if (e.role == Role::flops)
      s = &sums.work[e.precision];
    else if (e.role == Role::dram || e.role == Role::level)
      s = &sums.traffic[e.level];
    if (!s) continue;
    s->events.push_back(e.name);
    const auto v = scaled_value(readings[i]);
    if (!v) {
      s->missed = true;
      continue;
    }
    s->ran = true;
    s->value += *v * e.weight;  // lanes or bytes per count
  }
  return sums;
}

/// A precision the kernel does no arithmetic in: what is counted there must stay below 1 % of
/// W (FLOPs counted there are counted under the wrong precision and judged against the wrong
/// roof).
SelfTestRow stray_precision_row(const SelfTestCase& c, const std::string& p, const Sum& s) {
  const std::string q = "W " + p;
  const std::string why = "the kernel does no " + p + " arithmetic: must stay below 1 % of W";
  if (!s.ran) return not_counted(q, &s, why);
  SelfTestRow r;
  r.quantity = q;
  r.events = s.events;
  r.counted = s.value;
  r.expected = 0;
  r.why = why;
  r.compared = true;
  r.pass = s.value <= kStrayShare * c.flops;
  r.verdict = r.pass ? "ok (≈ 0)" : "off: the kernel's FLOPs are counted as " + p;
  return r;
}

/// The W rows: the kernel's own precision against the hand count (all precisions together
/// where the counters do not separate them), and every other precision near zero.
void work_rows(const SelfTestCase& c, const std::map<std::string, Sum>& work,
               std::vector<SelfTestRow>& rows) {
  const std::string w_why = "W by hand: " + format_number(c.flops, 6) + " FLOP (" + c.kernel +
                            ", " + format_number(c.calls, 6) + " calls)";
  if (work.empty()) {
    rows.push_back(not_counted("W", nullptr, w_why));
  } else if (work.count("fp")) {
    // Precisions not separated (AMD Zen 2-4): all of W together.
    Sum all;
    for (const auto& [p, s] : work) {
      all.value += s.value;
      all.events.insert(all.events.end(), s.events.begin(), s.events.end());
      all.ran = all.ran || s.ran;
      all.missed = all.missed || s.missed;
    }
    rows.push_back(compare_work("W (all precisions)", all, c.flops, w_why));
  } else {
    const auto own = work.find(c.precision);
    if (own == work.end())
      rows.push_back(not_counted("W " + c.precision, nullptr, w_why));
    else
      rows.push_back(compare_work("W " + c.precision, own->second, c.flops, w_why));
    for (const auto& [p, s] : work)
      if (p != c.precision) rows.push_back(stray_precision_row(c, p, s));
  }
}

/// One Q row: the counted traffic of a level against the kernel's bound for it.
SelfTestRow traffic_row(const SelfTestCase::Traffic& t, const std::map<std::string, Sum>& traffic) {
  const std::string q = "Q(" + t.level + ")";
  const auto it = traffic.find(t.level);
  if (it == traffic.end()) return not_counted(q, nullptr, t.why);
  const Sum& s = it->second;
  if (!s.ran) return not_counted(q, &s, t.why);
  SelfTestRow r;
  r.quantity = q;
  r.events = s.events;
  r.counted = s.value;
  r.expected = t.bytes;
  r.why = t.why;
  r.compared = true;
  if (t.bytes > 0) r.ratio = s.value / t.bytes;
  switch (t.kind) {
    case SelfTestCase::Kind::equal:
      r.pass = r.ratio && *r.ratio >= kTrafficLow && *r.ratio <= kTrafficHigh;
      r.verdict = r.pass ? "ok" : "off (outside 0.8-1.25)";
      break;
    case SelfTestCase::Kind::at_least:
      r.pass = s.value >= kBoundSlack * t.bytes;
      r.verdict = r.pass ? "ok (at or above the compulsory bound)"
                         : "off: below the compulsory bound (cannot be)";
      break;
    case SelfTestCase::Kind::near_zero:
      r.pass = s.value < t.bytes;
      r.verdict = r.pass ? "ok (below the limit)" : "off: above the limit";
      break;
  }
  if (s.missed) r.verdict += "; some of its counters never ran";
  return r;
}

}  // namespace

std::vector<SelfTestRow> self_test_rows(const SelfTestCase& c, const std::vector<EventSpec>& events,
                                        const std::vector<Reading>& readings) {
  if (events.size() != readings.size())
    throw InputError("self-test readings: " + std::to_string(readings.size()) + " readings for " +
                     std::to_string(events.size()) + " events");
  const SumsByRole sums = sum_readings(events, readings);
  std::vector<SelfTestRow> rows;
  work_rows(c, sums.work, rows);
  for (const auto& t : c.traffic) rows.push_back(traffic_row(t, sums.traffic));
  return rows;
}

SelfTestCase self_test_case(const std::string& kernel, const std::string& level, double n,
                            const std::string& precision, double work_per_call, double calls) {
  SelfTestCase c;
  c.kernel = kernel;
  c.level = level;
  c.calls = calls;
  c.flops = work_per_call * calls;
  c.precision = precision;
  using K = SelfTestCase::Kind;
  const DataType t = parse_dtype(precision);
  if (kernel.rfind("axpy", 0) == 0) {
    // x and y read, y written: n·s each (y is read first: no extra read-for-ownership).
    const double moved = axpy(n, t).traffic.value * calls;
    if (level == "L1") {
      // 5 % of axpy's Q (3·n·s per call over all calls).
      const double limit = kSelfTestNearZero * 3 * n * t.bytes * calls;
      c.traffic = {
          {"L2", limit, K::near_zero,
           "working set in L1: nothing comes from L2 (limit: 5 % of the L1 traffic "
           "3·n·8 B per call)"},
          {"L3", limit, K::near_zero, "working set in L1: nothing comes from L3 or memory"}};
    } else {
      // The lines of x and y filled into each cache: two of the three n·s (the write-back of y
      // is not a fill).
      const double filled = moved * 2 / 3;
      c.traffic = {
          {"DRAM", moved, K::equal,
           "3·n·8 B per call: x and y read, y written (y is read first: no extra "
           "read-for-ownership)"},
          {"L2", filled, K::equal,
           "2·n·8 B per call: the lines of x and y filled into L1 (the write-back of y "
           "is not a fill)"},
          {"L3", filled, K::equal, "2·n·8 B per call: the lines of x and y filled into L2"}};
    }
  } else {  // gemm: A, B read and C written at least once per call
    const double bound = gemm(n, n, n, t).traffic.value * calls;
    if (level == "L1")
      c.traffic = {{"L2", kSelfTestNearZero * bound, K::near_zero,
                    "working set in L1: nothing comes from L2 (limit: 5 % of 3·n²·8 B per call)"}};
    else
      c.traffic = {
          {"DRAM", bound, K::at_least, "compulsory: 3·n²·8 B per call (A, B read, C written)"},
          {"L3", bound, K::at_least, "compulsory: 3·n²·8 B per call into L2"},
          {"L2", bound, K::at_least, "compulsory: 3·n²·8 B per call into L1"}};
  }
  return c;
}

}  // namespace roofline::counters
