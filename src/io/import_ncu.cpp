// Nsight Compute CSV (`ncu --csv --page raw`, any --metrics or --set roofline) → one point per
// kernel (DIGEST §10):
//   W = Σ_precision (2·FMA + ADD + MUL) thread instructions + tensor-pipe ops
//       (sm__sass_thread_inst_executed_op_{d,f,h}{fma,add,mul}_pred_on.sum; FMA = 2 FLOP;
//        sm__ops_path_tensor_*.sum as ncu reports them, an MMA's multiply-add = 2 ops)
//   Q = dram__bytes_read.sum + dram__bytes_write.sum (or dram__bytes.sum);
//       L2: lts__t_bytes.sum, L1: l1tex__t_bytes.sum for hierarchical points
//   T = gpu__time_duration.sum
#include <algorithm>
#include <map>
#include <optional>

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

/// "void gemm<float, 128>(int, float const*, ...)" → "gemm<float, 128>".
std::string short_kernel_name(const std::string& full) {
  std::string s = full;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<')
      ++depth;
    else if (s[i] == '>')
      --depth;
    else if (s[i] == '(' && depth == 0) {
      s = s.substr(0, i);
      break;
    }
  }
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  return trim(s);
}

struct PrecisionOps {
  const char* precision;
  const char* fma;
  const char* add;
  const char* mul;
};
constexpr PrecisionOps kPrecisions[] = {
    {"fp64", "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
     "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
     "sm__sass_thread_inst_executed_op_dmul_pred_on.sum"},
    {"fp32", "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
     "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
     "sm__sass_thread_inst_executed_op_fmul_pred_on.sum"},
    {"fp16", "sm__sass_thread_inst_executed_op_hfma_pred_on.sum",
     "sm__sass_thread_inst_executed_op_hadd_pred_on.sum",
     "sm__sass_thread_inst_executed_op_hmul_pred_on.sum"},
};

bool is_tensor_ops(const std::string& name) {
  return name.rfind("sm__ops_path_tensor_", 0) == 0 && name.size() > 4 &&
         name.compare(name.size() - 4, 4, ".sum") == 0;
}

}  // namespace

ImportResult import_ncu(const std::string& text, const std::string& origin, const NcuOptions& opt) {
  const std::vector<CsvRow> rows = parse_csv(text, origin);
  // ncu may print "==PROF==" lines before the table; the header is the first row with a kernel
  // name column.
  std::size_t h = 0;
  std::map<std::string, std::size_t> col;
  for (; h < rows.size(); ++h) {
    col.clear();
    for (std::size_t i = 0; i < rows[h].size(); ++i) col[trim(rows[h][i].text)] = i;
    if (col.count("Kernel Name") || col.count("Function Name")) break;
  }
  if (h == rows.size())
    throw InputError(origin +
                     ": not an Nsight Compute CSV export: no header with 'Kernel Name' "
                     "(export with: ncu --csv --page raw ...)");
  const CsvRow& header = rows[h];
  const std::size_t name_col = col.count("Kernel Name") ? col["Kernel Name"] : col["Function Name"];
  const bool has_id = col.count("ID") > 0;
  const std::size_t id_col = has_id ? col["ID"] : 0;
  auto need = [&](const char* metric) {
    if (!col.count(metric))
      throw InputError(origin + ": line " + std::to_string(header.front().line) +
                       ": missing column '" + metric + "'");
  };
  need("gpu__time_duration.sum");
  const bool split_dram = col.count("dram__bytes_read.sum") && col.count("dram__bytes_write.sum");
  if (!split_dram && !col.count("dram__bytes.sum"))
    throw InputError(origin + ": line " + std::to_string(header.front().line) +
                     ": missing columns 'dram__bytes_read.sum' and 'dram__bytes_write.sum' (Q)");
  bool any_flops = false;
  for (const auto& p : kPrecisions)
    any_flops = any_flops || col.count(p.fma) || col.count(p.add) || col.count(p.mul);
  std::vector<std::string> tensor_cols;
  for (const auto& [n, i] : col)
    if (is_tensor_ops(n)) tensor_cols.push_back(n);
  if (!any_flops && tensor_cols.empty())
    throw InputError(origin +
                     ": no floating-point instruction metrics "
                     "(sm__sass_thread_inst_executed_op_*_pred_on.sum) or tensor ops "
                     "(sm__ops_path_tensor_*.sum): W cannot be counted");

  ImportResult res;
  res.doc.origin = origin;
  // Units row: right after the header, with an empty kernel-name cell.
  std::vector<double> scale(header.size(), 1.0);
  std::size_t r = h + 1;
  if (r < rows.size() && name_col < rows[r].size() && trim(rows[r][name_col].text).empty()) {
    for (std::size_t i = 0; i < rows[r].size() && i < header.size(); ++i)
      scale[i] = ncu_unit_scale(trim(rows[r][i].text),
                                at(origin, rows[r][i].line, rows[r][i].column) + header[i].text);
    ++r;
  } else {
    res.notes.push_back("no units row: values taken in base units (byte, second, inst)");
    scale[col["gpu__time_duration.sum"]] = 1e-9;  // ncu's base unit for durations is ns
  }
  bool tensor_inst_only = false;
  for (const auto& [n, i] : col)
    if (n.rfind("sm__inst_executed_pipe_tensor", 0) == 0 && tensor_cols.empty())
      tensor_inst_only = true;
  if (tensor_inst_only)
    res.notes.push_back(
        "tensor-pipe instruction counts (sm__inst_executed_pipe_tensor*) are not "
        "FLOP (their shape is unknown) and are not in W; collect "
        "sm__ops_path_tensor_*.sum for tensor FLOP");

  for (; r < rows.size(); ++r) {
    const CsvRow& row = rows[r];
    if (row.size() == 1 && trim(row[0].text).empty()) continue;
    if (row.size() < header.size()) {
      const CsvField& last = row.back();
      throw InputError(at(origin, last.line, last.column + static_cast<int>(last.text.size())) +
                       "expected " + std::to_string(header.size()) + " fields, found " +
                       std::to_string(row.size()) + " (file truncated?)");
    }
    auto value = [&](const std::string& metric) -> std::optional<double> {
      const auto it = col.find(metric);
      if (it == col.end()) return std::nullopt;
      const CsvField& f = row[it->second];
      const std::string t = trim(f.text);
      if (t.empty() || t == "n/a" || t == "N/A" || t == "(!) n/a") return std::nullopt;
      return parse_profiler_number(f, origin, metric) * scale[it->second];
    };
    const std::string full_name = row[name_col].text;
    const std::string id = has_id ? trim(row[id_col].text) : std::to_string(r - h);
    Point p;
    p.name = short_kernel_name(full_name) + " #" + id;
    p.source = "ncu";
    std::map<std::string, double> by_prec;
    for (const auto& pr : kPrecisions) {
      const double w =
          2 * value(pr.fma).value_or(0) + value(pr.add).value_or(0) + value(pr.mul).value_or(0);
      if (w > 0) by_prec[pr.precision] = w;
    }
    double tensor = 0;
    for (const auto& tc : tensor_cols) tensor += value(tc).value_or(0);
    if (tensor > 0) by_prec["tensor"] = tensor;
    double w = 0;
    for (const auto& [k, v] : by_prec) w += v;
    p.work = Work(w);
    std::string breakdown;
    for (const auto& [k, v] : by_prec) {
      breakdown += (breakdown.empty() ? "" : ", ") + k + " " + format_work(Work(v));
      if (v >= 0.9 * w) p.precision = k == "tensor" ? "" : k;
    }
    const auto t = value("gpu__time_duration.sum");
    const double q = split_dram ? value("dram__bytes_read.sum").value_or(0) +
                                      value("dram__bytes_write.sum").value_or(0)
                                : value("dram__bytes.sum").value_or(0);
    p.traffic.push_back({"DRAM", Bytes(q)});
    if (opt.hierarchy) {
      if (const auto l2 = value("lts__t_bytes.sum"); l2 && *l2 > 0)
        p.traffic.push_back({"L2", Bytes(*l2)});
      if (const auto l1 = value("l1tex__t_bytes.sum"); l1 && *l1 > 0)
        p.traffic.push_back({"L1", Bytes(*l1)});
    }
    p.time = Seconds(t.value_or(0));
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
      const auto sm_clock = value("sm__cycles_elapsed.avg.per_second");
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
  if (res.doc.points.empty() && res.notes.empty())
    throw InputError(origin + ": no kernel rows after the header (file truncated?)");
  return res;
}

}  // namespace roofline
