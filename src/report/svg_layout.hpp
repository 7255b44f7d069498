#pragma once
// Label placement for the SVG charts: the boxes texts occupy (axis-aligned or turned with a
// 45° roof), the lines they should not cross, and a greedy placer that gives each label the
// first candidate position that is free. A label that finds no free position is not drawn:
// a label on top of another label, or of a point, is worse than one left to the tooltip.
#include <array>
#include <string>
#include <vector>

namespace roofline::report {

struct Vec2 {
  double x = 0, y = 0;
};

/// A convex quadrilateral, corners in order (an axis-aligned box, or a turned text box).
struct Quad {
  std::array<Vec2, 4> p;
  static Quad box(double x0, double y0, double x1, double y1);
  double min_x() const;
  double max_x() const;
  double min_y() const;
  double max_y() const;
};

/// Do two quads overlap by more than `slack` px (separating-axis test)? Touching is not
/// overlapping.
bool overlaps(const Quad& a, const Quad& b, double slack = 0.25);

/// A line drawn on the chart that labels should not cross; `owner` (≥ 0: a roof's index in
/// Chart::roofs) lets a roof's own label sit along its line; -1: a headroom or workload line.
struct Segment {
  double x0, y0, x1, y1;
  int owner = -1;
};
/// Does the segment pass through the quad's interior (Cyrus–Beck clipping)?
bool crosses(const Segment& s, const Quad& q);

/// Do two segments cross (intersect at a point inside both; touching ends do not count)?
bool segments_cross(const Segment& a, const Segment& b);
/// Distance from `p` to the quad's bounding box (0 inside it).
double distance_to_box(const Quad& q, Vec2 p);

/// Ascent and descent of the charts' font (DejaVu Sans: 0.928 and 0.236 em, the hhea metrics
/// the browser's text boxes use).
inline constexpr double kAscent = 0.93, kDescent = 0.24;

/// The box of a text whose baseline starts at (x, y) with the given anchor ("start", "middle",
/// "end"), `width` px wide, in a `font` px font, with `pad` px of air around it.
Quad text_quad(double x, double y, double width, double font, const std::string& anchor,
               double pad = 1.5);
/// The same box for a text drawn at (lx, ly) inside transform="translate(tx,ty) rotate(deg)".
Quad turned_text_quad(double tx, double ty, double deg, double lx, double ly, double width,
                      double font, double pad = 1.5);

/// Positions for labels in one column (or rows of a terminal) that want to sit at `want`
/// (ascending), no two closer than `step`: labels that would touch form clusters, each centred
/// on its members' wishes and kept within [top, bottom] where it fits.
std::vector<double> spread_column(const std::vector<double>& want, double step, double top,
                                  double bottom);

/// Greedy placement: markers and placed labels are taken areas; lines are crossed only when
/// a label finds no place clear of them.
///
/// Taken areas and lines are filed in a grid of kCell px cells over the bounds (each in every
/// cell its bounding box covers), so a candidate is tested only against what lies near it: with
/// thousands of points in one cluster, testing every label against every other made a chart of
/// 4000 points take 12 s.
class Placer {
 public:
  explicit Placer(Quad bounds);
  /// Which lines a label must stay clear of: every line, the roofs only (crossing a thin
  /// headroom or workload line), the slanted roofs only (a flat roof crosses a label along a
  /// 45° roof through a letter or two, where a slanted one beside it runs along the text), or
  /// none (a line through a label stays readable; a label on another label does not).
  enum class Avoid { all_lines, roof_lines, slanted_roof_lines, no_lines };
  bool fits(const Quad& q, const std::vector<int>& owners = {},
            Avoid avoid = Avoid::all_lines) const;
  void take(const Quad& q);
  void line(const Segment& s);

 private:
  static constexpr double kCell = 32;
  struct CellRange {
    int x0, x1, y0, y1;
  };
  CellRange cells(double min_x, double min_y, double max_x, double max_y) const;
  Quad bounds_;
  int cols_ = 1, rows_ = 1;
  std::vector<Quad> used_;
  std::vector<Segment> lines_;
  std::vector<std::vector<int>> used_in_, lines_in_;     // per cell: indices into used_, lines_
  mutable std::vector<unsigned> used_seen_, line_seen_;  // per item: the query that saw it
  mutable unsigned query_ = 0;
};

}  // namespace roofline::report
