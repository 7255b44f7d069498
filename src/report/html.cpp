// The HTML report: one self-contained page (inline SVG, CSS and script; no network access, and a
// Content-Security-Policy that forbids any). Tooltips carry W, Q, T, I, P, attainable,
// attainment, the bound and the two-step diagnosis (DIGEST §6) with its prescription.
#include <string>

#include "report/chart.hpp"
#include "report/html_assets.hpp"
#include "report/svg.hpp"
#include "report/svg_text.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"
#include "roofline/report.hpp"

namespace roofline {
namespace {
using report::xml_escape;

std::string sortable_number(double v) {
  return report::svg_exact(v);
}
std::string td(const std::string& s) {
  return "<td>" + xml_escape(s) + "</td>";
}
std::string td_num(const std::string& s, double sort) {
  return "<td class=\"num\" data-sort=\"" + sortable_number(sort) + "\">" + xml_escape(s) + "</td>";
}
std::string td_empty() {
  return "<td class=\"num\" data-sort=\"-1\"></td>";
}

std::string step1(const Diagnosis& d, const UnitSystem& u) {
  return std::string("touching a roof? ") + (d.touching ? "yes" : "no") + ": " +
         format_number(d.attainment * 100, 3) + "% of the attainable " +
         format_work_rate(d.attainable, u) + " (headroom " + format_number(d.headroom.factor, 3) +
         "x, " + format_number(d.headroom.decades, 2) + " decades)";
}
std::string step2(const Diagnosis& d) {
  if (d.verdict == Verdict::far_below)
    return "which roof? none yet: the left/right position is not meaningful";
  return "which roof? " + (d.binding_is_memory ? "the slanted " + d.binding_level + " roof"
                                               : "the flat '" + d.compute_roof + "' roof");
}

std::string json_value_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : ", ") + json_value_text(e);
    return s;
  }
  return v.dump();
}

std::string info_list(const nlohmann::json& obj) {
  std::string s = "<dl class=\"info\">";
  for (auto it = obj.begin(); it != obj.end(); ++it)
    s += "<dt>" + xml_escape(it.key()) + "</dt><dd>" +
         (it->is_object() ? "<pre>" + xml_escape(it->dump(2)) + "</pre>"
                          : xml_escape(json_value_text(*it))) +
         "</dd>";
  return s + "</dl>";
}

std::string stats_cells(const std::optional<Statistics>& st, const std::string& unit) {
  if (!st) return td_empty() + td("") + td_empty();
  return td_num(std::to_string(st->repetitions), st->repetitions) +
         td(format_si(st->min, unit, 4) + " – " + format_si(st->max, unit, 4) + " (median " +
            format_si(st->median, unit, 4) + ")") +
         td_num(format_number(st->cv * 100, 2) + "%" + (st->noisy ? " noisy" : ""), st->cv);
}

}  // namespace

std::string render_html(const ReportInput& in) {
  report::SvgOptions o;
  const report::PlotArea pa = report::plot_area(o);
  const report::Chart ch = report::build_chart(in, pa.right - pa.left, pa.bottom - pa.top);
  std::string svg = report::render_svg_chart(ch, o);
  // Inline SVG in HTML needs no namespace declaration (the parser supplies it).
  const std::string ns = " xmlns=\"http://www.w3.org/2000/svg\"";
  if (const auto pos = svg.find(ns); pos != std::string::npos) svg.erase(pos, ns.size());
  const RoofSet& rs = in.machines.front().roofs;
  const UnitSystem& u = ch.units;

  // Point data for the tooltips, formatted here so the page shows the tool's own numbers.
  nlohmann::json points = nlohmann::json::array();
  for (size_t k = 0; k < in.points.size(); ++k) {
    const Point& p = in.points[k];
    const Diagnosis& d = ch.diagnoses[k];
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
                      {"attainment", format_number(d.attainment * 100, 3) + "%"},
                      {"bound", d.binding_is_memory ? "memory (" + d.binding_level + " bandwidth)"
                                                    : "compute ('" + d.compute_roof + "' peak)"},
                      {"verdict", to_string(d.verdict)},
                      {"colour", report::verdict_colour(d.verdict)},
                      {"step1", step1(d, u)},
                      {"step2", step2(d)},
                      {"title", d.title},
                      {"prescription", d.prescription},
                      {"causes", d.causes},
                      {"notes", d.notes}});
  }
  std::string data = nlohmann::json{{"points", points}}.dump();
  // Inside <script>, "<" must not start a tag: escape it as a JSON unicode escape.
  std::string safe;
  for (char c : data) safe += c == '<' ? std::string("\\u003c") : std::string(1, c);

  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
       "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
  h += "<meta name=\"generator\" content=\"roofline\">\n";
  h += "<title>" + xml_escape(in.title) + "</title>\n<style>" + report::kHtmlStyle +
       "</style>\n</head>\n<body>\n<main>\n";
  h += "<h1>" + xml_escape(in.title) + "</h1>\n";
  h += "<p class=\"sub\">" + xml_escape(rs.name) + " · default roofs " +
       xml_escape(ch.default_compute->name + " × " + ch.default_memory->level) + " · ridge I* = " +
       xml_escape(format_intensity(ridge(*ch.default_compute, *ch.default_memory), u)) + " · " +
       std::to_string(in.points.size()) + " point" + (in.points.size() == 1 ? "" : "s") + "</p>\n";

  // Toolbar: one toggle per layer present in the chart.
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
  h += "<div id=\"chart\" class=\"chart\">\n" + svg +
       "<div id=\"tooltip\" class=\"tooltip\" role=\"tooltip\" hidden></div>\n</div>\n";

  // Points table (sortable).
  if (!in.points.empty()) {
    h += "<h2>Points</h2>\n<table id=\"points-table\" class=\"data sortable\"><thead><tr>"
         "<th>point</th><th>W</th><th>T</th><th>I (" +
         xml_escape(u.intensity()) +
         ")</th><th>P</th><th>attainable</th><th>attainment</th><th>headroom</th>"
         "<th>bound</th><th>verdict</th></tr></thead><tbody>\n";
    for (size_t k = 0; k < in.points.size(); ++k) {
      const Point& p = in.points[k];
      const Diagnosis& d = ch.diagnoses[k];
      std::string is;
      for (const auto& l : d.levels)
        is += (is.empty() ? "" : ", ") + (d.levels.size() > 1 ? l.level + " " : "") +
              format_number(l.intensity.value);
      h += "<tr data-index=\"" + std::to_string(k) + "\">" +
           "<td><span class=\"swatch\" style=\"background:" + report::verdict_colour(d.verdict) +
           "\"></span>" + xml_escape(p.name) + "</td>" +
           td_num(format_work(p.work, u), p.work.value) +
           td_num(format_seconds(p.time), p.time.value) +
           td_num(is, d.levels.front().intensity.value) +
           td_num(format_work_rate(d.performance, u), d.performance.value) +
           td_num(format_work_rate(d.attainable, u), d.attainable.value) +
           td_num(format_number(d.attainment * 100, 3) + "%", d.attainment) +
           td_num(format_number(d.headroom.factor, 3) + "x", d.headroom.factor) +
           td(d.binding_is_memory ? d.binding_level : d.compute_roof) + td(to_string(d.verdict)) +
           "</tr>\n";
    }
    h += "</tbody></table>\n";
  }

  // Roofs table: measured next to theoretical, with statistics (DESIGN.md provenance).
  h += "<h2>Roofs</h2>\n<table id=\"roofs-table\" class=\"data sortable\"><thead><tr>"
       "<th>machine</th><th>roof</th><th>kind</th><th>value</th><th>provenance</th>"
       "<th>theoretical</th><th>measured / theoretical</th><th>repetitions</th><th>range</th>"
       "<th>cv</th><th>source</th></tr></thead><tbody>\n";
  for (const auto& m : in.machines) {
    const RoofSet& s = m.roofs;
    for (const auto& c : s.compute) {
      const UnitSystem cu = report::roof_units(s, c);
      h += "<tr class=\"roof-row\">" + td(s.name) + td(c.name) + td("compute") +
           td_num(format_work_rate(c.peak, cu), c.peak.value) + td(to_string(c.provenance)) +
           (c.theoretical ? td_num(format_work_rate(*c.theoretical, cu), c.theoretical->value)
                          : td_empty()) +
           (c.theoretical ? td_num(format_number(c.peak / *c.theoretical * 100, 3) + "%",
                                   c.peak / *c.theoretical)
                          : td_empty()) +
           stats_cells(c.stats, cu.work_rate()) +
           td(c.source + (c.formula.empty() ? "" : " — " + c.formula)) + "</tr>\n";
    }
    for (const auto& r : s.memory) {
      h += "<tr class=\"roof-row\">" + td(s.name) + td(r.level) + td(r.kind) +
           td_num(format_byte_rate(r.bandwidth, s.units), r.bandwidth.value) +
           td(to_string(r.provenance)) +
           (r.theoretical ? td_num(format_byte_rate(*r.theoretical, s.units), r.theoretical->value)
                          : td_empty()) +
           (r.theoretical ? td_num(format_number(r.bandwidth / *r.theoretical * 100, 3) + "%",
                                   r.bandwidth / *r.theoretical)
                          : td_empty()) +
           stats_cells(r.stats, s.units.traffic_symbol() + "/s") +
           td(r.source + (r.formula.empty() ? "" : " — " + r.formula) +
              (r.convention.empty() ? "" : " (bytes " + r.convention + ")")) +
           "</tr>\n";
    }
  }
  h += "</tbody></table>\n";
  h += "<h3>Ridge points</h3>\n<table class=\"data\"><thead><tr><th>flat roof</th><th>memory roof"
       "</th><th>I* = π/β</th></tr></thead><tbody>\n";
  for (const auto& r : ch.ridges)
    h += "<tr>" + td(r.c->name) + td(r.m->level) +
         td_num(format_intensity(Intensity(r.intensity), u), r.intensity) + "</tr>\n";
  h += "</tbody></table>\n";
  if (ch.workload) {
    h += "<h3>Workload at I = " + xml_escape(format_intensity(ch.workload->intensity, u)) +
         "</h3>\n<table class=\"data\"><thead><tr><th>machine</th><th>roofs</th>"
         "<th>attainable</th><th>ratio</th><th>regime</th></tr></thead><tbody>\n";
    for (size_t k = 0; k < ch.workload->machines.size(); ++k) {
      const auto& m = ch.workload->machines[k];
      h += "<tr>" + td(m.machine) + td(m.compute_roof + " × " + m.memory_level) +
           td_num(format_work_rate(m.attainable, u), m.attainable.value) +
           td_num(format_number(ch.workload->ratios[k], 3) + "x", ch.workload->ratios[k]) +
           td(to_string(ch.workload->regimes[k])) + "</tr>\n";
    }
    h += "</tbody></table>\n";
  }

  // The machines: description and how the roofs were obtained.
  for (const auto& m : in.machines) {
    h += "<h2>Machine: " + xml_escape(m.roofs.name) + "</h2>\n";
    if (!m.info.empty()) h += info_list(m.info);
    h += "<h3>How it was measured</h3>\n<p>Read from " +
         xml_escape(m.origin.empty() ? std::string("(not recorded)") : m.origin) + ". ";
    size_t measured = 0, total = 0;
    for (const auto& c : m.roofs.compute) measured += c.provenance == Provenance::measured, ++total;
    for (const auto& r : m.roofs.memory) measured += r.provenance == Provenance::measured, ++total;
    h += std::to_string(measured) + " of " + std::to_string(total) +
         " roofs measured; the others come from datasheets or from the theoretical formula "
         "(see the source column above).</p>\n";
    // What the measurement itself warned about (noise, unconfirmed roofs, cache sizes), shown
    // as text rather than left in the JSON below.
    if (const auto ms = m.sections.find("measurement"); ms != m.sections.end() && ms->is_object()) {
      if (const auto w = ms->find("warnings"); w != ms->end() && w->is_array() && !w->empty()) {
        h += "<h3>Warnings</h3>\n<ul class=\"warnings\">\n";
        for (const auto& item : *w)
          if (item.is_string()) h += "<li>" + xml_escape(item.get<std::string>()) + "</li>\n";
        h += "</ul>\n";
      }
    }
    if (!m.sections.empty()) h += info_list(m.sections);
  }
  h += "<footer>Made by roofline. Attainable P = min(π, β·I); ridge I* = π/β; distances between "
       "a point and a roof are read vertically on the log chart.</footer>\n";
  h += "</main>\n<script type=\"application/json\" id=\"roofline-data\">" + safe +
       "</script>\n<script>" + report::kHtmlScript + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace roofline
