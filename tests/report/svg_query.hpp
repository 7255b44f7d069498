#pragma once
// Queries on a parsed chart (xml_lite.hpp) that the chart tests share: the elements of a class,
// an attribute read as a number, and the plot's clip rectangle.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

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

}  // namespace roofline::test
