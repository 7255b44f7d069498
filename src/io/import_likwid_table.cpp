// LikwidTableReader of likwid-perfctr output → one table of (region, group, thread, metric, value).
//   text (what likwid-perfctr prints to the terminal):
//     Region NAME, Group N: GROUP          (or "Group N: GROUP" without the marker API)
//     +---------+---------+                then tables "Region Info", "Event | Counter",
//     |  Event  | Counter | HWThread 0 |   "Metric", each with one column per thread, and
//     +---------+---------+                with several threads their "... STAT" tables
//   CSV (-O): TABLE,[Region NAME,]Group N Raw|Metric[ STAT],GROUP,ROWS then the rows of
//     "Region Info,<threads>", "Event,Counter,<threads>" or "Metric,<threads>".
// A file may hold both (a terminal capture with the -O output after the program's) and
// several runs concatenated. STAT tables are left out: they are recomputed from the threads.
#include <cctype>
#include <map>
#include <regex>
#include <set>

#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace {

bool missing_text(const std::string& t) {
  return t.empty() || t == "-" || t == "nil" || t == "nan" || t == "NaN" || t == "N/A";
}

/// Digits a printed number carries ("0.093733" 5, "0.0937" 3, "1.987080e-06" 7).
int significant_digits(const std::string& t) {
  int n = 0;
  bool leading = true;
  for (char c : t) {
    if (c == 'e' || c == 'E') break;
    if (!std::isdigit(static_cast<unsigned char>(c))) continue;
    if (leading && c == '0') continue;
    leading = false;
    ++n;
  }
  return n;
}

enum class Kind { none, info, event, metric, stat };

struct LikwidTableReader {
  LikwidTableReader(TextLines& l, ToolTable& t, int runs_before)
      : lines(l), tab(t), run(runs_before), first_run(runs_before + 1) {}
  TextLines& lines;
  ToolTable& tab;
  int run = 0;
  int first_run = 1;
  // Blocks of the current run: (region, group index, group) → record index, and which
  // tables each block had (a second Raw or Metric table of the same block starts a new run).
  std::map<std::tuple<std::string, int, std::string>, std::size_t> blocks;
  std::map<std::size_t, std::set<std::string>> block_tables;
  // Of the current run: the group each index names ("Group 1: MEM_DP").
  std::map<int, std::string> group_of_index;
  std::size_t cur = static_cast<std::size_t>(-1);

  // The table being read.
  Kind kind = Kind::none;
  std::vector<std::string> columns;  // thread columns
  std::size_t skip = 1;              // cells before the values (name; name + counter)
  bool csv = false;
  int declared = -1, rows = 0, table_line = 0;
  std::string table_group;
  // Text tables: top rule, header, rule, rows, bottom rule.
  enum class Text { none, top, header, rows } text = Text::none;

  void new_run() {
    ++run;
    blocks.clear();
    block_tables.clear();
    group_of_index.clear();
    cur = static_cast<std::size_t>(-1);
  }

  [[noreturn]] void fail(int line, int column, const std::string& what) {
    throw InputError(tab.origin + ": line " + std::to_string(line) + ", column " +
                     std::to_string(column) + ": " + what);
  }

  void end_csv_table() {
    if (!csv) return;
    if (declared >= 0 && rows < declared)
      fail(lines.line_number(), 1,
           "table '" + table_group + "' (line " + std::to_string(table_line) + ") declares " +
               std::to_string(declared) + " rows, found " + std::to_string(rows) +
               " (file truncated?)");
    csv = false;
    kind = Kind::none;
    declared = -1;
    rows = 0;
  }

  // Per record, each row's key (a metric's name; an event's name and counter) → where its
  // values start in the record and how many columns its table had.
  std::map<std::size_t, std::map<std::string_view, std::pair<std::size_t, std::size_t>>> block_rows;

  /// Whether a block of (region, index, group) not yet in this run belongs to another run: its
  /// index names another group in this run. likwid-perfctr numbers the groups of one run 1, 2,
  /// ... in the order given (`-g A -g B`: "Group 1: A", "Group 2: B"), the marker regions'
  /// blocks too ("Region R, Group 1: A" for each region R): separate runs pasted one after
  /// another each start again at "Group 1", and a second group under one index is another run.
  bool starts_another_run(int index, const std::string& group) const {
    const auto named = group_of_index.find(index);
    return named != group_of_index.end() && named->second != group;
  }

  /// The record of (region, group) in this run; `table` names the table about to be read so
  /// that a repeated one starts a new run, as does a block that cannot be of this run
  /// (starts_another_run).
  void open_block(const std::string& region, int index, const std::string& group,
                  const std::string& table, int line) {
    auto key = std::make_tuple(region, index, group);
    auto it = blocks.find(key);
    if (it != blocks.end() ? block_tables[it->second].count(table) > 0
                           : starts_another_run(index, group)) {
      new_run();
      it = blocks.end();
    }
    if (run < first_run) new_run();
    group_of_index.emplace(index, group);
    if (it == blocks.end()) {
      ToolRecord r;
      r.name = region;
      r.group = group;
      r.group_index = index;
      r.run = run;
      r.run_origin = tab.origin;
      r.line = line;
      it = blocks.emplace(key, tab.records.size()).first;
      tab.records.push_back(std::move(r));
    }
    cur = it->second;
    block_tables[cur].insert(table);
  }

  /// A header row: the table's kind and its thread columns (`cols`: where each cell starts).
  void header(const std::vector<std::string>& cells, const std::vector<int>& cols, int line) {
    const std::string first = cells.empty() ? "" : cells[0];
    bool stat = false;
    for (const auto& c : cells)
      if (c == "Sum" || c == "Min" || c == "Max" || c == "Avg") stat = true;
    if (stat) {
      kind = Kind::stat;
    } else if (first == "Region Info") {
      kind = Kind::info;
    } else if (first == "Event") {
      kind = Kind::event;
    } else if (first == "Metric") {
      kind = Kind::metric;
    } else {
      kind = Kind::none;  // a table the importer has no use for
    }
    skip =
        (kind == Kind::event || (kind == Kind::stat && cells.size() > 1 && cells[1] == "Counter"))
            ? 2
            : 1;
    columns.clear();
    // A thread named twice would have its values summed as two threads' (W doubled): refused,
    // as a row given twice with other values is.
    std::set<std::string> named;
    for (std::size_t i = skip; i < cells.size(); ++i) {
      if (cells[i].empty()) continue;
      if (kind != Kind::none && kind != Kind::stat && !named.insert(cells[i]).second)
        fail(line, i < cols.size() ? cols[i] : 1,
             "column '" + terminal_safe(cells[i]) +
                 "' given twice in the table's header (two runs' columns pasted side by side?)");
      columns.push_back(cells[i]);
    }
    if (kind != Kind::none && kind != Kind::stat && columns.empty())
      fail(line, 1, "table header without thread columns");
  }

  void row(const std::vector<std::string>& cells, const std::vector<int>& cols, int line,
           int end_column) {
    if (kind == Kind::none || kind == Kind::stat || cur == static_cast<std::size_t>(-1)) return;
    const std::string& name = cells[0];
    if (cells.size() < skip + columns.size())
      fail(line, end_column,
           "'" + name + "': expected " + std::to_string(columns.size()) +
               " values (one per column of the table's header), found " +
               std::to_string(cells.size() > skip ? cells.size() - skip : 0) +
               " (file truncated?)");
    // More values than columns: never dropped, since the cells were split where they should
    // not have been — a decimal comma ("1,987080e-06" read as 1 and 987080e-06) — or the file
    // was cut and joined; the first extra cell is named.
    if (cells.size() > skip + columns.size())
      fail(line, cols[skip + columns.size()],
           "'" + name + "': " + std::to_string(cells.size() - skip) +
               " values where the table's header has " + std::to_string(columns.size()) +
               (columns.size() == 1 ? " column" : " columns") +
               " (a number written with a decimal comma, split in two?)");
    ToolRecord& r = tab.records[cur];
    // A row the block has had already (a metric's name; an event's name and counter): each of
    // its values is checked against the first (add_once); other rows are appended as they come.
    const bool event = kind == Kind::event;
    const auto [first, fresh] = block_rows[cur].try_emplace(
        tab.intern(event ? name + "\t" + cells[1] : name), r.values.size(), columns.size());
    // The row it repeats has its values side by side from first->second.first, one per column
    // of the same header: each is compared with its own (no search, so a file of thousands of
    // thread columns stays linear); a header of other columns (or as many columns naming other
    // threads) is searched (add_once).
    const bool repeated = !fresh, aligned = repeated && first->second.second == columns.size();
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::size_t i = skip + c;
      ToolValue v;
      v.metric = tab.intern(name);
      v.unit = tab.intern(event ? cells[1] : "");
      v.instance = tab.intern(columns[c]);
      v.line = line;
      v.column = cols[i];
      const std::string t = trim(cells[i]);
      if (missing_text(t)) {
        v.missing = true;
        v.not_a_number = t == "nan" || t == "NaN";
      } else {
        v.value = parse_profiler_number(t, tab.origin, line, v.column, name);
        v.significant = significant_digits(t);
      }
      // Aligned: the same number of columns, and this one names the same thread as before.
      if (aligned && r.values[first->second.first + c].instance == v.instance)
        r.require_same(r.values[first->second.first + c], v, tab.origin);
      else if (repeated)
        r.add_once(v, tab.origin, event);
      else
        r.values.push_back(std::move(v));
    }
    tab.metric_names.insert(name);
  }

  void text_title(const std::string& region, int index, const std::string& group, int line) {
    end_csv_table();
    open_block(region, index, group, "text", line);
    kind = Kind::none;
    text = Text::none;
  }

  void text_table_line(const std::string& line) {
    const int n = lines.line_number();
    if (line[0] == '+') {
      switch (text) {
        case Text::none:
          text = Text::top;
          break;
        case Text::header:
          text = Text::rows;
          break;
        case Text::rows:
          text = Text::none;
          kind = Kind::none;
          break;
        case Text::top:
          fail(n, 1, "table without a header row");
      }
      return;
    }
    // "|  Event  | Counter | HWThread 0 |": cells between the bars.
    if (line.size() < 2 || line.back() != '|')
      fail(n, static_cast<int>(line.size()) + 1,
           "table row cut before its closing '|' (file truncated?)");
    std::vector<std::string> cells;
    std::vector<int> cols;
    std::size_t start = 1;
    for (std::size_t i = 1; i < line.size(); ++i)
      if (line[i] == '|') {
        const std::string cell = line.substr(start, i - start);
        const auto b = cell.find_first_not_of(' ');
        cells.push_back(trim(cell));
        cols.push_back(static_cast<int>(start + (b == std::string::npos ? 0 : b)) + 1);
        start = i + 1;
      }
    if (text == Text::top) {
      header(cells, cols, n);
      text = Text::header;
    } else if (text == Text::rows) {
      row(cells, cols, n, static_cast<int>(line.size()) + 1);
    } else {
      fail(n, 1, "table row outside a table (a rule line is missing)");
    }
  }

  void csv_line(const std::string& line, CsvRecord& rec) {
    split_csv(line, lines, rec);
    std::vector<std::string> cells;
    for (const auto& f : rec.fields) cells.push_back(trim(f));
    while (cells.size() > 1 && cells.back().empty()) cells.pop_back();  // ",," padding
    const int n = rec.line;
    if (cells[0] == "STRUCT") {
      end_csv_table();
      return;
    }
    if (cells[0] == "TABLE") {
      end_csv_table();
      std::size_t i = 1;
      std::string region;
      if (i < cells.size() && cells[i].starts_with("Region ")) region = cells[i++].substr(7);
      static const std::regex group_re(R"(Group (\d+) (Raw|Metric)( STAT)?)");
      std::smatch m;
      const std::string g = i < cells.size() ? cells[i] : "";
      if (!std::regex_match(g, m, group_re))
        fail(n, i < rec.columns.size() ? rec.columns[i] : 1,
             "expected 'Group N Raw|Metric' after TABLE (got '" + g + "')");
      const std::string group = i + 1 < cells.size() ? cells[i + 1] : "";
      const bool stat = m[3].matched;
      csv = true;
      table_line = n;
      table_group = group;
      rows = 0;
      declared = -1;
      if (i + 2 < cells.size()) {
        try {
          declared = std::stoi(cells[i + 2]);
        } catch (const std::exception&) {
          declared = -1;
        }
      }
      open_block(region, std::stoi(m[1].str()), group,
                 std::string(m[2].str()) + (stat ? " STAT" : ""), n);
      kind = Kind::none;
      if (stat) kind = Kind::stat;
      return;
    }
    if (!csv) return;  // a CSV-looking line outside the tables
    if (cells[0] == "Region Info" || cells[0] == "Event" || cells[0] == "Metric") {
      const bool stat_table = kind == Kind::stat;
      header(cells, rec.columns, n);
      if (stat_table) kind = Kind::stat;
      return;
    }
    if (kind != Kind::info) ++rows;  // the declared count is of events or metrics
    const CsvRecord& r = rec;
    const int end = r.columns.back() + static_cast<int>(r.fields.back().size());
    row(cells, r.columns, n, end);
  }

  /// "CPU name:\tNAME" (text) or "CPU name:,NAME," (CSV): every run of the input must be of
  /// one CPU, since a point of several runs mixes their counts (W of one machine over the
  /// traffic and time of another).
  void same_cpu(const std::string& line) {
    std::string name = trim(line.substr(9));
    if (name.starts_with(",")) name = name.substr(1);
    while (name.ends_with(",")) name.pop_back();  // the CSV's padding: "NAME,,,,"
    name = trim(name);
    const std::string here = tab.origin + ": line " + std::to_string(lines.line_number());
    if (tab.cpu.empty()) {
      tab.cpu = name;
      tab.cpu_at = here;
    } else if (name != tab.cpu) {
      throw InputError(here + ": a run on CPU '" + terminal_safe(name) + "', where " + tab.cpu_at +
                       " is a run on '" + terminal_safe(tab.cpu) +
                       "': the inputs must be runs of one program on one machine (import each "
                       "machine's runs by themselves)");
    }
  }

  void read() {
    static const std::regex title_re(R"(^(?:Region (.*), )?Group (\d+): (\S+)\s*$)");
    std::string line;
    CsvRecord rec;
    std::smatch m;
    std::size_t last_size = 0;
    while (lines.next(line)) {
      last_size = line.size();
      if (line.empty()) continue;
      const char c0 = line[0];
      if (c0 == '|' || (c0 == '+' && line.size() > 1 && line[1] == '-')) {
        end_csv_table();
        text_table_line(line);
        continue;
      }
      // A text table ends with its closing rule; anything else first means it was cut.
      if (text != Text::none)
        fail(lines.line_number(), 1, "a table ends without its closing rule (file truncated?)");
      if (line.starts_with("TABLE,") || line.starts_with("STRUCT,") ||
          (csv && line.find(',') != std::string::npos)) {
        csv_line(line, rec);
        continue;
      }
      if (std::regex_match(line, m, title_re)) {
        text_title(m[1].matched ? m[1].str() : "", std::stoi(m[2].str()), m[3].str(),
                   lines.line_number());
        continue;
      }
      // likwid-perfctr prints the CPU before each run ("CPU name:\t..."), and with -o FILE.txt
      // before each group's tables too (likwid.lua printOutput), so it starts no run: the
      // groups' numbers do (open_block). In CSV the same lines follow every STRUCT.
      if (line.starts_with("CPU name:")) {
        if (line.find("CPU name:,") != 0) end_csv_table();
        same_cpu(line);
        continue;
      }
      // Other lines: the program's output, likwid's INFO lines, rules of dashes.
    }
    if (text != Text::none)
      fail(lines.line_number(), 1,
           "the last table ends without its closing rule (file truncated?)");
    // likwid ends every line; a last line without its line end was cut off in the middle, where
    // a number may have lost digits ("0.512" → "0.5") without looking wrong.
    if (!lines.last_line_ended() && (csv || text != Text::none))
      fail(lines.line_number(), static_cast<int>(last_size) + 1,
           "the last line has no line end (file truncated?)");
    end_csv_table();
  }
};

}  // namespace

void read_likwid_table(TextLines& lines, ToolTable& table) {
  if (table.origin.empty()) table.origin = lines.origin();
  const int runs_before = table.records.empty() ? 0 : table.records.back().run;
  const std::size_t records_before = table.records.size();
  const std::string origin = table.origin;
  table.origin = lines.origin();  // messages of this file name this file
  LikwidTableReader rd(lines, table, runs_before);
  rd.read();
  table.origin = origin;
  if (table.records.size() == records_before)
    throw InputError(lines.origin() +
                     ": line 1: not likwid-perfctr output: no 'Group N: NAME' tables and no "
                     "TABLE lines (likwid-perfctr -g GROUP [-m] ./app, or -O -o out.csv)");
  table.layout = "likwid";
}

}  // namespace roofline
