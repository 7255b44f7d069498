// Shared pieces of the importers: guarded input files, text lines (encodings, limits), CSV
// records with positions, profiler numbers and units, levels and precisions of points.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>

#include "roofline/error.hpp"
#include "roofline/import.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline {

namespace {
std::string at(const std::string& origin, int line, int column) {
  return origin + ": line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
}

std::string mib(std::uint64_t bytes) {
  if (bytes < (std::uint64_t{1} << 20)) return std::to_string(bytes) + " bytes";
  return std::to_string(bytes >> 20) + " MiB";
}
}  // namespace

std::ifstream open_import_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  // The checks every input gets (io.hpp), then the importers' size limit on the open file.
  const int fd = open_input_file(path);
  struct stat st {};
  const bool sized = ::fstat(fd, &st) == 0;
  ::close(fd);
  if (sized && static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw InputError(path.string() + ": " + mib(static_cast<std::uint64_t>(st.st_size)) +
                     ", larger than the importers' limit of " + mib(max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot be read (" + std::strerror(errno) + ")");
  return in;
}

// ---- Text lines ------------------------------------------------------------------------------

TextLines::TextLines(std::istream& in, std::string origin, std::uint64_t max_bytes)
    : in_(in), origin_(std::move(origin)), max_bytes_(max_bytes), buf_(std::size_t{1} << 20) {}

bool TextLines::refill() {
  in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  len_ = static_cast<std::size_t>(in_.gcount());
  pos_ = 0;
  if (in_.bad()) throw InputError(origin_ + ": read error");
  bytes_ += len_;
  // A file whose size the system does not know in advance (/proc, a growing log) is limited
  // here as it is read.
  if (bytes_ > max_bytes_)
    throw InputError(origin_ + ": more than " + mib(max_bytes_) +
                     ", the importers' limit: not an export of a profiler run?");
  return len_ > 0;
}

bool TextLines::next(std::string& line) {
  line.clear();
  bool got = false;
  for (;;) {
    if (pos_ == len_ && !refill()) {
      if (!got) return false;
      last_ended_ = false;
      break;
    }
    got = true;
    const char* start = buf_.data() + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_));
    const std::size_t n = nl ? static_cast<std::size_t>(nl - start) : len_ - pos_;
    if (line.size() + n > kMaxImportLine)
      throw InputError(origin_ + ": line " + std::to_string(line_ + 1) + " is longer than " +
                       mib(kMaxImportLine) + ": not a text export");
    line.append(start, n);
    pos_ += n;
    if (nl) {
      ++pos_;
      last_ended_ = true;
      break;
    }
  }
  ++line_;
  if (line_ == 1) {
    // Byte-order marks: UTF-8 is skipped (Windows tools write one); UTF-16/32 are named, as
    // UTF-16 without one is (io.hpp: the JSON reader says the same).
    if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    refuse_unreadable_encoding(line, origin_, "the importers read", "converted.csv");
  }
  if (const auto* nul = static_cast<const char*>(std::memchr(line.data(), '\0', line.size()))) {
    const std::size_t i = static_cast<std::size_t>(nul - line.data());
    throw InputError(at(origin_, line_, static_cast<int>(i) + 1) +
                     "NUL byte: not a text file (a binary report? export it with --csv)");
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

// ---- CSV -------------------------------------------------------------------------------------

void split_csv(const std::string& first, TextLines& lines, CsvRecord& rec) {
  rec.line = lines.line_number();
  std::size_t n = 0;
  auto new_field = [&](int column) -> std::string& {
    if (n == rec.fields.size()) {
      rec.fields.emplace_back();
      rec.columns.push_back(0);
    }
    rec.fields[n].clear();
    rec.columns[n] = column;
    return rec.fields[n++];
  };
  std::string continuation;
  const std::string* cur = &first;
  int line = rec.line;
  std::size_t i = 0;
  std::string* field = &new_field(1);
  bool in_quotes = false, after_quote = false, at_start = true;
  int quote_line = 0, quote_column = 0;
  for (;;) {
    if (i == cur->size()) {
      if (!in_quotes) break;
      // A quoted field that goes on on the next line.
      std::string next;
      if (!lines.next(next))
        throw InputError(at(lines.origin(), quote_line, quote_column) +
                         "unterminated quoted field (file truncated?)");
      field->push_back('\n');
      continuation.swap(next);
      cur = &continuation;
      line = lines.line_number();
      i = 0;
      continue;
    }
    const char c = (*cur)[i];
    const int column = static_cast<int>(i) + 1;
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < cur->size() && (*cur)[i + 1] == '"') {
          field->push_back('"');
          i += 2;
          continue;
        }
        in_quotes = false;
        after_quote = true;
      } else {
        field->push_back(c);
      }
      ++i;
      continue;
    }
    if (c == ',') {
      field = &new_field(column + 1);
      after_quote = false;
      at_start = true;
      ++i;
      continue;
    }
    if (c == '"' && at_start) {
      in_quotes = true;
      at_start = false;
      quote_line = line;
      quote_column = column;
      ++i;
      continue;
    }
    if (after_quote) {
      if (c != ' ' && c != '\t')
        throw InputError(at(lines.origin(), line, column) + "unexpected '" + std::string(1, c) +
                         "' after a closing quote");
    } else {
      field->push_back(c);
      if (c != ' ' && c != '\t') at_start = false;
    }
    ++i;
  }
  rec.fields.resize(n);
  rec.columns.resize(n);
}

std::vector<CsvRecord> parse_csv(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  TextLines lines(in, origin);
  std::vector<CsvRecord> out;
  std::string line;
  while (lines.next(line)) {
    if (line.empty()) continue;
    CsvRecord rec;
    split_csv(line, lines, rec);
    out.push_back(std::move(rec));
  }
  return out;
}

// ---- Numbers and units -----------------------------------------------------------------------

double parse_profiler_number(std::string_view text, const std::string& origin, int line, int column,
                             std::string_view what) {
  auto fail = [&](const std::string& why) -> double {
    throw InputError(at(origin, line, column) + std::string(what) + ": " + why + ": '" +
                     std::string(text) + "'");
  };
  const std::string_view view = trim_blanks(text);
  if (view.empty()) return fail("not a number");
  std::string t;
  if (view.find(',') != std::string_view::npos) t = std::string(view);
  // Plain numbers (the common case) are read in place; those with separators from a copy.
  if (t.empty() && view.find('.') == view.rfind('.')) {
    const char* first = view.data();
    const char* last = view.data() + view.size();
    if (*first == '+') ++first;
    double v = 0;
    const auto r = std::from_chars(first, last, v);
    if (r.ec == std::errc::result_out_of_range) return fail("out of range");
    if (r.ec != std::errc() || r.ptr != last || !std::isfinite(v)) return fail("not a number");
    return v;
  }
  if (t.empty()) t = std::string(view);
  if (std::count(t.begin(), t.end(), '.') > 1)
    return fail(
        "not a number (dots as digit groups: exported in another locale? run ncu with "
        "LC_ALL=C)");
  if (t.find(',') != std::string::npos) {
    // Thousands separators: 1 to 3 digits, then groups of exactly 3 before '.', 'e' or the end.
    std::size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
    std::size_t digits = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++digits;
    bool ok = digits >= 1 && digits <= 3;
    while (ok && i < t.size() && t[i] == ',') {
      std::size_t g = 0;
      ++i;
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++g;
      ok = g == 3;
    }
    // The groups end where the digits do: a comma after that ("1.234,5", "1e3,5") is a decimal
    // comma of another locale, not a separator to drop.
    if (!ok || t.find(',', i) != std::string::npos)
      return fail("not a number (a decimal comma? export in the C locale, LC_ALL=C)");
    t.erase(std::remove(t.begin(), t.end(), ','), t.end());
  }
  const char* first = t.data();
  const char* last = t.data() + t.size();
  if (*first == '+') ++first;
  double v = 0;
  const auto r = std::from_chars(first, last, v);
  if (r.ec == std::errc::result_out_of_range) return fail("out of range");
  if (r.ec != std::errc() || r.ptr != last || !std::isfinite(v)) return fail("not a number");
  return v;
}

NcuUnit ncu_unit(const std::string& unit, const std::string& where) {
  // Nsight Compute prints SI prefixes in front of its base units (decimal: Kbyte = 1000 byte);
  // newer versions abbreviate (ns, us, KB). Each base unit's dimension: byte^b second^s; the
  // counted things (inst, cycle, warp, ...) are numbers, a percentage is a kind of its own.
  static const NcuUnit kByte{1, 1, 0}, kSecond{1, 0, 1}, kNumber{1, 0, 0};
  static const std::map<std::string, NcuUnit> base = {
      {"", kNumber},         {"%", {1, 0, 0, true}}, {"byte", kByte},      {"B", kByte},
      {"second", kSecond},   {"s", kSecond},         {"inst", kNumber},    {"cycle", kNumber},
      {"warp", kNumber},     {"thread", kNumber},    {"request", kNumber}, {"sector", kNumber},
      {"op", kNumber},       {"flop", kNumber},      {"block", kNumber},   {"register", kNumber},
      {"SM", kNumber},       {"pass", kNumber},      {"cluster", kNumber}, {"wavefront", kNumber},
      {"bit", {0.125, 1, 0}}};
  static const std::map<std::string, double> prefix = {
      {"n", 1e-9},          {"u", 1e-6},
      {"\xC2\xB5", 1e-6},   {"m", 1e-3},
      {"K", 1e3},           {"k", 1e3},
      {"M", 1e6},           {"G", 1e9},
      {"T", 1e12},          {"P", 1e15},
      {"Ki", 1024.0},       {"Mi", 1048576.0},
      {"Gi", 1073741824.0}, {"Ti", 1099511627776.0}};
  // Clock rates: ncu prints "Ghz", "Mhz" (the case varies between versions); an "m" there is
  // mega, never milli.
  static const std::map<std::string, double> hertz = {
      {"hz", 1}, {"khz", 1e3}, {"mhz", 1e6}, {"ghz", 1e9}, {"thz", 1e12}};
  if (const auto hz = hertz.find(lower(unit)); hz != hertz.end()) return {hz->second, 0, -1};
  if (const auto b = base.find(unit); b != base.end()) return b->second;
  if (const auto slash = unit.find('/');
      slash != std::string::npos) {  // "byte/second", "cycle/nsecond", "register/thread"
    const NcuUnit num = ncu_unit(unit.substr(0, slash), where);
    const NcuUnit den = ncu_unit(unit.substr(slash + 1), where);
    if (num.percent || den.percent) throw InputError(where + ": unknown unit '" + unit + "'");
    return {num.scale / den.scale, num.bytes - den.bytes, num.seconds - den.seconds};
  }
  for (std::size_t n : {std::size_t{2}, std::size_t{1}}) {
    if (unit.size() <= n) continue;
    const auto p = prefix.find(unit.substr(0, n));
    const auto b = base.find(unit.substr(n));
    if (p != prefix.end() && b != base.end() && !b->first.empty() && !b->second.percent)
      return {p->second * b->second.scale, b->second.bytes, b->second.seconds};
  }
  throw InputError(where + ": unknown unit '" + unit + "'");
}

std::string NcuUnit::dimension() const {
  if (percent) return "a percentage";
  if (bytes == 0 && seconds == 0) return "a count (inst, cycle, ...)";
  if (bytes == 1 && seconds == 0) return "an amount of data (byte)";
  if (bytes == 0 && seconds == 1) return "a time (second)";
  if (bytes == 0 && seconds == -1) return "a rate per second (1/second, hz)";
  if (bytes == 1 && seconds == -1) return "a bandwidth (byte/second)";
  return "byte^" + std::to_string(bytes) + " second^" + std::to_string(seconds);
}

std::string_view ToolTable::intern(std::string_view s) {
  auto it = strings_.find(s);
  if (it == strings_.end()) it = strings_.emplace(s).first;
  return *it;
}

const ToolValue* ToolRecord::find(std::string_view metric, std::string_view instance) const {
  for (const auto& v : values)
    if (v.metric == metric && (instance.empty() || v.instance == instance)) return &v;
  return nullptr;
}

void ToolRecord::add_once(const ToolValue& v, const std::string& origin, bool by_unit) {
  const auto same = std::find_if(values.begin(), values.end(), [&](const ToolValue& o) {
    return o.metric == v.metric && o.instance == v.instance && (!by_unit || o.unit == v.unit);
  });
  if (same == values.end()) {
    values.push_back(v);
    return;
  }
  require_same(*same, v, origin);
}

void ToolRecord::require_same(const ToolValue& first, const ToolValue& v,
                              const std::string& origin) const {
  if (first.missing == v.missing && first.unit == v.unit && (v.missing || first.value == v.value))
    return;
  // One quantity printed in two units (ncu's "Duration" in msecond and gpu__time_duration.sum in
  // usecond): the same once both are in base units, to the rounding of ncu's printed digits (it
  // prints at least three significant digits, "2.00 msecond": within 0.5%).
  if (!first.missing && !v.missing && first.unit != v.unit && !first.unit.empty() &&
      !v.unit.empty()) {
    try {
      const NcuUnit a = ncu_unit(std::string(first.unit), ""),
                    b = ncu_unit(std::string(v.unit), "");
      const double x = first.value * a.scale, y = v.value * b.scale;
      if (a.same_dimension(b) && std::fabs(x - y) <= 0.005 * std::max(std::fabs(x), std::fabs(y)))
        return;
    } catch (const InputError&) {
      // A unit that is not ncu's (a likwid counter): the values are not comparable.
    }
  }
  const std::string record = !id.empty()     ? "kernel ID " + id
                             : !name.empty() ? "region '" + name + "'"
                                             : std::string("the whole run");
  throw InputError(origin + ": line " + std::to_string(v.line) + ", column " +
                   std::to_string(v.column) + ": " + std::string(v.metric) +
                   (v.instance.empty() ? "" : " (" + std::string(v.instance) + ")") + " of " +
                   record + " is given again (line " + std::to_string(first.line) +
                   ") with another value");
}

// ---- Points ----------------------------------------------------------------------------------

void require_valid_points(const PointsDocument& doc, const std::string& origin) {
  for (const auto& p : doc.points) {
    try {
      p.validate();
    } catch (const InputError& e) {
      throw InputError(origin + ": " + e.what());
    }
  }
}

RatioProblem ratio_problem(const Point& p) {
  auto problem = [](const std::string& what, double v, const std::string& from) {
    if (std::isnormal(v)) return std::string();
    return what + " = " + from + " is " +
           (std::isfinite(v) ? "too small for a double (underflow)"
                             : "too large for a double (overflow)");
  };
  const double w = p.work.value;
  if (std::string why = problem("P = W/T", w / p.time.value,
                                format_number(w) + " / " + format_number(p.time.value) + " s");
      !why.empty())
    return {why, true, ""};
  for (const auto& t : p.traffic)
    if (std::string why =
            problem("I = W/Q" + (t.level.empty() ? "" : " at " + t.level), w / t.bytes.value,
                    format_number(w) + " / " + format_number(t.bytes.value));
        !why.empty())
      return {why, false, t.level};
  return {};
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
      notes.push_back(what + ": " + t.level +
                      " traffic not judged (kept in the document): the machine has no " + t.level +
                      " roof");
    }
  }
  return out;
}

bool fit_precision(Point& p, const RoofSet& roofs, std::vector<std::string>& notes) {
  if (p.precision.empty()) return true;
  if (roofs.find_compute(p.precision)) return true;
  // A roof that names no precision (--peak without --precision) stands for every precision, as
  // RoofSet::select_compute takes it: the user gave the only roof there is.
  for (const auto& c : roofs.compute)
    if (c.precision.empty() && !c.sparse) return true;
  // "TYPE tensor" and "TYPE vector" (a GPU profiler's tensor ops and CUDA-core instructions):
  // judged against the roof of that unit. The point keeps the unit in its precision rather than
  // taking the roof's name: a roof named "fp64" (the device's roofs an ncu export carries, a
  // machine file's) would read, on a catalogue machine, as its highest fp64 roof, the tensor one
  // — the verdict of a points document would then depend on the roofs it was imported with.
  const auto space = p.precision.rfind(' ');
  const std::string unit = space == std::string::npos ? p.precision : p.precision.substr(space + 1);
  if (unit == "tensor" || unit == "vector") {
    const std::string type = space == std::string::npos ? "" : p.precision.substr(0, space);
    if (!type.empty() && roofs.find_compute_on(type, unit)) return true;
    notes.push_back(p.name + ": not judged: " +
                    (type.empty()
                         ? std::string("the tensor operations' precision is unknown")
                         : "machine '" + roofs.name + "' has no " + type + " " + unit + " roof") +
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
