// Points from a likwid-perfctr table (read_likwid_table): one per marker region, or one for
// the whole run.
//   W = Σ_threads FP_ARITH_INST_RETIRED_* × vector lanes (Intel SDM vol. 3B, "FP_ARITH_INST_
//       RETIRED": an FMA counts twice; likwid's FLOPS_DP/SP groups use the same weights),
//       AMD: RETIRED_SSE_AVX_FLOPS_ALL (it counts FLOP); else Σ_threads "DP [MFLOP/s]" (SP)
//       × 1e6 × the thread's runtime
//   Q = Σ_threads "Memory bandwidth [MBytes/s]" × 1e6 × runtime (else "Memory data volume
//       [GBytes]" × 1e9, else raw CAS_COUNT_RD/WR × 64 B); L3 and L2 likewise from their groups
//   T = the longest thread's runtime, of "RDTSC Runtime [s]" (Region Info) and "Runtime
//       (RDTSC) [s]" (Metric table) the one printed with more digits
// Bandwidth × runtime is likwid's own data volume (its groups define volume = bandwidth ×
// time) without the four-decimal rounding of the printed GBytes.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace {

/// "DP [MFLOP/s]" and "DP MFLOP/s" (older likwid) are one metric.
std::string normalized(std::string_view name) {
  std::string s;
  for (char c : name)
    if (c != '[' && c != ']') s += c;
  return s;
}

// Raw FP events as likwid names them, with FLOP per count (vector lanes) and precision.
struct FlopEvent {
  double flop;
  const char* precision;  // "" = from the group's name (AMD counts FLOP of both precisions)
};
const std::map<std::string, FlopEvent, std::less<>>& flop_events() {
  static const std::map<std::string, FlopEvent, std::less<>> m = {
      {"FP_ARITH_INST_RETIRED_SCALAR_DOUBLE", {1, "fp64"}},
      {"FP_ARITH_INST_RETIRED_128B_PACKED_DOUBLE", {2, "fp64"}},
      {"FP_ARITH_INST_RETIRED_256B_PACKED_DOUBLE", {4, "fp64"}},
      {"FP_ARITH_INST_RETIRED_512B_PACKED_DOUBLE", {8, "fp64"}},
      {"FP_ARITH_INST_RETIRED_SCALAR_SINGLE", {1, "fp32"}},
      {"FP_ARITH_INST_RETIRED_128B_PACKED_SINGLE", {4, "fp32"}},
      {"FP_ARITH_INST_RETIRED_256B_PACKED_SINGLE", {8, "fp32"}},
      {"FP_ARITH_INST_RETIRED_512B_PACKED_SINGLE", {16, "fp32"}},
      {"RETIRED_SSE_AVX_FLOPS_ALL", {1, ""}},  // AMD Zen: PMCx003 counts FLOP
  };
  return m;
}

std::string group_precision(const std::string& group) {
  if (group.find("_DP") != std::string::npos) return "fp64";
  if (group.find("_SP") != std::string::npos) return "fp32";
  return "";
}

struct Level {
  const char* level;
  const char* bandwidth;  // normalized metric names
  const char* volume;
  // A group that counts the level's traffic otherwise, under other names, and how: likwid's
  // AMD Zen L3 group (groups/zen*/L3.txt) counts L3_ACCESS × 64 B, the L3 lookups (hits and
  // misses), and nothing of the L2 → L3 writebacks.
  const char* part_bandwidth = nullptr;
  const char* part_volume = nullptr;
  const char* part_leaves_out = nullptr;
};
constexpr Level kLevels[] = {
    {"DRAM", "Memory bandwidth MBytes/s", "Memory data volume GBytes"},
    {"L3", "L3 bandwidth MBytes/s", "L3 data volume GBytes", "L3 access bandwidth MBytes/s",
     "L3 access data volume GBytes",
     "Q(L3) is L3 access × 64 B: every L3 lookup, misses too, and no writeback into L3"},
    {"L2", "L2 bandwidth MBytes/s", "L2 data volume GBytes"},
};

/// Whether a normalized metric name is the level's `full` name or its partial one.
bool names(const std::string& metric, const char* full, const char* part) {
  return metric == full || (part != nullptr && metric == part);
}

/// One group measured in one run for one region.
struct Block {
  const ToolRecord* rec = nullptr;
  double time = 0;  // s, the longest thread's runtime
  std::optional<double> work;
  std::string work_how, precision;
  std::map<std::string, double> traffic;              // level → bytes
  std::map<std::string, std::string> traffic_caveat;  // level → what its Q leaves out
  // A FLOP rate that guesses a vector width ("DP [MFLOP/s] (AVX512 assumed)"), as likwid's
  // FLOPS_DP prints on Xeon Phi, where the group counts SIMD micro-ops: never used as W.
  std::string assumed_rate;
  std::vector<std::string> notes;  ///< what was read in place of what (a nan bandwidth)
  // The value that gave T (the longest thread's runtime), and the one that gave the most of W
  // and of each level's Q, as "FILE: line L, column C: METRIC (THREAD) = VALUE", for a refusal
  // of a ratio that is no number.
  std::string time_at, work_at;
  std::map<std::string, std::string> traffic_at;
};

/// The file a record was read from: the table's origin names only the first of several.
const std::string& file_of(const ToolTable& tab, const ToolRecord& r) {
  return r.run_origin.empty() ? tab.origin : r.run_origin;
}

double checked(double v, const ToolTable& tab, const ToolRecord& r, const char* what) {
  if (!std::isfinite(v))
    throw InputError(file_of(tab, r) + ": line " + std::to_string(r.line) + ": region '" + r.name +
                     "': " + what + " overflows (more than 1e308)");
  return v;
}

/// The place of a value in its file, for messages: "FILE: line L, column C: METRIC (THREAD)".
std::string where(const ToolTable& tab, const ToolRecord& r, const ToolValue& v) {
  return file_of(tab, r) + ": line " + std::to_string(v.line) + ", column " +
         std::to_string(v.column) + ": " + std::string(v.metric) +
         (v.instance.empty() ? "" : " (" + std::string(v.instance) + ")");
}

/// A value W, Q or T is computed from: a count, a rate or a runtime, never negative.
double used(const ToolTable& tab, const ToolRecord& r, const ToolValue& v) {
  if (v.value < 0)
    throw InputError(where(tab, r, v) + ": negative value " + format_number(v.value));
  return v.value;
}

/// One block's T, W and Q from its values, step by step.
class BlockMeasure {
 public:
  BlockMeasure(const ToolTable& tab, const ToolRecord& r) : tab_(tab), r_(r) { b_.rec = &r; }

  Block run() {
    runtimes();
    if (!raw_work()) rate_work();
    for (const auto& lv : kLevels) traffic(lv);
    return std::move(b_);
  }

 private:
  /// Per thread: the runtime printed with more digits; T is the longest.
  void runtimes() {
    for (const auto& v : r_.values) {
      if (v.missing) continue;
      if (v.metric != "RDTSC Runtime [s]" && v.metric != "Runtime (RDTSC) [s]") continue;
      auto& best = runtime_[v.instance];
      if (!best || v.significant > best->significant) best = &v;
    }
    double longest = -1;
    for (const auto& [inst, v] : runtime_)
      note_largest(b_.time_at, longest, used(tab_, r_, *v), *v);
    b_.time = std::max(longest, 0.0);
  }

  /// Keeps in `at` the place and value of `v` when its share of a sum is the largest so far.
  void note_largest(std::string& at, double& most, double share, const ToolValue& v) const {
    if (share <= most) return;
    most = share;
    at = where(tab_, r_, v) + " = " + format_number(v.value, 6);
  }

  double thread_time(std::string_view inst) const {
    const auto it = runtime_.find(inst);
    return it == runtime_.end() ? 0.0 : it->second->value;
  }

  /// W from raw FP events (exact counts), when the group has them.
  bool raw_work() {
    double raw = 0;
    bool any_raw = false, mixed = false;
    std::string raw_precision;
    for (const auto& v : r_.values) {
      const auto ev = flop_events().find(v.metric);
      if (ev == flop_events().end()) continue;
      any_raw = true;
      if (v.missing) {
        // A core counter likwid could not read prints '-' ("MSR write operation failed"): the
        // thread's FLOP were not counted, which is no W of 0.
        if (thread_time(v.instance) > 0)
          throw InputError(where(tab_, r_, v) +
                           ": the FLOP event was not measured (printed without a value, such "
                           "as '-') for a thread that ran " +
                           format_seconds(Seconds(thread_time(v.instance))) +
                           ": likwid could not read the counter (see its ERROR lines, e.g. "
                           "'MSR write operation failed')");
        continue;
      }
      const double flop = used(tab_, r_, v) * ev->second.flop;
      raw += flop;
      note_largest(b_.work_at, most_, flop, v);
      const std::string p =
          *ev->second.precision ? ev->second.precision : group_precision(r_.group);
      if (v.value > 0) {
        if (raw_precision.empty()) raw_precision = p;
        mixed = mixed || p != raw_precision;
      }
    }
    if (!any_raw) return false;
    b_.work = checked(raw, tab_, r_, "W");
    b_.work_how = "FP events × lanes";
    b_.precision = mixed ? "" : raw_precision.empty() ? group_precision(r_.group) : raw_precision;
    return true;
  }

  /// W from the FLOP rate × each thread's runtime. A thread that ran and has no rate ("nan",
  /// "-": core counters are per thread) would leave its share out of W unseen: refused.
  void rate_work() {
    double w = 0;
    bool any = false, dp = false, sp = false;
    for (const auto& v : r_.values) {
      const std::string n = normalized(v.metric);
      const bool is_dp = n == "DP MFLOP/s", is_sp = n == "SP MFLOP/s";
      if (!is_dp && !is_sp) {
        if ((n.starts_with("DP MFLOP/s (") || n.starts_with("SP MFLOP/s (")) &&
            n.find("assumed") != std::string::npos && b_.assumed_rate.empty())
          b_.assumed_rate = std::string(v.metric);
        continue;
      }
      any = true;
      work_rate_name_ = v.metric;
      if (v.missing) {
        if (thread_time(v.instance) > 0)
          throw InputError(where(tab_, r_, v) + ": no value for a thread that ran " +
                           format_seconds(Seconds(thread_time(v.instance))));
        continue;
      }
      const double flop = used(tab_, r_, v) * 1e6 * thread_time(v.instance);
      w += flop;
      note_largest(b_.work_at, most_, flop, v);
      dp = dp || (is_dp && v.value > 0);
      sp = sp || (is_sp && v.value > 0);
    }
    if (!any) return;
    b_.work = checked(w, tab_, r_, "W");
    b_.work_how = "FLOP rate × runtime";
    b_.precision = dp && !sp ? "fp64" : sp && !dp ? "fp32" : group_precision(r_.group);
    untrusted_flop_events();
  }

  /// Sandy Bridge and Ivy Bridge (whose likwid FLOPS groups count these events): FLOPS_DP/SP's
  /// rate is (FP_COMP_OPS_EXE_SSE_FP_PACKED × lanes + ..._SCALAR + SIMD_FP_256_PACKED × lanes)
  /// / time, and likwid's own group files say these counts are "potentially wrong. So you cannot
  /// trust these counters at the moment!" (RRZE-HPC/likwid groups/sandybridge/FLOPS_DP.txt,
  /// commit ad53e37c; groups/ivybridge/FLOPS_DP.txt, commit d727bec2). W is kept, with a note.
  void untrusted_flop_events() {
    for (const auto& v : r_.values) {
      const std::string_view m = v.metric;
      // Sandy/Ivy Bridge's names end in _DOUBLE or _SINGLE; Nehalem's and Westmere's
      // FP_COMP_OPS_EXE_SSE_FP_PACKED and _SCALAR, whose group files carry no such warning, do not.
      const bool sse = m.starts_with("FP_COMP_OPS_EXE_SSE_FP_") &&
                       (m.ends_with("_DOUBLE") || m.ends_with("_SINGLE"));
      if (!sse && !m.starts_with("SIMD_FP_256_PACKED_")) continue;
      b_.notes.push_back(
          file_of(tab_, r_) + ": line " + std::to_string(v.line) + ": " +
          (r_.name.empty() ? std::string("the run") : "region '" + terminal_safe(r_.name) + "'") +
          ": W from '" + std::string(work_rate_name_) +
          "', which likwid computes on Sandy Bridge and Ivy Bridge from FP_COMP_OPS_EXE_SSE_FP_* "
          "and SIMD_FP_256_PACKED_*: likwid's group files say these FLOP counts are potentially "
          "wrong and cannot be trusted (RRZE-HPC/likwid groups/sandybridge/FLOPS_DP.txt, "
          "groups/ivybridge/FLOPS_DP.txt); check W against the FLOP the code does");
      return;
    }
  }

  /// The first value of one of the level's metrics printed "nan" for a thread that ran, or
  /// null. Memory traffic is counted per socket, so "-" on the socket's other threads is
  /// expected; "nan" is a rate likwid could not compute, whose share would drop out unseen.
  const ToolValue* nan_for_thread_that_ran(const char* full, const char* part) const {
    for (const auto& v : r_.values)
      if (v.not_a_number && thread_time(v.instance) > 0 && names(normalized(v.metric), full, part))
        return &v;
    return nullptr;
  }

  /// Q at one level: bandwidth × runtime, else the data volume, else (DRAM) CAS counts × 64 B.
  /// Memory traffic is counted per socket (uncore): the socket's other threads print "-". A
  /// bandwidth printed "nan" for a thread that ran is replaced by the next figure, with a note
  /// naming both; a level whose figures are all nan there is refused, as a nan FLOP rate is.
  void traffic(const Level& lv) {
    double bytes = 0;
    bool from_bw = false, from_volume = false, part = false;
    const ToolValue* nan_bw = nan_for_thread_that_ran(lv.bandwidth, lv.part_bandwidth);
    const ToolValue* nan_volume = nan_for_thread_that_ran(lv.volume, lv.part_volume);
    std::string replaced_by;  // the figure used in place of a nan bandwidth
    double most_bytes = -1;
    for (const auto& v : r_.values)
      if (!nan_bw && !v.missing && names(normalized(v.metric), lv.bandwidth, lv.part_bandwidth)) {
        const double b = used(tab_, r_, v) * 1e6 * thread_time(v.instance);
        bytes += b;
        note_largest(b_.traffic_at[lv.level], most_bytes, b, v);
        from_bw = true;
        part = part || normalized(v.metric) != lv.bandwidth;
      }
    if (!from_bw && !nan_volume)
      for (const auto& v : r_.values)
        if (!v.missing && names(normalized(v.metric), lv.volume, lv.part_volume)) {
          bytes += used(tab_, r_, v) * 1e9;
          note_largest(b_.traffic_at[lv.level], most_bytes, v.value * 1e9, v);
          if (!from_volume)
            replaced_by = "'" + std::string(v.metric) + "' (line " + std::to_string(v.line) + ")";
          from_volume = true;
          part = part || normalized(v.metric) != lv.volume;
        }
    if (!from_bw && !from_volume && std::string(lv.level) == "DRAM") {
      bool cas = false;
      for (const auto& v : r_.values)
        if (!v.missing && (v.metric.substr(0, 12) == "CAS_COUNT_RD" ||
                           v.metric.substr(0, 12) == "CAS_COUNT_WR")) {
          bytes += used(tab_, r_, v) * 64;  // one CAS = one 64-byte line
          note_largest(b_.traffic_at[lv.level], most_bytes, v.value * 64, v);
          if (!cas) replaced_by = "CAS_COUNT_RD/WR × 64 B (line " + std::to_string(v.line) + ")";
          cas = true;
        }
      from_volume = cas;
    }
    if (const ToolValue* nan = nan_bw ? nan_bw : from_bw ? nullptr : nan_volume) {
      if (!from_bw && !from_volume)
        throw InputError(where(tab_, r_, *nan) + ": nan for a thread that ran " +
                         format_seconds(Seconds(thread_time(nan->instance))) + ", and no other " +
                         "figure gives Q(" + lv.level + ") (its share would drop out unseen)");
      b_.notes.push_back(where(tab_, r_, *nan) + ": nan for a thread that ran: Q(" + lv.level +
                         ") from " + replaced_by + " instead");
    }
    if (!from_bw && !from_volume) return;
    b_.traffic[lv.level] = checked(bytes, tab_, r_, "Q");
    if (part) b_.traffic_caveat[lv.level] = lv.part_leaves_out;
  }

  const ToolTable& tab_;
  const ToolRecord& r_;
  Block b_;
  std::map<std::string_view, const ToolValue*> runtime_;
  double most_ = -1;                 ///< the largest share of W so far (note_largest)
  std::string_view work_rate_name_;  ///< the FLOP rate W came from ("DP [MFLOP/s]")
};

Block measure(const ToolTable& tab, const ToolRecord& r) {
  return BlockMeasure(tab, r).run();
}

/// The groups of one region measured in one run: measured in turn, each covers part of the
/// run, so rates are combined over the sum of their runtimes.
struct RunResult {
  int run = 0;
  std::string origin;
  int line = 0;
  double time = 0;
  std::optional<double> work;
  std::string precision;
  std::map<std::string, double> traffic;
  std::map<std::string, std::string> traffic_caveat;
  std::vector<std::string> groups;
  std::string assumed_rate;      ///< Block::assumed_rate of a group of the run, "" when none
  std::string time_at, work_at;  ///< Block's, of the run's first group that has them
  std::map<std::string, std::string> traffic_at;
};

RunResult combine(const std::vector<Block>& blocks) {
  RunResult r;
  r.run = blocks.front().rec->run;
  r.origin = blocks.front().rec->run_origin;
  r.line = blocks.front().rec->line;
  for (const auto& b : blocks) {
    r.time += b.time;
    r.groups.push_back(b.rec->group);
    if (r.assumed_rate.empty()) r.assumed_rate = b.assumed_rate;
    r.traffic_caveat.insert(b.traffic_caveat.begin(), b.traffic_caveat.end());
    if (r.time_at.empty()) r.time_at = b.time_at;
    if (r.work_at.empty()) r.work_at = b.work_at;
    r.traffic_at.insert(b.traffic_at.begin(), b.traffic_at.end());
  }
  if (blocks.size() == 1) {
    const Block& b = blocks.front();
    r.work = b.work;
    r.precision = b.precision;
    r.traffic = b.traffic;
    return r;
  }
  // Two groups measuring the same quantity (FLOPS_DP and MEM_DP both count FLOP) are two
  // estimates of one rate; the larger is used.
  std::map<std::string, double> work_rate;  // precision → FLOP/s
  std::map<std::string, double> byte_rate;
  for (const auto& b : blocks) {
    if (!(b.time > 0)) continue;
    if (b.work) work_rate[b.precision] = std::max(work_rate[b.precision], *b.work / b.time);
    for (const auto& [lv, bytes] : b.traffic)
      byte_rate[lv] = std::max(byte_rate[lv], bytes / b.time);
  }
  if (!work_rate.empty()) {
    double rate = 0;
    for (const auto& [p, v] : work_rate) rate += v;
    r.work = rate * r.time;
    r.precision = work_rate.size() == 1 ? work_rate.begin()->first : "";
  }
  for (const auto& [lv, rate] : byte_rate) r.traffic[lv] = rate * r.time;
  return r;
}

std::string run_label(const RunResult& r) {
  return "run " + std::to_string(r.run) + " (" + join(r.groups) + ")";
}

/// What the run's Q leaves out at `level` ("" when nothing), as "; " + the caveat.
std::string caveat(const RunResult& r, const std::string& level) {
  const auto it = r.traffic_caveat.find(level);
  return it == r.traffic_caveat.end() ? "" : "; " + it->second;
}

Point make_point(const std::string& name, double w, const std::map<std::string, double>& traffic,
                 double t, const std::string& precision, const std::string& note) {
  Point p;
  p.name = name;
  p.work = Work(w);
  for (const auto& lv : kLevels)
    if (const auto it = traffic.find(lv.level); it != traffic.end() && it->second > 0)
      p.traffic.push_back({lv.level, Bytes(it->second)});
  p.time = Seconds(t);
  p.precision = precision;
  p.source = "likwid";
  p.note = note;
  return p;
}

// Why a point the counters gave cannot be placed (no traffic left, a zero runtime, ...), or ""
// when it can: such a region is named in a note, never handed out.
std::string invalid(const Point& p) {
  try {
    p.validate();
    return "";
  } catch (const InputError& e) {
    return std::string(e.what()) + ": not a point";
  }
}

/// P = W/T and I = W/Q must be numbers (Point::validate): a region whose ratio overflows or
/// underflows is refused, naming the values that gave the most of W and T (or Q), as an ncu
/// kernel's is — never left out as if it had no data (docs/import.md).
void require_numeric_ratios(const std::string& where, const Point& pt, const RunResult& w_run,
                            const RunResult& q_run) {
  const RatioProblem bad = ratio_problem(pt);
  if (!bad) return;
  std::string from = "W from " + w_run.work_at;
  if (bad.is_p) {
    from += "; T from " + w_run.time_at;
  } else if (const auto it = q_run.traffic_at.find(bad.level); it != q_run.traffic_at.end()) {
    from += "; Q(" + bad.level + ") from " + it->second;
  }
  throw InputError(where + ": " + bad.why + " (" + from + ")");
}

std::string region_where(const std::string& label, const RunResult& r) {
  return r.origin + ": line " + std::to_string(r.line) + ": region '" + label + "'";
}

/// A region with runs that each have W, Q and T: one point per such run; the other runs are
/// named in a note.
void complete_run_points(const std::string& label, const std::vector<RunResult>& runs,
                         const std::vector<const RunResult*>& complete, ImportResult& res) {
  for (const RunResult* r : complete) {
    const std::string name =
        complete.size() > 1 ? label + " (run " + std::to_string(r->run) + ")" : label;
    const double w = *r->work;
    if (!(w > 0)) {
      res.notes.push_back(name + ": no floating-point work counted (W = 0): not a point");
      continue;
    }
    std::string note = run_label(*r);
    for (const auto& [lv, bytes] : r->traffic) note += caveat(*r, lv);
    Point pt = make_point(name, w, r->traffic, r->time, r->precision, note);
    if (!pt.traffic.empty() && pt.time.value > 0)
      require_numeric_ratios(region_where(name, *r), pt, *r, *r);
    if (const std::string why = invalid(pt); !why.empty()) {
      res.notes.push_back(why);
      continue;
    }
    res.doc.points.push_back(std::move(pt));
  }
  for (const auto& r : runs)
    if (std::find(complete.begin(), complete.end(), &r) == complete.end())
      res.notes.push_back(label + ": " + run_label(r) +
                          " not used: " + (r.work ? "it has W" : "it has no W") + ", " +
                          (r.traffic.empty() ? "no traffic" : "traffic") +
                          ", and other runs of the region have both");
}

/// A region where no run has both W and Q: W from the first run that measured it, each traffic
/// level from the first run that measured it; T is the mean of those runs' runtimes (separate
/// runs of the same region, each timed on its own). Returns why no point could be made ("" when
/// the region was placed or noted).
std::string separate_runs_point(const std::string& label, const std::string& where,
                                const std::vector<RunResult>& runs, ImportResult& res) {
  const RunResult* w_run = nullptr;
  std::map<std::string, const RunResult*> q_runs;
  for (const auto& r : runs) {
    if (r.work && !w_run) w_run = &r;
    for (const auto& [lv, bytes] : r.traffic)
      if (!q_runs.count(lv)) q_runs[lv] = &r;
  }
  if (!w_run || q_runs.empty()) {
    std::vector<std::string> groups;
    std::string assumed;
    for (const auto& r : runs) {
      groups.insert(groups.end(), r.groups.begin(), r.groups.end());
      if (assumed.empty()) assumed = r.assumed_rate;
    }
    const std::string why =
        !w_run && !assumed.empty()
            ? "W cannot be counted: groups " + terminal_safe(join(groups)) +
                  " count SIMD micro-ops here, not " + "FLOP: '" + terminal_safe(assumed) +
                  "' guesses that every micro-op is one full-width operation (an FMA counts " +
                  "once, a masked lane in full); give W yourself (roofline point -W) with this " +
                  "run's Q and T"
        : !w_run
            ? "W cannot be counted: no FP events nor DP/SP [MFLOP/s] in groups " + join(groups) +
                  "; measure FLOP too: likwid-perfctr -g FLOPS_DP (or MEM_DP, which has "
                  "both W and Q)"
            : "Q cannot be counted: no memory or cache traffic in groups " + join(groups) +
                  "; measure it too: likwid-perfctr -g MEM (or MEM_DP; L3 or L2 for cache "
                  "traffic), in the same run (-g FLOPS_DP -g MEM) or another file given "
                  "with this one";
    res.notes.push_back(where + ": " + why);
    return where + ": " + why;
  }
  std::vector<const RunResult*> used = {w_run};
  for (const auto& [lv, r] : q_runs)
    if (std::find(used.begin(), used.end(), r) == used.end()) used.push_back(r);
  double t = 0;
  std::string times;
  for (const RunResult* r : used) {
    t += r->time / static_cast<double>(used.size());
    times += (times.empty() ? "" : ", ") + format_seconds(Seconds(r->time));
  }
  // A zero runtime is no measurement at all (likwid under WSL printed 0 s beside '-' events and
  // 0 metrics): said where it stands, naming the run, rather than averaged into T or given as
  // an invalid point.
  for (const RunResult* r : used)
    if (!(r->time > 0)) {
      const std::string why =
          where + ": " + (used.size() > 1 ? run_label(*r) + ": " : std::string()) +
          "the runtime is 0 s (RDTSC Runtime [s], Runtime (RDTSC) [s]): nothing was timed; "
          "events printed as '-' and metrics of 0 mean likwid could not read the counters here "
          "(a VM, WSL)";
      res.notes.push_back(why);
      return why;
    }
  std::map<std::string, double> traffic;
  std::string q_from;
  for (const auto& [lv, r] : q_runs) {
    traffic[lv] = r->traffic.at(lv);
    q_from += (q_from.empty() ? "" : ", ") + std::string("Q(") + lv + ") from " + run_label(*r) +
              caveat(*r, lv);
  }
  std::string note = "W from " + run_label(*w_run) + ", " + q_from +
                     "; separate runs: T = the mean of their runtimes (" + times + ")";
  // Runs of one region should take about as long; a factor of 110 (94 ns beside 10 µs in a
  // real pair of Coffee Lake runs) means they did not time the same work.
  double shortest = used.front()->time, longest = shortest;
  for (const RunResult* r : used) {
    shortest = std::min(shortest, r->time);
    longest = std::max(longest, r->time);
  }
  if (constexpr double kRunsAgree = 2; longest > kRunsAgree * shortest)
    note += "; the runtimes differ by " + format_number(longest / shortest, 3) +
            "x, so the runs did not time the same work: T, P and the point's intensities across "
            "runs are doubtful";
  if (!(*w_run->work > 0)) {
    res.notes.push_back(label + ": no floating-point work counted (W = 0): not a point");
    return "";
  }
  Point pt = make_point(label, *w_run->work, traffic, t, w_run->precision, note);
  if (!pt.traffic.empty() && pt.time.value > 0) {
    // The level whose I is at fault names its own run's cell.
    const RatioProblem bad = ratio_problem(pt);
    const RunResult& q_run = !bad || bad.is_p ? *w_run : *q_runs.at(bad.level);
    require_numeric_ratios(where, pt, *w_run, q_run);
  }
  if (const std::string why = invalid(pt); !why.empty()) {
    res.notes.push_back(why);
    return "";
  }
  res.notes.push_back(label + ": " + note);
  res.doc.points.push_back(std::move(pt));
  return "";
}

}  // namespace

ImportResult likwid_points(const ToolTable& tab) {
  ImportResult res;
  res.doc.origin = tab.origin;
  res.notes = tab.notes;
  // region → run → blocks, in the order regions first appear.
  std::vector<std::string> order;
  std::map<std::string, std::map<int, std::vector<Block>>> regions;
  for (const auto& r : tab.records) {
    if (!regions.count(r.name)) order.push_back(r.name);
    regions[r.name][r.run].push_back(measure(tab, r));
    const auto& notes = regions[r.name][r.run].back().notes;
    res.notes.insert(res.notes.end(), notes.begin(), notes.end());
  }
  std::string first_refusal;
  for (const auto& region : order) {
    const std::string label = region.empty() ? "likwid run" : region;
    std::vector<RunResult> runs;
    for (const auto& [run, blocks] : regions[region]) runs.push_back(combine(blocks));
    std::vector<const RunResult*> complete;
    for (const auto& r : runs)
      if (r.work && !r.traffic.empty() && r.time > 0) complete.push_back(&r);
    if (!complete.empty()) {
      complete_run_points(label, runs, complete, res);
      continue;
    }
    const RunResult& first = runs.front();
    const std::string where =
        first.origin + ": line " + std::to_string(first.line) + ": region '" + label + "'";
    const std::string refusal = separate_runs_point(label, where, runs, res);
    if (first_refusal.empty()) first_refusal = refusal;
  }
  if (res.doc.points.empty() && !first_refusal.empty()) throw InputError(first_refusal);
  return res;
}

ImportResult import_likwid(std::istream& in, const std::string& origin) {
  TextLines lines(in, origin);
  ToolTable tab;
  read_likwid_table(lines, tab);
  return likwid_points(tab);
}

ImportResult import_likwid(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  return import_likwid(in, origin);
}

}  // namespace roofline
