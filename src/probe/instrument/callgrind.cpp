// Q by cache simulation: the machine's cache geometry for Valgrind, and callgrind's output
// (format: Valgrind's "Callgrind Format Specification", docs/callgrind-format) read back as
// self costs per function.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "probe/marker/marker_internal.hpp"
#include "roofline/error.hpp"
#include "roofline/instrument.hpp"
#include "roofline/io.hpp"
#include "roofline/strings.hpp"

namespace roofline::instrument {
namespace fs = std::filesystem;

namespace {

std::string read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return trim(s);
}

/// "32K", "1024K", "32M", "1G", "65536" → bytes (binary multiples); 0 when it does not parse.
std::uint64_t parse_size(const std::string& text) {
  const std::string s = trim(text);
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return 0;
  size_t pos = 0;
  std::uint64_t v = 0;
  try {
    v = std::stoull(s, &pos);
  } catch (...) {
    return 0;
  }
  const std::string suffix = upper(s.substr(pos));
  if (suffix == "K" || suffix == "KB" || suffix == "KIB") return v << 10;
  if (suffix == "M" || suffix == "MB" || suffix == "MIB") return v << 20;
  if (suffix == "G" || suffix == "GB" || suffix == "GIB") return v << 30;
  if (suffix.empty() || suffix == "B") return v;
  return 0;
}

bool power_of_two(std::uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}
std::uint64_t floor_power_of_two(std::uint64_t v) {
  std::uint64_t p = 1;
  while (p <= v / 2) p *= 2;
  return p;
}

}  // namespace

SimulatorCaches detect_simulator_caches(const fs::path& cpu_dir) {
  SimulatorCaches c;
  const fs::path dir = cpu_dir / "cpu0" / "cache";
  c.source = dir.string();
  std::error_code ec;
  std::map<int, CacheGeometry> unified;
  bool have_d1 = false, have_i1 = false;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().filename().string().rfind("index", 0) != 0) continue;
    CacheGeometry g;
    int level = 0;
    try {
      level = std::stoi(read_line(e.path() / "level"));
    } catch (...) {
      continue;
    }
    const std::string type = read_line(e.path() / "type");
    g.size = parse_size(read_line(e.path() / "size"));
    try {
      g.ways = std::stoull(read_line(e.path() / "ways_of_associativity"));
      g.line = std::stoull(read_line(e.path() / "coherency_line_size"));
    } catch (...) {
      continue;
    }
    if (g.size == 0 || g.line == 0) continue;
    if (g.ways == 0) g.ways = g.size / g.line;  // 0: fully associative
    if (level == 1 && type == "Data") {
      g.level = "L1";
      c.d1 = g;
      have_d1 = true;
    } else if (level == 1 && type == "Instruction") {
      g.level = "I1";
      c.i1 = g;
      have_i1 = true;
    } else if (level >= 2 && (type == "Unified" || type == "Data")) {
      g.level = "L" + std::to_string(level);
      unified[level] = g;
    }
  }
  if (!have_d1)
    throw Unavailable("no L1 data cache described under " + dir.string() +
                      ": nothing to simulate (give the geometry with --sim-caches)");
  if (!have_i1) {
    c.i1 = c.d1;
    c.i1.level = "I1";
  }
  for (auto& [_, g] : unified) c.outer.push_back(g);
  return c;
}

SimulatorCaches parse_cache_spec(const std::string& spec) {
  SimulatorCaches c;
  c.source = "--sim-caches " + spec;
  bool have_d1 = false, have_i1 = false;
  std::stringstream ss(spec);
  std::string part;
  std::map<int, CacheGeometry> outer;
  std::set<std::string> given;
  while (std::getline(ss, part, ',')) {
    part = trim(part);
    if (part.empty()) continue;
    const auto eq = part.find('=');
    const auto bad = [&](const std::string& why) {
      return InputError("--sim-caches: '" + part + "': " + why +
                        " (expected LEVEL=SIZE/WAYS[/LINE], e.g. L1=32K/8,L2=1M/8,L3=32M/16)");
    };
    if (eq == std::string::npos) throw bad("no '='");
    const std::string level = upper(trim(part.substr(0, eq)));
    std::vector<std::string> f;
    std::stringstream vs(part.substr(eq + 1));
    std::string x;
    while (std::getline(vs, x, '/')) f.push_back(trim(x));
    if (f.size() < 2 || f.size() > 3) throw bad("give SIZE/WAYS or SIZE/WAYS/LINE");
    CacheGeometry g;
    g.size = parse_size(f[0]);
    if (g.size == 0) throw bad("size '" + f[0] + "' is not a size");
    try {
      size_t pos = 0;
      g.ways = std::stoull(f[1], &pos);
      if (pos != f[1].size() || g.ways == 0) throw std::invalid_argument("ways");
      if (f.size() == 3) {
        g.line = std::stoull(f[2], &pos);
        if (pos != f[2].size() || g.line == 0) throw std::invalid_argument("line");
      }
    } catch (const std::exception&) {
      throw bad("ways and line must be whole numbers > 0");
    }
    g.level = level;
    // One geometry per level: a second one silently replaced the first.
    if (!given.insert(level == "D1" ? "L1" : level).second) throw bad("level given twice");
    if (level == "I1") {
      c.i1 = g;
      have_i1 = true;
    } else if (level == "L1" || level == "D1") {
      g.level = "L1";
      c.d1 = g;
      have_d1 = true;
    } else if (level.size() == 2 && level[0] == 'L' && level[1] >= '2' && level[1] <= '9') {
      outer[level[1] - '0'] = g;
    } else {
      throw bad("unknown level '" + level + "' (I1, L1, L2, L3, ...)");
    }
  }
  if (!have_d1) throw InputError("--sim-caches: no L1 given (e.g. L1=32K/8)");
  if (outer.empty()) throw InputError("--sim-caches: no outer level given (e.g. L2=1M/8)");
  if (!have_i1) {
    c.i1 = c.d1;
    c.i1.level = "I1";
  }
  // Each level holds at least what the one inside it does (a last level smaller than L1 would
  // simulate misses no machine has).
  const CacheGeometry* inner = &c.d1;
  for (auto& [_, g] : outer) {
    if (g.size < inner->size)
      throw InputError("--sim-caches: " + g.level + " (" + std::to_string(g.size) +
                       " bytes) is smaller than " + inner->level + " (" +
                       std::to_string(inner->size) +
                       " bytes): each level holds at least what "
                       "the one inside it does");
    c.outer.push_back(g);
    inner = &c.outer.back();
  }
  return c;
}

CacheGeometry valgrind_geometry(CacheGeometry g) {
  // Valgrind's simulator (cachegrind/callgrind cg_arch.c check_cache) needs a power-of-two line
  // of at least 16 bytes and a power-of-two number of sets.
  if (!power_of_two(g.line) || g.line < 16) {
    g.note = "line of " + std::to_string(g.line) + " B simulated as 64 B";
    g.line = 64;
  }
  if (g.ways == 0 || g.ways > g.size / g.line) g.ways = std::max<std::uint64_t>(1, g.size / g.line);
  const std::uint64_t lines = g.size / g.line;
  if (g.size % (g.line * g.ways) == 0 && power_of_two(lines / g.ways)) return g;
  const std::uint64_t sets = floor_power_of_two(std::max<std::uint64_t>(1, lines / g.ways));
  const std::string was = std::to_string(g.size) + " B " + std::to_string(g.ways) + "-way";
  // 2^k sets with as many ways as fit: the same size where a whole number of ways gives it,
  // else the largest size below.
  g.ways = std::max<std::uint64_t>(1, lines / sets);
  g.size = sets * g.ways * g.line;
  const std::string now = std::to_string(g.size) + " B " + std::to_string(g.ways) + "-way";
  g.note = (g.note.empty() ? "" : g.note + "; ") + was + " simulated as " + now +
           " (the simulator needs a power-of-two set count)";
  return g;
}

double CallgrindProfile::event(const std::vector<double>& costs, const std::string& name) const {
  for (size_t i = 0; i < events.size() && i < costs.size(); ++i)
    if (events[i] == name) return costs[i];
  return 0;
}

namespace {

/// Reads a callgrind profile line by line (format 1: the header's `events:` and `positions:`,
/// `fn=` blocks of cost lines, `calls=` lines whose next cost is inclusive, not self).
class CallgrindReader {
 public:
  explicit CallgrindReader(const std::string& origin) : origin_(origin) {}

  void line(std::string line) {
    ++number_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') return;
    const char c0 = line[0];
    if (std::isdigit(static_cast<unsigned char>(c0)) || c0 == '+' || c0 == '-' || c0 == '*')
      return cost_line(line);
    const auto colon = line.find(':');
    const auto eq = line.find('=');
    if (eq != std::string::npos && (colon == std::string::npos || eq < colon))
      return assignment(line.substr(0, eq), line.substr(eq + 1));
    if (colon != std::string::npos)
      return header(line.substr(0, colon), trim(line.substr(colon + 1)));
    throw InputError(at() + ": not a callgrind line: '" + line.substr(0, 60) + "'");
  }

  /// The profile: every function's self costs, one per event, and their totals.
  CallgrindProfile finish() {
    if (!header_seen_ || p_.events.empty())
      throw InputError(origin_ + ": not a callgrind profile (no events: line)");
    p_.totals.assign(p_.events.size(), 0);
    for (auto& [name, v] : p_.functions) {
      v.resize(p_.events.size());
      for (size_t i = 0; i < v.size(); ++i) p_.totals[i] += v[i];
    }
    return std::move(p_);
  }

 private:
  std::string at() const { return origin_ + ":" + std::to_string(number_); }

  /// Name compression: "fn=(12) name" defines id 12, "fn=(12)" refers to it; fn and cfn share
  /// one table.
  std::string name_of(const std::string& value) {
    std::string v = trim(value);
    const auto close = v.find(')');
    // "(12)" is a compression id; "(below main)" is a name.
    if (v.size() > 2 && v[0] == '(' && close != std::string::npos && close > 1 &&
        std::all_of(v.begin() + 1, v.begin() + static_cast<long>(close),
                    [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
      const std::string id = v.substr(0, close + 1);
      std::string rest = trim(v.substr(close + 1));
      if (rest.empty()) {
        const auto it = fn_names_.find(id);
        if (it == fn_names_.end())
          throw InputError(at() + ": name " + id + " used before it is defined");
        return it->second;
      }
      fn_names_[id] = rest;
      return rest;
    }
    return v;
  }

  /// A cost line: `positions` position columns, then one count per event, added to the
  /// current function's self costs.
  void cost_line(const std::string& line) {
    if (skip_next_cost_) {  // the inclusive cost of the call just named: not self cost
      skip_next_cost_ = false;
      return;
    }
    if (!costs_) return;  // costs before any fn= (none are written so)
    std::istringstream ls(line);
    std::string tok;
    size_t k = 0, e = 0;
    while (ls >> tok) {
      if (k++ < positions_) continue;
      if (e >= p_.events.size()) throw InputError(at() + ": more costs than events");
      double v = 0;
      try {
        size_t pos = 0;
        v = static_cast<double>(std::stoull(tok, &pos, 10));
        if (pos != tok.size()) throw std::invalid_argument(tok);
      } catch (const std::exception&) {
        throw InputError(at() + ": cost '" + tok + "' is not a count");
      }
      if (costs_->size() < p_.events.size()) costs_->resize(p_.events.size());
      (*costs_)[e++] += v;
    }
  }

  /// `key=value`: fn= starts a function's costs, cfn= may define a compressed name, calls= makes
  /// the next cost line inclusive. ob, fl, fi, fe, cob, cfi, cfl, jump, jcnd: not needed for self
  /// costs.
  void assignment(const std::string& key, const std::string& value) {
    if (key == "fn") {
      std::string current = name_of(value);
      // Recursion levels (--separate-recs) appear as name'2, name'3: one function.
      const auto tick = current.rfind('\'');
      if (tick != std::string::npos && tick + 1 < current.size() &&
          std::all_of(current.begin() + static_cast<long>(tick) + 1, current.end(),
                      [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
        current.resize(tick);
      costs_ = &p_.functions[current];
    } else if (key == "cfn") {
      name_of(value);  // defines a compressed name
    } else if (key == "calls") {
      skip_next_cost_ = true;
    }
  }

  /// `key: value`: the header (version, events, positions, cmd, pid, part, desc).
  void header(const std::string& key, const std::string& value) {
    if (key == "version") {
      header_seen_ = true;
      if (value != "1" && value != "0x1")
        throw InputError(origin_ + ": version " + value + ": only callgrind format 1 is read");
    } else if (key == "events") {
      header_seen_ = true;
      std::istringstream es(value);
      std::string ev;
      p_.events.clear();
      while (es >> ev) p_.events.push_back(ev);
    } else if (key == "positions") {
      std::istringstream ps(value);
      std::string x;
      positions_ = 0;
      while (ps >> x) ++positions_;
    } else if (key == "cmd") {
      p_.command = value;
    } else if (key == "pid" || key == "part") {
      try {
        (key == "pid" ? p_.pid : p_.part) = std::stol(value);
      } catch (const std::exception&) {
        throw InputError(at() + ": " + key + " '" + value.substr(0, 40) + "' is not a number");
      }
    } else if (key == "desc" && value.rfind("Trigger:", 0) == 0) {
      p_.trigger = trim(value.substr(8));
    } else if (key == "desc" && value.find("cache:") != std::string::npos) {
      p_.caches.push_back(value);
    }
  }

  std::string origin_;
  CallgrindProfile p_;
  size_t number_ = 0;
  size_t positions_ = 1;  // "positions: line" is the default
  std::map<std::string, std::string> fn_names_;
  std::vector<double>* costs_ = nullptr;  ///< the current function's self costs
  bool skip_next_cost_ = false, header_seen_ = false;
};

}  // namespace

CallgrindProfile parse_callgrind(const std::string& text, const std::string& origin) {
  CallgrindReader reader(origin);
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) reader.line(std::move(line));
  return reader.finish();
}

namespace {

void add_costs(std::vector<double>& into, const std::vector<double>& v) {
  if (into.size() < v.size()) into.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) into[i] += v[i];
}

/// One process's parts in the order they were dumped: callgrind zeroes its counts at each dump,
/// so a part holds the costs since the previous one, and it ends where its trigger says. A part
/// belongs to every region open (on any thread) while it ran.
using marker_detail::kRegionDumpBegin;
using marker_detail::kRegionDumpEnd;
using marker_detail::kRegionDumpStop;

void attribute_region_parts(const std::vector<const CallgrindProfile*>& parts,
                            std::map<std::string, RegionCosts>& regions) {
  std::map<std::string, int> open;
  bool stopped = false;
  for (const CallgrindProfile* p : parts) {
    for (const auto& [name, n] : open)
      if (n > 0) add_costs(regions[name].costs, p->totals);
    const std::string prefix = "Client Request: ";
    if (stopped || p->trigger.rfind(prefix, 0) != 0) continue;
    const std::string label = p->trigger.substr(prefix.size());
    if (label.rfind(kRegionDumpBegin, 0) == 0) {
      const std::string name = label.substr(std::string(kRegionDumpBegin).size());
      ++open[name];
      regions[name];  // known, even when it never ends
    } else if (label.rfind(kRegionDumpEnd, 0) == 0) {
      const std::string name = label.substr(std::string(kRegionDumpEnd).size());
      if (open[name] > 0) --open[name], ++regions[name].passes;
    } else if (label == kRegionDumpStop) {
      stopped = true;  // the rest of the process belongs to no region: nothing marks them
      for (auto& [name, n] : open)
        if (n > 0) regions[name].complete = false;
      open.clear();
    }
  }
  for (const auto& [name, n] : open)
    if (n > 0) regions[name].complete = false;
}

}  // namespace

CallgrindProfile read_callgrind_dir(const fs::path& dir, const std::string& prefix) {
  CallgrindProfile all;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<CallgrindProfile> each;
  for (const auto& f : files) {
    each.push_back(parse_callgrind(read_text_file(f, kMaxImportBytes), f.string()));
    if (each.back().events != each.front().events)
      throw InputError(f.string() + ": events differ from the other processes' files");
  }
  for (CallgrindProfile& one : each) {
    if (all.events.empty()) {
      all.events = one.events, all.command = one.command, all.caches = one.caches;
      all.totals.assign(all.events.size(), 0);
    }
    for (auto& [name, v] : one.functions) {
      auto& into = all.functions[name];
      into.resize(all.events.size());
      add_costs(into, v);
    }
    add_costs(all.totals, one.totals);
  }
  // Region costs, process by process, parts in dump order (the part without a number, written
  // at exit, is the last).
  std::map<long, std::vector<const CallgrindProfile*>> by_pid;
  for (const CallgrindProfile& one : each) by_pid[one.pid].push_back(&one);
  for (auto& [pid, parts] : by_pid) {
    std::stable_sort(
        parts.begin(), parts.end(),
        [](const CallgrindProfile* a, const CallgrindProfile* b) { return a->part < b->part; });
    attribute_region_parts(parts, all.regions);
  }
  for (auto& [name, r] : all.regions) r.costs.resize(all.events.size());
  return all;
}

SimulatedTraffic simulated_traffic(const CallgrindProfile& p, const std::vector<double>& costs,
                                   double l1_line, double ll_line) {
  // Each miss brings one line (write-allocate); each dirty miss also writes one back.
  SimulatedTraffic t;
  t.l1_fills = (p.event(costs, "D1mr") + p.event(costs, "D1mw")) * l1_line;
  t.ll_fills = (p.event(costs, "ILmr") + p.event(costs, "DLmr") + p.event(costs, "DLmw")) * ll_line;
  t.ll_writebacks =
      (p.event(costs, "ILdmr") + p.event(costs, "DLdmr") + p.event(costs, "DLdmw")) * ll_line;
  return t;
}

std::vector<std::string> simulator_limits() {
  return {
      "write-backs: L1 evictions into L2 are not simulated, so Q(L2) and Q(L3) are lines filled "
      "(as the PMU's fill events count); Q(DRAM) adds the last level's dirty evictions, but "
      "dirty lines still cached at exit are not counted",
      "prefetch: no hardware prefetcher is simulated; lines a prefetcher fetches in vain are "
      "not seen",
      "policy: two levels at a time (L1 and one last level), inclusive, LRU, write-allocate; the "
      "real last-level cache's policy (AMD's L3 as a victim cache of L2, Intel's non-inclusive "
      "L3, adaptive replacement) is not modelled",
      "sharing: the program's threads run one at a time through one simulated hierarchy, so "
      "per-core caches, sharing between cores, coherence traffic and other processes are not "
      "seen",
      "ISA: under Valgrind 3.19 the program sees a CPU without AVX-512, so code that picks its "
      "path at run time (glibc string functions, BLAS libraries) may take another path than "
      "natively"};
}

}  // namespace roofline::instrument
