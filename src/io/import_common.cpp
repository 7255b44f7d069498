// Shared pieces of the importers: CSV with positions, profiler numbers and units, levels.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/quantity.hpp"

namespace roofline {

namespace {
std::string at(const std::string& origin, int line, int column) {
  return origin + ": line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
}
}  // namespace

std::vector<CsvRow> parse_csv(const std::string& text, const std::string& origin) {
  std::vector<CsvRow> rows;
  CsvRow row;
  CsvField field;
  int line = 1, column = 1;
  bool in_quotes = false, quoted = false, after_quote = false, row_started = false;
  int quote_line = 0, quote_column = 0;
  auto start_field = [&] {
    field = CsvField{"", line, column};
    quoted = false;
    after_quote = false;
  };
  auto end_field = [&] {
    row.push_back(field);
    start_field();
  };
  start_field();
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field.text += '"';
          ++i;
          column += 2;
          continue;
        }
        in_quotes = false;
        after_quote = true;
      } else {
        field.text += c;
      }
      if (c == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
      continue;
    }
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    if (c == ',') {
      row_started = true;
      ++column;
      end_field();
      continue;
    }
    if (c == '\n' || c == '\r') {
      if (row_started || !field.text.empty() || quoted) {
        end_field();
        rows.push_back(std::move(row));
      }
      row.clear();
      row_started = false;
      ++line;
      column = 1;
      start_field();
      continue;
    }
    if (c == '"' && field.text.empty() && !quoted) {
      in_quotes = true;
      quoted = true;
      row_started = true;
      quote_line = line;
      quote_column = column;
      ++column;
      continue;
    }
    if (after_quote && c != ' ' && c != '\t')
      throw InputError(at(origin, line, column) + "unexpected '" + std::string(1, c) +
                       "' after a closing quote");
    if (!after_quote) field.text += c;
    row_started = true;
    ++column;
  }
  if (in_quotes)
    throw InputError(at(origin, quote_line, quote_column) +
                     "unterminated quoted field (file truncated?)");
  if (row_started || !field.text.empty()) {
    end_field();
    rows.push_back(std::move(row));
  }
  return rows;
}

double parse_profiler_number(const CsvField& f, const std::string& origin,
                             const std::string& column) {
  std::string t;
  for (char c : f.text)
    if (c != ',' && c != ' ' && c != '\t') t += c;  // thousands separators, padding
  bool ok = !t.empty();
  double v = 0;
  if (ok) {
    try {
      std::size_t used = 0;
      v = std::stod(t, &used);
      ok = used == t.size() && std::isfinite(v);
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok)
    throw InputError(at(origin, f.line, f.column) + column + ": not a number: '" + f.text + "'");
  return v;
}

double ncu_unit_scale(const std::string& unit, const std::string& where) {
  // Nsight Compute prints SI prefixes in front of its base units (decimal: Kbyte = 1000 byte).
  static const std::map<std::string, double> base = {
      {"byte", 1}, {"second", 1},  {"inst", 1},   {"cycle", 1}, {"warp", 1}, {"thread", 1},
      {"", 1},     {"request", 1}, {"sector", 1}, {"op", 1},    {"flop", 1}};
  static const std::map<char, double> prefix = {{'n', 1e-9}, {'u', 1e-6}, {'m', 1e-3},
                                                {'K', 1e3},  {'k', 1e3},  {'M', 1e6},
                                                {'G', 1e9},  {'T', 1e12}, {'P', 1e15}};
  // Clock rates: ncu prints "Ghz", "Mhz" (the case varies between versions); an "m" there is
  // mega, never milli.
  static const std::map<std::string, double> hertz = {
      {"hz", 1}, {"khz", 1e3}, {"mhz", 1e6}, {"ghz", 1e9}, {"thz", 1e12}};
  std::string lower = unit;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (const auto hz = hertz.find(lower); hz != hertz.end()) return hz->second;
  if (base.count(unit) || unit == "%") return 1;
  if (const auto slash = unit.find('/');
      slash != std::string::npos)  // "byte/second", "cycle/nsecond"
    return ncu_unit_scale(unit.substr(0, slash), where) /
           ncu_unit_scale(unit.substr(slash + 1), where);
  if (unit.size() > 1 && prefix.count(unit[0]) && base.count(unit.substr(1)))
    return prefix.at(unit[0]);
  throw InputError(where + ": unknown unit '" + unit + "'");
}

std::vector<LevelTraffic> fit_levels(const std::vector<LevelTraffic>& traffic, const RoofSet* roofs,
                                     std::vector<std::string>& notes, const std::string& what) {
  if (!roofs) return traffic;
  std::vector<LevelTraffic> out;
  for (const auto& t : traffic) {
    if (roofs->find_memory(t.level)) {
      out.push_back(t);
    } else if (t.level == "DRAM" || t.level == "HBM" || t.level.empty()) {
      out.push_back({"", t.bytes});  // the machine's main-memory roof (its default level)
    } else {
      notes.push_back(what + ": " + t.level + " traffic left out: the machine has no " + t.level +
                      " roof");
    }
  }
  return out;
}

bool fit_precision(Point& p, const RoofSet& roofs, std::vector<std::string>& notes) {
  if (p.precision.empty()) return true;
  if (roofs.find_compute(p.precision)) return true;
  const std::string suffix = " tensor";
  const bool tensor =
      p.precision == "tensor" ||
      (p.precision.size() > suffix.size() &&
       p.precision.compare(p.precision.size() - suffix.size(), suffix.size(), suffix) == 0);
  if (tensor) {
    const std::string type =
        p.precision == "tensor" ? "" : p.precision.substr(0, p.precision.size() - suffix.size());
    const ComputeRoof* best = nullptr;
    if (!type.empty())
      for (const auto& c : roofs.compute)
        if (!c.sparse && c.precision == type && c.unit.find("tensor") != std::string::npos &&
            (!best || c.peak > best->peak))
          best = &c;
    if (best) {
      p.precision = best->name;
      return true;
    }
    notes.push_back(p.name + ": not judged: " +
                    (type.empty()
                         ? std::string("the tensor operations' precision is unknown")
                         : "machine '" + roofs.name + "' has no " + type + " tensor roof") +
                    " (judged against another unit's roof the point would read as impossible or "
                    "far below; give --hw/--machine with one)");
    return false;
  }
  for (const auto& c : roofs.compute)
    if (c.precision == p.precision) return true;
  notes.push_back(p.name + ": not judged: machine '" + roofs.name + "' has no " + p.precision +
                  " roof");
  return false;
}

std::string render_point_brief(const Point& p) {
  std::string s = p.name + "\n  W = " + format_work(p.work) + ", T = " + format_seconds(p.time) +
                  ", P = W/T = " + format_work_rate(p.performance()) +
                  (p.precision.empty() ? "" : " (" + p.precision + ")") + "\n";
  for (const auto& t : p.traffic)
    s += "  Q(" + (t.level.empty() ? std::string("memory") : t.level) +
         ") = " + format_bytes(t.bytes) + ", I = W/Q = " + format_intensity(p.work / t.bytes) +
         "\n";
  if (!p.note.empty()) s += "  " + p.note + "\n";
  return s;
}

}  // namespace roofline
