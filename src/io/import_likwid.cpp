// likwid-perfctr CSV (-O) → one point per marker region, or one for the whole run.
//   W = Σ_threads "DP [MFLOP/s]" (or "SP [MFLOP/s]") × 1e6 × runtime of the thread
//       (FLOPS_DP, FLOPS_SP, MEM_DP, MEM_SP groups), or from raw FP_ARITH_INST_RETIRED_* counts
//       × vector lanes (Intel SDM; FMA counted twice by the hardware)
//   Q = Σ_sockets "Memory data volume [GBytes]" × 1e9 (MEM, MEM_DP, MEM_SP groups), or raw
//       CAS_COUNT_RD/WR × 64 B
//   T = max over threads of "Runtime (RDTSC) [s]"
// Groups measured in turn (likwid-perfctr -g A -g B) each cover part of the run: their rates
// are combined over the total of their runtimes.
#include <algorithm>
#include <map>
#include <optional>

#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/quantity.hpp"

namespace roofline {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

struct Table {
  std::string region;  // "" = whole run
  std::string kind;    // "Raw" or "Metric"
  std::string group;   // FLOPS_DP, MEM, ...
  int declared = -1;
  int line = 0;
  std::vector<std::string> columns;  // thread columns
  std::size_t skip = 1;              // leading fields of a row before its values
  std::vector<std::pair<std::string, std::vector<CsvField>>> rows;
};

struct GroupData {
  double flops = 0;  // FLOP measured while this group ran (Metric table)
  bool has_flops = false;
  double bytes = 0;
  bool has_bytes = false;
  double raw_flops = 0;  // from the Raw table, used when the Metric table has no FLOP rate
  bool has_raw_flops = false;
  std::string raw_precision;
  double raw_bytes = 0;
  bool has_raw_bytes = false;
  double runtime = 0;  // s, max over threads
  std::string precision;
};

// Raw Intel FP_ARITH events as likwid names them, with FLOP per count (vector lanes).
const std::map<std::string, std::pair<double, const char*>>& raw_flop_events() {
  static const std::map<std::string, std::pair<double, const char*>> m = {
      {"FP_ARITH_INST_RETIRED_SCALAR_DOUBLE", {1, "fp64"}},
      {"FP_ARITH_INST_RETIRED_128B_PACKED_DOUBLE", {2, "fp64"}},
      {"FP_ARITH_INST_RETIRED_256B_PACKED_DOUBLE", {4, "fp64"}},
      {"FP_ARITH_INST_RETIRED_512B_PACKED_DOUBLE", {8, "fp64"}},
      {"FP_ARITH_INST_RETIRED_SCALAR_SINGLE", {1, "fp32"}},
      {"FP_ARITH_INST_RETIRED_128B_PACKED_SINGLE", {4, "fp32"}},
      {"FP_ARITH_INST_RETIRED_256B_PACKED_SINGLE", {8, "fp32"}},
      {"FP_ARITH_INST_RETIRED_512B_PACKED_SINGLE", {16, "fp32"}},
      {"RETIRED_SSE_AVX_FLOPS_ALL", {1, ""}},  // AMD Zen: PMCx003, FLOPs directly
  };
  return m;
}

bool missing_value(const std::string& t) {
  return t.empty() || t == "-" || t == "nil" || t == "nan" || t == "NaN";
}

}  // namespace

ImportResult import_likwid(const std::string& text, const std::string& origin) {
  const std::vector<CsvRow> rows = parse_csv(text, origin);
  std::vector<Table> tables;
  Table* cur = nullptr;
  bool expect_header = false;
  for (const auto& row : rows) {
    const std::string first = trim(row[0].text);
    if (first == "TABLE") {
      Table t;
      t.line = row[0].line;
      std::size_t i = 1;
      if (i < row.size() && trim(row[i].text).rfind("Region ", 0) == 0) {
        t.region = trim(row[i].text).substr(7);
        ++i;
      }
      const std::string g = i < row.size() ? trim(row[i].text) : "";
      if (g.rfind("Group ", 0) != 0)
        throw InputError(origin + ": line " + std::to_string(row[0].line) + ", column " +
                         std::to_string(i < row.size() ? row[i].column : row[0].column) +
                         ": expected 'Group N Raw|Metric' after TABLE (got '" + g + "')");
      if (g.find("STAT") != std::string::npos)
        t.kind = "STAT";
      else if (g.find("Metric") != std::string::npos)
        t.kind = "Metric";
      else
        t.kind = "Raw";
      t.group = i + 1 < row.size() ? trim(row[i + 1].text) : "";
      if (i + 2 < row.size()) {
        try {
          t.declared = std::stoi(trim(row[i + 2].text));
        } catch (const std::exception&) {
          t.declared = -1;
        }
      }
      tables.push_back(std::move(t));
      cur = &tables.back();
      expect_header = true;
      continue;
    }
    if (first == "STRUCT") {
      cur = nullptr;
      continue;
    }
    if (!cur) continue;
    if (expect_header) {
      // "Event,Counter,HWThread 0,..." or "Metric,HWThread 0,..."
      cur->skip = first == "Event" ? 2 : 1;
      for (std::size_t i = cur->skip; i < row.size(); ++i)
        if (!trim(row[i].text).empty()) cur->columns.push_back(trim(row[i].text));
      expect_header = false;
      continue;
    }
    // Rows have the header's shape: "Event,Counter,<one value per column>" (Raw tables and
    // their STAT) or "Metric,<values>".
    std::vector<CsvField> vals;
    for (std::size_t i = cur->skip; i < row.size() && vals.size() < cur->columns.size(); ++i)
      vals.push_back(row[i]);
    if (vals.size() < cur->columns.size()) {
      const CsvField& last = row.back();
      throw InputError(origin + ": line " + std::to_string(last.line) + ", column " +
                       std::to_string(last.column + static_cast<int>(last.text.size())) + ": '" +
                       first + "': expected " + std::to_string(cur->columns.size()) +
                       " values (one per column of the table's header), found " +
                       std::to_string(vals.size()) + " (file truncated?)");
    }
    cur->rows.emplace_back(first, std::move(vals));
  }
  if (tables.empty())
    throw InputError(origin +
                     ": line 1: not a likwid-perfctr CSV file: no TABLE lines "
                     "(write it with likwid-perfctr -O -o out.csv ...)");
  // likwid ends every line; a last line without its line end was cut off in the middle, where
  // a number may have lost digits ("0.512" → "0.5") without looking wrong.
  if (!text.empty() && text.back() != '\n' && text.back() != '\r' && !rows.empty()) {
    const CsvField& last = rows.back().back();
    throw InputError(origin + ": line " + std::to_string(last.line) + ", column " +
                     std::to_string(last.column + static_cast<int>(last.text.size())) +
                     ": the last line has no line end (file truncated?)");
  }
  const Table& last = tables.back();
  if (last.declared >= 0 && static_cast<int>(last.rows.size()) < last.declared) {
    const int line = last.rows.empty()                 ? last.line
                     : last.rows.back().second.empty() ? last.line
                                                       : last.rows.back().second.back().line;
    throw InputError(origin + ": line " + std::to_string(line) + ", column 1: table '" +
                     last.group + "' declares " + std::to_string(last.declared) + " rows, found " +
                     std::to_string(last.rows.size()) + " (file truncated?)");
  }

  ImportResult res;
  res.doc.origin = origin;
  // region → group → data
  std::map<std::string, std::map<std::string, GroupData>> data;
  std::vector<std::string> order;
  for (const auto& t : tables) {
    if (t.kind == "STAT") continue;  // sums/min/max over threads: recomputed from the threads
    if (std::find(order.begin(), order.end(), t.region) == order.end()) order.push_back(t.region);
    GroupData& g = data[t.region][t.group];
    auto number = [&](const CsvField& f, const std::string& what) -> std::optional<double> {
      if (missing_value(trim(f.text))) return std::nullopt;
      return parse_profiler_number(f, origin, what);
    };
    if (t.kind == "Metric") {
      std::vector<double> runtime(t.columns.size(), 0);
      for (const auto& [name, vals] : t.rows)
        if (name.rfind("Runtime (RDTSC)", 0) == 0)
          for (std::size_t c = 0; c < vals.size(); ++c)
            runtime[c] = number(vals[c], name).value_or(0);
      for (double rt : runtime) g.runtime = std::max(g.runtime, rt);
      for (const auto& [name, vals] : t.rows) {
        const bool dp = name.rfind("DP [MFLOP/s]", 0) == 0 || name == "DP MFLOP/s";
        const bool sp = name.rfind("SP [MFLOP/s]", 0) == 0 || name == "SP MFLOP/s";
        if (dp || sp) {
          for (std::size_t c = 0; c < vals.size(); ++c)
            g.flops += number(vals[c], name).value_or(0) * 1e6 * runtime[c];
          g.has_flops = true;
          g.precision = g.precision.empty() || g.precision == (dp ? "fp64" : "fp32")
                            ? (dp ? "fp64" : "fp32")
                            : "";
        }
        if (name.rfind("Memory data volume [GBytes]", 0) == 0) {
          g.bytes = 0;
          for (const auto& v : vals) g.bytes += number(v, name).value_or(0) * 1e9;
          g.has_bytes = true;
        }
      }
    } else {  // Raw
      double raw_flops = 0, cas = 0;
      bool any_flops = false, any_cas = false;
      std::string prec;
      for (const auto& [name, vals] : t.rows) {
        const auto ev = raw_flop_events().find(name);
        double sum = 0;
        for (const auto& v : vals) sum += number(v, name).value_or(0);
        if (ev != raw_flop_events().end()) {
          raw_flops += sum * ev->second.first;
          any_flops = true;
          if (sum > 0)
            prec = prec.empty() || prec == ev->second.second ? ev->second.second : "mixed";
        } else if (name.rfind("CAS_COUNT_RD", 0) == 0 || name.rfind("CAS_COUNT_WR", 0) == 0) {
          cas += sum;
          any_cas = true;
        }
      }
      g.raw_flops = raw_flops;
      g.has_raw_flops = any_flops;
      g.raw_precision = prec == "mixed" ? "" : prec;
      g.raw_bytes = cas * 64;  // one CAS = one 64-byte line
      g.has_raw_bytes = any_cas;
    }
  }

  for (auto& [region, groups] : data)
    for (auto& [gname, g] : groups) {
      if (!g.has_flops && g.has_raw_flops) {
        g.flops = g.raw_flops;
        g.has_flops = true;
        g.precision = g.raw_precision;
        res.notes.push_back("group " + gname + ": W from raw FP_ARITH counts × vector lanes");
      }
      if (!g.has_bytes && g.has_raw_bytes) {
        g.bytes = g.raw_bytes;
        g.has_bytes = true;
        res.notes.push_back("group " + gname + ": Q from raw CAS_COUNT × 64 B");
      }
    }
  for (const auto& region : order) {
    const auto& groups = data[region];
    // Two groups measuring the same precision (FLOPS_DP and MEM_DP) are two estimates of one
    // rate: the larger is kept; different precisions add.
    double total_runtime = 0, byte_rate = 0;
    std::map<std::string, double> rate_by_precision;
    bool have_w = false, have_q = false;
    std::string names;
    for (const auto& [gname, g] : groups) {
      total_runtime += g.runtime;
      names += (names.empty() ? "" : ", ") + gname;
      if (g.runtime <= 0) continue;
      if (g.has_flops) {
        double& r = rate_by_precision[g.precision];
        r = std::max(r, g.flops / g.runtime);
        have_w = true;
      }
      if (g.has_bytes) {
        byte_rate = std::max(byte_rate, g.bytes / g.runtime);
        have_q = true;
      }
    }
    double flop_rate = 0;
    for (const auto& [prec, r] : rate_by_precision) flop_rate += r;
    const std::string precision =
        rate_by_precision.size() == 1 ? rate_by_precision.begin()->first : std::string();
    const std::string label = region.empty() ? "likwid run" : region;
    if (!have_w || !have_q || !(total_runtime > 0) || !(flop_rate > 0) || !(byte_rate > 0)) {
      res.notes.push_back(label + " (groups " + names + "): no point — " +
                          (!have_w || !(flop_rate > 0)
                               ? std::string("no FLOP rate (measure FLOPS_DP/FLOPS_SP or MEM_DP)")
                               : std::string("no memory data volume (measure MEM or MEM_DP)")));
      continue;
    }
    Point p;
    p.name = label;
    p.time = Seconds(total_runtime);
    p.work = Work(flop_rate * total_runtime);
    p.traffic.push_back({"DRAM", Bytes(byte_rate * total_runtime)});
    p.precision = precision;
    p.source = "likwid";
    p.note = "groups " + names;
    res.doc.points.push_back(std::move(p));
  }
  return res;
}

}  // namespace roofline
