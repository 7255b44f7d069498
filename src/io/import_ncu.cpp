// Nsight Compute CSV (`ncu --csv --page raw`, any --metrics or --set roofline) → one point per
// kernel (DIGEST §10):
//   W = Σ_precision (2·FMA + ADD + MUL) thread instructions + tensor-pipe ops
//       ({sm,smsp}__sass_thread_inst_executed_op_{d,f,h}{fma,add,mul}_pred_on; FMA = 2 FLOP;
//        sm__ops_path_tensor_src_<type>… as ncu reports them, an MMA's multiply-add = 2 ops)
//   Q = dram__bytes_read + dram__bytes_write (or dram__bytes);
//       L2: lts__t_bytes, L1: l1tex__t_bytes for hierarchical points
//   T = gpu__time_duration.sum
// Each count is read from its `.sum` column when the export has one, else rebuilt from a rate:
//   `.sum.per_cycle_elapsed` × <unit>__cycles_elapsed.avg.per_second × T
//   `.sum.per_second` × T
// `--set roofline` collects only rates; its SpeedOfLight_RooflineChart sections compute the
// achieved work the same way (NVIDIA Nsight Compute, sections/SpeedOfLight_RooflineChart.section:
// achieved FLOP/s = 2 · smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed ·
// smsp__cycles_elapsed.avg.per_second; Profiling Guide, "Metrics Structure": .per_cycle_elapsed
// is the rollup divided by the unit's elapsed cycles, .per_second divided by the duration).
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/quantity.hpp"

namespace roofline {
namespace {

std::string at(const std::string& origin, int line, int column) {
  return origin + ": line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool starts_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

}  // namespace

std::string short_kernel_name(const std::string& full) {
  std::string s = full;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') {
      ++depth;
    } else if (s[i] == '>') {
      --depth;
    } else if (s[i] == '(' && depth == 0) {
      // Parentheses that are part of the name, not its parameter list.
      static const std::string anon = "(anonymous namespace)";
      if (s.compare(i, anon.size(), anon) == 0) {
        i += anon.size() - 1;
        continue;
      }
      if (i >= 8 && s.compare(i - 8, 8, "operator") == 0 && s.compare(i, 2, "()") == 0) {
        ++i;  // operator()
        continue;
      }
      s = s.substr(0, i);
      break;
    }
  }
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  return trim(s);
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

/// Where a count comes from: a `.sum` column, or a rate column and what turns it into a count.
struct CountSource {
  enum Kind { sum, per_second, per_cycle_elapsed } kind = sum;
  std::string column;  ///< the header name
  std::string clock;   ///< per_cycle_elapsed: the <unit>__cycles_elapsed.avg.per_second column
};

/// The precision a tensor metric's source operands have: "sm__ops_path_tensor_src_fp16_dst_fp32"
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

struct Table {
  std::map<std::string, std::size_t> col;
  const CsvRow* header = nullptr;
  std::string origin;

  bool has(const std::string& name) const { return col.count(name) > 0; }

  /// The unit's elapsed-cycle rate for a metric of unit `prefix` ("sm__", "smsp__"): its own
  /// first, the other SM-level one second (both count SM cycles).
  std::string clock_for(const std::string& prefix) const {
    for (const std::string& p : {prefix, std::string(prefix == "sm__" ? "smsp__" : "sm__")})
      if (has(p + "cycles_elapsed.avg.per_second")) return p + "cycles_elapsed.avg.per_second";
    return "";
  }

  /// How to count `base` (a metric name without unit prefix and rollup) measured on any of
  /// `prefixes`: a .sum column first, then a rate. Empty when the export has none.
  std::optional<CountSource> source(const std::string& base,
                                    const std::vector<std::string>& prefixes) const {
    for (const auto& p : prefixes)
      if (has(p + base + ".sum")) return CountSource{CountSource::sum, p + base + ".sum", ""};
    for (const auto& p : prefixes)
      if (has(p + base + ".sum.per_second"))
        return CountSource{CountSource::per_second, p + base + ".sum.per_second", ""};
    for (const auto& p : prefixes)
      if (has(p + base + ".sum.per_cycle_elapsed")) {
        const std::string clock = clock_for(p);
        if (clock.empty())
          throw InputError(at(origin, header->front().line, 1) + "column '" + p + base +
                           ".sum.per_cycle_elapsed' needs " + p +
                           "cycles_elapsed.avg.per_second to become a count (missing column)");
        return CountSource{CountSource::per_cycle_elapsed, p + base + ".sum.per_cycle_elapsed",
                           clock};
      }
    return std::nullopt;
  }
};

const std::vector<std::string> kSm = {"sm__", "smsp__"};

/// A tensor-op metric column → (base name without unit prefix, rollup suffix), or nothing.
std::optional<std::pair<std::string, std::string>> tensor_metric(const std::string& name) {
  std::string rest;
  if (starts_with(name, "sm__ops_path_tensor_"))
    rest = name.substr(4);
  else if (starts_with(name, "smsp__ops_path_tensor_"))
    rest = name.substr(6);
  else
    return std::nullopt;
  for (const char* suffix : {".sum", ".sum.per_second", ".sum.per_cycle_elapsed"})
    if (ends_with(rest, suffix))
      return std::pair{rest.substr(0, rest.size() - std::string(suffix).size()),
                       std::string(suffix)};
  return std::nullopt;  // .peak_sustained, .avg.pct_of_peak…: not counts
}

}  // namespace

ImportResult import_ncu(const std::string& text, const std::string& origin, const NcuOptions& opt) {
  const std::vector<CsvRow> rows = parse_csv(text, origin);
  // ncu may print "==PROF==" lines before the table; the header is the first row with a kernel
  // name column.
  std::size_t h = 0;
  Table tab;
  tab.origin = origin;
  for (; h < rows.size(); ++h) {
    tab.col.clear();
    for (std::size_t i = 0; i < rows[h].size(); ++i) tab.col[trim(rows[h][i].text)] = i;
    if (tab.has("Kernel Name") || tab.has("Function Name")) break;
  }
  if (h == rows.size())
    throw InputError(origin + ": line 1: not an Nsight Compute CSV export: no header with " +
                     "'Kernel Name' (export with: ncu --csv --page raw ...)");
  const CsvRow& header = rows[h];
  tab.header = &header;
  auto& col = tab.col;
  const int header_line = header.front().line;
  const std::string at_header = origin + ": line " + std::to_string(header_line) + ": ";
  const std::size_t name_col = col.count("Kernel Name") ? col["Kernel Name"] : col["Function Name"];
  const bool has_id = col.count("ID") > 0;
  const std::size_t id_col = has_id ? col["ID"] : 0;
  if (!tab.has("gpu__time_duration.sum"))
    throw InputError(at_header + "missing column 'gpu__time_duration.sum' (T)");

  // Q: read + write, or the total.
  std::vector<CountSource> dram;
  {
    const auto rd = tab.source("bytes_read", {"dram__"});
    const auto wr = tab.source("bytes_write", {"dram__"});
    if (rd && wr) {
      dram = {*rd, *wr};
    } else if (const auto all = tab.source("bytes", {"dram__"})) {
      dram = {*all};
    } else {
      throw InputError(at_header +
                       "missing columns 'dram__bytes_read.sum' and 'dram__bytes_write.sum' "
                       "(or 'dram__bytes.sum', or their .per_second rates): Q cannot be counted");
    }
  }
  const auto l2 = tab.source("t_bytes", {"lts__"});
  const auto l1 = tab.source("t_bytes", {"l1tex__"});

  struct PrecisionSources {
    const char* precision;
    std::optional<CountSource> fma, add, mul;
  };
  std::vector<PrecisionSources> flop_sources;
  bool any_flops = false;
  for (const auto& p : kPrecisions) {
    PrecisionSources s{p.precision, tab.source(p.fma, kSm), tab.source(p.add, kSm),
                       tab.source(p.mul, kSm)};
    any_flops = any_flops || s.fma || s.add || s.mul;
    flop_sources.push_back(s);
  }

  ImportResult res;
  res.doc.origin = origin;

  // Tensor ops: ncu's families nest (…_src_fp16 ⊃ …_src_fp16_dst_fp32 ⊃
  // …_src_fp16_dst_fp32_sparsity_off) and the op_* family counts the same operations again;
  // only the leaves of one family are added.
  std::map<std::string, std::string> tensor_columns;  // base → its best column's suffix
  for (const auto& [n, i] : col)
    if (const auto t = tensor_metric(n)) {
      auto it = tensor_columns.find(t->first);
      if (it == tensor_columns.end() || t->second == ".sum") tensor_columns[t->first] = t->second;
    }
  std::vector<std::pair<std::string, CountSource>> tensor_sources;  // (source type, how)
  {
    const bool src_family = std::any_of(tensor_columns.begin(), tensor_columns.end(), [](auto& b) {
      return starts_with(b.first, "ops_path_tensor_src_");
    });
    std::vector<std::string> left_out;
    for (const auto& [base, suffix] : tensor_columns) {
      const bool in_family = starts_with(base, "ops_path_tensor_src_") == src_family;
      bool leaf = true;
      for (const auto& [other, s2] : tensor_columns)
        if (other.size() > base.size() && starts_with(other, base + "_")) leaf = false;
      if (!in_family || !leaf) {
        left_out.push_back(base);
        continue;
      }
      const auto src = tab.source(base, kSm);
      if (src) tensor_sources.emplace_back(tensor_source_type(base), *src);
    }
    if (!left_out.empty()) {
      std::string names;
      for (const auto& b : left_out) names += (names.empty() ? "" : ", ") + b;
      res.notes.push_back("tensor metrics left out of W (they sum or repeat others counted): " +
                          names);
    }
  }
  if (!any_flops && tensor_sources.empty())
    throw InputError(at_header +
                     "no floating-point instruction metrics "
                     "({sm,smsp}__sass_thread_inst_executed_op_*_pred_on.sum or its "
                     ".per_cycle_elapsed rate) or tensor ops (sm__ops_path_tensor_*): W cannot "
                     "be counted");

  // Units row: right after the header, with an empty kernel-name cell. A unit this importer
  // does not know is an error only in a column it uses.
  std::vector<double> scale(header.size(), 1.0);
  std::vector<std::string> unit_error(header.size());
  std::size_t r = h + 1;
  if (r < rows.size() && name_col < rows[r].size() && trim(rows[r][name_col].text).empty()) {
    for (std::size_t i = 0; i < rows[r].size() && i < header.size(); ++i) {
      try {
        scale[i] = ncu_unit_scale(trim(rows[r][i].text),
                                  at(origin, rows[r][i].line, rows[r][i].column) + header[i].text);
      } catch (const InputError& e) {
        unit_error[i] = e.what();
      }
    }
    ++r;
    // The columns W, Q and T are read from must have known units.
    std::set<std::string> used = {"gpu__time_duration.sum"};
    auto use = [&](const std::optional<CountSource>& c) {
      if (!c) return;
      used.insert(c->column);
      if (!c->clock.empty()) used.insert(c->clock);
    };
    for (const auto& c : dram) use(c);
    use(l2);
    use(l1);
    for (const auto& f : flop_sources) {
      use(f.fma);
      use(f.add);
      use(f.mul);
    }
    for (const auto& [type, c] : tensor_sources) use(c);
    for (std::size_t i = 0; i < header.size(); ++i)
      if (!unit_error[i].empty() && used.count(trim(header[i].text)))
        throw InputError(unit_error[i]);
  } else {
    res.notes.push_back("no units row: values taken in base units (byte, second, inst)");
    scale[col["gpu__time_duration.sum"]] = 1e-9;  // ncu's base unit for durations is ns
  }
  bool tensor_inst_only = false;
  for (const auto& [n, i] : col)
    if ((starts_with(n, "sm__inst_executed_pipe_tensor") ||
         starts_with(n, "smsp__inst_executed_pipe_tensor")) &&
        tensor_sources.empty())
      tensor_inst_only = true;
  if (tensor_inst_only)
    res.notes.push_back(
        "tensor-pipe instruction counts ({sm,smsp}__inst_executed_pipe_tensor*) are not "
        "FLOP (their shape is unknown) and are not in W; collect "
        "sm__ops_path_tensor_src_*.sum for tensor FLOP");

  int kernel_rows = 0;
  for (; r < rows.size(); ++r) {
    const CsvRow& row = rows[r];
    if (row.size() == 1 && trim(row[0].text).empty()) continue;
    // ncu's own lines ("==PROF== Disconnected ...", "==WARNING== ...") around the table.
    if (row.size() == 1 && starts_with(trim(row[0].text), "==")) continue;
    if (row.size() < header.size()) {
      const CsvField& last = row.back();
      throw InputError(at(origin, last.line, last.column + static_cast<int>(last.text.size())) +
                       "expected " + std::to_string(header.size()) + " fields, found " +
                       std::to_string(row.size()) + " (file truncated?)");
    }
    ++kernel_rows;
    auto value = [&](const std::string& metric) -> std::optional<double> {
      const auto it = col.find(metric);
      if (it == col.end()) return std::nullopt;
      const CsvField& f = row[it->second];
      const std::string t = trim(f.text);
      if (t.empty() || t == "n/a" || t == "N/A" || t == "(!) n/a") return std::nullopt;
      if (!unit_error[it->second].empty()) throw InputError(unit_error[it->second]);
      return parse_profiler_number(f, origin, metric) * scale[it->second];
    };
    const auto t = value("gpu__time_duration.sum");
    const double seconds = t.value_or(0);
    auto count = [&](const std::optional<CountSource>& s) -> double {
      if (!s) return 0;
      const double v = value(s->column).value_or(0);
      switch (s->kind) {
        case CountSource::sum:
          return v;
        case CountSource::per_second:
          return v * seconds;
        case CountSource::per_cycle_elapsed:
          return v * value(s->clock).value_or(0) * seconds;
      }
      return 0;
    };
    const std::string full_name = row[name_col].text;
    const std::string id = has_id ? trim(row[id_col].text) : std::to_string(r - h);
    Point p;
    p.name = short_kernel_name(full_name) + " #" + id;
    p.source = "ncu";
    std::map<std::string, double> by_prec;
    for (const auto& pr : flop_sources) {
      const double w = 2 * count(pr.fma) + count(pr.add) + count(pr.mul);
      if (w > 0) by_prec[pr.precision] += w;
    }
    for (const auto& [type, s] : tensor_sources) {
      const double w = count(s);
      if (w > 0) by_prec[(type.empty() ? std::string("unknown") : type) + " tensor"] += w;
    }
    double w = 0;
    for (const auto& [k, v] : by_prec) w += v;
    p.work = Work(w);
    // The roof a point is judged against: its dominant precision (≥ 90% of W); without one,
    // the largest tensor share when there is tensor work (the tensor roof is the highest the
    // kernel used, so the point is not judged impossible against a lower one).
    std::string breakdown, largest_tensor;
    for (const auto& [k, v] : by_prec) {
      breakdown += (breakdown.empty() ? "" : ", ") + k + " " + format_work(Work(v));
      if (v >= 0.9 * w) p.precision = k;
      if (ends_with(k, " tensor") && (largest_tensor.empty() || v > by_prec[largest_tensor]))
        largest_tensor = k;
    }
    if (p.precision.empty()) p.precision = largest_tensor;
    if (p.precision == "unknown tensor") p.precision = "tensor";
    double q = 0;
    for (const auto& s : dram) q += count(s);
    p.traffic.push_back({"DRAM", Bytes(q)});
    if (opt.hierarchy) {
      if (const double b = count(l2); b > 0) p.traffic.push_back({"L2", Bytes(b)});
      if (const double b = count(l1); b > 0) p.traffic.push_back({"L1", Bytes(b)});
    }
    p.time = Seconds(seconds);
    p.note = full_name + (breakdown.empty() ? "" : " — W: " + breakdown);
    if (!(w > 0) || !(q > 0) || !(p.time.value > 0)) {
      res.notes.push_back("kernel " + p.name + ": skipped, " +
                          std::string(!(w > 0)   ? "no floating-point work counted (W = 0)"
                                      : !(q > 0) ? "no DRAM traffic (Q = 0)"
                                                 : "no duration") +
                          " — not a point");
      continue;
    }
    if (!res.roofs) {
      // The device's roofs from the first row that has ncu's roofline peak metrics.
      auto sm_clock = value("sm__cycles_elapsed.avg.per_second");
      if (!sm_clock) sm_clock = value("smsp__cycles_elapsed.avg.per_second");
      const auto dram_clock = value("dram__cycles_elapsed.avg.per_second");
      const auto dram_peak = value("dram__bytes.sum.peak_sustained");
      if (sm_clock && dram_clock && dram_peak && *sm_clock > 0 && *dram_clock > 0 &&
          *dram_peak > 0) {
        RoofSet rs;
        rs.name = "device " +
                  (col.count("Device") ? trim(row[col["Device"]].text) : std::string("0")) +
                  " (from " + origin + ")";
        for (const auto& [prec, metric] :
             {std::pair{"fp64", "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained"},
              std::pair{"fp32", "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"},
              std::pair{"fp16",
                        "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained"}}) {
          const auto per_cycle = value(metric);
          if (!per_cycle || !(*per_cycle > 0)) continue;
          ComputeRoof c;
          c.name = prec;
          c.precision = prec;
          c.unit = "cuda cores";
          c.peak = WorkRate(2 * *per_cycle * *sm_clock);  // FMA = 2 FLOP
          c.provenance = Provenance::theoretical;
          c.formula = "2 × " + format_number(*per_cycle) + " FMA/cycle × " +
                      format_si(*sm_clock, "Hz") + " (" + metric + ")";
          c.source = origin;
          rs.compute.push_back(c);
        }
        MemoryRoof m;
        m.level = "DRAM";
        m.bandwidth = ByteRate(*dram_peak * *dram_clock);
        m.provenance = Provenance::theoretical;
        m.formula = format_number(*dram_peak) + " byte/cycle × " + format_si(*dram_clock, "Hz");
        m.source = origin;
        rs.memory.push_back(m);
        if (!rs.compute.empty()) {
          rs.default_compute = rs.compute.back().name;
          rs.default_memory = "DRAM";
          res.roofs = rs;
        }
      }
    }
    res.doc.points.push_back(std::move(p));
  }
  if (kernel_rows == 0) {
    const int end_line = rows.empty() ? 1 : rows.back().back().line + 1;
    throw InputError(origin + ": line " + std::to_string(end_line) +
                     ": no kernel rows after the header on line " + std::to_string(header_line) +
                     " (file truncated?)");
  }
  return res;
}

}  // namespace roofline
