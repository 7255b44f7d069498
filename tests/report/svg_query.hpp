#pragma once
// Queries on a parsed chart (xml_lite.hpp) that the chart tests share: the elements of a class,
// an attribute read as a number, the plot's clip rectangle, and whether a line runs through a
// text (turned with its roof or not).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "report/svg_text.hpp"
#include "report/xml_lite.hpp"

namespace roofline::test {

/// Every element (the root too) whose class list holds `cls`, in document order.
inline std::vector<const XmlNode*> with_class(const XmlNode& root, const std::string& cls) {
  return root.find_all([&](const XmlNode& n) { return n.has_class(cls); });
}
/// An attribute of `n` read as a number (std::stod: throws where it is none).
inline double number(const XmlNode* n, const std::string& a) {
  return std::stod(n->attr(a));
}
/// The rectangle of the chart's one clip path, #roofline-plot-clip: the plot's area.
inline const XmlNode* plot_clip_rect(const XmlNode& root) {
  const auto clips =
      root.find_all([](const XmlNode& n) { return n.attr("id") == "roofline-plot-clip"; });
  EXPECT_EQ(clips.size(), 1u);
  if (clips.empty()) throw std::runtime_error("no #roofline-plot-clip in the chart");
  const auto rects = clips.front()->find_all([](const XmlNode& n) { return n.name == "rect"; });
  EXPECT_EQ(rects.size(), 1u);
  if (rects.empty()) throw std::runtime_error("no rect in #roofline-plot-clip");
  return rects.front();
}
/// The plot's top edge (the clip rectangle's y).
inline double plot_top(const XmlNode& root) {
  return number(plot_clip_rect(root), "y");
}

/// The text `t` draws: its own characters and its <tspan>s' (a <title> is a tooltip, not drawn).
inline std::string drawn_text(const XmlNode* t) {
  std::string s = t->text;
  for (const auto& c : t->children)
    if (c->name == "tspan") s += drawn_text(c.get());
  return s;
}

/// Does the line element `line` (x1, y1, x2, y2) pass through the glyph box of the text `t`
/// (`font` px, `bold` for a semibold one), by more than `slack` px? The box runs from the
/// baseline's anchor along the text's width (DejaVu Sans), from its ascent (0.93 em) above the
/// baseline to its descent (0.24 em) below, in the text's own frame: a
/// `translate(tx,ty) rotate(deg)` transform (a slanted roof's label) is undone on the line's ends
/// before the line is clipped to the box (Liang–Barsky).
inline bool line_through_text(const XmlNode* line, const XmlNode* t, double font, bool bold = false,
                              double slack = 0.5) {
  double tx = 0, ty = 0, deg = 0;
  const std::string tr = t->attr("transform");
  if (!tr.empty() && std::sscanf(tr.c_str(), "translate(%lf,%lf) rotate(%lf)", &tx, &ty, &deg) != 3)
    throw std::runtime_error("unexpected transform " + tr);
  const double a = -deg * std::acos(-1.0) / 180, ca = std::cos(a), sa = std::sin(a);
  auto local = [&](double x, double y) {  // page → the text's frame
    const double dx = x - tx, dy = y - ty;
    return std::pair{dx * ca - dy * sa, dx * sa + dy * ca};
  };
  const auto [x0, y0] = local(number(line, "x1"), number(line, "y1"));
  const auto [x1, y1] = local(number(line, "x2"), number(line, "y2"));
  const double w = report::text_width(drawn_text(t), font, bold);
  const std::string anchor = t->attr("text-anchor");
  const double left = number(t, "x") - (anchor == "end" ? w : anchor == "middle" ? w / 2 : 0);
  const double base = number(t, "y");
  const double box[4] = {left + slack, base - 0.93 * font + slack, left + w - slack,
                         base + 0.24 * font - slack};
  double lo = 0, hi = 1;
  const double p[4] = {-(x1 - x0), x1 - x0, -(y1 - y0), y1 - y0};
  const double q[4] = {x0 - box[0], box[2] - x0, y0 - box[1], box[3] - y0};
  for (int k = 0; k < 4; ++k) {
    if (p[k] == 0) {
      if (q[k] < 0) return false;
      continue;
    }
    const double r = q[k] / p[k];
    if (p[k] < 0)
      lo = std::max(lo, r);
    else
      hi = std::min(hi, r);
  }
  return lo < hi;
}

}  // namespace roofline::test
