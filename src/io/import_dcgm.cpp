// DCGM profiling samples (`dcgmi dmon -e 203,155,160,1002,1003,1004,1005,1006,1007,1008`) → an
// application-level point per GPU from activity ratios × the machine's peaks:
//   W/s ≈ PIPE_TENSOR_ACTIVE·π_tensor + PIPE_FP64_ACTIVE·π_fp64 + PIPE_FP32_ACTIVE·π_fp32
//         + PIPE_FP16_ACTIVE·π_fp16
//   Q/s ≈ DRAM_ACTIVE·β
//   T   = samples × interval (dmon -d, default 1 s)
// An activity ratio is the fraction of cycles a pipe (or the DRAM interface) was busy, so the
// product with the peak is an estimate of the rate achieved (NVIDIA DCGM user guide, "Profiling
// Metrics"). GPU utilisation (GPUTL) is different: the share of time any kernel ran. A busy GPU
// far below both roofs is the case of docs/model.md §13.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace {

// dcgmi's short column names and the DCGM field names, → our field.
const std::map<std::string, std::string>& field_aliases() {
  static const std::map<std::string, std::string> m = {
      {"GPUTL", "gpu_util"},
      {"GPU_UTIL", "gpu_util"},
      {"DCGM_FI_DEV_GPU_UTIL", "gpu_util"},
      {"POWER", "power"},
      {"POWER_USAGE", "power"},
      {"DCGM_FI_DEV_POWER_USAGE", "power"},
      {"PMLMT", "power_limit"},
      {"POWER_MGMT_LIMIT", "power_limit"},
      {"SMACT", "sm_active"},
      {"SM_ACTIVE", "sm_active"},
      {"DCGM_FI_PROF_SM_ACTIVE", "sm_active"},
      {"SMOCC", "sm_occupancy"},
      {"SM_OCCUPANCY", "sm_occupancy"},
      {"TENSO", "tensor"},
      {"PIPE_TENSOR_ACTIVE", "tensor"},
      {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "tensor"},
      {"DRAMA", "dram"},
      {"DRAM_ACTIVE", "dram"},
      {"DCGM_FI_PROF_DRAM_ACTIVE", "dram"},
      {"FP64A", "fp64"},
      {"PIPE_FP64_ACTIVE", "fp64"},
      {"DCGM_FI_PROF_PIPE_FP64_ACTIVE", "fp64"},
      {"FP32A", "fp32"},
      {"PIPE_FP32_ACTIVE", "fp32"},
      {"DCGM_FI_PROF_PIPE_FP32_ACTIVE", "fp32"},
      {"FP16A", "fp16"},
      {"PIPE_FP16_ACTIVE", "fp16"},
      {"DCGM_FI_PROF_PIPE_FP16_ACTIVE", "fp16"},
      // The tensor pipe by instruction (fields 1013-1015): which precision kept it busy.
      {"THMMA", "hmma"},
      {"PIPE_TENSOR_HMMA_ACTIVE", "hmma"},
      {"DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE", "hmma"},
      {"TDFMA", "dfma"},
      {"PIPE_TENSOR_DFMA_ACTIVE", "dfma"},
      {"DCGM_FI_PROF_PIPE_TENSOR_DFMA_ACTIVE", "dfma"},
      {"TIMMA", "imma"},
      {"PIPE_TENSOR_IMMA_ACTIVE", "imma"},
      {"DCGM_FI_PROF_PIPE_TENSOR_IMMA_ACTIVE", "imma"},
  };
  return m;
}

struct Token {
  std::string text;
  int column;
};
std::vector<Token> split_ws(const std::string& line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size()) break;
    const std::size_t b = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    out.push_back({line.substr(b, i - b), static_cast<int>(b) + 1});
  }
  return out;
}

}  // namespace

DcgmPeaks dcgm_peaks(const RoofSet& roofs) {
  DcgmPeaks p;
  auto take = [](WorkRate& peak, std::string& name, const ComputeRoof& c) {
    if (c.peak > peak) {
      peak = c.peak;
      name = c.name;
    }
  };
  // The tensor pipe's dense fp16/bf16 rate is the reference for PIPE_TENSOR_ACTIVE: the
  // fp32-accumulate one where a GeForce card also lists its 2x fp16-accumulate mode (outranks).
  const ComputeRoof* tensor = nullptr;
  for (const auto& c : roofs.compute) {
    if (c.integer || c.sparse) continue;
    if (is_matrix_unit(c)) {
      if ((c.precision == "fp16" || c.precision == "bf16") && outranks(c, tensor)) tensor = &c;
      if (c.precision == "fp64") take(p.tensor_fp64, p.tensor_fp64_roof, c);
    } else if (c.precision == "fp64") {
      take(p.fp64, p.fp64_roof, c);
    } else if (c.precision == "fp32") {
      take(p.fp32, p.fp32_roof, c);
    } else if (c.precision == "fp16") {
      take(p.fp16, p.fp16_roof, c);
    }
  }
  if (tensor) take(p.tensor, p.tensor_roof, *tensor);
  if (!roofs.memory.empty()) {
    const MemoryRoof& m = roofs.select_memory("");
    p.bandwidth = m.bandwidth;
    p.memory_level = m.level;
  }
  return p;
}

namespace {
/// dcgmi prints N/A before a field has a value, N/W (older versions) for a field not watched,
/// N/S for one the GPU does not support: all missing values.
bool missing_value(const std::string& t) {
  return t == "N/A" || t == "N/W" || t == "N/S" || t == "-";
}
}  // namespace

DcgmResult import_dcgm(const std::string& text, const std::string& origin, const RoofSet& roofs,
                       const DcgmOptions& opt) {
  std::istringstream in(text);
  return import_dcgm(in, origin, roofs, opt);
}

namespace {

/// What the rows of a dmon log add up to: the header's fields and each entity's sums.
struct DcgmTally {
  std::vector<std::string> fields;  // canonical names per value column ("" = unknown column)
  std::vector<std::string> header_names;
  std::vector<std::string> unknown;  // header names the importer does not know, in order
  int header_line = 0;
  bool any_activity_field = false;
  std::map<std::string, std::map<std::string, std::pair<double, int>>>
      sums;  // entity → field → (sum, n)
  std::map<std::string, int> samples;
  std::vector<std::string> entity_order;
  int empty_rows = 0;
};

/// The start of an error message about a place in the log: "origin: line L, column C".
std::string dcgm_at(const std::string& origin, int line_no, int column) {
  return origin + ": line " + std::to_string(line_no) + ", column " + std::to_string(column);
}

/// A header line: the value columns' fields from here on (a later header replaces them).
void dcgm_read_header(const std::vector<Token>& tok, int line_no, const std::string& origin,
                      DcgmTally& t) {
  // "#Entity  SMACT ...", "# Entity SMACT ..." or "# EntityId ...": the header (repeated
  // every screenful).
  std::size_t first = tok[0].text == "#" ? 2 : 1;
  std::vector<std::string> f, names;
  for (std::size_t i = first; i < tok.size(); ++i) {
    const auto a = field_aliases().find(tok[i].text);
    // A field given twice (two columns of one metric, by one name or two aliases) would be
    // averaged into one figure: refused, naming both.
    if (a != field_aliases().end())
      for (std::size_t k = 0; k < f.size(); ++k)
        if (f[k] == a->second)
          throw InputError(dcgm_at(origin, line_no, tok[i].column) + ": field " + tok[i].text +
                           " measures what field " + names[k] + " does: one metric given twice");
    f.push_back(a == field_aliases().end() ? "" : a->second);
    names.push_back(tok[i].text);
    if (a == field_aliases().end() &&
        std::find(t.unknown.begin(), t.unknown.end(), tok[i].text) == t.unknown.end())
      t.unknown.push_back(tok[i].text);
    if (a != field_aliases().end() &&
        (a->second == "tensor" || a->second == "dram" || a->second == "fp64" ||
         a->second == "fp32" || a->second == "fp16" || a->second == "hmma" || a->second == "dfma" ||
         a->second == "imma"))
      t.any_activity_field = true;
  }
  t.fields = f;
  t.header_names = names;
  if (t.header_line == 0) t.header_line = line_no;
}

/// A data row's shape: after a header, an entity, then one value per header field; returns the
/// entity ("GPU 0").
std::string dcgm_row_entity(const std::vector<Token>& tok, int line_no, const std::string& origin,
                            const DcgmTally& t) {
  if (t.fields.empty())
    throw InputError(dcgm_at(origin, line_no, tok[0].column) +
                     ": data before the '#Entity' header line (not dcgmi dmon output?)");
  if (tok.size() < 2)
    throw InputError(dcgm_at(origin, line_no, tok[0].column) +
                     ": expected an entity such as 'GPU 0'");
  const std::string entity = tok[0].text + " " + tok[1].text;
  // The activity ratios are judged against a GPU's roofs: a GPU, or a MIG GPU or compute
  // instance (dcgmi dmon -i i:N, ci:N), numbered from 0.
  const bool gpu = tok[0].text == "GPU" || tok[0].text == "GPU-I" || tok[0].text == "GPU-CI";
  const bool numbered = !tok[1].text.empty() && tok[1].text.size() <= 9 &&
                        std::all_of(tok[1].text.begin(), tok[1].text.end(),
                                    [](char c) { return c >= '0' && c <= '9'; });
  if (!gpu || !numbered)
    throw InputError(dcgm_at(origin, line_no, tok[0].column) + ": entity '" + entity +
                     "' is not a GPU: expected GPU, GPU-I or GPU-CI and its number (such as "
                     "'GPU 0')");
  // One GPU however its number is written: 'GPU 00' is 'GPU 0' (two entities would each be
  // judged as a GPU of their own, their samples split between them).
  const std::size_t digits = tok[1].text.find_first_not_of('0');
  const std::string number = digits == std::string::npos ? "0" : tok[1].text.substr(digits);
  const std::string named = tok[0].text + " " + number;
  if (tok.size() - 2 != t.fields.size()) {
    const Token& last = tok.back();
    throw InputError(dcgm_at(origin, line_no, last.column + static_cast<int>(last.text.size())) +
                     ": expected " + std::to_string(t.fields.size()) + " values after '" + entity +
                     "', found " + std::to_string(tok.size() - 2) +
                     (tok.size() - 2 < t.fields.size() ? " (file truncated?)"
                                                       : " (a field the header does not name)"));
  }
  return named;
}

/// The most power a sample may show, per device: far above any accelerator's board power
/// (about 1 kW in 2024), so only a value that is no power is refused.
constexpr double kMostWatts = 1e5;

/// One value of a field: a finite number, an activity ratio in 0..1, GPUTL a percentage,
/// power in 0..kMostWatts W (a limit > 0); GPUTL comes back as a ratio.
double dcgm_value(const Token& t, const std::string& field, const std::string& name, int line_no,
                  const std::string& origin) {
  // Read as every profiler's figures are (from_chars: no hexadecimal, no locale); dcgmi prints
  // no digit groups, so a comma is a decimal comma or a cut field, never a thousands separator.
  if (t.text.find(',') != std::string::npos)
    throw InputError(dcgm_at(origin, line_no, t.column) + ": " + name + ": not a number: '" +
                     t.text + "' (dcgmi dmon prints no ',' in a value)");
  double v = parse_profiler_number(t.text, origin, line_no, t.column, name);
  // Every refusal names the field, as the header gives it ("GPUTL"), beside its place.
  const std::string at = dcgm_at(origin, line_no, t.column) + ": " + name;
  const bool ratio = field != "gpu_util" && field != "power" && field != "power_limit";
  if (ratio && (v < 0 || v > 1.0 + 1e-9))
    throw InputError(at + ": an activity ratio must be in 0..1 (got " + t.text + ")");
  if (!ratio && v < 0) throw InputError(at + ": must be >= 0 (got " + t.text + ")");
  // GPUTL is a percentage of time; power in watts, within what a device can draw (a sum of
  // 1e308 W samples would overflow the average); a power limit of 0 is no limit.
  if (field == "gpu_util" && v > 100 + 1e-9)
    throw InputError(at + ": GPU utilisation is a percentage of time, at most 100 (got " + t.text +
                     ")");
  if ((field == "power" || field == "power_limit") && v > kMostWatts)
    throw InputError(at + ": " + t.text + " W is more than a device draws (at most " +
                     format_number(kMostWatts) + " W)");
  if (field == "power_limit" && !(v > 0))
    throw InputError(at + ": a power limit must be > 0 W (got " + t.text + ")");
  if (field == "gpu_util") v /= 100.0;  // GPUTL is printed in percent
  return v;
}

/// A data row: a sample of its entity, its values added to the entity's sums.
void dcgm_read_row(const std::vector<Token>& tok, int line_no, const std::string& origin,
                   DcgmTally& t) {
  const std::string entity = dcgm_row_entity(tok, line_no, origin, t);
  // A row of only missing values (the first samples after dcgmi starts) is not a sample:
  // counted, it would stretch T.
  bool any_value = false;
  for (std::size_t i = 0; i < t.fields.size(); ++i)
    if (!missing_value(tok[i + 2].text)) any_value = true;
  if (!any_value) {
    ++t.empty_rows;
    return;
  }
  if (!t.samples.count(entity)) t.entity_order.push_back(entity);
  t.samples[entity] += 1;
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    const Token& v = tok[i + 2];
    if (t.fields[i].empty() || missing_value(v.text)) continue;
    auto& s = t.sums[entity][t.fields[i]];
    s.first += dcgm_value(v, t.fields[i], t.header_names[i], line_no, origin);
    s.second += 1;
  }
}

/// The whole log, line by line: headers, the units line under them, data rows.
DcgmTally dcgm_read_log(std::istream& input, const std::string& origin) {
  DcgmTally t;
  TextLines lines(input, origin);
  std::string line;
  while (lines.next(line)) {
    const int line_no = lines.line_number();
    auto tok = split_ws(line);
    if (tok.empty()) continue;
    if (tok[0].text[0] == '#') {
      dcgm_read_header(tok, line_no, origin, t);
      continue;
    }
    if (lower(tok[0].text) == "id") continue;  // units line under the header
    // dcgmi ends every sample line; a last one without its line end was cut, maybe inside a
    // number ("0.95" → "0.9"), which would read as less activity without looking wrong.
    if (!lines.last_line_ended())
      throw InputError(dcgm_at(origin, line_no, static_cast<int>(line.size()) + 1) +
                       ": the last line has no line end (file truncated?); if the file is "
                       "whole, end it with one");
    dcgm_read_row(tok, line_no, origin, t);
  }
  return t;
}

/// Refuses a log that gives no point: no activity field in its header, or no sample at all.
void dcgm_check_tally(const DcgmTally& t, const std::string& origin) {
  if (t.header_line > 0 && !t.any_activity_field) {
    std::string names;
    for (const auto& n : t.header_names) names += (names.empty() ? "" : " ") + n;
    throw InputError(origin + ": line " + std::to_string(t.header_line) +
                     ": no activity fields in the header (" + names +
                     "): a point needs DRAMA (DRAM activity, field 1005) and the pipes' activity "
                     "TENSO, FP64A, FP32A, FP16A (1004, 1006, 1007, 1008); collect them with "
                     "dcgmi dmon -e 203,1002,1003,1004,1005,1006,1007,1008 -d 1000");
  }
  if (t.samples.empty())
    throw InputError(origin +
                     (t.empty_rows > 0
                          ? ": no samples: every row is N/A (dcgmi had no values yet; sample "
                            "longer, e.g. -c 10 -d 1000)"
                          : ": no samples (expected dcgmi dmon output: a '#Entity' header and "
                            "lines such as 'GPU 0  0.912 ...')"));
}

/// One entity's averages over its samples (empty for a field it never had a value of).
DcgmSummary dcgm_summarise(const DcgmTally& t, const std::string& entity) {
  DcgmSummary s;
  s.entity = entity;
  s.samples = t.samples.at(entity);
  const auto sums = t.sums.find(entity);
  auto avg = [&](const char* f) -> std::optional<double> {
    if (sums == t.sums.end()) return std::nullopt;
    const auto it = sums->second.find(f);
    if (it == sums->second.end() || it->second.second == 0) return std::nullopt;
    return it->second.first / it->second.second;
  };
  s.gpu_util = avg("gpu_util");
  s.sm_active = avg("sm_active");
  s.sm_occupancy = avg("sm_occupancy");
  s.tensor_active = avg("tensor");
  s.dram_active = avg("dram");
  s.fp64_active = avg("fp64");
  s.fp32_active = avg("fp32");
  s.fp16_active = avg("fp16");
  s.hmma_active = avg("hmma");
  s.dfma_active = avg("dfma");
  s.imma_active = avg("imma");
  if (const auto w = avg("power")) s.power_w = Watt(*w);
  if (const auto w = avg("power_limit")) s.power_limit_w = Watt(*w);
  // The fields W and Q are scaled from, given in fewer samples than the entity has.
  for (const auto& [field, label] :
       {std::pair{"tensor", "TENSO"}, std::pair{"fp64", "FP64A"}, std::pair{"fp32", "FP32A"},
        std::pair{"fp16", "FP16A"}, std::pair{"dram", "DRAMA"}, std::pair{"hmma", "THMMA"},
        std::pair{"dfma", "TDFMA"}, std::pair{"imma", "TIMMA"}}) {
    if (sums == t.sums.end()) break;
    const auto it = sums->second.find(field);
    if (it != sums->second.end() && it->second.second > 0 && it->second.second < s.samples)
      s.partial.push_back(std::string(label) + " " + std::to_string(it->second.second) + " of " +
                          std::to_string(s.samples));
  }
  return s;
}

/// W/s of one entity: Σ pipe activity × the pipe's peak, with the terms as text and the roof of
/// the largest term.
struct DcgmWorkRate {
  double rate = 0, best = 0;
  std::string best_roof, parts;
};

/// The entity's work rate from its pipes; a pipe active without a matching roof is left out,
/// with a note.
DcgmWorkRate dcgm_work_rate(const DcgmSummary& s, const DcgmPeaks& peaks, const RoofSet& roofs,
                            std::vector<std::string>& notes) {
  DcgmWorkRate w;
  const std::string& machine = roofs.name;
  const bool unnamed_precision =
      std::any_of(roofs.compute.begin(), roofs.compute.end(),
                  [](const ComputeRoof& c) { return c.precision.empty(); });
  struct Pipe {
    const char* label;
    double activity;
    WorkRate peak;
    const std::string& roof;
  };
  // The tensor pipe by instruction says which roof its busy cycles run at: HMMA the fp16/bf16
  // tensor roof, DFMA the fp64 one. With those fields PIPE_TENSOR_ACTIVE (any of them busy) is
  // not added again; IMMA counts integer operations, no FLOP.
  // With only some of them collected, the busy cycles they do not count (PIPE_TENSOR_ACTIVE
  // less theirs) stay at the fp16/bf16 tensor roof, as PIPE_TENSOR_ACTIVE alone is read.
  const bool all_fields = s.hmma_active && s.dfma_active && s.imma_active;
  const bool some_fields = s.hmma_active || s.dfma_active || s.imma_active;
  // The tensor pipe's activity not counted by instruction; -1: none to read.
  double any_tensor = s.tensor_active.value_or(-1);
  if (some_fields && s.tensor_active) {
    const double counted =
        s.hmma_active.value_or(0) + s.dfma_active.value_or(0) + s.imma_active.value_or(0);
    any_tensor = all_fields ? -1 : std::max(0.0, *s.tensor_active - counted);
    if (all_fields && *s.tensor_active > 0)
      notes.push_back(s.entity + ": PIPE_TENSOR_ACTIVE = " + format_number(*s.tensor_active, 3) +
                      " left out of W: the tensor pipe's instruction fields (THMMA, TDFMA, TIMMA) "
                      "count the same busy cycles by precision");
    else if (any_tensor > 0)
      notes.push_back(
          s.entity + ": PIPE_TENSOR_ACTIVE = " + format_number(*s.tensor_active, 3) +
          " less the instruction fields collected (" + format_number(counted, 3) +
          ") is read at the fp16/bf16 tensor roof: " + std::string(s.hmma_active ? "" : "THMMA ") +
          (s.dfma_active ? "" : "TDFMA ") + (s.imma_active ? "" : "TIMMA ") +
          "not collected, which would say its precision");
  } else if (some_fields) {
    any_tensor = -1;
    // Without TENSO nothing stands for the busy cycles of the fields not collected: said, as
    // the fields not collected are said beside TENSO.
    if (!all_fields)
      notes.push_back(s.entity + ": the tensor pipe is read from " +
                      std::string(s.hmma_active ? "THMMA " : "") + (s.dfma_active ? "TDFMA " : "") +
                      (s.imma_active ? "TIMMA " : "") +
                      "alone: " + (s.hmma_active ? "" : "THMMA ") +
                      (s.dfma_active ? "" : "TDFMA ") + (s.imma_active ? "" : "TIMMA ") +
                      "not collected, nor TENSO (PIPE_TENSOR_ACTIVE, field 1004): tensor work "
                      "they would count is not in W");
  }
  if (s.imma_active.value_or(0) > 0)
    notes.push_back(s.entity + ": PIPE_TENSOR_IMMA_ACTIVE = " + format_number(*s.imma_active, 3) +
                    " left out of W: integer MMAs are operations (OP), not FLOP");
  const Pipe pipes[] = {
      {"PIPE_TENSOR_ACTIVE", any_tensor, peaks.tensor, peaks.tensor_roof},
      {"PIPE_TENSOR_HMMA_ACTIVE", s.hmma_active.value_or(-1), peaks.tensor, peaks.tensor_roof},
      {"PIPE_TENSOR_DFMA_ACTIVE", s.dfma_active.value_or(-1), peaks.tensor_fp64,
       peaks.tensor_fp64_roof},
      {"PIPE_FP64_ACTIVE", s.fp64_active.value_or(-1), peaks.fp64, peaks.fp64_roof},
      {"PIPE_FP32_ACTIVE", s.fp32_active.value_or(-1), peaks.fp32, peaks.fp32_roof},
      {"PIPE_FP16_ACTIVE", s.fp16_active.value_or(-1), peaks.fp16, peaks.fp16_roof}};
  for (const auto& pp : pipes) {
    if (pp.activity <= 0) continue;
    if (pp.peak.value <= 0) {
      notes.push_back(s.entity + ": " + pp.label + " = " + format_number(pp.activity, 3) +
                      " left out of W: the machine '" + machine + "' has no matching roof" +
                      (unnamed_precision
                           ? " (a peak given on the command line has the precision --precision "
                             "names: fp64, fp32 or fp16 for a CUDA-core pipe; the tensor pipe "
                             "needs a machine with a tensor roof, --hw)"
                           : ""));
      continue;
    }
    const double r = pp.activity * pp.peak.value;
    w.rate += r;
    w.parts += std::string(w.parts.empty() ? "" : " + ") + format_number(pp.activity, 3) + " × " +
               format_work_rate(pp.peak) + " (" + pp.label + ", roof '" + pp.roof + "')";
    if (r > w.best) {
      w.best = r;
      w.best_roof = pp.roof;
    }
  }
  return w;
}

/// The entity's point: W = rate·T, Q = DRAM_ACTIVE·β·T over T = samples × interval.
Point dcgm_point(const DcgmSummary& s, const DcgmWorkRate& w, const DcgmPeaks& peaks,
                 double interval_seconds) {
  const double t = s.samples * interval_seconds;
  Point p;
  p.name = s.entity;
  p.time = Seconds(t);
  p.work = Work(w.rate * t);
  // At the level whose bandwidth sized Q (the machine's default memory): DRAM_ACTIVE is the
  // device memory's activity.
  p.traffic.push_back({peaks.memory_level.empty() ? std::string("DRAM") : peaks.memory_level,
                       Bytes(*s.dram_active * peaks.bandwidth.value * t)});
  p.precision = w.best_roof;
  p.source = "dcgm";
  p.note = "W/s ≈ " + w.parts + "; Q/s ≈ " + format_number(*s.dram_active, 3) + " × " +
           format_byte_rate(peaks.bandwidth) + " (DRAM_ACTIVE, " + peaks.memory_level + ")";
  return p;
}

/// The entity's line of averages: samples, utilisation, SM and tensor activity, DRAM, power.
std::string dcgm_summary_line(const DcgmSummary& s) {
  std::string line2 =
      s.entity + ": " + std::to_string(s.samples) + (s.samples == 1 ? " sample" : " samples");
  if (s.gpu_util) line2 += ", GPU utilisation " + format_number(*s.gpu_util * 100, 3) + "%";
  if (s.sm_active) line2 += ", SM active " + format_number(*s.sm_active * 100, 3) + "%";
  if (s.tensor_active) {
    line2 += ", tensor pipe " + format_number(*s.tensor_active * 100, 3) + "%";
  } else if (s.hmma_active || s.dfma_active || s.imma_active) {
    // No TENSO: the tensor pipe's activity as the instruction fields collected give it.
    std::string by;
    for (const auto& [name, v] :
         {std::pair{"HMMA", s.hmma_active}, std::pair{"DFMA", s.dfma_active},
          std::pair{"IMMA", s.imma_active}})
      if (v)
        by += std::string(by.empty() ? "" : ", ") + name + " " + format_number(*v * 100, 3) + "%";
    line2 += ", tensor pipe " + by;
  }
  if (s.dram_active) line2 += ", DRAM " + format_number(*s.dram_active * 100, 3) + "%";
  if (s.power_w) {
    line2 += ", power " + format_number(s.power_w->value, 3) + " W";
    if (s.power_limit_w && s.power_limit_w->value > 0)
      line2 += " of " + format_number(s.power_limit_w->value, 3) + " W (" +
               format_number(100 * s.power_w->value / s.power_limit_w->value, 3) + "%)";
  }
  return line2;
}

/// One entity's point and notes added to the result; an entity without pipe or DRAM activity
/// to scale gets a note instead of a point.
void dcgm_add_entity(const DcgmSummary& s, const DcgmPeaks& peaks, const RoofSet& roofs,
                     double interval_seconds, ImportResult& result) {
  auto& notes = result.notes;
  // A MIG instance's (GPU-I, GPU-CI) activity is a ratio of its own share of the SMs and memory
  // slices (NVIDIA's DCGM user guide: the whole GPU's figure is the instance's × its share),
  // which the log does not give: scaled by the whole device's peaks it read twice the GPU's
  // own row.
  if (s.entity.rfind("GPU-I ", 0) == 0 || s.entity.rfind("GPU-CI ", 0) == 0) {
    notes.push_back(s.entity +
                    ": no point — a MIG instance's activity is relative to its own share of the "
                    "GPU (SMs and memory slices), which the log does not give; the GPU row is "
                    "the whole device");
    return;
  }
  const DcgmWorkRate w = dcgm_work_rate(s, peaks, roofs, notes);
  const char* why =
      w.rate <= 0      ? "no pipe activity (PIPE_*_ACTIVE) with a roof to scale"
      : !s.dram_active ? "the log has no DRAMA (DRAM_ACTIVE, field 1005) for Q; collect it with "
                         "dcgmi dmon -e 1005 beside the pipes' fields"
      : *s.dram_active == 0        ? "DRAMA (DRAM_ACTIVE) is 0 in every sample: no traffic"
      : peaks.bandwidth.value <= 0 ? "the machine has no memory roof to scale DRAMA by"
                                   : nullptr;
  if (why) {
    notes.push_back(s.entity + ": no point — " + why);
    return;
  }
  Point p = dcgm_point(s, w, peaks, interval_seconds);
  const Diagnosis d = diagnose(p, roofs);
  notes.push_back(dcgm_summary_line(s));
  if (!s.partial.empty())
    notes.push_back(s.entity + ": " + join(s.partial, ", ") +
                    " samples give a value (N/A in the others, e.g. while ncu held the "
                    "counters): W and Q take their means over those samples as the whole run's");
  // Pipes busy in the same cycles add up: the sum can pass the one roof the point is held to
  // (every pipe at 100% gave 110% of the tensor roof), which says how the estimate is made,
  // not that a counter or a roof is wrong.
  const WorkRate judged = roofs.select_compute(p.precision).peak;
  if (w.rate > judged.value)
    notes.push_back(s.entity + ": the estimate " + format_work_rate(WorkRate(w.rate)) +
                    " is a sum of pipes active in the same cycles, above the roof '" + p.precision +
                    "' it is judged against (" + format_work_rate(judged) +
                    "): an upper bound of W/s, not a measurement above the roof");
  const bool busy = s.gpu_util.value_or(0) >= 0.9 || s.sm_active.value_or(0) >= 0.9;
  // Far below only: the point is judged at the default touching threshold, 80%, which leaves no
  // just-below band (a point from 80% up touches its roof and is no case of docs/model.md §13).
  if (d.verdict == Verdict::far_below && busy)
    notes.push_back(s.entity + ": busy by utilisation yet far below both roofs (" +
                    d.attainment_percent + "% of the attainable " + format_work_rate(d.attainable) +
                    "): utilisation is a time metric (was any kernel running), FLOP/s a "
                    "throughput metric: a problem of how it runs, not of the hardware — look "
                    "at launch/sync overhead, data-feeding stalls, small kernels, low "
                    "parallelism (docs/model.md §13)");
  result.doc.points.push_back(std::move(p));
}

}  // namespace

DcgmResult import_dcgm(std::istream& input, const std::string& origin, const RoofSet& roofs,
                       const DcgmOptions& opt) {
  if (!(opt.interval_seconds > 0)) throw InputError("--interval: must be > 0");
  // Read the log into per-entity sums, refusing a log that gives no point.
  const DcgmTally tally = dcgm_read_log(input, origin);
  dcgm_check_tally(tally, origin);
  const DcgmPeaks peaks = dcgm_peaks(roofs);
  DcgmResult out;
  if (tally.empty_rows > 0)
    out.result.notes.push_back(std::to_string(tally.empty_rows) +
                               " rows with only N/A/N/W values are not samples (left out of T)");
  if (!tally.unknown.empty())
    out.result.notes.push_back(
        "fields not read (not fields this importer knows): " + join(tally.unknown, ", ") +
        "; W and Q come from the pipes' and DRAM activity (docs/import.md)");
  out.result.doc.origin = origin;
  out.result.doc.machine = roofs.name;
  // Each entity in the order it first appeared: its averages, then its point and notes.
  for (const auto& entity : tally.entity_order) {
    out.gpus.push_back(dcgm_summarise(tally, entity));
    dcgm_add_entity(out.gpus.back(), peaks, roofs, opt.interval_seconds, out.result);
  }
  require_valid_points(out.result.doc, origin);
  return out;
}

}  // namespace roofline
