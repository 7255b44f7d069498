// The roofline chart as SVG: log-log axes with decade and minor ticks, roofs (measured solid,
// theoretical/datasheet dashed, theoretical value of measured roofs faint), ridge points, points
// coloured and shaped by their diagnosis with non-colliding labels, headroom lines, overlays.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/svg.hpp"
#include "report/svg_text.hpp"
#include "roofline/error.hpp"
#include "roofline/model.hpp"
#include "roofline/quantity.hpp"

namespace roofline::report {
namespace {

std::string num(double v) {
  return svg_num(v);
}
std::string attr(const std::string& name, const std::string& value) {
  return svg_attr(name, value);
}
std::string attr(const std::string& name, double value) {
  return svg_attr(name, value);
}
/// A text colour that wins over the stylesheet's `text{fill:…}` (a presentation attribute
/// would not).
std::string fill_style(const std::string& colour) {
  return attr("style", "fill:" + colour);
}
double fastest_bw(const RoofSet& s) {
  double b = 0;
  for (const auto& m : s.memory) b = std::max(b, m.bandwidth.value);
  return b;
}
std::string exact(double v) {
  return svg_exact(v);
}

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

/// A line drawn on the chart that labels should not cross; `owner` lets a roof's own label sit
/// along its line.
struct Segment {
  double x0, y0, x1, y1;
  int owner = -1;
};

/// Does the segment cross the box? (Liang–Barsky clipping of the segment against the box.)
bool crosses(const Segment& sg, const Box& b) {
  double t0 = 0, t1 = 1;
  const double dx = sg.x1 - sg.x0, dy = sg.y1 - sg.y0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {sg.x0 - b.x0, b.x1 - sg.x0, sg.y0 - b.y0, b.y1 - sg.y0};
  for (int k = 0; k < 4; ++k) {
    if (p[k] == 0) {
      if (q[k] < 0) return false;  // parallel to this edge and outside
      continue;
    }
    const double t = q[k] / p[k];
    if (p[k] < 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/// Greedy label placement: a label takes the first candidate position that stays inside the
/// plot and overlaps no marker, no label placed before it and no drawn line (roofs, headroom
/// lines, the workload line). Every marker and line is registered before any label is placed.
class Placer {
 public:
  explicit Placer(Box bounds) : bounds_(bounds) {}
  /// Which lines a label must stay clear of. Labels that find no place clear of every line try
  /// again clear of the roofs only (crossing a thin headroom or workload line), then of none:
  /// a label crossing a line stays readable, one on top of another label does not.
  enum class Avoid { all_lines, roof_lines, no_lines };
  bool fits(const Box& b, int owner = -2, Avoid avoid = Avoid::all_lines) const {
    if (b.x0 < bounds_.x0 || b.x1 > bounds_.x1 || b.y0 < bounds_.y0 || b.y1 > bounds_.y1)
      return false;
    if (std::any_of(used_.begin(), used_.end(), [&](const Box& u) { return u.overlaps(b); }))
      return false;
    if (avoid == Avoid::no_lines) return true;
    return std::none_of(lines_.begin(), lines_.end(), [&](const Segment& sg) {
      if (avoid == Avoid::roof_lines && sg.owner < 0) return false;  // owner ≥ 0: a roof
      return sg.owner != owner && crosses(sg, b);
    });
  }
  void take(const Box& b) { used_.push_back(b); }
  void line(const Segment& sg) { lines_.push_back(sg); }

 private:
  Box bounds_;
  std::vector<Box> used_;
  std::vector<Segment> lines_;
};

constexpr double kFont = 12;  // label font size
constexpr double kSmallFont = 10.5;
constexpr double kBold = 1.15;  // semibold point labels are about 15% wider than regular text
/// Box of a text anchored at (x, y) (baseline) with the given anchor.
Box text_box(double x, double y, const std::string& s, double font, const std::string& anchor) {
  const double w = text_width(s, font);
  double x0 = x;
  if (anchor == "end")
    x0 = x - w;
  else if (anchor == "middle")
    x0 = x - w / 2;
  return {x0 - 2, y - font * 0.85, x0 + w + 2, y + font * 0.3};
}

std::string text(double x, double y, const std::string& s, const std::string& cls,
                 const std::string& anchor = "start", const std::string& extra = "") {
  return svg_text(x, y, s, cls, anchor, extra);
}

std::string marker_shape(const std::string& shape, double x, double y, double r,
                         const std::string& extra) {
  if (shape == "square")
    return "<rect" + attr("x", x - r * 0.85) + attr("y", y - r * 0.85) + attr("width", r * 1.7) +
           attr("height", r * 1.7) + extra + "/>";
  if (shape == "diamond")
    return "<path d=\"M" + num(x) + " " + num(y - r * 1.2) + "L" + num(x + r * 1.2) + " " + num(y) +
           "L" + num(x) + " " + num(y + r * 1.2) + "L" + num(x - r * 1.2) + " " + num(y) + "Z\"" +
           extra + "/>";
  if (shape == "triangle")
    return "<path d=\"M" + num(x) + " " + num(y - r * 1.2) + "L" + num(x + r * 1.1) + " " +
           num(y + r * 0.8) + "L" + num(x - r * 1.1) + " " + num(y + r * 0.8) + "Z\"" + extra +
           "/>";
  if (shape == "cross") {
    // A filled X: a plus sign of arm half-width w and length l, turned by 45°.
    const double w = r * 0.4, l = r * 1.35, k = std::sqrt(0.5);
    const double pts[12][2] = {{w, l},   {w, w},   {l, w},   {l, -w}, {w, -w}, {w, -l},
                               {-w, -l}, {-w, -w}, {-l, -w}, {-l, w}, {-w, w}, {-w, l}};
    std::string d;
    for (const auto& p : pts)
      d += (d.empty() ? "M" : "L") + num(x + (p[0] - p[1]) * k) + " " + num(y + (p[0] + p[1]) * k);
    return "<path d=\"" + d + "Z\"" + extra + "/>";
  }
  return "<circle" + attr("cx", x) + attr("cy", y) + attr("r", r) + extra + "/>";
}

// The roofline chart's own rules, after kAxesStyleLight / kAxesStyleDark.
const char* kStyleLight = R"(
.roof{fill:none;stroke:#24292f;stroke-width:1.8;stroke-linecap:round}
.roof.default{stroke-width:2.6}
.roof.dashed{stroke-dasharray:8 5}
.roof.overlay{stroke:#56B4E9;stroke-width:1.8}
.roof-label{font-size:12px;fill:#24292f}
.roof-label.overlay{fill:#1c7db5}
.theory{fill:none;stroke:#8c959f;stroke-width:1.1;stroke-dasharray:2 4}
.ridge{fill:#ffffff;stroke:#24292f;stroke-width:1.5}
.ridge-drop{stroke:#8c959f;stroke-width:1;stroke-dasharray:1 3}
.ridge-label{font-size:10.5px;fill:#57606a}
.no-overlap{fill:none;stroke:#6e7781;stroke-width:1.6;stroke-dasharray:10 3 2 3}
.curve{fill:none;stroke:#9a6700;stroke-width:1.6}
.curve-dot{fill:#9a6700}
.workload{stroke:#1f2328;stroke-width:1.4;stroke-dasharray:6 3}
.workload-mark{fill:#ffffff;stroke:#1f2328;stroke-width:1.5}
.workload-label{font-size:11px}
.headroom{stroke-width:1.4;stroke-dasharray:1.5 3;fill:none}
.headroom-label{font-size:10.5px;font-style:italic}
.point-label{font-size:12px;font-weight:600}
.level-label{font-size:9.5px;fill:#57606a}
.level-join{stroke-width:1.2;fill:none;opacity:.7}
.marker{stroke:#ffffff;stroke-width:1.2}
.marker.level{opacity:.55}
.roof-label,.ridge-label,.headroom-label,.point-label,.level-label,.workload-label{paint-order:stroke;
stroke:#ffffff;stroke-width:3px;stroke-linejoin:round}
.legend-line{fill:none}
)";
const char* kStyleDark = R"(
@media (prefers-color-scheme: dark){
.ridge-label,.level-label{fill:#9ea7b3}
.roof{stroke:#e6edf3}
.roof-label{fill:#e6edf3}
.roof.overlay{stroke:#56B4E9}
.roof-label.overlay{fill:#56B4E9}
.theory{stroke:#6e7681}
.ridge{fill:#0d1117;stroke:#e6edf3}
.no-overlap{stroke:#8b949e}
.curve{stroke:#F0E442}
.curve-dot{fill:#F0E442}
.workload{stroke:#e6edf3}
.workload-mark{fill:#0d1117;stroke:#e6edf3}
.marker{stroke:#0d1117}
.roof-label,.ridge-label,.headroom-label,.point-label,.level-label,.workload-label{stroke:#0d1117}
}
)";

}  // namespace

const char* verdict_colour(Verdict v) {
  // Okabe & Ito, "Color Universal Design" (2008): distinguishable with colour-vision deficiency.
  switch (v) {
    case Verdict::memory_bound:
      return "#0072B2";  // blue
    case Verdict::compute_bound:
      return "#009E73";  // bluish green
    case Verdict::faster_unit_unused:
      return "#CC79A7";  // reddish purple
    case Verdict::far_below:
      return "#E69F00";  // orange
    case Verdict::above_roof:
      return "#D55E00";  // vermillion
  }
  return "#000000";
}
const char* verdict_marker(Verdict v) {
  switch (v) {
    case Verdict::memory_bound:
      return "circle";
    case Verdict::compute_bound:
      return "square";
    case Verdict::faster_unit_unused:
      return "diamond";
    case Verdict::far_below:
      return "triangle";
    case Verdict::above_roof:
      return "cross";
  }
  return "circle";
}

PlotArea plot_area(const SvgOptions& o) {
  return {104, o.width - 28, 66, o.height - 124};
}

std::string render_svg_chart(const Chart& ch, const SvgOptions& o) {
  const ReportInput& in = *ch.in;
  const PlotArea pa = plot_area(o);
  const LogScale X{ch.x_lo, ch.x_hi, pa.left, pa.right};
  const LogScale Y{ch.y_lo, ch.y_hi, pa.bottom, pa.top};
  const RoofSet& rs = in.machines.front().roofs;
  const UnitSystem& u = ch.units;
  Placer placer({pa.left + 2, pa.top + 2, pa.right - 2, pa.bottom - 2});

  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"" + attr("width", o.width) +
       attr("height", o.height) + " viewBox=\"0 0 " + num(o.width) + " " + num(o.height) +
       "\" class=\"roofline-chart\" role=\"img\"" + attr("aria-label", in.title) + ">\n";
  s += "<title>" + xml_escape(in.title) + "</title>\n";
  s += "<desc>Roofline chart: " + xml_escape(ch.x_title) + " against " + xml_escape(ch.y_title) +
       ", log-log.</desc>\n";
  s += "<style>" + std::string(kAxesStyleLight) + kStyleLight +
       (o.dark_mode ? std::string(kAxesStyleDark) + kStyleDark : std::string()) + "</style>\n";
  s += "<defs><clipPath id=\"roofline-plot-clip\"><rect" + attr("x", pa.left) + attr("y", pa.top) +
       attr("width", pa.right - pa.left) + attr("height", pa.bottom - pa.top) +
       "/></clipPath></defs>\n";
  s += "<rect class=\"bg\" x=\"0\" y=\"0\"" + attr("width", o.width) + attr("height", o.height) +
       "/>\n";
  s += text(pa.left, 28, in.title, "title");
  {
    std::string sub = "machine: " + rs.name;
    for (size_t i = 1; i < in.machines.size(); ++i)
      sub += " · compared with " + in.machines[i].roofs.name;
    sub += " · default roofs: " + ch.default_compute->name + " × " + ch.default_memory->level;
    sub += " · ridge I* = " + format_intensity(ridge(*ch.default_compute, *ch.default_memory), u);
    s += text(pa.left, 48, sub, "subtitle");
  }

  // Plot group carries the mapping so tests (and scripts) can check coordinates.
  s += "<g id=\"plot\"" + attr("data-x-log-min", exact(ch.x_lo)) +
       attr("data-x-log-max", exact(ch.x_hi)) + attr("data-y-log-min", exact(ch.y_lo)) +
       attr("data-y-log-max", exact(ch.y_hi)) + attr("data-left", exact(pa.left)) +
       attr("data-right", exact(pa.right)) + attr("data-top", exact(pa.top)) +
       attr("data-bottom", exact(pa.bottom)) + ">\n";

  // Grid and axes.
  s += "<g class=\"grid\">\n";
  for (double v : minor_ticks(ch.x_lo, ch.x_hi))
    s += "<line class=\"grid-minor\"" + attr("x1", X(v)) + attr("x2", X(v)) + attr("y1", pa.top) +
         attr("y2", pa.bottom) + "/>\n";
  for (double v : minor_ticks(ch.y_lo, ch.y_hi))
    s += "<line class=\"grid-minor\"" + attr("x1", pa.left) + attr("x2", pa.right) +
         attr("y1", Y(v)) + attr("y2", Y(v)) + "/>\n";
  for (double v : decade_ticks(ch.x_lo, ch.x_hi))
    s += "<line class=\"grid-major\"" + attr("x1", X(v)) + attr("x2", X(v)) + attr("y1", pa.top) +
         attr("y2", pa.bottom) + "/>\n";
  for (double v : decade_ticks(ch.y_lo, ch.y_hi))
    s += "<line class=\"grid-major\"" + attr("x1", pa.left) + attr("x2", pa.right) +
         attr("y1", Y(v)) + attr("y2", Y(v)) + "/>\n";
  s += "</g>\n<g class=\"axes\">\n";
  s += "<rect class=\"frame\"" + attr("x", pa.left) + attr("y", pa.top) +
       attr("width", pa.right - pa.left) + attr("height", pa.bottom - pa.top) + "/>\n";
  for (double v : decade_ticks(ch.x_lo, ch.x_hi)) {
    s += "<line class=\"tick-mark\"" + attr("x1", X(v)) + attr("x2", X(v)) + attr("y1", pa.bottom) +
         attr("y2", pa.bottom + 6) + "/>\n";
    s += text(X(v), pa.bottom + 21, intensity_tick(v), "tick x-tick", "middle",
              attr("data-value", exact(v)));
  }
  for (double v : minor_ticks(ch.x_lo, ch.x_hi))
    s += "<line class=\"tick-mark\"" + attr("x1", X(v)) + attr("x2", X(v)) + attr("y1", pa.bottom) +
         attr("y2", pa.bottom + 3) + "/>\n";
  for (double v : decade_ticks(ch.y_lo, ch.y_hi)) {
    s += "<line class=\"tick-mark\"" + attr("x1", pa.left - 6) + attr("x2", pa.left) +
         attr("y1", Y(v)) + attr("y2", Y(v)) + "/>\n";
    s += text(pa.left - 9, Y(v) + 4, format_si(v, u.work_rate(), 3), "tick y-tick", "end",
              attr("data-value", exact(v)));
  }
  for (double v : minor_ticks(ch.y_lo, ch.y_hi))
    s += "<line class=\"tick-mark\"" + attr("x1", pa.left - 3) + attr("x2", pa.left) +
         attr("y1", Y(v)) + attr("y2", Y(v)) + "/>\n";
  s += text((pa.left + pa.right) / 2, pa.bottom + 44, ch.x_title, "axis-title x-title", "middle");
  const double ymid = (pa.top + pa.bottom) / 2;
  s += text(0, 0, ch.y_title, "axis-title y-title", "middle",
            " transform=\"translate(" + num(22) + "," + num(ymid) + ") rotate(-90)\"");
  s += "</g>\n";

  const std::string clip = " clip-path=\"url(#roofline-plot-clip)\"";
  auto visible_y = [&](double p) { return std::log10(p) >= ch.y_lo && std::log10(p) <= ch.y_hi; };

  // Theoretical values of measured roofs: faint dashed lines (how far from nameplate).
  std::string theory;
  for (const auto& r : ch.roofs) {
    if (r.machine != 0) continue;
    if (r.compute && r.c->theoretical && r.c->provenance == Provenance::measured) {
      const double p = r.c->theoretical->value;
      if (!visible_y(p)) continue;
      theory += "<line class=\"theory\"" + attr("data-roof", r.c->name) +
                attr("data-value", exact(p)) + attr("x1", X(p / fastest_bw(rs))) +
                attr("x2", pa.right) + attr("y1", Y(p)) + attr("y2", Y(p)) + "/>\n";
    }
    if (!r.compute && r.m->theoretical && r.m->provenance == Provenance::measured) {
      const double b = r.m->theoretical->value;
      const double i0 = std::pow(10.0, ch.x_lo),
                   i1 = std::min(r.to * r.m->bandwidth.value / b, std::pow(10.0, ch.x_hi));
      theory += "<line class=\"theory\"" + attr("data-roof", r.m->level) +
                attr("data-value", exact(b)) + attr("x1", X(i0)) + attr("x2", X(i1)) +
                attr("y1", Y(b * i0)) + attr("y2", Y(b * i1)) + "/>\n";
    }
  }
  if (!theory.empty()) s += "<g class=\"layer layer-theory\"" + clip + ">\n" + theory + "</g>\n";

  // Everything labels must avoid, registered before any label is placed: roof lines, ridge
  // marks, the workload line and its marks, point markers and headroom lines.
  struct PointGeom {
    double xb = 0, y = 0, ya = 0;  // binding-level marker and the attainable height above it
    size_t bind = 0;
    std::vector<double> level_x;  // x of every level's marker
  };
  std::vector<PointGeom> geom(in.points.size());
  for (size_t k = 0; k < in.points.size(); ++k) {
    const Diagnosis& d = ch.diagnoses[k];
    PointGeom& g = geom[k];
    for (size_t l = 0; l < d.levels.size(); ++l)
      if (d.levels[l].level == d.binding_level) g.bind = l;
    g.xb = X(d.levels[g.bind].intensity.value);
    g.y = Y(d.performance.value);
    g.ya = Y(d.attainable.value);
    for (const auto& l : d.levels) g.level_x.push_back(X(l.intensity.value));
    for (double xl : g.level_x) placer.take({xl - 7, g.y - 7, xl + 7, g.y + 7});
    if (std::fabs(g.ya - g.y) > 3) placer.line({g.xb, g.y, g.xb, g.ya});
  }
  for (size_t ri = 0; ri < ch.roofs.size(); ++ri) {
    const DrawnRoof& r = ch.roofs[ri];
    placer.line({X(r.from), Y(r.height(r.from)), X(r.to), Y(r.height(r.to)), static_cast<int>(ri)});
  }
  for (const auto& r : ch.ridges) {
    const double x = X(r.intensity), y = Y(r.peak);
    placer.take({x - 5, y - 5, x + 5, y + 5});
  }
  if (ch.workload) {
    const double x = X(ch.workload->intensity.value);
    placer.line({x, pa.top, x, pa.bottom});
    for (const auto& m : ch.workload->machines) {
      const double y = Y(m.attainable.value);
      placer.take({x - 6, y - 6, x + 6, y + 6});
    }
  }

  // Roofs. Flat roofs of one machine at (nearly) the same height — lines a few pixels apart,
  // e.g. fp16 and bf16 tensor — share one label: "bf16 tensor / fp16 tensor 2.25 PFLOP/s", or
  // with each value when they differ.
  std::vector<std::vector<std::pair<std::string, std::string>>> parts(ch.roofs.size());
  std::vector<bool> label_owner(ch.roofs.size(), true);
  for (size_t ri = 0; ri < ch.roofs.size(); ++ri) {
    const DrawnRoof& r = ch.roofs[ri];
    if (!r.compute) continue;
    const RoofSet& set = in.machines[r.machine].roofs;
    const std::pair<std::string, std::string> part{
        compute_name(*r.c), format_work_rate(r.c->peak, roof_units(set, *r.c))};
    bool merged = false;
    for (size_t rj = 0; rj < ri && !merged; ++rj) {
      const DrawnRoof& q = ch.roofs[rj];
      if (!q.compute || q.machine != r.machine || !label_owner[rj]) continue;
      if (std::fabs(std::log10(q.value() / r.value())) > 0.013) continue;  // 3%: ~2 px apart
      parts[rj].push_back(part);
      label_owner[ri] = false;
      merged = true;
    }
    if (!merged) parts[ri].push_back(part);
  }
  std::vector<std::string> merged_label(ch.roofs.size());
  for (size_t ri = 0; ri < ch.roofs.size(); ++ri) {
    merged_label[ri] = ch.roofs[ri].label;
    if (parts[ri].size() < 2) continue;
    const bool same = std::all_of(parts[ri].begin(), parts[ri].end(),
                                  [&](const auto& pr) { return pr.second == parts[ri][0].second; });
    // As many names as fit in about half the plot's width, then "+k more": a label must never
    // run off the plot (each line's tooltip still names its own roof).
    const double max_w = 0.55 * (pa.right - pa.left);
    const std::string tail = same ? " " + parts[ri][0].second : "";
    std::string l;
    size_t shown = 0;
    for (const auto& [name, rate] : parts[ri]) {
      const std::string next = l + (l.empty() ? "" : " / ") + name + (same ? "" : " " + rate);
      const size_t rest = parts[ri].size() - shown - 1;
      const std::string more = rest > 0 ? " +" + std::to_string(rest) + " more" : "";
      if (shown > 0 && text_width(next + more + tail, kFont) > max_w) break;
      l = next;
      ++shown;
    }
    if (shown < parts[ri].size()) l += " +" + std::to_string(parts[ri].size() - shown) + " more";
    merged_label[ri] = l + tail;
  }
  std::string roof_lines[2], roof_labels[2];
  for (size_t ri = 0; ri < ch.roofs.size(); ++ri) {
    const DrawnRoof& r = ch.roofs[ri];
    const int owner = static_cast<int>(ri);
    const bool overlay = r.machine != 0;
    std::string cls = std::string("roof ") + (r.compute ? "compute-roof" : "memory-roof") +
                      (r.is_default ? " default" : "") + (r.dashed ? " dashed" : "") +
                      (overlay ? " overlay" : "");
    const std::string prov = to_string(r.compute ? r.c->provenance : r.m->provenance);
    const std::string machine = in.machines[r.machine].roofs.name;
    std::string& out = roof_lines[overlay ? 1 : 0];
    out += "<line" + attr("class", cls) + attr("data-machine", machine) +
           attr("data-roof", r.compute ? r.c->name : r.m->level) +
           attr("data-value", exact(r.value())) + attr("data-provenance", prov) +
           attr("x1", X(r.from)) + attr("x2", X(r.to)) + attr("y1", Y(r.height(r.from))) +
           attr("y2", Y(r.height(r.to))) + "><title>" +
           xml_escape((overlay ? machine + ": " : std::string()) + r.label + " (" + prov + ")") +
           "</title></line>\n";
    // Labels: flat roofs at the right end above the line; slanted roofs along the line.
    if (!label_owner[ri]) continue;
    const std::string label = (overlay ? machine + ": " : std::string()) + merged_label[ri];
    const std::string lcls = std::string("roof-label ") + (r.compute ? "compute" : "memory") +
                             (overlay ? " overlay" : "");
    if (r.compute) {
      const double y = Y(r.value());
      if (!visible_y(r.value())) continue;
      bool placed = false;
      for (const Placer::Avoid avoid :
           {Placer::Avoid::all_lines, Placer::Avoid::roof_lines, Placer::Avoid::no_lines}) {
        for (double dx : {0.0, 0.15, 0.3, 0.45, 0.6}) {
          for (double dy : {-6.0, 15.0}) {
            const double x = pa.right - 8 - dx * (pa.right - pa.left);
            const Box b = text_box(x, y + dy, label, kFont, "end");
            if (x - text_width(label, kFont) < X(r.from) && dx > 0) continue;
            if (placer.fits(b, owner, avoid)) {
              placer.take(b);
              roof_labels[overlay ? 1 : 0] += text(x, y + dy, label, lcls, "end");
              placed = true;
              break;
            }
          }
          if (placed) break;
        }
        if (placed) break;
      }
      if (!placed) {  // never unlabelled: the first position, even if it touches something
        const double x = pa.right - 8;
        placer.take(text_box(x, y - 6, label, kFont, "end"));
        roof_labels[overlay ? 1 : 0] += text(x, y - 6, label, lcls, "end");
      }
    } else {
      const double b = r.value();
      const double a_log = std::max(ch.x_lo, ch.y_lo - std::log10(b));
      const double b_log = std::min(std::log10(r.to), ch.y_hi - std::log10(b));
      if (b_log <= a_log) continue;
      const double w = text_width(label, kFont);
      const double diag = w / std::sqrt(2.0);  // the label's extent on each axis at 45°
      // A label along a 45° line is tested as a chain of small boxes along its baseline (its
      // bounding box would contain the line itself).
      auto along = [&](double x, double y, bool below) {
        std::vector<Box> boxes;
        const double off = below ? 9 : -9;  // perpendicular offset of the text's middle
        const int n = std::max(1, static_cast<int>(diag / 8));
        for (int k = 0; k <= n; ++k) {
          const double t = 6 / std::sqrt(2.0) + diag * k / n;
          const double cx = x + t + off / std::sqrt(2.0), cy = y - t + off / std::sqrt(2.0);
          boxes.push_back({cx - 5, cy - 5, cx + 5, cy + 5});
        }
        return boxes;
      };
      bool placed = false;
      for (double f : {0.08, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}) {
        const double il = a_log + f * (b_log - a_log);
        const double x = X(std::pow(10.0, il)), y = Y(b * std::pow(10.0, il));
        // Overlay labels go below their line (the machine's own roofs are often just above).
        const auto boxes = along(x, y, overlay);
        if (!std::all_of(boxes.begin(), boxes.end(),
                         [&](const Box& bx) { return placer.fits(bx, owner); }))
          continue;
        for (const Box& bx : boxes) placer.take(bx);
        // Equal decades on both axes (build_chart) make every slanted roof a 45° line.
        roof_labels[overlay ? 1 : 0] +=
            text(6, overlay ? 13 : -5, label, lcls, "start",
                 " transform=\"translate(" + num(x) + "," + num(y) + ") rotate(-45)\"");
        placed = true;
        break;
      }
      if (!placed) {  // never unlabelled: near the line's left end
        const double il = a_log + 0.08 * (b_log - a_log);
        const double x = X(std::pow(10.0, il)), y = Y(b * std::pow(10.0, il));
        for (const Box& bx : along(x, y, overlay)) placer.take(bx);
        roof_labels[overlay ? 1 : 0] +=
            text(6, overlay ? 13 : -5, label, lcls, "start",
                 " transform=\"translate(" + num(x) + "," + num(y) + ") rotate(-45)\"");
      }
    }
  }
  s += "<g class=\"layer layer-roofs\"" + clip + ">\n" + roof_lines[0] + roof_labels[0] + "</g>\n";
  if (!roof_lines[1].empty())
    s += "<g class=\"layer layer-overlay\"" + clip + ">\n" + roof_lines[1] + roof_labels[1] +
         "</g>\n";

  // No-overlap curve and the empirical curve.
  auto polyline = [&](const std::vector<std::pair<double, double>>& pts) {
    std::string d;
    for (const auto& [i, p] : pts) {
      if (!visible_y(p)) continue;
      d += (d.empty() ? "M" : "L") + num(X(i)) + " " + num(Y(p));
    }
    return d;
  };
  if (!ch.no_overlap.empty())
    s += "<g class=\"layer layer-no-overlap\"" + clip + "><path class=\"no-overlap\" d=\"" +
         polyline(ch.no_overlap) + "\"><title>no overlap: P = 1/(1/π + 1/(β·I)) for " +
         xml_escape(ch.default_compute->name + " × " + ch.default_memory->level) +
         "</title></path></g>\n";
  if (!ch.empirical.empty()) {
    s += "<g class=\"layer layer-curve\"" + clip + "><path class=\"curve\" d=\"" +
         polyline(ch.empirical) + "\"><title>empirical curve (measured)</title></path>\n";
    for (const auto& [i, p] : ch.empirical)
      s += "<circle class=\"curve-dot\"" + attr("cx", X(i)) + attr("cy", Y(p)) + " r=\"2\"/>\n";
    s += "</g>\n";
  }

  // Ridge points.
  s += "<g class=\"layer layer-ridges\"" + clip + ">\n";
  std::string ridge_labels;
  for (const auto& r : ch.ridges) {
    const double x = X(r.intensity), y = Y(r.peak);
    if (r.primary)
      s += "<line class=\"ridge-drop\"" + attr("x1", x) + attr("x2", x) + attr("y1", y) +
           attr("y2", pa.bottom) + "/>\n";
    s += "<circle class=\"ridge" + std::string(r.primary ? " primary" : "") + "\"" +
         attr("data-compute", r.c->name) + attr("data-memory", r.m->level) +
         attr("data-intensity", exact(r.intensity)) + attr("cx", x) + attr("cy", y) +
         attr("r", r.primary ? 4.5 : 3.5) + "><title>ridge I* = π/β = " +
         xml_escape(format_intensity(Intensity(r.intensity), u) + " (" + r.c->name + " / " +
                    r.m->level + ")") +
         "</title></circle>\n";
    const std::string label = "I* = " + format_number(r.intensity, 3);
    bool placed = false;
    for (auto [dx, dy, anchor] :
         {std::tuple{7.0, 15.0, "start"}, std::tuple{-7.0, 15.0, "end"},
          std::tuple{7.0, -7.0, "start"}, std::tuple{-7.0, -7.0, "end"},
          std::tuple{0.0, 24.0, "middle"}, std::tuple{0.0, -14.0, "middle"},
          std::tuple{12.0, 28.0, "start"}, std::tuple{-12.0, 28.0, "end"}}) {
      const Box b = text_box(x + dx, y + dy, label, kSmallFont, anchor);
      if (!placer.fits(b)) continue;
      placer.take(b);
      ridge_labels += text(x + dx, y + dy, label, "ridge-label", anchor);
      placed = true;
      break;
    }
    if (!placed && r.primary) {  // the default roofs' ridge is always labelled
      placer.take(text_box(x + 7, y + 15, label, kSmallFont, "start"));
      ridge_labels += text(x + 7, y + 15, label, "ridge-label", "start");
    }
  }
  s += ridge_labels + "</g>\n";

  // Workload line: roof heights of every machine at I, with ratios (DIGEST §7).
  if (ch.workload) {
    const double i = ch.workload->intensity.value;
    const double x = X(i);
    s += "<g class=\"layer layer-workload\"" + clip + attr("data-intensity", exact(i)) + ">\n";
    s += "<line class=\"workload\"" + attr("x1", x) + attr("x2", x) + attr("y1", pa.top) +
         attr("y2", pa.bottom) + "/>\n";
    const std::string head = "workload I = " + format_intensity(Intensity(i), u);
    const bool right = x < (pa.left + pa.right) / 2;
    s += text(x + (right ? 5 : -5), pa.bottom - 8, head, "workload-label", right ? "start" : "end");
    placer.take(text_box(x + (right ? 5 : -5), pa.bottom - 8, head, 11, right ? "start" : "end"));
    for (size_t k = 0; k < ch.workload->machines.size(); ++k) {
      const auto& m = ch.workload->machines[k];
      const double y = Y(m.attainable.value);
      s += "<path class=\"workload-mark\" d=\"M" + num(x) + " " + num(y - 5) + "L" + num(x + 5) +
           " " + num(y) + "L" + num(x) + " " + num(y + 5) + "L" + num(x - 5) + " " + num(y) +
           "Z\"" + attr("data-machine", m.machine) +
           attr("data-attainable", exact(m.attainable.value)) + "/>\n";
      std::string label = (ch.workload->machines.size() > 1 ? m.machine + " " : std::string()) +
                          format_work_rate(m.attainable, u);
      if (k > 0)
        label += " (" + format_number(ch.workload->ratios[k], 3) + "x, " +
                 to_string(ch.workload->regimes[k]) + ")";
      // The ratio is the point of the line (DIGEST §7): it is always written, on either side.
      bool placed = false;
      for (const bool side : {right, !right}) {
        for (double dy : {-6.0, 14.0, -18.0, 26.0, -30.0, 38.0}) {
          const double lx = x + (side ? 8 : -8);
          const char* anchor = side ? "start" : "end";
          const Box b = text_box(lx, y + dy, label, 11, anchor);
          if (!placer.fits(b)) continue;
          placer.take(b);
          s += text(lx, y + dy, label, "workload-label", anchor);
          placed = true;
          break;
        }
        if (placed) break;
      }
      if (!placed)
        s += text(x + (right ? 8 : -8), y - 6, label, "workload-label", right ? "start" : "end");
    }
    s += "</g>\n";
  }

  // Points: headroom lines first, then markers, then labels (placed after every marker is known).
  std::string headroom, markers, labels;
  struct PendingLabel {
    double x, y;
    std::string name, colour;
  };
  std::vector<PendingLabel> pending;
  for (size_t k = 0; k < in.points.size(); ++k) {
    const Point& p = in.points[k];
    const Diagnosis& d = ch.diagnoses[k];
    const std::string colour = verdict_colour(d.verdict);
    const std::string shape = verdict_marker(d.verdict);
    const double perf = d.performance.value;
    const PointGeom& g = geom[k];
    const double y = g.y, xb = g.xb, ya = g.ya;
    const size_t bind = g.bind;
    // Vertical distance to the binding roof, read on the log chart (DIGEST §2).
    if (std::fabs(ya - y) > 3) {
      headroom += "<line class=\"headroom\"" + attr("data-index", std::to_string(k)) +
                  attr("stroke", colour) + attr("x1", xb) + attr("x2", xb) + attr("y1", y) +
                  attr("y2", ya) + "/>\n";
      if (std::fabs(ya - y) > 14) {
        const std::string hl = d.verdict == Verdict::above_roof
                                   ? "above ×" + format_number(1 / d.headroom.factor, 3)
                                   : "×" + format_number(d.headroom.factor, 3);
        const double ym = (y + ya) / 2 + 4;
        bool placed = false;
        for (double shift : {0.0, -0.25, 0.25}) {
          for (auto [dx, anchor] : {std::pair{5.0, "start"}, std::pair{-5.0, "end"}}) {
            const double yy = ym + shift * (ya - y);
            const Box b = text_box(xb + dx, yy, hl, kSmallFont, anchor);
            if (!placer.fits(b)) continue;
            placer.take(b);
            headroom += text(xb + dx, yy, hl, "headroom-label", anchor, fill_style(colour));
            placed = true;
            break;
          }
          if (placed) break;
        }
        if (!placed) {  // the headroom factor is the point of the line: always written
          placer.take(text_box(xb + 5, ym, hl, kSmallFont, "start"));
          headroom += text(xb + 5, ym, hl, "headroom-label", "start", fill_style(colour));
        }
      }
    }
    std::string tip = (p.name.empty() ? "point" : p.name) + " — " + d.title +
                      "\nP = " + format_work_rate(d.performance, u) + ", attainable " +
                      format_work_rate(d.attainable, u) + " (" +
                      format_number(d.attainment * 100, 3) + "%)";
    for (const auto& l : d.levels)
      tip += "\nI(" + l.level + ") = " + format_intensity(l.intensity, u);
    markers += "<g" + attr("class", "point verdict-" + to_string(d.verdict)) +
               attr("data-index", std::to_string(k)) + attr("data-name", p.name) +
               attr("data-verdict", to_string(d.verdict)) +
               attr("data-intensity", exact(d.levels[bind].intensity.value)) +
               attr("data-performance", exact(perf)) + attr("tabindex", "0") + ">\n<title>" +
               xml_escape(tip) + "</title>\n";
    if (d.levels.size() > 1) {
      double lo = xb, hi = xb;
      for (const auto& l : d.levels)
        lo = std::min(lo, X(l.intensity.value)), hi = std::max(hi, X(l.intensity.value));
      markers += "<line class=\"level-join\"" + attr("stroke", colour) + attr("x1", lo) +
                 attr("x2", hi) + attr("y1", y) + attr("y2", y) + "/>\n";
      for (size_t l = 0; l < d.levels.size(); ++l) {
        if (l == bind) continue;
        const double xl = X(d.levels[l].intensity.value);
        markers += marker_shape(shape, xl, y, 5,
                                " class=\"marker level\"" + attr("fill", colour) +
                                    attr("data-level", d.levels[l].level));
        const Box b = text_box(xl, y + 16, d.levels[l].level, 9.5, "middle");
        if (placer.fits(b)) {
          placer.take(b);
          markers += text(xl, y + 16, d.levels[l].level, "level-label", "middle");
        }
      }
    }
    markers += marker_shape(
        shape, xb, y, 6.5,
        " class=\"marker\"" + attr("fill", colour) + attr("data-level", d.binding_level));
    if (d.levels.size() > 1) {
      const Box b = text_box(xb, y + 18, d.binding_level, 9.5, "middle");
      if (placer.fits(b)) {
        placer.take(b);
        markers += text(xb, y + 18, d.binding_level, "level-label", "middle");
      }
    }
    markers += "</g>\n";
    pending.push_back({xb, y, p.name.empty() ? "point " + std::to_string(k + 1) : p.name, colour});
  }
  for (const auto& pl : pending) {
    bool placed = false;
    for (const Placer::Avoid avoid :
         {Placer::Avoid::all_lines, Placer::Avoid::roof_lines, Placer::Avoid::no_lines}) {
      for (double spread : {1.0, 1.8, 2.8, 4.0, 5.5, 7.0}) {
        if (placed) break;
        for (auto [dx, dy, anchor] :
             {std::tuple{11.0, 4.0, "start"}, std::tuple{-11.0, 4.0, "end"},
              std::tuple{8.0, -10.0, "start"}, std::tuple{8.0, 18.0, "start"},
              std::tuple{-8.0, -10.0, "end"}, std::tuple{-8.0, 18.0, "end"},
              std::tuple{0.0, -13.0, "middle"}, std::tuple{0.0, 22.0, "middle"}}) {
          const double lx = pl.x + dx * spread, ly = pl.y + (dy - 4) * spread + 4;
          Box b = text_box(lx, ly, pl.name, kFont * kBold, anchor);
          b.x0 -= 4, b.x1 += 4;  // a little air between neighbouring names
          if (!placer.fits(b, -2, avoid)) continue;
          placer.take(b);
          if (spread > 1)  // a leader line when the label sits away from its marker
            labels += "<line class=\"level-join\"" + attr("stroke", pl.colour) + attr("x1", pl.x) +
                      attr("y1", pl.y) + attr("x2", lx) + attr("y2", ly - 4) + "/>\n";
          labels += text(lx, ly, pl.name, "point-label", anchor, fill_style(pl.colour));
          placed = true;
          break;
        }
      }
    }
    if (!placed)
      labels += text(pl.x + 11, pl.y + 4, pl.name, "point-label", "start", fill_style(pl.colour));
  }
  if (!headroom.empty())
    s += "<g class=\"layer layer-headroom\"" + clip + ">\n" + headroom + "</g>\n";
  s += "<g class=\"layer layer-points\"" + clip + ">\n" + markers + labels + "</g>\n";
  s += "</g>\n";  // #plot

  // Legend: what the line styles and marker colours mean.
  std::vector<std::pair<std::string, std::string>> items;  // (swatch svg at 0,0, text)
  auto line_swatch = [&](const std::string& cls, const std::string& extra = "") {
    return "<line class=\"" + cls + "\" x1=\"0\" y1=\"0\" x2=\"26\" y2=\"0\"" + extra + "/>";
  };
  bool any_measured = false, any_dashed = false, any_theory = !theory.empty();
  for (const auto& r : ch.roofs)
    if (r.machine == 0) (r.dashed ? any_dashed : any_measured) = true;
  if (any_measured) items.push_back({line_swatch("roof"), "measured roof"});
  if (any_dashed) items.push_back({line_swatch("roof dashed"), "datasheet / theoretical roof"});
  if (any_theory) items.push_back({line_swatch("theory"), "theoretical value of a measured roof"});
  items.push_back({"<circle class=\"ridge\" cx=\"13\" cy=\"0\" r=\"4\"/>", "ridge point I* = π/β"});
  if (in.machines.size() > 1) {
    std::string names;
    for (size_t i = 1; i < in.machines.size(); ++i)
      names += (names.empty() ? "" : ", ") + in.machines[i].roofs.name;
    items.push_back({line_swatch("roof overlay"), names + " roofs"});
  }
  if (!ch.no_overlap.empty())
    items.push_back({line_swatch("no-overlap"), "no overlap 1/(1/π + 1/(β·I))"});
  if (!ch.empirical.empty()) items.push_back({line_swatch("curve"), "empirical curve"});
  if (ch.workload) items.push_back({line_swatch("workload"), "workload line"});
  std::vector<Verdict> seen;
  for (const auto& d : ch.diagnoses)
    if (std::find(seen.begin(), seen.end(), d.verdict) == seen.end()) seen.push_back(d.verdict);
  std::sort(seen.begin(), seen.end());
  for (Verdict v : seen)
    items.push_back({marker_shape(verdict_marker(v), 13, 0, 5.5,
                                  " class=\"marker\"" + attr("fill", verdict_colour(v))),
                     to_string(v)});
  s += "<g class=\"legend\">\n";
  double lx = pa.left, ly = pa.bottom + 74;
  for (const auto& [swatch, label] : items) {
    const double w = 34 + text_width(label, 11.5) + 18;
    if (lx + w > pa.right && lx > pa.left) lx = pa.left, ly += 20;
    s += "<g transform=\"translate(" + num(lx) + "," + num(ly) + ")\">" + swatch +
         text(32, 4, label, "legend-text") + "</g>\n";
    lx += w;
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace roofline::report
