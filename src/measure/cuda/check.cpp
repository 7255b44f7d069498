// Partial results of a GPU measurement and the acceptance check judged from them (check.hpp).
#include "measure/cuda/check.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::cuda::check {

namespace {

bool is_record(const nlohmann::json& j) {
  return j.is_object() && j.contains("record") && j["record"].is_string();
}

std::optional<double> number(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
  const double v = j[key].get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::string text(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return {};
  return j[key].get<std::string>();
}

std::string rate_text(std::optional<double> v, const std::string& unit) {
  return v ? format_si(*v, unit) : "-";
}

std::string ratio_text(double r) {
  return printf_f(r, 3);
}

}  // namespace

// ---- records ----

RecordWriter::RecordWriter(const std::string& path) : path_(path) {
  // An existing file is replaced only when it holds records already (an earlier run's).
  {
    std::ifstream in(path);
    std::string first;
    if (in && std::getline(in, first) && !first.empty()) {
      const nlohmann::json j = nlohmann::json::parse(first, nullptr, false);
      if (j.is_discarded() || !is_record(j))
        throw InputError(path + ": exists and does not hold GPU measurement records; not replaced");
    }
  }
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError(path + ": cannot write the records: " + std::strerror(errno));
}

RecordWriter::~RecordWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void RecordWriter::write(const nlohmann::json& record) {
  // error_handler_t::replace: a name with invalid UTF-8 still gives a line of JSON.
  const std::string line =
      record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(path_ + ": writing a record failed: " + std::strerror(errno));
    done += static_cast<size_t>(n);
  }
}

RecordFile read_records(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read: " + std::strerror(errno));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  RecordFile out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(lines[i], nullptr, false);
    const bool last = i + 1 == lines.size();
    if (j.is_discarded() && last) {
      out.truncated = path + ":" + std::to_string(i + 1) +
                      ": the last line is cut off (the run stopped while writing it)";
      continue;
    }
    if (j.is_discarded() || !is_record(j))
      throw InputError(path + ":" + std::to_string(i + 1) +
                       ": not a GPU measurement record (a JSON object with a \"record\" field)");
    out.records.push_back(j);
  }
  return out;
}

// ---- targets ----

Targets h200_targets() {
  // NVIDIA H200 datasheet (SXM): 4.8 TB/s HBM3e; the compute figures are the H100 SXM's
  // (H100 datasheet): 989.4 TFLOP/s bf16 dense tensor, 67 TFLOP/s fp64 tensor, 34 TFLOP/s fp64.
  Targets t;
  t.name = "h200";
  t.lower = {{"HBM", 0.90, 4.8e12, "B/s", "H200 datasheet: 4.8 TB/s"},
             {"bf16 tensor", 0.80, 989.4e12, "FLOP/s", "H100/H200 datasheet: 989.4 TFLOP/s dense"},
             {"fp64 tensor", 0.85, 67e12, "FLOP/s", "H100/H200 datasheet: 67 TFLOP/s"},
             {"fp64 cuda cores", 0.85, 34e12, "FLOP/s", "H100/H200 datasheet: 34 TFLOP/s"}};
  t.at_least_peer = {"bf16 tensor"};
  t.max_seconds = 60;
  t.shown = {"HBM",
             "L2",
             "L1",
             "shared",
             "fp64 cuda cores",
             "fp32 cuda cores",
             "fp16 cuda cores",
             "fp64 tensor",
             "tf32 tensor",
             "fp16 tensor",
             "bf16 tensor",
             "fp8-e4m3 tensor",
             "int8 tensor"};
  return t;
}

Targets bounds_only() {
  Targets t;
  t.name = "bounds only";
  return t;
}

// ---- the verdict ----

namespace {

/// The records of one measurement sorted by kind: the last record of each roof (in the order
/// they were first measured), the cuBLAS peers, the roofs said to be unavailable and why, and
/// the device record's theories (at the maximum clock).
struct GpuRecords {
  std::map<std::string, nlohmann::json> roofs, peers;
  std::vector<std::string> order;                  // roofs in the order they were measured
  std::map<std::string, std::string> unavailable;  // roof → reason
  std::map<std::string, nlohmann::json> theory;    // from the device record (maximum clock)
  bool device = false;
};

/// Sorts the records; the energy, unavailable, error and done records go straight into `v`.
GpuRecords sort_gpu_records(const std::vector<nlohmann::json>& records, Verdict& v) {
  GpuRecords g;
  for (const nlohmann::json& r : records) {
    const std::string kind = text(r, "record");
    if (kind == "device") {
      g.device = true;
      if (r.contains("theory") && r["theory"].is_array())
        for (const nlohmann::json& t : r["theory"]) g.theory[text(t, "name")] = t;
    } else if (kind == "roof") {
      const std::string name = text(r, "name");
      if (!g.roofs.count(name)) g.order.push_back(name);
      g.roofs[name] = r;
    } else if (kind == "energy" && r.contains("energy") && r["energy"].is_object()) {
      // The power figures of the energy roofline (docs/energy.md): shown, not judged.
      const nlohmann::json& e = r["energy"];
      if (e.value("available", false) && e.contains("idle_power_w") &&
          e["idle_power_w"].is_number())
        v.notes.push_back(
            "power at rest (NVML): " + format_number(e["idle_power_w"].get<double>(), 4) + " W");
      else if (e.value("available", false))
        v.notes.push_back(
            "power at rest not read: the counter gave no increase over the idle "
            "quarter second");
      else
        v.notes.push_back("energy not read: " + text(e, "why"));
    } else if (kind == "peer") {
      g.peers[text(r, "roof")] = r;
    } else if (kind == "unavailable") {
      const std::string what = text(r, "what");
      const size_t colon = what.find(':');
      g.unavailable[colon == std::string::npos ? what : what.substr(0, colon)] = what;
      v.notes.push_back("not measured: " + what);
    } else if (kind == "error") {
      v.failures.push_back("the measurement failed: " + text(r, "what"));
    } else if (kind == "done") {
      v.finished = true;
      v.seconds = number(r, "seconds");
    }
  }
  return g;
}

/// "power while measured (NVML): ROOF W, ..." over the roofs whose records carry a power.
std::string gpu_power_note(const GpuRecords& g) {
  std::string powers;
  for (const std::string& name : g.order) {
    const nlohmann::json& r = g.roofs.at(name);
    if (r.contains("energy") && r["energy"].is_object() && r["energy"].contains("power_w") &&
        r["energy"]["power_w"].is_number())
      powers += (powers.empty() ? "" : ", ") + name + " " +
                format_number(r["energy"]["power_w"].get<double>(), 4) + " W";
  }
  return powers.empty() ? "" : "power while measured (NVML): " + powers;
}

/// The clock a theory without a reading under load is at: DRAM's from the memory clock, the
/// others from the SM clock's maximum.
std::string max_clock_of(const std::string& name) {
  return name == "HBM" || name == "DRAM" ? "memory clock" : "maximum SM clock";
}

/// Whether a target names the roof: it is judged even when nothing in the records names it.
bool has_target(const Targets& targets, const std::string& name) {
  for (const LowerTarget& t : targets.lower)
    if (t.roof == name) return true;
  return std::find(targets.at_least_peer.begin(), targets.at_least_peer.end(), name) !=
         targets.at_least_peer.end();
}

/// The row of roof `name`: measured (rate, theory, the clock it ran at), else the device's
/// theory, and its cuBLAS peer; nullopt for a roof neither measured, nor in theory, nor said
/// unavailable, nor targeted (a roof this GPU does not have).
std::optional<Row> gpu_row(const GpuRecords& g, const Targets& targets, const std::string& name) {
  Row row;
  row.roof = name;
  const auto measured = g.roofs.find(name);
  if (measured != g.roofs.end()) {
    const nlohmann::json& r = measured->second;
    row.unit = text(r, "unit");
    row.rate = number(r, "rate");
    row.theory = number(r, "theory");
    if (r.contains("clock") && r["clock"].is_object()) {
      if (const auto hz = number(r["clock"], "sm_clock_hz"))
        row.clock = format_si(*hz, "Hz") + " under load";
    } else if (row.theory) {
      row.clock = max_clock_of(name);
    }
  } else if (const auto t = g.theory.find(name); t != g.theory.end()) {
    row.unit = text(t->second, "unit");
    row.theory = number(t->second, "rate");
    row.clock = max_clock_of(name);
  } else if (!g.unavailable.count(name) && !has_target(targets, name)) {
    return std::nullopt;
  }
  if (const auto p = g.peers.find(name); p != g.peers.end()) {
    row.peer = number(p->second, "rate");
    row.peer_name = text(p->second, "peer");
    row.peer_missing = text(p->second, "missing");
  }
  return row;
}

/// The row's failures: above its theory's upper bound, below a lower target (or not measured),
/// below its cuBLAS peer (or no peer measured).
void judge_gpu_row(Row& row, const Targets& targets, const GpuRecords& g) {
  const std::string& name = row.roof;
  // Upper bound: no roof above upper_ratio × its theory at the clock it ran.
  if (row.rate && row.theory && *row.theory > 0 && *row.rate > targets.upper_ratio * *row.theory)
    row.failures.push_back(name + ": " + rate_text(row.rate, row.unit) + " is " +
                           ratio_text(*row.rate / *row.theory) + " × its theory " +
                           rate_text(row.theory, row.unit) + " (at most " +
                           ratio_text(targets.upper_ratio) +
                           " ×): work or bytes miscounted, the clock read low, or the timer");
  for (const LowerTarget& t : targets.lower) {
    if (t.roof != name) continue;
    const double need = t.fraction * t.reference;
    if (row.unit.empty()) row.unit = t.unit;
    row.target = "≥ " + format_si(need, row.unit) + " (" + format_number(t.fraction) + " × " +
                 format_si(t.reference, row.unit) + ")";
    if (!row.rate) {
      const auto why = g.unavailable.find(name);
      row.failures.push_back(name + ": not measured" +
                             (why != g.unavailable.end() ? " (" + why->second + ")" : ""));
    } else if (*row.rate < need) {
      row.failures.push_back(name + ": " + rate_text(row.rate, row.unit) + " < " +
                             format_si(need, row.unit) + " (" + format_number(t.fraction) + " × " +
                             t.source + ")");
    }
  }
  if (std::find(targets.at_least_peer.begin(), targets.at_least_peer.end(), name) !=
      targets.at_least_peer.end()) {
    if (!row.peer) {
      const std::string& why = row.peer_missing;
      row.failures.push_back(name + ": no cuBLAS rate measured in the same run to compare with" +
                             (why.empty() ? "" : " (" + why + ")"));
    } else if (row.rate && *row.rate < (1 - targets.peer_tolerance) * *row.peer) {
      row.failures.push_back(name + ": " + rate_text(row.rate, row.unit) + " is " +
                             ratio_text(*row.rate / *row.peer) + " × cuBLAS's " +
                             rate_text(row.peer, row.unit) + " in the same run (at least " +
                             ratio_text(1 - targets.peer_tolerance) + " ×)");
    }
  }
}

}  // namespace

Verdict judge(const std::vector<nlohmann::json>& records, const Targets& targets) {
  Verdict v;
  const GpuRecords g = sort_gpu_records(records, v);
  if (const std::string powers = gpu_power_note(g); !powers.empty()) v.notes.push_back(powers);
  if (records.empty())
    v.failures.push_back("no records: the measurement wrote nothing");
  else if (!g.device)
    v.failures.push_back("no device record: the measurement stopped before it found the GPU");

  // The roofs shown first, then any other measured, in the order measured.
  std::vector<std::string> names = targets.shown;
  for (const std::string& n : g.order)
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  for (const std::string& name : names) {
    std::optional<Row> row = gpu_row(g, targets, name);
    if (!row) continue;
    judge_gpu_row(*row, targets, g);
    for (const std::string& f : row->failures) v.failures.push_back(f);
    v.rows.push_back(std::move(*row));
  }

  if (!records.empty() && !v.finished)
    v.failures.push_back(
        "the measurement did not finish (no \"done\" record): it was stopped, by a timeout or "
        "an error, after the records above");
  if (v.finished && targets.max_seconds > 0 && v.seconds && *v.seconds > targets.max_seconds)
    v.failures.push_back("the measurement took " + format_number(*v.seconds, 3) + " s (at most " +
                         format_number(targets.max_seconds) + " s)");
  return v;
}

std::string render(const Verdict& v) {
  std::vector<std::vector<std::string>> table = {{"roof", "measured", "theory", "meas/theory",
                                                  "theory at", "cuBLAS", "roof/cuBLAS", "target",
                                                  "result"}};
  for (const Row& r : v.rows) {
    table.push_back({terminal_safe(r.roof), rate_text(r.rate, r.unit), rate_text(r.theory, r.unit),
                     r.rate && r.theory && *r.theory > 0 ? ratio_text(*r.rate / *r.theory) : "-",
                     r.clock.empty() ? "-" : r.clock, rate_text(r.peer, r.unit),
                     r.rate && r.peer && *r.peer > 0 ? ratio_text(*r.rate / *r.peer) : "-",
                     r.target.empty() ? "-" : r.target,
                     !r.failures.empty() ? "FAIL"
                     : r.rate            ? "ok"
                                         : "not measured"});
  }
  // Column widths in characters (UTF-8 continuation bytes take no column).
  auto width = [](const std::string& s) {
    size_t w = 0;
    for (char c : s) w += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
    return w;
  };
  std::vector<size_t> widths(table[0].size(), 0);
  for (const auto& row : table)
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  std::string out;
  for (const auto& row : table) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - width(row[i]) + 2, ' ');
    }
    out += line + "\n";
  }
  for (const Row& r : v.rows) {
    if (!r.peer_name.empty())
      out += "cuBLAS peer of " + terminal_safe(r.roof) + ": " + terminal_safe(r.peer_name) + "\n";
    else if (!r.peer_missing.empty())
      out += "no cuBLAS peer of " + terminal_safe(r.roof) + ": " + terminal_safe(r.peer_missing) +
             "\n";
  }
  for (const std::string& n : v.notes) out += terminal_safe(n) + "\n";
  out += "measurement time: " +
         (v.seconds ? format_number(*v.seconds, 3) + " s" : std::string("- (not finished)")) + "\n";
  for (const std::string& f : v.failures) out += "FAIL: " + terminal_safe(f) + "\n";
  out += v.pass() ? "gpu check: PASS\n"
                  : "gpu check: FAIL (" + std::to_string(v.failures.size()) + " problem" +
                        (v.failures.size() == 1 ? "" : "s") + ")\n";
  return out;
}

}  // namespace roofline::cuda::check
