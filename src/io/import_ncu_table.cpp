// Readers of Nsight Compute CSV exports → one table of (kernel, metric, unit, value).
//   raw     (`ncu --csv --page raw`): header of metric names, units row, one row per launch;
//   details (`ncu --csv`, `ncu --import r.ncu-rep --csv`): one row per (launch, metric) with
//           "Section Name", "Metric Name", "Metric Unit", "Metric Value" (and, since 2023,
//           rule columns that ncu leaves out — with trailing commas — on metric rows).
// Lines of ncu ("==PROF==", "==WARNING==", "==ERROR==") and of the profiled application may
// come anywhere: a table row always starts with a quote.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace {

/// Metrics the points step can use; the others are only named in ToolTable::metric_names.
bool wanted_metric(std::string_view m) {
  static const char* const prefixes[] = {
      "gpu__time_duration",
      "sm__sass_thread_inst_executed_op_",
      "smsp__sass_thread_inst_executed_op_",
      "sm__ops_path_tensor",
      "smsp__ops_path_tensor",
      "sm__inst_executed_pipe_tensor",
      "smsp__inst_executed_pipe_tensor",
      "dram__bytes",
      "lts__t_bytes",
      "l1tex__t_bytes",
      "sm__cycles_elapsed.avg",
      "smsp__cycles_elapsed.avg",
      "dram__cycles_elapsed.avg",
  };
  for (const char* p : prefixes)
    if (std::string_view(m).starts_with(p)) return true;
  return false;
}

bool ncu_missing_text(std::string_view t) {
  return t.empty() || t == "n/a" || t == "N/A" || t == "(!) n/a" || t == "-";
}

/// The default sections of the details page show metrics under display names (NVIDIA Nsight
/// Compute, sections/SpeedOfLight.section and MemoryWorkloadAnalysis.section):
/// - "Duration" of the Speed Of Light section ("GPU Speed Of Light" before 2021,
///   "GPU Speed Of Light Throughput" since) is gpu__time_duration.sum;
/// - "Memory Throughput" of the Memory Workload Analysis section, a rate (byte/second,
///   Gbyte/second, ...), is dram__bytes.sum.per_second; the Speed Of Light section's
///   "Memory Throughput" is a percentage and stays what it is.
std::string_view details_metric(std::string_view section, std::string_view name,
                                std::string_view unit) {
  if (name == "Duration" &&
      (section == "GPU Speed Of Light Throughput" || section == "GPU Speed Of Light"))
    return "gpu__time_duration.sum";
  if (name == "Memory Throughput" && section == "Memory Workload Analysis" &&
      std::string_view(unit).ends_with("/second"))
    return "dram__bytes.sum.per_second";
  return name;
}

int find_field(const CsvRecord& r, const char* name) {
  for (std::size_t i = 0; i < r.size(); ++i)
    if (trim_blanks(r.fields[i]) == name) return static_cast<int>(i);
  return -1;
}

bool is_header(const CsvRecord& r) {
  return find_field(r, "Kernel Name") >= 0;
}

struct NcuTableReader {
  NcuTableReader(TextLines& l, ToolTable& t, const NcuRecordSink& s) : lines(l), tab(t), sink(s) {}
  TextLines& lines;
  ToolTable& tab;
  const NcuRecordSink& sink;
  std::size_t kernels_read = 0;
  std::string line{};
  CsvRecord rec{};
  int foreign = 0, first_foreign = 0;
  int unquoted_header = 0;  ///< the first line not starting with a quote that names "Kernel Name"
  std::vector<std::string> messages{};  // ncu's ==ERROR== / ==WARNING== lines
  std::string first_error{};
  int first_error_line = 0;
  bool no_kernels = false;
  int prof_lines = 0;  ///< ncu's own "==PROF==" lines (processes connected, disconnected)
  // ncu's text report (ncu without --csv): its first section header ("    Section: GPU Speed Of
  // Light Throughput") and its first `==PROF== Profiling "NAME": ...` line, with their lines.
  std::string text_section, profiled_kernel;
  int text_section_line = 0, profiled_line = 0;

  /// The next table row (a line starting with a quote) into `rec`; ncu's own lines and other
  /// output are noted and skipped.
  bool next_row() {
    while (lines.next(line)) {
      if (line.empty()) continue;
      if (line[0] == '"') {
        split_csv(line, lines, rec);
        if (!lines.last_line_ended()) cut_row();
        return true;
      }
      if (std::string_view(line).starts_with("==")) {
        prof_lines += std::string_view(line).starts_with("==PROF==");
        note_profiled_kernel();
        const bool error = std::string_view(line).starts_with("==ERROR==");
        if (error || std::string_view(line).starts_with("==WARNING==")) {
          if (messages.size() < 5)
            messages.push_back("line " + std::to_string(lines.line_number()) + ": " + line);
          if (error && first_error.empty()) {
            first_error = line;
            first_error_line = lines.line_number();
          }
          if (line.find("No kernels were profiled") != std::string::npos) no_kernels = true;
        }
        continue;
      }
      if (foreign++ == 0) first_foreign = lines.line_number();
      if (text_section.empty() && trim_blanks(line).starts_with("Section: ")) {
        text_section = std::string(trim_blanks(line));
        text_section_line = lines.line_number();
      }
      if (unquoted_header == 0 && line.find("\"Kernel Name\"") != std::string::npos)
        unquoted_header = lines.line_number();
    }
    return false;
  }

  /// `==PROF== Profiling "kernelUnary": 0%....50%....100% - 8 passes`: ncu profiled that kernel.
  void note_profiled_kernel() {
    static constexpr std::string_view kProfiling = "==PROF== Profiling \"";
    if (!profiled_kernel.empty() || !std::string_view(line).starts_with(kProfiling)) return;
    const std::size_t end = line.find('"', kProfiling.size());
    if (end == std::string::npos) return;
    profiled_kernel = line.substr(kProfiling.size(), end - kProfiling.size());
    profiled_line = lines.line_number();
  }

  /// ncu profiled kernels but wrote its text report (ncu without --csv), which is no table of
  /// this importer: said so, with how to write the CSV, rather than "profiled no kernels".
  [[noreturn]] void text_report() {
    const bool section = text_section_line > 0;
    const int at = section ? text_section_line : profiled_line;
    throw InputError(
        tab.origin + ": line " + std::to_string(at) + ": ncu's text report, not CSV (" +
        (section ? "'" + terminal_safe(text_section) + "'"
                 : "ncu profiled kernel '" + terminal_safe(profiled_kernel) +
                       "' and the file has no CSV table") +
        "): ncu prints this report without --csv; export the CSV with ncu --csv --page raw "
        "--metrics ... ./app > out.csv, or from a saved report: ncu --import FILE.ncu-rep --csv "
        "--page raw > out.csv");
  }

  [[noreturn]] void no_table() {
    const std::string& o = tab.origin;
    if (!first_error.empty()) {
      std::string hint;
      if (first_error.find("ERR_NVGPUCTRPERM") != std::string::npos)
        hint =
            " (run ncu with access to the GPU performance counters: as root, or with the "
            "driver option NVreg_RestrictProfilingToAdminUsers=0)";
      throw InputError(o + ": line " + std::to_string(first_error_line) +
                       ": ncu wrote no table, it reported: " + first_error + hint);
    }
    // ncu says so in a warning, or (a run whose processes all ended unprofiled) writes no table
    // but its own ==PROF== lines, among the program's output when that went to the file too.
    // A header line that does not start with a quote: a table ncu did not write as it is (an
    // edited copy, a layout cut by hand), said as such rather than as "no kernels".
    if (unquoted_header > 0)
      throw InputError(o + ": line " + std::to_string(unquoted_header) +
                       ": a \"Kernel Name\" header that is no row of ncu's CSV (ncu quotes "
                       "every field, and its rows start with a quote): an edited or cut copy? "
                       "(export with: ncu --csv --page raw --metrics ...)");
    if (text_section_line > 0 || profiled_line > 0) text_report();
    if (no_kernels || prof_lines > 0)
      throw InputError(o + ": ncu profiled no kernels (" +
                       (no_kernels ? std::string("==WARNING== No kernels were profiled.")
                                   : "ncu wrote its " + std::to_string(prof_lines) +
                                         " ==PROF== lines and no result table") +
                       "): check --kernel-name/--launch-skip, or add --target-processes all "
                       "when the kernels run in a child process");
    throw InputError(o +
                     ": line 1: not an Nsight Compute CSV export: no header with "
                     "\"Kernel Name\" (export with: ncu --csv --page raw --metrics ... or ncu "
                     "--import report.ncu-rep --csv --page raw)");
  }

  /// ncu ends every line: a last row without its line end was cut, maybe right after a comma
  /// (an empty last cell, read as a metric ncu left out) or inside a number.
  [[noreturn]] void cut_row() {
    const int at = lines.line_number();
    throw InputError(tab.origin + ": line " + std::to_string(at) +
                     (at == rec.line ? ", column " + std::to_string(line.size() + 1) : "") +
                     ": the last row has no line end (file truncated?); if the file is whole, "
                     "end it with one");
  }

  [[noreturn]] void short_row(std::size_t need, const std::string& what) {
    // The column just after the row's last character: where the missing fields should be.
    throw InputError(tab.origin + ": line " + std::to_string(lines.line_number()) + ", column " +
                     std::to_string(line.size() + 1) + ": expected " + std::to_string(need) +
                     " fields" + what + ", found " + std::to_string(rec.size()) +
                     " (file truncated?)");
  }

  /// ncu writes a kernel's name (a C++ signature) on one line: a Kernel Name cell over several
  /// lines is a quote left open or an edited export, refused at its cell, the name quoted —
  /// not made into a point whose name would break the output's lines.
  void require_one_line_name(std::size_t name_col) const {
    const std::string& n = rec.fields[name_col];
    if (n.find_first_of("\r\n") == std::string::npos &&
        n.find("\xe2\x80\xa8") == std::string::npos && n.find("\xe2\x80\xa9") == std::string::npos)
      return;
    throw InputError(tab.origin + ": line " + std::to_string(rec.line) + ", column " +
                     std::to_string(rec.columns[name_col]) + ": Kernel Name '" + terminal_safe(n) +
                     "' is more than one line (ncu writes each kernel name on one line: a quote "
                     "left open, or an edited export?)");
  }

  /// `metric` and `unit` are views of the table's strings.
  ToolValue value_of(std::string_view metric, std::string_view unit, std::size_t field) {
    ToolValue v;
    v.metric = metric;
    v.unit = unit;
    v.line = rec.line;
    v.column = rec.columns[field];
    if (ncu_missing_text(trim_blanks(rec.fields[field]))) {
      v.missing = true;
    } else {
      v.value = parse_profiler_number(rec.fields[field], tab.origin, v.line, v.column, metric);
    }
    return v;
  }

  /// Raw page: `rec` holds the header. Returns true when another header follows (a second
  /// table, e.g. another process), left in `rec`.
  bool read_raw() {
    const std::vector<std::string> header = [&] {
      std::vector<std::string> h;
      for (const auto& f : rec.fields) h.push_back(trim(f));
      return h;
    }();
    const int header_line = rec.line;
    const int id_field = find_field(rec, "ID");
    const auto name_col = static_cast<std::size_t>(find_field(rec, "Kernel Name"));
    const int device_col = find_field(rec, "Device");
    const int cc_col = find_field(rec, "CC");
    std::vector<std::size_t> wanted;
    std::map<std::string_view, std::size_t> wanted_at;  // a metric the import uses, its field
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (static_cast<int>(i) == id_field || i == name_col || static_cast<int>(i) == cc_col)
        continue;
      tab.metric_names.emplace(header[i]);
      if (!wanted_metric(header[i])) continue;
      // ncu writes a metric once; two columns of one name would leave which one counts to
      // chance.
      if (const auto [at, fresh] = wanted_at.emplace(header[i], i); !fresh)
        throw InputError(tab.origin + ": line " + std::to_string(header_line) + ", column " +
                         std::to_string(rec.columns[i]) + ": " + header[i] +
                         " is a column twice (also column " +
                         std::to_string(rec.columns[at->second]) + ")");
      wanted.push_back(i);
    }
    std::vector<std::string_view> metric(header.size()), units(header.size());
    for (std::size_t i : wanted) metric[i] = tab.intern(header[i]);
    bool units_row = false, first = true;
    int kernels = 0;
    while (next_row()) {
      if (is_header(rec)) return true;
      if (rec.size() < header.size()) {
        // ncu leaves out nothing on a raw row; a short one was cut.
        short_row(header.size(), "");
      }
      for (std::size_t i = header.size(); i < rec.size(); ++i)
        if (!trim(rec.fields[i]).empty())
          throw InputError(tab.origin + ": line " + std::to_string(rec.line) + ", column " +
                           std::to_string(rec.columns[i]) +
                           ": more fields than the header on line " + std::to_string(header_line) +
                           " has columns");
      const std::string id =
          id_field >= 0 ? trim(rec.fields[static_cast<std::size_t>(id_field)]) : std::string();
      const std::string name = rec.fields[name_col];
      if (first && id.empty() && trim(name).empty()) {
        // The units row (right after the header, also when ==WARNING== lines come between).
        for (std::size_t i = 0; i < header.size(); ++i) units[i] = tab.intern(trim(rec.fields[i]));
        units_row = true;
        first = false;
        continue;
      }
      if (first && !units_row) {
        tab.notes.push_back(
            "no units row: values taken in ncu's base units (byte, nsecond, "
            "inst)");
      }
      first = false;
      require_one_line_name(name_col);
      ToolRecord r;
      r.id = id_field >= 0 ? id : std::to_string(kernels);
      ++kernels;
      r.name = name;
      r.line = rec.line;
      if (device_col >= 0) r.device = trim(rec.fields[static_cast<std::size_t>(device_col)]);
      if (cc_col >= 0) r.cc = trim(rec.fields[static_cast<std::size_t>(cc_col)]);
      for (std::size_t i : wanted) r.values.push_back(value_of(metric[i], units[i], i));
      ++kernels_read;
      if (sink)
        sink(tab, std::move(r));
      else
        tab.records.push_back(std::move(r));
    }
    return false;
  }

  /// Details page: `rec` holds the header.
  bool read_details() {
    const int id_field = find_field(rec, "ID");
    const auto name_col = static_cast<std::size_t>(find_field(rec, "Kernel Name"));
    const int section_col = find_field(rec, "Section Name");
    const auto metric_col = static_cast<std::size_t>(find_field(rec, "Metric Name"));
    const int unit_col = find_field(rec, "Metric Unit");
    const auto value_col = static_cast<std::size_t>(find_field(rec, "Metric Value"));
    const int device_col = find_field(rec, "Device");
    const int cc_col = find_field(rec, "CC");
    const std::size_t need = std::max({static_cast<std::size_t>(std::max(id_field, 0)), name_col,
                                       metric_col, value_col}) +
                             1;
    std::unordered_map<std::string, std::size_t> by_id;
    std::string last_id;
    std::size_t last = 0;
    int rules = 0;
    while (next_row()) {
      if (is_header(rec)) {
        flush();
        return true;
      }
      // Rule rows and, in newer ncu, metric rows end early: the columns after "Metric Value"
      // are left out with a trailing comma.
      if (rec.size() < need) short_row(need, " (up to \"Metric Value\")");
      const std::string_view name = trim_blanks(rec.fields[metric_col]);
      if (name.empty()) {
        ++rules;  // a rule's result (OPT, WRN): text, not a metric
        continue;
      }
      const std::string_view section =
          section_col >= 0 && static_cast<std::size_t>(section_col) < rec.size()
              ? trim_blanks(rec.fields[static_cast<std::size_t>(section_col)])
              : std::string_view();
      const std::string_view unit =
          unit_col >= 0 && static_cast<std::size_t>(unit_col) < rec.size()
              ? trim_blanks(rec.fields[static_cast<std::size_t>(unit_col)])
              : std::string_view();
      const std::string_view metric = details_metric(section, name, unit);
      if (tab.metric_names.find(metric) == tab.metric_names.end()) tab.metric_names.emplace(metric);
      // Without an ID column, a kernel is its name (one launch each).
      const std::string_view id = id_field >= 0
                                      ? trim_blanks(rec.fields[static_cast<std::size_t>(id_field)])
                                      : std::string_view(rec.fields[name_col]);
      if (tab.records.empty() || id != last_id) {
        // A kernel's rows come together; the map is for ones that do not.
        auto it = by_id.find(std::string(id));
        if (it == by_id.end()) {
          require_one_line_name(name_col);
          ToolRecord r;
          r.id = id_field >= 0 ? std::string(id) : std::to_string(by_id.size());
          r.name = rec.fields[name_col];
          r.line = rec.line;
          if (device_col >= 0 && static_cast<std::size_t>(device_col) < rec.size())
            r.device = trim(rec.fields[static_cast<std::size_t>(device_col)]);
          if (cc_col >= 0 && static_cast<std::size_t>(cc_col) < rec.size())
            r.cc = trim(rec.fields[static_cast<std::size_t>(cc_col)]);
          it = by_id.emplace(std::string(id), tab.records.size()).first;
          tab.records.push_back(std::move(r));
        }
        last = it->second;
        last_id = id;
      }
      if (!wanted_metric(metric)) continue;
      ToolValue v = value_of(tab.intern(metric), tab.intern(unit), value_col);
      // One metric given twice for a kernel (the same figure in two sections): once when the
      // two agree; which counts is left to chance when they do not, so that is refused.
      tab.records[last].add_once(v, tab.origin);
    }
    if (rules > 0)
      tab.notes.push_back(std::to_string(rules) + " rule results (text, not metrics) left out");
    flush();
    return false;
  }

  /// ncu writes the same metrics for every kernel of a details page: a last kernel with fewer
  /// of them than another is a file cut at a line end (a cut inside a line is refused), and
  /// its points step reads the metrics it lacks as not collected. Said in a note.
  void note_short_last_kernel() {
    if (tab.records.size() < flushed + 2) return;
    const ToolRecord& last = tab.records.back();
    const auto most = std::max_element(
        tab.records.begin() + static_cast<std::ptrdiff_t>(flushed), tab.records.end() - 1,
        [](const ToolRecord& a, const ToolRecord& b) { return a.values.size() < b.values.size(); });
    if (last.values.size() >= most->values.size()) return;
    std::string missing;
    for (const auto& v : most->values)
      if (!last.find(v.metric)) missing += (missing.empty() ? "" : ", ") + std::string(v.metric);
    tab.notes.push_back("kernel ID " + last.id + " (line " + std::to_string(last.line) +
                        "), the table's last, lacks metrics kernel ID " + most->id + " has (" +
                        missing + "): the file may be cut at a line end");
  }

  /// Details records go to the sink when their table ends (a kernel's rows may be apart).
  void flush() {
    note_short_last_kernel();
    kernels_read += tab.records.size() - flushed;
    if (!sink) {
      flushed = tab.records.size();
      return;
    }
    for (auto& r : tab.records) sink(tab, std::move(r));
    tab.records.clear();
    flushed = 0;
  }
  std::size_t flushed = 0;
};

}  // namespace

ToolTable read_ncu_table(TextLines& lines, const NcuRecordSink& sink) {
  ToolTable tab;
  tab.origin = lines.origin();
  NcuTableReader rd(lines, tab, sink);
  bool header = false;
  while (rd.next_row())
    if (is_header(rd.rec)) {
      header = true;
      break;
    }
  if (!header) rd.no_table();
  while (header) {
    const bool details =
        find_field(rd.rec, "Metric Name") >= 0 && find_field(rd.rec, "Metric Value") >= 0;
    const std::string layout = details ? "ncu details" : "ncu raw";
    if (!tab.layout.empty() && tab.layout != layout) tab.layout += " + ";
    if (tab.layout.find(layout) == std::string::npos) tab.layout += layout;
    header = details ? rd.read_details() : rd.read_raw();
  }
  if (!rd.messages.empty()) {
    std::string m = "ncu reported (kernels it could not profile are not in the table):";
    for (const auto& s : rd.messages) m += " " + s + ";";
    m.pop_back();
    tab.notes.push_back(m);
  }
  if (rd.foreign > 0)
    tab.notes.push_back(std::to_string(rd.foreign) +
                        " lines that are not ncu's (the application's output) skipped, the first "
                        "on line " +
                        std::to_string(rd.first_foreign));
  if (rd.kernels_read == 0)
    throw InputError(tab.origin + ": line " + std::to_string(lines.line_number()) +
                     ": no kernel rows after the header (file truncated?)");
  return tab;
}

}  // namespace roofline
