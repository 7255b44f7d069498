#include "report/roof_choice.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

#include "roofline/error.hpp"
#include "roofline/strings.hpp"

namespace roofline::report {
namespace {

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool is_width(const std::string& w) {
  if (w == "scalar") return true;
  // "128-bit", "512-bit"
  const auto dash = w.find("-bit");
  return dash != std::string::npos && dash > 0 && dash + 4 == w.size() &&
         std::all_of(w.begin(), w.begin() + static_cast<long>(dash),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

bool is_fma(const RoofTraits& t) {
  return t.klass.find("fma") != std::string::npos;
}
bool is_no_fma(const RoofTraits& t) {
  return t.klass.find("add+mul") != std::string::npos;
}

}  // namespace

RoofTraits roof_traits(const ComputeRoof& c) {
  RoofTraits t;
  t.precision = lower(c.precision);
  // The unit names width and class ("512-bit fma", "scalar fma", "tensor"); a roof without one
  // carries them in its name after the precision ("fp64 avx2 fma").
  std::vector<std::string> ws = words(lower(c.unit.empty() ? c.name : c.unit));
  if (c.unit.empty() && !ws.empty() && ws.front() == t.precision) ws.erase(ws.begin());
  for (const auto& w : ws) {
    if (t.width.empty() && is_width(w)) {
      t.width = w;
      continue;
    }
    t.klass += (t.klass.empty() ? "" : " ") + w;
  }
  if (t.precision.empty()) t.precision = "other";
  if (t.klass.empty()) t.klass = t.width.empty() ? "other" : "plain";
  return t;
}

namespace {

/// The highest dense roof of a precision ("": any) among those `pred` accepts (nullptr: none).
template <class Pred>
const ComputeRoof* highest_roof(const RoofSet& rs, const std::vector<RoofTraits>& traits,
                                const std::string& precision, Pred pred) {
  const ComputeRoof* best = nullptr;
  for (size_t i = 0; i < rs.compute.size(); ++i) {
    const ComputeRoof& c = rs.compute[i];
    if (c.sparse || (!precision.empty() && traits[i].precision != precision) || !pred(i)) continue;
    if (outranks(c, best)) best = &c;  // a full-precision accumulate before a narrow one
  }
  return best;
}

/// The default rule: the default roof, every roof a point is judged against, per precision its
/// highest roof, the scalar baseline, and the no-FMA roof of the precisions a reader looks at.
/// Marks each chosen compute roof's reason in `ch`; returns the roofs points are judged against.
std::vector<size_t> default_roof_choice(const RoofSet& rs, const std::vector<RoofTraits>& traits,
                                        const std::vector<Diagnosis>& diagnoses, RoofChoice& ch) {
  std::vector<size_t> judged;
  if (rs.compute.empty()) return judged;
  auto index_of = [&](const ComputeRoof* c) { return static_cast<size_t>(c - rs.compute.data()); };
  auto mark = [&](const ComputeRoof* c, const std::string& why) {
    if (c && ch.compute_reason[index_of(c)].empty()) ch.compute_reason[index_of(c)] = why;
  };
  auto highest = [&](const std::string& precision, auto pred) {
    return highest_roof(rs, traits, precision, pred);
  };
  const auto any = [](size_t) { return true; };
  const ComputeRoof& dc = rs.select_compute("");
  mark(&dc, "default roof");
  for (const auto& d : diagnoses)
    if (const ComputeRoof* c = rs.find_compute(d.compute_roof)) judged.push_back(index_of(c));
  for (size_t i : judged) mark(&rs.compute[i], "judges a point");
  std::vector<std::string> precisions;
  for (const auto& t : traits)
    if (std::find(precisions.begin(), precisions.end(), t.precision) == precisions.end())
      precisions.push_back(t.precision);
  for (const auto& p : precisions) mark(highest(p, any), "highest " + p);
  const std::string dp = traits[index_of(&dc)].precision;
  const auto scalar = [&](size_t i) { return traits[i].width == "scalar"; };
  const ComputeRoof* base = highest(dp, scalar);
  if (!base) base = highest("", scalar);
  mark(base, "scalar baseline");
  // The no-FMA roof of the precisions a reader is looking at: the default roof's and those of
  // the roofs points are judged against.
  std::set<std::string> focus{dp};
  for (size_t i : judged) focus.insert(traits[i].precision);
  for (const auto& p : focus) {
    const ComputeRoof* fma = highest(p, [&](size_t i) { return is_fma(traits[i]); });
    const ComputeRoof* add = highest(p, [&](size_t i) { return is_no_fma(traits[i]); });
    // 3%: closer than that the two lines are drawn on top of each other (~2 px).
    if (fma && add && std::fabs(std::log10(fma->peak / add->peak)) > 0.013)
      mark(add, "no-FMA " + p);
  }
  return judged;
}

/// A --roofs term that names nothing: the error lists every term the machine offers.
[[noreturn]] void unknown_roof_term(const RoofSet& rs, const std::vector<RoofTraits>& traits,
                                    const std::string& raw) {
  std::set<std::string> known{"default", "all"};
  for (const auto& tr : traits) {
    known.insert(tr.precision);
    if (!tr.width.empty()) known.insert(tr.width);
    known.insert(tr.klass);
  }
  for (const auto& m : rs.memory) known.insert(m.level);
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  throw InputError("--roofs: '" + raw + "' names no roof of '" + rs.name +
                   "' (use a roof name, a memory level, or one of: " + list + ")");
}

/// The --roofs terms: what they name replaces the default choice of its kind (compute or
/// memory); "default" keeps the default choice, "all" takes every roof.
void select_roof_terms(const RoofSet& rs, const std::vector<RoofTraits>& traits,
                       const std::vector<std::string>& terms, RoofChoice& ch) {
  const size_t nc = rs.compute.size(), nm = rs.memory.size();
  std::vector<bool> cs(nc, false), ms(nm, false);
  bool any_compute = false, any_memory = false;
  for (const auto& raw : terms) {
    const std::string t = lower(raw);
    bool hit = false;
    if (t == "default") {
      for (size_t i = 0; i < nc; ++i) cs[i] = cs[i] || ch.compute_shown[i];
      for (size_t i = 0; i < nm; ++i) ms[i] = true;
      any_compute = any_memory = hit = true;
    } else if (t == "all") {
      cs.assign(nc, true);
      ms.assign(nm, true);
      any_compute = any_memory = hit = true;
    } else {
      // A sparse roof only by its own name (docs/hardware.md): asking for fp8 draws the dense
      // fp8 roofs, not a 2:4-sparse peak.
      for (size_t i = 0; i < nc; ++i)
        if (lower(rs.compute[i].name) == t ||
            (!rs.compute[i].sparse &&
             (traits[i].precision == t || traits[i].width == t || traits[i].klass == t)))
          cs[i] = hit = any_compute = true;
      for (size_t i = 0; i < nm; ++i)
        if (lower(rs.memory[i].level) == t) ms[i] = hit = any_memory = true;
    }
    if (!hit) unknown_roof_term(rs, traits, raw);
  }
  if (any_compute) ch.compute_shown = cs;
  if (any_memory) ch.memory_shown = ms;
}

}  // namespace

RoofChoice choose_roofs(const RoofSet& rs, const std::vector<Diagnosis>& diagnoses,
                        const std::vector<std::string>& terms) {
  const size_t nc = rs.compute.size(), nm = rs.memory.size();
  RoofChoice ch;
  ch.compute_shown.assign(nc, false);
  ch.memory_shown.assign(nm, false);
  ch.compute_reason.assign(nc, "");
  std::vector<RoofTraits> traits;
  for (const auto& c : rs.compute) traits.push_back(roof_traits(c));
  const std::vector<size_t> judged = default_roof_choice(rs, traits, diagnoses, ch);
  for (size_t i = 0; i < nc; ++i) ch.compute_shown[i] = !ch.compute_reason[i].empty();
  ch.memory_shown.assign(nm, true);
  if (terms.empty()) return ch;

  select_roof_terms(rs, traits, terms, ch);
  // Always drawn: the default pair and every roof a point is judged against (its headroom line
  // ends on it), and the levels points carry traffic at.
  if (nc > 0)
    ch.compute_shown[static_cast<size_t>(&rs.select_compute("") - rs.compute.data())] = true;
  for (size_t i : judged) ch.compute_shown[i] = true;
  if (nm > 0) {
    const MemoryRoof& dm = rs.headline_memory();
    ch.memory_shown[static_cast<size_t>(&dm - rs.memory.data())] = true;
    for (const auto& d : diagnoses)
      for (const auto& l : d.levels)
        if (const MemoryRoof* m = rs.find_memory(l.level))
          ch.memory_shown[static_cast<size_t>(m - rs.memory.data())] = true;
  }
  return ch;
}

}  // namespace roofline::report

namespace roofline {

std::vector<std::string> report_roof_terms(const std::string& value) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (const std::string_view term = trim_blanks(cur); !term.empty()) out.emplace_back(term);
    cur.clear();
  };
  for (char c : value) {
    if (c == ',')
      flush();
    else
      cur += c;
  }
  flush();
  return out;
}

}  // namespace roofline
