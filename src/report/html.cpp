// The HTML report: one self-contained page (inline SVG, CSS and script; no network access, and a
// Content-Security-Policy that forbids any). Tooltips carry W, Q, T, I, P, attainable,
// attainment, the bound and the two-step diagnosis (docs/model.md §6) with its prescription.
#include <algorithm>
#include <map>
#include <string>

#include "report/chart.hpp"
#include "report/html_assets.hpp"
#include "report/spread.hpp"
#include "report/svg.hpp"
#include "report/svg_text.hpp"
#include "roofline/json_out.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace {
using report::percent_text;
using report::ratio_text;

std::string sortable_number(double v) {
  return report::svg_exact(v);
}
// Every cell names its column (data-label): on a narrow screen each row becomes a card of
// "column: value" lines (kHtmlStyle).
std::string td(const std::string& label, const std::string& s) {
  return "<td data-label=\"" + xml_text(label) + "\">" + xml_text(s) + "</td>";
}
std::string td_num(const std::string& label, const std::string& s, double sort) {
  return "<td class=\"num\" data-label=\"" + xml_text(label) + "\" data-sort=\"" +
         sortable_number(sort) + "\">" + xml_text(s) + "</td>";
}
/// A number cell that may wrap (a list of numbers: "L1 0.25, DRAM 1").
std::string td_wrap(const std::string& label, const std::string& s, double sort) {
  return "<td class=\"num wrap\" data-label=\"" + xml_text(label) + "\" data-sort=\"" +
         sortable_number(sort) + "\">" + xml_text(s) + "</td>";
}
std::string td_empty(const std::string& label) {
  return "<td class=\"num empty\" data-label=\"" + xml_text(label) + "\" data-sort=\"-1\"></td>";
}

std::string step1(const Diagnosis& d, const UnitSystem& u) {
  return std::string("touching a roof? ") +
         (d.verdict == Verdict::above_roof ? "above it (impossible)"
          : d.touching                     ? "yes"
                                           : "no") +
         ": " + d.attainment_percent + "% of the attainable " + format_work_rate(d.attainable, u) +
         " (headroom " + ratio_text(d.headroom.factor) + "x, " +
         format_number(d.headroom.decades, 2) + " decades)";
}
std::string step2(const Diagnosis& d) {
  if (d.verdict == Verdict::far_below)
    return "which roof? none yet: the left/right position is not meaningful";
  const std::string roof = d.binding_is_memory ? "the slanted " + d.binding_level + " roof"
                                               : "the flat '" + d.compute_roof + "' roof";
  // Not touching, yet within 20% of the roof that binds it (docs/model.md §6).
  if (d.verdict == Verdict::just_below)
    return "which roof? just below " + roof + ", not yet touching it: at " + d.attainment_percent +
           "% of it, " + ratio_text(d.headroom.factor) + "x headroom";
  return "which roof? " + roof;
}

/// A machine document's free-form entries (io's info_entries, section_entries) as a list.
std::string info_list(const std::vector<InfoEntry>& entries) {
  std::string s = "<dl class=\"info\">";
  for (const auto& e : entries)
    s += "<dt>" + xml_text(e.key) + "</dt><dd>" +
         (e.nested ? "<pre>" + xml_text(e.text) + "</pre>" : xml_text(e.text)) + "</dd>";
  return s + "</dl>";
}

/// Where a roof comes from, with its formula and bytes convention in smaller type; long words
/// (kernel symbols) may break anywhere so the column never widens the page.
std::string td_source(const std::string& source, const std::string& formula,
                      const std::string& note) {
  return "<td class=\"source\" data-label=\"source\">" + xml_text(source) +
         (formula.empty() ? std::string()
                          : "<br><span class=\"muted\">" + xml_text(formula) + "</span>") +
         (note.empty() ? std::string() : " <span class=\"muted\">(" + xml_text(note) + ")</span>") +
         "</td>";
}

/// The spread of a roof's samples, through the one function that words statistics.
std::string spread_cell(const std::optional<Statistics>& st, const std::string& unit) {
  if (!st) return td_empty("spread");
  const report::SpreadText t = report::describe_spread(*st, unit);
  return "<td class=\"num wrap\" data-label=\"spread\" data-sort=\"" + sortable_number(t.sort_key) +
         "\">" + xml_text(t.detail) + "</td>";
}

/// Grouped toggles for the roofs: the view (the few that matter, or all), then one check box
/// per precision, vector width and instruction class (each group where it has two values).
std::string roof_controls(const report::Chart& ch, const ReportInput& in) {
  size_t shown = 0, total = 0;
  std::vector<std::string> precisions, widths, classes;
  auto add = [](std::vector<std::string>& v, const std::string& x) {
    if (!x.empty() && std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  };
  for (const auto& r : ch.roofs) {
    if (r.machine != 0) continue;
    shown += r.shown, ++total;
    if (!r.compute) continue;
    add(precisions, r.traits.precision);
    add(widths, r.traits.width);
    add(classes, r.traits.klass);
  }
  if (shown == total) return "";
  std::string h = "<div class=\"roof-controls\" role=\"group\" aria-label=\"roofs\">\n";
  h += "<span class=\"group-name\">Roofs</span>\n";
  const std::string few = in.roofs.empty() ? "the few that matter" : "the chosen ones";
  h += "<label><input type=\"radio\" name=\"roof-view\" value=\"default\" checked> " + few + " (" +
       std::to_string(shown) + ")</label>\n";
  h += "<label><input type=\"radio\" name=\"roof-view\" value=\"all\"> all " +
       std::to_string(total) + "</label>\n";
  auto group = [&](const char* key, const char* title, const std::vector<std::string>& values) {
    if (values.size() < 2) return;
    h += "<fieldset><legend>" + std::string(title) + "</legend>";
    for (const auto& v : values)
      h += "<label><input type=\"checkbox\" checked data-filter=\"" + std::string(key) +
           "\" value=\"" + xml_text(v) + "\"> " + xml_text(v) + "</label>";
    h += "</fieldset>\n";
  };
  group("precision", "precision", precisions);
  group("width", "vector width", widths);
  group("class", "instruction class", classes);
  return h + "</div>\n";
}

}  // namespace

namespace {

/// Every string in `v` as the SVG and the tables show it: control and bidirectional characters
/// escaped ("ctrl\u0001"), so the tooltip shows the same name as the label beside the point.
void display_strings(nlohmann::json& v) {
  if (v.is_string())
    v = terminal_safe_lines(v.get<std::string>());
  else if (v.is_structured())
    for (auto& e : v) display_strings(e);
}

/// A point's notes for its tooltip: the diagnosis's, and where its configuration does not fit
/// in memory (ReportInput::does_not_fit) that too, as the SVG's tooltip says it.
std::vector<std::string> tooltip_notes(const ReportInput& in, size_t k,
                                       std::vector<std::string> notes) {
  if (const auto it = in.does_not_fit.find(k); it != in.does_not_fit.end())
    notes.push_back("does not fit in memory: " + it->second + "; the times assume it did");
  return notes;
}

/// The point data the page's script shows in tooltips, as JSON safe inside <script>: formatted
/// here so the page shows the tool's own numbers, its texts escaped as the chart's.
std::string tooltip_data(const ReportInput& in, const report::Chart& ch) {
  nlohmann::json points = nlohmann::json::array();
  for (size_t k = 0; k < in.points.size(); ++k) {
    const Point& p = in.points[k];
    const Diagnosis& d = ch.diagnoses[k];
    const UnitSystem& u = ch.point_units[k];  // OP/s for a point on an integer roof
    nlohmann::json levels = nlohmann::json::array();
    for (size_t l = 0; l < d.levels.size(); ++l)
      levels.push_back({{"level", d.levels[l].level},
                        {"traffic", format_bytes(p.traffic[l].bytes, u)},
                        {"intensity", format_intensity(d.levels[l].intensity, u)}});
    points.push_back({{"name", p.name.empty() ? "point " + std::to_string(k + 1) : p.name},
                      {"work", format_work(p.work, u)},
                      {"time", format_seconds(p.time)},
                      {"levels", levels},
                      {"performance", format_work_rate(d.performance, u)},
                      {"attainable", format_work_rate(d.attainable, u)},
                      {"attainment", d.attainment_percent + "%"},
                      {"bound", d.binding_is_memory ? "memory (" + d.binding_level + " bandwidth)"
                                                    : "compute ('" + d.compute_roof + "' peak)"},
                      {"verdict", to_string(d.verdict)},
                      {"colour", report::verdict_colour(d.verdict)},
                      {"step1", step1(d, u)},
                      {"step2", step2(d)},
                      {"title", d.title},
                      {"prescription", d.prescription},
                      {"causes", d.causes},
                      {"notes", tooltip_notes(in, k, d.notes)}});
  }
  display_strings(points);
  std::string data = json_text(nlohmann::json{{"points", points}}, -1);
  // Inside <script>, "<" must not start a tag: escape it as a JSON unicode escape.
  std::string safe;
  // terminal_safe_lines keeps the JSON the same JSON and leaves no non-XML character in it.
  for (char c : terminal_safe_lines(data))
    safe += c == '<' ? std::string("\\u003c") : std::string(1, c);

  return safe;
}

/// The document's head, the title and the line under it.
std::string page_head(const ReportInput& in, const report::Chart& ch) {
  const RoofSet& rs = in.machines.front().roofs;
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
       "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
  h += "<meta name=\"generator\" content=\"roofline\">\n";
  // The tooltip's verdict in its hue, at 4.5:1 or more on the tooltip's panel (light and dark).
  h += "<title>" + xml_text(in.title) + "</title>\n<style>" + report::kHtmlStyle +
       report::verdict_text_rules(".tooltip ", "color", false) +
       "@media (prefers-color-scheme: dark){\n" +
       report::verdict_text_rules(".tooltip ", "color", true) +
       "}\n</style>\n</head>\n<body>\n<main>\n";
  h += "<h1>" + xml_text(in.title) + "</h1>\n";
  h += "<p class=\"sub\">" + xml_text(rs.name) + " · default roofs " +
       xml_text(ch.default_compute->name + " × " + ch.default_memory->level) + " · ridge I* = " +
       xml_text(format_intensity(ridge(*ch.default_compute, *ch.default_memory),
                                 report::default_roof_units(ch))) +
       " · " + std::to_string(in.points.size()) + " point" + (in.points.size() == 1 ? "" : "s") +
       (in.not_drawn.empty() ? std::string()
                             : " · " + std::to_string(in.not_drawn.size()) +
                                   " not drawn (<a href=\"#not-drawn\">listed below</a>)") +
       "</p>\n";

  return h;
}

/// What the chart's numbers assume that does not hold (ReportInput::warnings), listed under the
/// title, each whole: the chart above the plot has room for three lines of them.
std::string chart_warnings(const ReportInput& in) {
  if (in.warnings.empty()) return "";
  std::string h = "<ul class=\"chart-warnings\" role=\"note\">\n";
  for (const auto& w : in.warnings) h += "<li><strong>warning:</strong> " + xml_text(w) + "</li>\n";
  return h + "</ul>\n";
}

/// One toggle per layer present in the chart, the zoom buttons, the roof controls and the chart.
std::string toolbar_and_chart(const ReportInput& in, const report::Chart& ch,
                              const std::string& svg) {
  std::string h;
  h += "<div class=\"toolbar\" role=\"toolbar\" aria-label=\"chart layers\">\n";
  const std::pair<const char*, const char*> layers[] = {{"layer-roofs", "roofs"},
                                                        {"layer-theory", "theoretical values"},
                                                        {"layer-ridges", "ridge points"},
                                                        {"layer-overlay", "compared machines"},
                                                        {"layer-no-overlap", "no-overlap curve"},
                                                        {"layer-curve", "empirical curve"},
                                                        {"layer-workload", "workload line"},
                                                        {"layer-headroom", "headroom"},
                                                        {"layer-points", "points"}};
  for (const auto& [cls, label] : layers)
    if (svg.find(std::string("layer ") + cls + "\"") != std::string::npos)
      h += "<label><input type=\"checkbox\" checked data-layer=\"" + std::string(cls) + "\"> " +
           label + "</label>\n";
  h += "<button type=\"button\" id=\"zoom-in\" aria-label=\"zoom in\">+</button>"
       "<button type=\"button\" id=\"zoom-out\" aria-label=\"zoom out\">−</button>"
       "<button type=\"button\" id=\"reset-view\">Reset view</button>\n";
  h += "<span class=\"hint\">wheel: zoom · drag: pan · hover or tap a point</span>\n</div>\n";
  h += roof_controls(ch, in);
  h += "<div id=\"chart\" class=\"chart\">\n" + svg +
       "<div id=\"tooltip\" class=\"tooltip\" role=\"tooltip\" hidden></div>\n</div>\n";

  return h;
}

/// The points, sortable: W, T, I per level, P, attainable, attainment, headroom, bound, verdict.
std::string points_table(const ReportInput& in, const report::Chart& ch) {
  std::string h;
  if (!in.points.empty()) {
    const std::string ih = "I (" + report::points_intensity_unit(ch) + ")";
    // The weight column (what sizes a dot, e.g. a function's share of the time) when any has one.
    const bool weighted = std::any_of(in.points.begin(), in.points.end(),
                                      [](const Point& p) { return p.weight > 0; });
    h += "<h2>Points</h2>\n<table id=\"points-table\" class=\"data sortable\"><thead><tr>"
         "<th>point</th><th>W</th><th>T</th>" +
         std::string(weighted ? "<th>weight</th>" : "") + "<th>" + xml_text(ih) +
         "</th><th>P</th><th>attainable</th><th>attainment</th><th>headroom</th>"
         "<th>bound</th><th>verdict</th></tr></thead><tbody>\n";
    for (size_t k = 0; k < in.points.size(); ++k) {
      const Point& p = in.points[k];
      const Diagnosis& d = ch.diagnoses[k];
      const UnitSystem& u = ch.point_units[k];
      const std::string is = join(d.levels, [&](const LevelJudgement& l) {
        return (d.levels.size() > 1 ? l.level + " " : "") + format_number(l.intensity.value);
      });
      h += "<tr data-index=\"" + std::to_string(k) + "\">" +
           "<td class=\"name\" data-label=\"point\"><span class=\"swatch\" style=\"background:" +
           report::verdict_colour(d.verdict) + "\"></span>" + xml_text(p.name) + "</td>" +
           td_num("W", format_work(p.work, u), p.work.value) +
           td_num("T", format_seconds(p.time), p.time.value) +
           (weighted ? td_num("weight", format_number(p.weight, 3), p.weight) : std::string()) +
           td_wrap(ih, is, binding_intensity(d).value) +
           td_num("P", format_work_rate(d.performance, u), d.performance.value) +
           td_num("attainable", format_work_rate(d.attainable, u), d.attainable.value) +
           td_num("attainment", d.attainment_percent + "%", d.attainment) +
           td_num("headroom", ratio_text(d.headroom.factor) + "x", d.headroom.factor) +
           td("bound", d.binding_is_memory ? d.binding_level : d.compute_roof) +
           td("verdict", to_string(d.verdict)) + "</tr>\n";
    }
    h += "</tbody></table>\n";
  }

  return h;
}

/// The points given that the chart leaves out (ReportInput::not_drawn), each with its name and
/// why: the short reason the chart's line gives, then the whole message.
std::string not_drawn_list(const ReportInput& in) {
  if (in.not_drawn.empty()) return "";
  std::string h = "<h2 id=\"not-drawn\">Points not drawn (" + std::to_string(in.not_drawn.size()) +
                  ")</h2>\n<ul class=\"not-drawn\">\n";
  for (const auto& p : in.not_drawn)
    h += "<li><span class=\"name\">" +
         xml_text(p.name.empty() ? std::string("a point without a name") : p.name) +
         "</span>: " + xml_text(p.reason) +
         (p.detail.empty() || p.detail == p.reason ? std::string() : " — " + xml_text(p.detail)) +
         "</li>\n";
  return h + "</ul>\n";
}

// Roofs table: measured next to theoretical, with the spread of the samples (docs/architecture.md
// provenance). Rows of the roofs the chart shows by default say why they are shown.
std::string roofs_table(const ReportInput& in, const report::Chart& ch) {
  std::string h;
  const bool several = in.machines.size() > 1;
  h += "<h2>Roofs</h2>\n<table id=\"roofs-table\" class=\"data sortable\"><thead><tr>" +
       std::string(several ? "<th>machine</th>" : "") +
       "<th>roof</th><th>value</th><th>provenance</th><th>theoretical</th>"
       "<th>spread of the samples</th><th>source</th></tr></thead><tbody>\n";
  std::map<const void*, const report::DrawnRoof*> drawn;
  for (const auto& r : ch.roofs) drawn[r.compute ? static_cast<const void*>(r.c) : r.m] = &r;
  auto roof_cell = [&](const void* key, const std::string& name, const std::string& kind) {
    const report::DrawnRoof* r = drawn.count(key) ? drawn[key] : nullptr;
    std::string why;
    if (r && r->shown) why = r->compute ? r->reason : "memory level";
    return "<td class=\"name\" data-label=\"roof\">" + xml_text(name) +
           "<span class=\"muted\"> · " + xml_text(kind) + "</span>" +
           (why.empty() ? std::string()
                        : "<br><span class=\"why\">on the chart: " + xml_text(why) + "</span>") +
           "</td>";
  };
  // The theoretical value (0: none) and how much of it the roof reaches.
  auto theory_cell = [&](double th, double value, const std::string& text) {
    if (!(th > 0)) return td_empty("theoretical");
    return td_num("theoretical", text + " (" + percent_text(value / th) + " reached)", th);
  };
  for (const auto& m : in.machines) {
    const RoofSet& s = m.roofs;
    for (const auto& c : s.compute) {
      const UnitSystem cu = report::roof_units(s, c);
      const double th = c.theoretical ? c.theoretical->value : 0;
      h += "<tr class=\"roof-row\">" + (several ? td("machine", s.name) : std::string()) +
           roof_cell(&c, c.name, "compute") +
           td_num("value", format_work_rate(c.peak, cu), c.peak.value) +
           td("provenance", to_string(c.provenance)) +
           theory_cell(th, c.peak.value,
                       c.theoretical ? format_work_rate(*c.theoretical, cu) : std::string()) +
           spread_cell(c.stats, cu.work_rate()) + td_source(c.source, c.formula, "") + "</tr>\n";
    }
    for (const auto& r : s.memory) {
      const double th = r.theoretical ? r.theoretical->value : 0;
      h += "<tr class=\"roof-row\">" + (several ? td("machine", s.name) : std::string()) +
           roof_cell(&r, r.level, r.kind) +
           td_num("value", format_byte_rate(r.bandwidth, s.units), r.bandwidth.value) +
           td("provenance", to_string(r.provenance)) +
           theory_cell(th, r.bandwidth.value,
                       r.theoretical ? format_byte_rate(*r.theoretical, s.units) : std::string()) +
           spread_cell(r.stats, s.units.traffic_symbol() + "/s") +
           td_source(r.source, r.formula, r.convention.empty() ? "" : "bytes " + r.convention) +
           "</tr>\n";
    }
  }
  h += "</tbody></table>\n";
  return h;
}

/// Each flat roof's ridge with each memory roof, and the workload line's table where it has one.
std::string ridges_and_workload(const ReportInput& in, const report::Chart& ch) {
  std::string h;
  h += "<h3>Ridge points</h3>\n<table class=\"data\"><thead><tr><th>flat roof</th><th>memory roof"
       "</th><th>I* = π/β</th></tr></thead><tbody>\n";
  // A row per roof pair, also where pairs share a mark (fp8 and int8 tensor at one height: the
  // int8 row, in OP/byte, was missing).
  for (const auto& r : ch.ridges)
    for (const auto& [pc, pm] : r.pairs)
      h += "<tr>" + td("flat roof", pc->name) + td("memory roof", pm->level) +
           td_num("I* = π/β",
                  format_intensity(Intensity(r.intensity),
                                   report::roof_units(in.machines.front().roofs, *pc)),
                  r.intensity) +
           "</tr>\n";
  h += "</tbody></table>\n";
  if (ch.workload) {
    h += "<h3>Workload at I = " +
         xml_text(format_intensity(ch.workload->intensity, report::workload_units(ch))) +
         "</h3>\n<table class=\"data\"><thead><tr><th>machine</th><th>roofs</th>"
         "<th>attainable</th><th>ratio</th><th>regime</th></tr></thead><tbody>\n";
    for (size_t k = 0; k < ch.workload->machines.size(); ++k) {
      const auto& m = ch.workload->machines[k];
      h += "<tr>" + td("machine", m.machine) +
           td("roofs", m.compute_roof + " × " + m.memory_level) +
           td_num("attainable", format_work_rate(m.attainable, m.units), m.attainable.value) +
           td_num("ratio", report::workload_ratio_text(*ch.workload, k), ch.workload->ratios[k]) +
           td("regime", k == 0 ? "" : to_string(ch.workload->regimes[k])) + "</tr>\n";
    }
    h += "</tbody></table>\n";
    if (const std::string note = mixed_work_note(*ch.workload); !note.empty())
      h += "<p class=\"note\">* " + xml_text(note) + "</p>\n";
  }

  return h;
}

// The machines: description and how the roofs were obtained.
std::string machine_sections(const ReportInput& in) {
  std::string h;
  for (const auto& m : in.machines) {
    h += "<h2>Machine: " + xml_text(m.roofs.name) + "</h2>\n";
    if (!m.info.empty()) h += info_list(info_entries(m));
    h += "<h3>How it was measured</h3>\n<p>Read from " +
         xml_text(m.origin.empty() ? std::string("(not recorded)") : m.origin) + ". ";
    size_t measured = 0, total = 0;
    for (const auto& c : m.roofs.compute) measured += c.provenance == Provenance::measured, ++total;
    for (const auto& r : m.roofs.memory) measured += r.provenance == Provenance::measured, ++total;
    h += measured == total
             ? "Every roof was measured (" + std::to_string(total) + ").</p>\n"
             : std::to_string(measured) + " of " + std::to_string(total) +
                   " roofs measured; the others come from the vendor's documents, from a third "
                   "party's report of them, from the theoretical formula or from the numbers given "
                   "(see the provenance and source columns above).</p>\n";
    // What the measurement itself warned about (noise, unconfirmed roofs, cache sizes), shown
    // as text rather than left in the JSON below.
    if (const std::vector<std::string> warnings = machine_facts(m).warnings; !warnings.empty()) {
      h += "<h3>Warnings</h3>\n<ul class=\"warnings\">\n";
      for (const auto& w : warnings) h += "<li>" + xml_text(w) + "</li>\n";
      h += "</ul>\n";
    }
    if (!m.sections.empty()) h += info_list(section_entries(m));
  }
  return h;
}

}  // namespace

std::string render_html(const ReportInput& in) {
  report::SvgOptions o;
  o.include_optional = true;
  const report::Chart ch = report::chart_for_svg(in, o);
  std::string svg = report::render_svg_chart(ch, o);
  // Inline SVG in HTML needs no namespace declaration (the parser supplies it).
  const std::string ns = " xmlns=\"http://www.w3.org/2000/svg\"";
  if (const auto pos = svg.find(ns); pos != std::string::npos) svg.erase(pos, ns.size());
  const std::string safe = tooltip_data(in, ch);
  std::string h = page_head(in, ch) + chart_warnings(in) + toolbar_and_chart(in, ch, svg) +
                  points_table(in, ch) + not_drawn_list(in) + roofs_table(in, ch) +
                  ridges_and_workload(in, ch) + machine_sections(in);
  h += "<footer>Made by roofline. Attainable P = min(π, β·I); ridge I* = π/β; distances between "
       "a point and a roof are read vertically on the log chart.</footer>\n";
  h += "</main>\n<script type=\"application/json\" id=\"roofline-data\">" + safe +
       "</script>\n<script>" + report::kHtmlScript + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace roofline
