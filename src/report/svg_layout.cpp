#include "report/svg_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace roofline::report {

Quad Quad::box(double x0, double y0, double x1, double y1) {
  return {{Vec2{x0, y0}, Vec2{x1, y0}, Vec2{x1, y1}, Vec2{x0, y1}}};
}
double Quad::min_x() const {
  return std::min({p[0].x, p[1].x, p[2].x, p[3].x});
}
double Quad::max_x() const {
  return std::max({p[0].x, p[1].x, p[2].x, p[3].x});
}
double Quad::min_y() const {
  return std::min({p[0].y, p[1].y, p[2].y, p[3].y});
}
double Quad::max_y() const {
  return std::max({p[0].y, p[1].y, p[2].y, p[3].y});
}

namespace {

// Projections of a quad on an axis.
void project(const Quad& q, Vec2 axis, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Vec2& v : q.p) {
    const double d = v.x * axis.x + v.y * axis.y;
    lo = std::min(lo, d), hi = std::max(hi, d);
  }
}

}  // namespace

bool overlaps(const Quad& a, const Quad& b, double slack) {
  // Separating-axis theorem: two convex polygons are disjoint when the projections on some
  // edge normal do not overlap (here: overlap by no more than `slack`).
  for (const Quad* q : {&a, &b})
    for (size_t i = 0; i < 4; ++i) {
      const Vec2 e{q->p[(i + 1) % 4].x - q->p[i].x, q->p[(i + 1) % 4].y - q->p[i].y};
      const double len = std::hypot(e.x, e.y);
      if (len == 0) continue;
      const Vec2 n{-e.y / len, e.x / len};
      double alo, ahi, blo, bhi;
      project(a, n, alo, ahi);
      project(b, n, blo, bhi);
      if (std::min(ahi, bhi) - std::max(alo, blo) <= slack) return false;
    }
  return true;
}

bool segments_cross(const Segment& a, const Segment& b) {
  // Each segment's ends on strictly opposite sides of the other's line.
  auto side = [](const Segment& s, double x, double y) {
    return (s.x1 - s.x0) * (y - s.y0) - (s.y1 - s.y0) * (x - s.x0);
  };
  const double a0 = side(a, b.x0, b.y0), a1 = side(a, b.x1, b.y1);
  const double b0 = side(b, a.x0, a.y0), b1 = side(b, a.x1, a.y1);
  return ((a0 > 0 && a1 < 0) || (a0 < 0 && a1 > 0)) && ((b0 > 0 && b1 < 0) || (b0 < 0 && b1 > 0));
}

double distance_to_box(const Quad& q, Vec2 p) {
  const double dx = std::max({q.min_x() - p.x, 0.0, p.x - q.max_x()});
  const double dy = std::max({q.min_y() - p.y, 0.0, p.y - q.max_y()});
  return std::hypot(dx, dy);
}

bool crosses(const Segment& s, const Quad& q) {
  // Cyrus–Beck: clip the segment's parameter range against each edge's half-plane.
  const Vec2 d{s.x1 - s.x0, s.y1 - s.y0};
  // Orientation of the quad (corners clockwise or counter-clockwise on screen).
  double area = 0;
  for (size_t i = 0; i < 4; ++i)
    area += q.p[i].x * q.p[(i + 1) % 4].y - q.p[(i + 1) % 4].x * q.p[i].y;
  const double sign = area >= 0 ? 1 : -1;
  double t0 = 0, t1 = 1;
  for (size_t i = 0; i < 4; ++i) {
    const Vec2 a = q.p[i], b = q.p[(i + 1) % 4];
    // Inward normal of edge a→b.
    const Vec2 n{-(b.y - a.y) * sign, (b.x - a.x) * sign};
    const double num = n.x * (s.x0 - a.x) + n.y * (s.y0 - a.y);  // > 0: start inside
    const double den = n.x * d.x + n.y * d.y;
    if (den == 0) {
      if (num <= 0) return false;  // parallel and outside (or on) this edge
      continue;
    }
    const double t = -num / den;
    if (den > 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 >= t1) return false;
  }
  return true;
}

Quad text_quad(double x, double y, double width, double font, const std::string& anchor,
               double pad) {
  double x0 = x;
  if (anchor == "end")
    x0 = x - width;
  else if (anchor == "middle")
    x0 = x - width / 2;
  return Quad::box(x0 - pad, y - font * kAscent - pad, x0 + width + pad, y + font * kDescent + pad);
}

Quad turned_text_quad(double tx, double ty, double deg, double lx, double ly, double width,
                      double font, double pad) {
  const Quad local = text_quad(lx, ly, width, font, "start", pad);
  const double a = deg * std::acos(-1.0) / 180, c = std::cos(a), s = std::sin(a);
  Quad out;
  for (size_t i = 0; i < 4; ++i)
    out.p[i] = {tx + local.p[i].x * c - local.p[i].y * s, ty + local.p[i].x * s + local.p[i].y * c};
  return out;
}

Placer::Placer(Quad bounds) : bounds_(bounds) {
  const auto count = [](double span) {
    return std::clamp(static_cast<int>(std::ceil(span / kCell)), 1, 4096);
  };
  cols_ = count(bounds.max_x() - bounds.min_x());
  rows_ = count(bounds.max_y() - bounds.min_y());
  used_in_.resize(static_cast<size_t>(cols_ * rows_));
  lines_in_.resize(used_in_.size());
}

Placer::CellRange Placer::cells(double min_x, double min_y, double max_x, double max_y) const {
  // Out-of-bounds extents fall in the edge cells (NaN as well: no comparison holds).
  const auto at = [](double v, double from, int n) {
    const double c = std::floor((v - from) / kCell);
    return c >= 0 ? (c < n ? static_cast<int>(c) : n - 1) : 0;
  };
  return {at(min_x, bounds_.min_x(), cols_), at(max_x, bounds_.min_x(), cols_),
          at(min_y, bounds_.min_y(), rows_), at(max_y, bounds_.min_y(), rows_)};
}

void Placer::take(const Quad& q) {
  const CellRange r = cells(q.min_x(), q.min_y(), q.max_x(), q.max_y());
  for (int y = r.y0; y <= r.y1; ++y)
    for (int x = r.x0; x <= r.x1; ++x)
      used_in_[static_cast<size_t>(y * cols_ + x)].push_back(static_cast<int>(used_.size()));
  used_.push_back(q);
  used_seen_.push_back(0);
}

void Placer::line(const Segment& s) {
  const CellRange r =
      cells(std::min(s.x0, s.x1), std::min(s.y0, s.y1), std::max(s.x0, s.x1), std::max(s.y0, s.y1));
  for (int y = r.y0; y <= r.y1; ++y)
    for (int x = r.x0; x <= r.x1; ++x)
      lines_in_[static_cast<size_t>(y * cols_ + x)].push_back(static_cast<int>(lines_.size()));
  lines_.push_back(s);
  line_seen_.push_back(0);
}

bool Placer::fits(const Quad& q, const std::vector<int>& owners, Avoid avoid) const {
  if (q.min_x() < bounds_.min_x() || q.max_x() > bounds_.max_x() || q.min_y() < bounds_.min_y() ||
      q.max_y() > bounds_.max_y())
    return false;
  // Only what is filed in the cells the quad covers can overlap it or cross it; each item is
  // tested once (it may be filed in several of those cells).
  const CellRange r = cells(q.min_x(), q.min_y(), q.max_x(), q.max_y());
  ++query_;
  for (int y = r.y0; y <= r.y1; ++y)
    for (int x = r.x0; x <= r.x1; ++x)
      for (int i : used_in_[static_cast<size_t>(y * cols_ + x)]) {
        if (std::exchange(used_seen_[static_cast<size_t>(i)], query_) == query_) continue;
        if (overlaps(used_[static_cast<size_t>(i)], q)) return false;
      }
  if (avoid == Avoid::no_lines) return true;
  for (int y = r.y0; y <= r.y1; ++y)
    for (int x = r.x0; x <= r.x1; ++x)
      for (int i : lines_in_[static_cast<size_t>(y * cols_ + x)]) {
        if (std::exchange(line_seen_[static_cast<size_t>(i)], query_) == query_) continue;
        const Segment& sg = lines_[static_cast<size_t>(i)];
        if (avoid != Avoid::all_lines && sg.owner < 0) continue;  // owner ≥ 0: a roof
        if (avoid == Avoid::slanted_roof_lines && (sg.x0 == sg.x1 || sg.y0 == sg.y1)) continue;
        if (sg.owner >= 0 && std::find(owners.begin(), owners.end(), sg.owner) != owners.end())
          continue;
        if (crosses(sg, q)) return false;
      }
  return true;
}

// Baselines for labels that want to sit at `want` (ascending), no two closer than `step`:
// labels that would touch form clusters, each centred on its members' wishes and kept within
// [top, bottom] where it fits (the usual layout of direct labels).
std::vector<double> spread_column(const std::vector<double>& want, double step, double top,
                                  double bottom) {
  struct Cluster {
    size_t first, count;
    double at;
  };
  std::vector<Cluster> clusters;
  auto settle = [&](Cluster& k) {
    double sum = 0;
    for (size_t i = 0; i < k.count; ++i) sum += want[k.first + i] - static_cast<double>(i) * step;
    k.at = sum / static_cast<double>(k.count);
    k.at = std::max(std::min(k.at, bottom - static_cast<double>(k.count - 1) * step), top);
  };
  for (size_t i = 0; i < want.size(); ++i) {
    clusters.push_back({i, 1, 0});
    settle(clusters.back());
    while (clusters.size() > 1) {
      Cluster& prev = clusters[clusters.size() - 2];
      if (prev.at + static_cast<double>(prev.count) * step <= clusters.back().at + 1e-9) break;
      prev.count += clusters.back().count;
      clusters.pop_back();
      settle(clusters.back());
    }
  }
  std::vector<double> at(want.size());
  for (const Cluster& k : clusters)
    for (size_t i = 0; i < k.count; ++i) at[k.first + i] = k.at + static_cast<double>(i) * step;
  return at;
}

}  // namespace roofline::report
