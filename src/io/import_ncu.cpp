// Points from an Nsight Compute table (read_ncu_table), one per kernel launch (docs/model.md §10):
//   W = Σ_precision (2·FMA + ADD + MUL) thread instructions + tensor-pipe ops
//       ({sm,smsp}__sass_thread_inst_executed_op_{d,f,h}{fma,add,mul}_pred_on; FMA = 2 FLOP;
//        sm__ops_path_tensor_src_<type>… as ncu reports them, an MMA's multiply-add = 2 ops)
//   Q = dram__bytes_read + dram__bytes_write (or the _op_ names of newer ncu, or dram__bytes);
//       L2: lts__t_bytes, L1: l1tex__t_bytes for hierarchical points
//   T = gpu__time_duration.sum, or {sm,smsp}__cycles_elapsed.avg / ….avg.per_second (the
//       NERSC roofline method collects cycles and their rate: T = cycles / (cycles per second))
// Each count is read from its `.sum` metric when the export has one, else rebuilt from a rate:
//   `.sum.per_cycle_elapsed` × <unit>__cycles_elapsed.avg.per_second × T
//   `.sum.per_second` × T
// `--set roofline` collects only rates; its SpeedOfLight_RooflineChart sections compute the
// achieved work the same way (NVIDIA Nsight Compute, sections/SpeedOfLight_RooflineChart.section:
// achieved FLOP/s = 2 · smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed ·
// smsp__cycles_elapsed.avg.per_second; Profiling Guide, "Metrics Structure": .per_cycle_elapsed
// is the rollup divided by the unit's elapsed cycles, .per_second divided by the duration).
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline {

const char* const kNcuRooflineMetrics =
    "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,"
    "l1tex__t_bytes.sum,"
    "sm__sass_thread_inst_executed_op_dadd_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_dmul_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_fadd_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_fmul_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_hadd_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_hmul_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum";

namespace {

/// Where the parameter list of a C++ signature starts: the '(' that matches the name's last
/// character, a ')' ("void k<float>(float *, int)"), unless what it encloses is part of the
/// name ("(anonymous namespace)", "operator()"); npos when the name has none.
std::size_t parameter_list_start(const std::string& s) {
  if (s.empty() || s.back() != ')') return std::string::npos;
  int depth = 0;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (s[i] == ')') ++depth;
    if (s[i] == '(' && --depth == 0) {
      if (i == 0 || s.compare(i, std::string::npos, "(anonymous namespace)") == 0)
        return std::string::npos;
      if (i >= 8 && s.compare(i - 8, 10, "operator()") == 0 && i + 2 == s.size())
        return std::string::npos;
      return i;
    }
  }
  return std::string::npos;  // unbalanced: no signature
}

}  // namespace

std::string short_kernel_name(const std::string& full) {
  // Only a C++ signature (a name that ends with its parameter list, as ncu prints demangled
  // kernels) loses its parameter list and return type. Any other name is data and is kept as
  // written: "=cmd|' /C calc'!A0" has no return type to strip, "\t=1+2" no blank to trim.
  if (full.find_first_not_of(" \t") == std::string::npos) return "";  // names no kernel
  const std::string whole = trim(full);
  // What a demangler writes after the parameter list ("Functor::run(int) const",
  // "f(int) [clone .cold]", as the instrumenting probe's names have) is no part of the name.
  std::string base = whole;
  for (bool more = true; more;) {
    more = false;
    for (const char* suffix : {" const", " volatile", " &&", " &", " noexcept"})
      if (base.ends_with(suffix)) {
        base.resize(base.size() - std::string_view(suffix).size());
        more = true;
      }
    if (const auto clone = base.rfind(" [clone ");
        clone != std::string::npos && base.ends_with("]")) {
      base.resize(clone);
      more = true;
    }
  }
  const std::size_t params = parameter_list_start(base);
  if (params == std::string::npos) return full;
  const std::string s = trim(base.substr(0, params));
  // The return type: what comes before the last space outside template arguments and
  // parentheses ("void ", "std::enable_if<!T7, void>::type ", "unsigned int ").
  std::size_t name_start = 0;
  int nest = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' || s[i] == '(') ++nest;
    if (s[i] == '>' || s[i] == ')') --nest;
    if (s[i] == ' ' && nest == 0) name_start = i + 1;
  }
  // "operator new", "operator delete": the space is part of the name.
  if (name_start >= 9 && s.compare(name_start - 9, 9, "operator ") == 0) name_start = 0;
  const std::string name = trim(s.substr(name_start));
  return name.empty() ? whole : name;
}

namespace {

struct PrecisionOps {
  const char* precision;
  const char* fma;
  const char* add;
  const char* mul;
};
// Metric names without their unit prefix (sm__ or smsp__) and rollup.
constexpr PrecisionOps kPrecisions[] = {
    {"fp64", "sass_thread_inst_executed_op_dfma_pred_on",
     "sass_thread_inst_executed_op_dadd_pred_on", "sass_thread_inst_executed_op_dmul_pred_on"},
    {"fp32", "sass_thread_inst_executed_op_ffma_pred_on",
     "sass_thread_inst_executed_op_fadd_pred_on", "sass_thread_inst_executed_op_fmul_pred_on"},
    {"fp16", "sass_thread_inst_executed_op_hfma_pred_on",
     "sass_thread_inst_executed_op_hadd_pred_on", "sass_thread_inst_executed_op_hmul_pred_on"},
};

const std::vector<std::string> kSm = {"sm__", "smsp__"};

/// The precision a tensor metric's source operands have: "ops_path_tensor_src_fp16_dst_fp32"
/// → "fp16"; "" when the name says none.
std::string tensor_source_type(const std::string& base) {
  const auto p = base.find("src_");
  if (p == std::string::npos) return "";
  const std::string rest = base.substr(p + 4);
  const std::string t = rest.substr(0, rest.find('_'));
  static const std::set<std::string> known = {"fp16", "bf16", "tf32", "fp8", "fp64",
                                              "int8", "int4", "int1", "fp4", "fp6"};
  return known.count(t) ? t : "";
}

/// A tensor-op metric → (base name without unit prefix, rollup suffix), or nothing.
std::optional<std::pair<std::string, std::string>> tensor_metric(std::string_view name) {
  std::string_view rest;
  if (name.starts_with("sm__ops_path_tensor_"))
    rest = name.substr(4);
  else if (name.starts_with("smsp__ops_path_tensor_"))
    rest = name.substr(6);
  else
    return std::nullopt;
  for (std::string_view suffix : {".sum", ".sum.per_second", ".sum.per_cycle_elapsed"})
    if (rest.ends_with(suffix))
      return std::pair{std::string(rest.substr(0, rest.size() - suffix.size())),
                       std::string(suffix)};
  return std::nullopt;  // .peak_sustained, .avg.pct_of_peak…: not counts
}

constexpr int kNone = -1;

/// ncu's base unit of a metric the import reads (its metric naming): the duration is a time in
/// nsecond; `.per_second` divides by a second; a name with "bytes" counts data in byte (also
/// per cycle: `.per_cycle_elapsed`, `.peak_sustained`); the rest (instructions, cycles,
/// operations) are counts. A value's unit must have its dimension; a value without a unit is
/// in it.
NcuUnit metric_unit(std::string_view metric) {
  NcuUnit u;
  if (metric.starts_with("gpu__time_duration")) {
    u.seconds = 1;
    u.scale = 1e-9;
  }
  if (metric.ends_with(".per_second")) u.seconds = -1;
  if (metric.find("bytes") != std::string_view::npos) u.bytes = 1;
  // ".pct_of_peak_sustained_active" and the like: a percentage of a peak, whatever it counts.
  if (metric.find(".pct_") != std::string_view::npos) u = NcuUnit{1, 0, 0, true};
  return u;
}

/// Where a count comes from, by index into a kernel's values: a `.sum` metric, or a rate and
/// what turns it into a count.
struct Source {
  enum Kind { sum, per_second, per_cycle_elapsed } kind = sum;
  int metric = kNone;
  int clock = kNone;  ///< per_cycle_elapsed: <unit>__cycles_elapsed.avg.per_second
  explicit operator bool() const { return metric != kNone; }
};

/// How a kernel's T, W and Q are computed from its values: worked out once for each set of
/// metric names (a raw export has one for all its kernels; a details page usually one too).
struct Plan {
  int duration = kNone;
  int cycles[2] = {kNone, kNone}, cycles_rate[2] = {kNone, kNone};  // sm__, smsp__
  struct Precision {
    const char* precision;
    Source fma, add, mul;
  };
  std::vector<Precision> flops;
  bool any_fp = false;
  std::vector<std::pair<std::string, Source>> tensor;  // (source type, how)
  std::set<std::string> tensor_left_out;
  bool tensor_instructions = false;  // {sm,smsp}__inst_executed_pipe_tensor*: not FLOP
  Source tensor_inst_total;          // {sm,smsp}__inst_executed_pipe_tensor.sum
  std::vector<int> tensor_inst_any;  // every tensor-pipe metric (counts, rates, % of peak)
  std::vector<Source> dram;
  Source l2, l1;
  // ncu's roofline peaks (--set roofline)
  int sm_clock = kNone, dram_clock = kNone, dram_peak = kNone;
  int fma_peak[3] = {kNone, kNone, kNone};  // fp64, fp32, fp16
};

class PlanBuilder {
 public:
  PlanBuilder(const ToolTable& tab, const ToolRecord& rec) : tab_(tab), rec_(rec) {
    for (std::size_t i = 0; i < rec.values.size(); ++i)
      index_.emplace(rec.values[i].metric, static_cast<int>(i));
  }

  Plan build() const {
    Plan p;
    p.duration = find("gpu__time_duration.sum");
    const char* units[] = {"sm__", "smsp__"};
    for (int u = 0; u < 2; ++u) {
      p.cycles[u] = find(std::string(units[u]) + "cycles_elapsed.avg");
      p.cycles_rate[u] = find(std::string(units[u]) + "cycles_elapsed.avg.per_second");
    }
    for (const auto& pr : kPrecisions) {
      Plan::Precision x{pr.precision, source(pr.fma, kSm), source(pr.add, kSm),
                        source(pr.mul, kSm)};
      p.any_fp = p.any_fp || x.fma || x.add || x.mul;
      p.flops.push_back(x);
    }
    // ncu's tensor families nest (…_src_fp16 ⊃ …_src_fp16_dst_fp32 ⊃
    // …_src_fp16_dst_fp32_sparsity_off) and the op_* family counts the same operations
    // again; only the leaves of one family are added.
    std::map<std::string, std::string> tensor_columns;  // base → its best metric's suffix
    for (const auto& [m, i] : index_) {
      if (const auto t = tensor_metric(m)) {
        auto it = tensor_columns.find(t->first);
        if (it == tensor_columns.end() || t->second == ".sum") tensor_columns[t->first] = t->second;
      }
      if (m.starts_with("sm__inst_executed_pipe_tensor") ||
          m.starts_with("smsp__inst_executed_pipe_tensor")) {
        p.tensor_instructions = true;
        if (m.find(".peak_sustained") == std::string::npos)  // a device peak, not activity
          p.tensor_inst_any.push_back(i);
      }
    }
    p.tensor_inst_total = source("inst_executed_pipe_tensor", kSm);
    const bool src_family = std::any_of(tensor_columns.begin(), tensor_columns.end(), [](auto& b) {
      return b.first.starts_with("ops_path_tensor_src_");
    });
    for (const auto& [base, suffix] : tensor_columns) {
      const bool in_family = base.starts_with("ops_path_tensor_src_") == src_family;
      bool leaf = true;
      for (const auto& [other, s2] : tensor_columns)
        if (other.size() > base.size() && other.starts_with(base + "_")) leaf = false;
      if (!in_family || !leaf) {
        p.tensor_left_out.insert(base);
        continue;
      }
      if (const Source src = source(base, kSm))
        p.tensor.emplace_back(tensor_source_type(base), src);
    }
    // Q: read + write, or the total.
    for (const auto& [rd, wr] :
         {std::pair{"bytes_read", "bytes_write"}, std::pair{"bytes_op_read", "bytes_op_write"}}) {
      const Source r = source(rd, {"dram__"}), w = source(wr, {"dram__"});
      if (r && w) {
        p.dram = {r, w};
        break;
      }
    }
    if (p.dram.empty())
      if (const Source all = source("bytes", {"dram__"})) p.dram = {all};
    p.l2 = source("t_bytes", {"lts__"});
    p.l1 = source("t_bytes", {"l1tex__"});
    p.sm_clock = p.cycles_rate[0] != kNone ? p.cycles_rate[0] : p.cycles_rate[1];
    p.dram_clock = find("dram__cycles_elapsed.avg.per_second");
    p.dram_peak = find("dram__bytes.sum.peak_sustained");
    const char* peaks[] = {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained",
                           "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
                           "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained"};
    for (int i = 0; i < 3; ++i) p.fma_peak[i] = find(peaks[i]);
    return p;
  }

 private:
  int find(const std::string& m) const {
    const auto it = index_.find(m);
    return it == index_.end() ? kNone : it->second;
  }
  /// How to count `base` measured on any of `prefixes`: a .sum first, then a rate.
  Source source(const std::string& base, const std::vector<std::string>& prefixes) const {
    for (const auto& p : prefixes)
      if (int i = find(p + base + ".sum"); i != kNone) return Source{Source::sum, i, kNone};
    for (const auto& p : prefixes)
      if (int i = find(p + base + ".sum.per_second"); i != kNone)
        return Source{Source::per_second, i, kNone};
    for (const auto& p : prefixes)
      if (int i = find(p + base + ".sum.per_cycle_elapsed"); i != kNone) {
        // The unit's elapsed-cycle rate: its own first, the other SM-level one second (both
        // count SM cycles).
        int clock = find(p + "cycles_elapsed.avg.per_second");
        if (clock == kNone)
          clock =
              find(std::string(p == "sm__" ? "smsp__" : "sm__") + "cycles_elapsed.avg.per_second");
        if (clock == kNone) {
          const ToolValue& v = rec_.values[static_cast<std::size_t>(i)];
          throw InputError(tab_.origin + ": line " + std::to_string(v.line) + ", column " +
                           std::to_string(v.column) + ": " + std::string(v.metric) + " needs " + p +
                           "cycles_elapsed.avg.per_second to become a count (collect it with "
                           "--metrics " +
                           p + "cycles_elapsed.avg.per_second)");
        }
        return Source{Source::per_cycle_elapsed, i, clock};
      }
    return Source{};
  }

  const ToolTable& tab_;
  const ToolRecord& rec_;
  std::map<std::string, int, std::less<>> index_;
};

std::string fp_metrics() {
  std::string s;
  for (const auto& p : kPrecisions)
    for (const char* m : {p.add, p.mul, p.fma})
      s += (s.empty() ? "" : ",") + std::string("sm__") + m + ".sum";
  return s;
}

/// The name of the kernel's point: "gemm<float> #2"; a "Kernel Name" cell of only blanks names
/// no kernel, so the point is named by its ID alone ("kernel #2"), never " #2".
std::string point_name(const ToolRecord& rec) {
  const std::string kernel = short_kernel_name(rec.name);
  return (kernel.empty() ? "kernel" : kernel) + " #" + rec.id;
}

std::string kernel_label(const ToolRecord& rec) {
  return "kernel '" + short_kernel_name(rec.name) + "' (ID " + rec.id + ", line " +
         std::to_string(rec.line) + ")";
}

/// Makes points kernel by kernel (also while the file is still being read).
class PointMaker {
 public:
  explicit PointMaker(const NcuOptions& opt) : opt_(opt) {}

  void add(const ToolTable& tab, const ToolRecord& rec) {
    if (kernels_++ == 0) first_ = {rec.id, rec.name, rec.line};
    if (!rec.cc.empty() && !opt_.machine_cc.empty() && rec.cc != opt_.machine_cc) {
      OtherCc& o = other_cc_[rec.cc];
      if (++o.kernels <= kNamedKernels) o.names.push_back("'" + point_name(rec) + "'");
    }
    // ncu numbers every profiled kernel of a report; an ID seen twice is two files joined (or
    // an edited one), whose points would share a name that diff and plot cannot tell apart.
    if (const auto [it, fresh] = id_lines_.emplace(rec.id, rec.line); !fresh)
      throw InputError(tab.origin + ": " + kernel_label(rec) + ": the kernel at line " +
                       std::to_string(it->second) +
                       " has this ID too (ncu numbers each profiled kernel once: import each "
                       "export by itself)");
    const Plan& plan = plan_for(tab, rec);
    file_t_ = file_t_ || plan.duration != kNone ||
              (plan.cycles[0] != kNone && plan.cycles_rate[0] != kNone) ||
              (plan.cycles[1] != kNone && plan.cycles_rate[1] != kNone);
    file_w_ = file_w_ || plan.any_fp || !plan.tensor.empty();
    file_q_ = file_q_ || !plan.dram.empty();
    tensor_left_out_.insert(plan.tensor_left_out.begin(), plan.tensor_left_out.end());

    const Duration t = duration(tab, rec, plan);
    // A kernel the file's other kernels have metrics for but this one not (a details page cut
    // short): listed, not placed.
    std::vector<std::string> lacks;
    if (!t.seconds) lacks.push_back("T (gpu__time_duration.sum)");
    if (!plan.any_fp && plan.tensor.empty()) lacks.push_back("W (FP instruction metrics)");
    if (plan.dram.empty()) lacks.push_back("Q (dram__bytes_*)");
    if (!lacks.empty()) {
      notes_.push_back(kernel_label(rec) + ": left out, no " + join(lacks) + " for this kernel");
      return;
    }
    pending_w_unknown_.clear();
    ++w_read_kernels_;
    std::optional<Point> p = point(tab, rec, plan, *t.seconds, t.how);
    // A metric n/a for every kernel is one the GPU does not give: kernels left out for another
    // reason count too, or the others would read it as missing for some only.
    for (const auto& m : pending_w_unknown_) ++w_unknown_kernels_[m.substr(0, m.find(" (line"))];
    if (!p) return;  // skipped, noted
    require_numeric_ratios(tab, rec, plan, t, *p);
    take_roofs(roofs_from_peaks(tab, rec, plan), rec);
    if (!pending_w_unknown_.empty()) w_unknown_.push_back({points_.size(), pending_w_unknown_});
    points_.push_back(std::move(*p));
  }

  /// W metrics ncu printed as missing: one missing for every kernel is one this GPU or ncu does
  /// not give (an fp8 tensor path on an A100), counted 0 with one note; one missing for some
  /// kernels only leaves those out, since their W would lack a count the others have (an n/a
  /// FFMA count made a GEMM's W 770 FLOP).
  void judge_missing_w_metrics() {
    std::vector<bool> drop(points_.size(), false);
    for (const auto& [index, metrics] : w_unknown_) {
      std::vector<std::string> partial;
      for (const auto& m : metrics)
        if (w_unknown_kernels_[m.substr(0, m.find(" (line"))] < w_read_kernels_)
          partial.push_back(m);
      if (partial.empty()) continue;
      drop[index] = true;
      notes_.push_back("kernel " + points_[index].name + ": skipped, " + join(partial, ", ") +
                       (partial.size() > 1 ? " are" : " is") +
                       " not given (n/a) though other kernels have it: its W would lack " +
                       (partial.size() > 1 ? "them" : "it") + " — not a point");
    }
    for (const auto& [metric, n] : w_unknown_kernels_)
      if (n == w_read_kernels_)
        notes_.push_back(metric +
                         " is n/a for every kernel: counted as 0 in W (a metric this "
                         "GPU or ncu version does not give)");
    std::vector<Point> kept;
    for (size_t i = 0; i < points_.size(); ++i)
      if (!drop[i]) kept.push_back(std::move(points_[i]));
    points_ = std::move(kept);
  }

  ImportResult finish(const ToolTable& tab) {
    // A file without any T, W or Q metric is refused at its first kernel, naming everything
    // missing and the metrics that collect it.
    std::vector<std::pair<std::string, std::string>> missing;  // (what, --metrics)
    if (!file_t_)
      missing.emplace_back(
          "T cannot be counted: no gpu__time_duration.sum (nor "
          "sm__cycles_elapsed.avg with sm__cycles_elapsed.avg.per_second)",
          "gpu__time_duration.sum");
    if (!file_w_)
      missing.emplace_back(
          "W cannot be counted: no FP instruction metrics "
          "({sm,smsp}__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on"
          ".sum) nor tensor operations (sm__ops_path_tensor_*)",
          fp_metrics());
    if (!file_q_)
      missing.emplace_back(
          "Q cannot be counted: no DRAM traffic (dram__bytes_read.sum + "
          "dram__bytes_write.sum, or dram__bytes.sum)",
          "dram__bytes_read.sum,dram__bytes_write.sum");
    if (kernels_ == 0) throw InputError(tab.origin + ": no kernel rows (file truncated?)");
    if (!missing.empty()) {
      std::string what, metrics;
      for (const auto& [w, m] : missing) {
        what += (what.empty() ? "" : "; ") + w;
        metrics += (metrics.empty() ? "" : ",") + m;
      }
      ToolRecord first;
      first.id = first_.id;
      first.name = first_.name;
      first.line = first_.line;
      throw InputError(tab.origin + ": " + kernel_label(first) + ": " + what +
                       "; collect them with: ncu --csv --metrics " + metrics +
                       " (docs/import.md: the full command)");
    }
    judge_missing_w_metrics();
    ImportResult res;
    res.doc.origin = tab.origin;
    res.doc.points = std::move(points_);
    res.notes = tab.notes;
    res.notes.insert(res.notes.end(), notes_.begin(), notes_.end());
    if (!tensor_left_out_.empty()) {
      res.notes.push_back("tensor metrics left out of W (they sum or repeat others counted): " +
                          join(tensor_left_out_));
    }
    if (volta_tensor_)
      res.notes.push_back(
          "tensor-pipe instructions on Volta (CC 7.0, 7.2) are counted as 512 FLOP each (an "
          "HMMA.884 step, as ncu's tensor roofline section counts them), fp16 tensor work");
    // Both where both kinds of kernel ran: a Volta kernel's counts taken as FLOP do not make
    // another GPU's kernels left out any less so.
    if (tensor_left_out_kernels_ > 0)
      res.notes.push_back(
          std::to_string(tensor_left_out_kernels_) +
          (tensor_left_out_kernels_ == 1 ? " kernel was" : " kernels were") +
          " left out for tensor-pipe instructions beyond their FP16 ones: the counts "
          "({sm,smsp}__inst_executed_pipe_tensor*) are not FLOP (their shape is unknown off "
          "Volta); collect sm__ops_path_tensor_src_*.sum for tensor FLOP");
    // One note per compute capability, naming its kernels (the first few): a file where only
    // some kernels ran on another GPU says which.
    for (const auto& [cc, o] : other_cc_) {
      std::string named = join(o.names);
      if (o.kernels > o.names.size())
        named += " and " + std::to_string(o.kernels - o.names.size()) + " more";
      const std::string count =
          o.kernels == kernels_
              ? (kernels_ == 1 ? "the kernel" : "all " + std::to_string(kernels_) + " kernels")
              : std::to_string(o.kernels) + " of " + std::to_string(kernels_) + " kernels";
      res.notes.push_back(
          count + " (" + named + ") ran on compute capability " + cc +
          " (the export's CC column), and " + opt_.machine_name + " is " + opt_.machine_cc + ": " +
          (o.kernels == 1 ? "its time is" : "their times are") +
          " another GPU's, judged here against " + opt_.machine_name +
          "'s roofs (give --hw for the GPU " + (o.kernels == 1 ? "it" : "they") + " ran on)");
    }
    // The export's own roofs stand for its kernels only where they ran on one device.
    if (!other_devices_.empty() && opt_.own_roofs) {
      res.notes.push_back(
          "the kernels ran on more than one device (" + roofs_device_ + ", " +
          join(std::vector<std::string>(other_devices_.begin(), other_devices_.end())) +
          "): each device's peaks would judge its own kernels, so none are judged against the "
          "export's roofs; give --hw/--machine for one machine's roofs");
      roofs_.reset();
    } else if (peak_spread_ > 1.02 && opt_.own_roofs) {
      res.notes.push_back("the kernels' own peaks differ up to " + format_number(peak_spread_, 3) +
                          "x (their SM or DRAM clocks differed: collect with --clock-control "
                          "base): they are judged against the first kernel's");
    }
    res.roofs = std::move(roofs_);
    judge_mixed(res.doc.points,
                opt_.roofs  ? opt_.roofs
                : res.roofs ? &*res.roofs
                            : nullptr,
                res.notes);
    // A kernel name a quoted field carried over lines (a cut or forged export) is refused here.
    require_valid_points(res.doc, tab.origin);
    return res;
  }

 private:
  std::vector<std::string> unknown_;  ///< metrics of the kernel at hand ncu left out (n/a)
  std::vector<std::string> pending_w_unknown_;  ///< its W metrics left out, for judge_missing_w…
  std::vector<std::pair<size_t, std::vector<std::string>>> w_unknown_;  ///< point → metrics
  std::map<std::string, std::size_t> w_unknown_kernels_;  ///< metric → kernels that left it out

  struct Duration {
    std::optional<double> seconds;
    std::string how = "gpu__time_duration.sum";
    int cell = kNone;  ///< the value T is read from (the duration, or the cycles)
  };

  /// P = W/T and I = W/Q must be numbers (Point::validate): a kernel whose ratio overflows or
  /// underflows is refused at the cell that gave it — T's for P, the level's traffic for I —
  /// naming its value, as a value that does not fit a double is (docs/import.md).
  void require_numeric_ratios(const ToolTable& tab, const ToolRecord& rec, const Plan& plan,
                              const Duration& t, const Point& p) const {
    const RatioProblem bad = ratio_problem(p);
    if (!bad) return;
    int cell = t.cell;
    if (!bad.is_p)
      cell = bad.level == "L2"   ? plan.l2.metric
             : bad.level == "L1" ? plan.l1.metric
                                 : plan.dram.front().metric;
    std::string at;
    if (cell != kNone) {
      const ToolValue& v = rec.values[static_cast<std::size_t>(cell)];
      at = "line " + std::to_string(v.line) + ", column " + std::to_string(v.column) + ": " +
           std::string(v.metric) + " = " + format_number(v.value, 6) +
           (v.unit.empty() ? "" : " " + std::string(v.unit)) + ": ";
    }
    throw InputError(tab.origin + ": " + at + kernel_label(rec) + ": " + bad.why +
                     "; give W, Q and T in a range where their ratios are numbers");
  }

  /// T: the duration, else cycles over their rate (the NERSC method).
  Duration duration(const ToolTable& tab, const ToolRecord& rec, const Plan& plan) {
    Duration t;
    t.seconds = value(tab, rec, plan.duration);
    if (t.seconds) t.cell = plan.duration;
    for (int u = 0; u < 2 && !t.seconds; ++u) {
      const auto cycles = value(tab, rec, plan.cycles[u]);
      const auto rate = value(tab, rec, plan.cycles_rate[u]);
      if (cycles && rate && *rate > 0) {
        t.seconds = *cycles / *rate;
        t.cell = plan.cycles[u];
        const std::string p = u == 0 ? "sm__" : "smsp__";
        t.how = p + "cycles_elapsed.avg / " + p + "cycles_elapsed.avg.per_second";
      }
    }
    return t;
  }

  /// A count from its source over the kernel's `seconds` (a .sum, or a rate × T). A value ncu
  /// printed as missing ("n/a", "-", empty) counts 0 here and is listed in `unknown_`, so that
  /// the kernel is left out rather than placed with a count that lacks it.
  double count(const ToolTable& tab, const ToolRecord& rec, const Source& s, double seconds) {
    if (!s) return 0;
    const auto known = [&](int i) {
      const std::optional<double> v = value(tab, rec, i);
      if (!v && i != kNone) {
        const ToolValue& tv = rec.values[static_cast<std::size_t>(i)];
        unknown_.push_back(std::string(tv.metric) + " (line " + std::to_string(tv.line) + ")");
      }
      return v.value_or(0);
    };
    const double v = known(s.metric);
    switch (s.kind) {
      case Source::sum:
        return v;
      case Source::per_second:
        return v * seconds;
      case Source::per_cycle_elapsed:
        return v * known(s.clock) * seconds;
    }
    return 0;
  }

  /// Tensor-pipe instructions where no sm__ops_path_tensor metric counts their FLOP. On Volta
  /// (CC 7.0, 7.2) each is an HMMA.884 step of 512 FLOP: a 16×16×16 wmma (8192 FLOP) is 16
  /// HMMA.884 instructions (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
  /// Microbenchmarking", arXiv:1804.06826), and ncu's own tensor roofline section
  /// (SpeedOfLight_HierarchicalTensorRooflineChart) multiplies the count by 512; a real V100
  /// export's 33,554,432,000 instructions × 512 are exactly its GEMM's 2·20480³. They are added
  /// as fp16 tensor work (Volta's tensor cores take fp16 only). Elsewhere the shape varies
  /// (HMMA.16816 is 4096 FLOP, HMMA.1684 1024): W would be a lower bound by an unknown factor,
  /// which read as "far below both roofs" for a GEMM at 76% of its roof, so the kernel is left
  /// out with a note. False when it is left out.
  bool tensor_instruction_work(const ToolTable& tab, const ToolRecord& rec, const Plan& plan,
                               double seconds, std::map<std::string, double>& by_prec) {
    if (!plan.tensor.empty() || plan.tensor_inst_any.empty()) return true;
    // Its counts are W's, listed already when n/a (fp16), or no W (tensor-pipe, n/a = 0).
    struct Restore {
      std::vector<std::string>& list;
      std::size_t size;
      ~Restore() { list.resize(size); }
    } restore{unknown_, unknown_.size()};
    // Any tensor-pipe metric above 0 (a count, a rate, a % of peak) says the pipe worked.
    bool active = false;
    for (int i : plan.tensor_inst_any) active = active || value(tab, rec, i).value_or(0) > 0;
    if (!active) return true;
    if (!plan.tensor_inst_total) {
      notes_.push_back(kernel_label(rec) +
                       ": left out, its tensor pipe was active and the export has no count of "
                       "its instructions (sm__inst_executed_pipe_tensor.sum) nor of their FLOP: "
                       "its W would be a lower bound by an unknown factor — collect "
                       "sm__ops_path_tensor_src_*.sum");
      ++tensor_left_out_kernels_;
      return false;
    }
    const double most = count(tab, rec, plan.tensor_inst_total, seconds);
    // FP16 arithmetic issues on the tensor pipe too (a real A100 export's 67,161,292,800
    // tensor-pipe instructions are exactly its 2,149,161,369,600 HFMA thread instructions / 32):
    // only what the HFMA/HADD/HMUL warp instructions leave is MMA. Predicated-off lanes make
    // thread counts / 32 fall short of the warp instructions, hence the 5% margin.
    double h_warp = 0;
    for (const auto& pr : plan.flops)
      if (std::string(pr.precision) == "fp16")
        for (const Source* src : {&pr.fma, &pr.add, &pr.mul})
          h_warp += count(tab, rec, *src, seconds) / 32;
    const double mma = most - h_warp;
    constexpr double kVoltaFlopPerTensorInstruction = 512;
    const bool volta = rec.cc == "7.0" || rec.cc == "7.2";
    if (!(mma > 0.05 * most)) {
      if (mma >= 1)
        margin_note(rec, mma, most, volta ? kVoltaFlopPerTensorInstruction : 0, by_prec);
      return true;
    }
    if (volta && plan.tensor_inst_total) {
      by_prec["fp16 tensor"] += kVoltaFlopPerTensorInstruction * mma;
      volta_tensor_ = true;
      return true;
    }
    notes_.push_back(kernel_label(rec) + ": left out, it ran " + format_number(mma, 4) +
                     " tensor-pipe instructions beyond its FP16 ones" +
                     (rec.cc.empty() ? "" : " on CC " + rec.cc) +
                     ", whose FLOP no metric of the export counts (the MMA shape varies): its W "
                     "would be a lower bound by an unknown factor — collect "
                     "sm__ops_path_tensor_src_*.sum");
    ++tensor_left_out_kernels_;
    return false;
  }

  /// A point whose W no precision dominates (< 90% each, no tensor work) runs on several
  /// units, each with its own roof: it is judged against the highest roof of its precisions —
  /// W/T passes none of them while the units take turns — and a note gives each precision's
  /// share, its roof and the attainment there, and the least time the work takes at those roofs.
  /// Without roofs the shares alone are noted.
  void judge_mixed(std::vector<Point>& points, const RoofSet* rs, std::vector<std::string>& notes) {
    for (auto& p : points) {
      const auto it = mixed_.find(p.name);
      if (it == mixed_.end()) continue;
      const double w = p.work.value, rate = w / p.time.value;
      std::string shares, roofs;
      const ComputeRoof* best = nullptr;
      double least = 0;  // s, the work of each precision at its own roof, one after another
      for (const auto& [prec, v] : it->second) {
        shares +=
            (shares.empty() ? "" : ", ") + prec + " vector " + format_number(100 * v / w, 3) + "%";
        const ComputeRoof* r = rs ? rs->find_compute_on(prec, "vector") : nullptr;
        if (!r) continue;
        roofs += (roofs.empty() ? "" : ", ") + prec + " vector on roof '" + r->name + "' (" +
                 format_work_rate(r->peak) + "): " + format_number(100 * rate / r->peak.value, 3) +
                 "%";
        least += v / r->peak.value;
        if (!best || r->peak.value > best->peak.value) {
          best = r;
          p.precision = prec + " vector";
        }
      }
      std::string text = "kernel " + p.name + ": no precision has 90% of W (" + shares + ")";
      if (best)
        text += ": judged against the highest of their roofs, '" + best->name +
                "' (W/T passes none while the units take turns); W/T = " +
                format_work_rate(WorkRate(rate)) + " would read " + roofs +
                "; at those roofs the work takes at least " + format_seconds(Seconds(least)) +
                " if the units take turns (" + format_number(100 * least / p.time.value, 3) +
                "% of T)";
      else if (rs)
        text +=
            ": the roofs have no vector roof of these precisions; judged against the default "
            "compute roof";
      notes.push_back(text);
    }
  }

  /// Tensor-pipe instructions beyond the FP16 warp instructions, but within the 5% margin left
  /// for predicated-off lanes: W leaves them out, so the note says how many there were and
  /// what W would be if they were MMAs (an HMMA.16816 is 4096 FLOP, an HMMA.884 step on Volta
  /// 512 — `volta_flop` when the export is of Volta, else 0).
  void margin_note(const ToolRecord& rec, double extra, double all, double volta_flop,
                   const std::map<std::string, double>& by_prec) {
    double w = 0;
    for (const auto& [prec, v] : by_prec) w += v;
    const double per = volta_flop > 0 ? volta_flop : 4096;
    const double more = extra * per;
    notes_.push_back(kernel_label(rec) + ": " + format_number(extra, 4) +
                     " tensor-pipe instructions beyond its FP16 ones (" +
                     format_number(100 * extra / all, 3) + "% of its " + format_number(all, 4) +
                     "), within the 5% margin for predicated-off lanes: not counted in W (" +
                     format_work(Work(w)) + "); if they are MMAs, W misses " +
                     format_work(Work(more)) + " (" +
                     (volta_flop > 0 ? "an HMMA.884 step of 512 FLOP each, Volta"
                                     : "4096 FLOP each as HMMA.16816, more for larger shapes") +
                     ") and would be " + format_work(Work(w + more)) +
                     " — collect sm__ops_path_tensor_src_*.sum to count them");
  }

  /// The kernel's point: W per precision (FMA twice) and tensor type, Q at DRAM (and L2, L1),
  /// its roof's precision. A kernel without W, Q or T is noted instead.
  std::optional<Point> point(const ToolTable& tab, const ToolRecord& rec, const Plan& plan,
                             double seconds, const std::string& t_how) {
    unknown_.clear();
    std::map<std::string, double> by_prec;
    for (const auto& pr : plan.flops) {
      const double w = 2 * count(tab, rec, pr.fma, seconds) + count(tab, rec, pr.add, seconds) +
                       count(tab, rec, pr.mul, seconds);
      if (w > 0) by_prec[pr.precision] += w;
    }
    for (const auto& [type, src] : plan.tensor) {
      const double w = count(tab, rec, src, seconds);
      if (w > 0) by_prec[(type.empty() ? std::string("unknown") : type) + " tensor"] += w;
    }
    if (!tensor_instruction_work(tab, rec, plan, seconds, by_prec)) {
      pending_w_unknown_ = unknown_;
      return std::nullopt;
    }
    double w = 0;
    for (const auto& [prec, v] : by_prec) w += v;
    std::vector<std::string> w_unknown;
    w_unknown.swap(unknown_);
    double q = 0;
    for (const auto& s : plan.dram) q += count(tab, rec, s, seconds);
    if (!std::isfinite(w) || !std::isfinite(q))
      throw InputError(tab.origin + ": " + kernel_label(rec) + ": " +
                       (!std::isfinite(w) ? "W" : "Q") + " overflows (more than 1e308)");

    Point p;
    p.name = point_name(rec);
    pending_w_unknown_ = std::move(w_unknown);  // judged once every kernel is read (finish)
    if (!unknown_.empty()) {                    // Q's metrics: a point without its traffic is none
      notes_.push_back("kernel " + p.name + ": skipped, " + join(unknown_, ", ") +
                       (unknown_.size() > 1 ? " are" : " is") +
                       " not given (n/a): its Q would lack " +
                       (unknown_.size() > 1 ? "them" : "it") + " — not a point");
      return std::nullopt;
    }
    p.source = "ncu";
    p.work = Work(w);
    // The roof a point is judged against: its dominant precision (≥ 90% of W); without one,
    // the largest tensor share when there is tensor work (the tensor roof is the highest the
    // kernel used, so the point is not judged impossible against a lower one).
    std::string breakdown, largest_tensor;
    for (const auto& [prec, v] : by_prec) {
      breakdown += (breakdown.empty() ? "" : ", ") + prec + " " + format_work(Work(v));
      if (v >= 0.9 * w) p.precision = prec;
      if (prec.ends_with(" tensor") && (largest_tensor.empty() || v > by_prec[largest_tensor]))
        largest_tensor = prec;
    }
    if (p.precision.empty()) p.precision = largest_tensor;
    if (p.precision.empty() && by_prec.size() > 1) mixed_[p.name] = by_prec;
    if (p.precision == "unknown tensor") p.precision = "tensor";
    // SASS d/f/h FMA, ADD and MUL instructions run on the CUDA cores: such a point is judged
    // against that precision's vector roof, not the tensor roof above it (an H100's fp64 tensor
    // roof is twice its fp64 vector roof).
    if (!p.precision.empty() && !p.precision.ends_with("tensor") && p.precision != "tensor")
      p.precision += " vector";
    p.traffic.push_back({"DRAM", Bytes(q)});
    if (opt_.hierarchy) {
      const double l2 = count(tab, rec, plan.l2, seconds), l1 = count(tab, rec, plan.l1, seconds);
      if (std::isfinite(l2) && l2 > 0) p.traffic.push_back({"L2", Bytes(l2)});
      if (std::isfinite(l1) && l1 > 0) p.traffic.push_back({"L1", Bytes(l1)});
    }
    p.time = Seconds(seconds);
    p.note = rec.name + (breakdown.empty() ? "" : " — W: " + breakdown) +
             (t_how == "gpu__time_duration.sum" ? "" : "; T = " + t_how);
    if (!(w > 0) || !(q > 0) || !(seconds > 0)) {
      notes_.push_back("kernel " + p.name + ": skipped, " +
                       std::string(!(w > 0)   ? "no floating-point work counted (W = 0)"
                                   : !(q > 0) ? "no DRAM traffic (Q = 0)"
                                              : "no duration (T = 0)") +
                       " — not a point");
      return std::nullopt;
    }
    return p;
  }

  const Plan& plan_for(const ToolTable& tab, const ToolRecord& rec) {
    // The metric names are views of the table's strings: the same name is the same pointer.
    key_.clear();
    for (const auto& v : rec.values) key_.push_back(v.metric.data());
    auto it = plans_.find(key_);
    if (it == plans_.end()) it = plans_.emplace(key_, PlanBuilder(tab, rec).build()).first;
    return it->second;
  }

  /// A value in base units; nothing when absent or "n/a". A unit it does not know, a value
  /// that does not fit a double once scaled (1e300 Gbyte) or a negative count is an error at
  /// its line and column.
  std::optional<double> value(const ToolTable& tab, const ToolRecord& rec, int i) {
    if (i == kNone) return std::nullopt;
    const ToolValue& v = rec.values[static_cast<std::size_t>(i)];
    if (v.missing) return std::nullopt;
    auto where = [&] {
      return tab.origin + ": line " + std::to_string(v.line) + ", column " +
             std::to_string(v.column) + ": " + std::string(v.metric);
    };
    auto base = base_units_.find(v.metric.data());
    if (base == base_units_.end())
      base = base_units_.emplace(v.metric.data(), metric_unit(v.metric)).first;
    // No unit (no units row, or an empty cell): the metric's base unit, as ncu prints it.
    NcuUnit unit = base->second;
    if (!v.unit.empty()) {
      auto sc = units_.find(v.unit.data());
      if (sc == units_.end())
        sc = units_.emplace(v.unit.data(), ncu_unit(std::string(v.unit), where())).first;
      unit = sc->second;
      // A unit of another kind than the metric's (a duration in Gbyte, bytes in %) is refused,
      // not scaled: it would be read as a number 1e9 times off.
      if (!unit.same_dimension(base->second))
        throw InputError(where() + ": unit '" + std::string(v.unit) + "' is " + unit.dimension() +
                         ", this metric is " + base->second.dimension());
    }
    const double scaled = v.value * unit.scale;
    if (!std::isfinite(scaled))
      throw InputError(where() + ": " + format_number(v.value) + " " + std::string(v.unit) +
                       " is out of range (more than 1e308 base units)");
    if (scaled < 0) throw InputError(where() + ": negative value " + format_number(v.value));
    return scaled;
  }

  /// The first kernel's roofs are the export's; a kernel of another device, or whose peaks
  /// differ (another clock), is remembered for the notes.
  void take_roofs(std::optional<RoofSet> rs, const ToolRecord& rec) {
    if (!rs) return;
    const std::string device = "device " + (rec.device.empty() ? std::string("0") : rec.device);
    if (!roofs_) {
      roofs_ = std::move(rs);
      roofs_device_ = device;
      return;
    }
    if (device != roofs_device_) {
      other_devices_.insert(device);
      return;
    }
    auto spread = [&](double a, double b) { return a > b ? a / b : b / a; };
    for (const auto& c : rs->compute)
      if (const ComputeRoof* first = roofs_->find_compute(c.name))
        peak_spread_ = std::max(peak_spread_, spread(c.peak.value, first->peak.value));
    if (!rs->memory.empty() && !roofs_->memory.empty())
      peak_spread_ = std::max(peak_spread_, spread(rs->memory.front().bandwidth.value,
                                                   roofs_->memory.front().bandwidth.value));
  }

  std::optional<RoofSet> roofs_from_peaks(const ToolTable& tab, const ToolRecord& rec,
                                          const Plan& plan) {
    // The device's roofs from a kernel that has ncu's roofline peak metrics.
    const auto sm_clock = value(tab, rec, plan.sm_clock);
    const auto dram_clock = value(tab, rec, plan.dram_clock);
    const auto dram_peak = value(tab, rec, plan.dram_peak);
    if (!(sm_clock && dram_clock && dram_peak && *sm_clock > 0 && *dram_clock > 0 &&
          *dram_peak > 0))
      return std::nullopt;
    RoofSet rs;
    rs.name = "device " + (rec.device.empty() ? std::string("0") : rec.device) + " (from " +
              tab.origin + ")";
    const char* precisions[] = {"fp64", "fp32", "fp16"};
    for (int i = 0; i < 3; ++i) {
      const auto per_cycle = value(tab, rec, plan.fma_peak[i]);
      if (!per_cycle || !(*per_cycle > 0)) continue;
      ComputeRoof c;
      c.name = precisions[i];
      c.precision = precisions[i];
      c.unit = "cuda cores";
      c.peak = WorkRate(2 * *per_cycle * *sm_clock);  // FMA = 2 FLOP
      c.provenance = Provenance::theoretical;
      c.formula = "2 × " + format_number(*per_cycle) + " FMA/cycle × " +
                  format_si(*sm_clock, "Hz") + " (" +
                  std::string(rec.values[static_cast<std::size_t>(plan.fma_peak[i])].metric) + ")";
      c.source = tab.origin;
      rs.compute.push_back(c);
    }
    MemoryRoof m;
    m.level = "DRAM";
    m.bandwidth = ByteRate(*dram_peak * *dram_clock);
    m.provenance = Provenance::theoretical;
    m.formula = format_number(*dram_peak) + " byte/cycle × " + format_si(*dram_clock, "Hz");
    m.source = tab.origin;
    rs.memory.push_back(m);
    if (rs.compute.empty()) return std::nullopt;
    rs.default_compute = rs.compute.back().name;
    rs.default_memory = "DRAM";
    return rs;
  }

  struct First {
    std::string id, name;
    int line = 0;
  };
  NcuOptions opt_;
  std::map<std::vector<const char*>, Plan> plans_;
  std::vector<const char*> key_;
  std::map<const char*, NcuUnit> units_;       // by unit text (interned)
  std::map<const char*, NcuUnit> base_units_;  // by metric name (interned)
  std::vector<Point> points_;
  std::vector<std::string> notes_;
  std::set<std::string> tensor_left_out_;
  /// point name → W per precision, for points whose W no precision dominates (judge_mixed)
  std::map<std::string, std::map<std::string, double>> mixed_;
  std::map<std::string, int> id_lines_;  // kernel ID → line of its first record
  /// Kernels left out for tensor-pipe instructions whose FLOP no metric counts: the summary
  /// note is for them, not for a file whose pipe counts are all FP16 instructions.
  std::size_t tensor_left_out_kernels_ = 0;
  bool volta_tensor_ = false;  ///< some kernel's W has Volta tensor-pipe instructions × 512
  std::optional<RoofSet> roofs_;
  std::string roofs_device_;             // the device whose kernel gave roofs_
  std::set<std::string> other_devices_;  // devices of later kernels with peaks of their own
  struct OtherCc {
    std::size_t kernels = 0;
    std::vector<std::string> names;  ///< the first kNamedKernels, quoted
  };
  static constexpr std::size_t kNamedKernels = 3;
  std::map<std::string, OtherCc> other_cc_;  // compute capability not the machine's (--hw) →
  double peak_spread_ = 1;                   // largest ratio of a later kernel's peak to roofs_'
  std::size_t kernels_ = 0;
  std::size_t w_read_kernels_ = 0;  ///< kernels whose W metrics were read (not left out before)
  First first_;
  bool file_t_ = false, file_w_ = false, file_q_ = false;
};

}  // namespace

ImportResult ncu_points(const ToolTable& tab, const NcuOptions& opt) {
  PointMaker maker(opt);
  for (const ToolRecord& rec : tab.records) maker.add(tab, rec);
  return maker.finish(tab);
}

ImportResult import_ncu(std::istream& in, const std::string& origin, const NcuOptions& opt) {
  TextLines lines(in, origin);
  PointMaker maker(opt);
  // Kernel by kernel as they are read: the table of a large export is never held whole.
  const ToolTable tab =
      read_ncu_table(lines, [&](const ToolTable& t, ToolRecord&& rec) { maker.add(t, rec); });
  return maker.finish(tab);
}

ImportResult import_ncu(const std::string& text, const std::string& origin, const NcuOptions& opt) {
  std::istringstream in(text);
  return import_ncu(in, origin, opt);
}

std::optional<MachineDocument> machine_from_export_roofs(ImportResult& res) {
  if (!res.roofs) return std::nullopt;
  MachineDocument m;
  m.roofs = *res.roofs;
  res.notes.push_back("roofs from the report's peak metrics (ncu --set roofline): " +
                      std::to_string(res.roofs->compute.size()) +
                      " compute roofs (no tensor roof: give --hw for one), DRAM " +
                      format_byte_rate(res.roofs->memory.front().bandwidth));
  return m;
}

}  // namespace roofline
