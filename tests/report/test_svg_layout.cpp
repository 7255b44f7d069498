// The label placer (src/report/svg_layout.hpp) files what it holds in a grid of cells so that a
// candidate is tested only against what lies near it: its answers must be those of testing
// every taken area and every line, which this test does by hand on random layouts.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include "report/chart.hpp"
#include "report/svg_layout.hpp"

namespace roofline::report {
namespace ROOFLINE_UNITY_ID {

bool brute_fits(const Quad& bounds, const std::vector<Quad>& used,
                const std::vector<Segment>& lines, const Quad& q, const std::vector<int>& owners,
                Placer::Avoid avoid) {
  if (q.min_x() < bounds.min_x() || q.max_x() > bounds.max_x() || q.min_y() < bounds.min_y() ||
      q.max_y() > bounds.max_y())
    return false;
  for (const Quad& u : used)
    if (overlaps(u, q)) return false;
  if (avoid == Placer::Avoid::no_lines) return true;
  for (const Segment& s : lines) {
    if (avoid == Placer::Avoid::roof_lines && s.owner < 0) continue;
    if (s.owner >= 0 && std::find(owners.begin(), owners.end(), s.owner) != owners.end()) continue;
    if (crosses(s, q)) return false;
  }
  return true;
}

TEST(Placer, TheGridAnswersAsTestingEverythingDoes) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> x(-40, 840), y(-40, 540), size(2, 120), unit(0, 1);
  const Quad bounds = Quad::box(0, 0, 800, 500);
  int fitting = 0, refused = 0;
  for (int layout = 0; layout < 20; ++layout) {
    Placer placer(bounds);
    std::vector<Quad> used;
    std::vector<Segment> lines;
    for (int i = 0; i < 60; ++i) {
      // Lines across the chart (roofs, owner ≥ 0) and short ones (headroom, owner −1).
      Segment s{x(rng), y(rng), x(rng), y(rng), unit(rng) < 0.3 ? i % 5 : -1};
      placer.line(s);
      lines.push_back(s);
    }
    for (int i = 0; i < 400; ++i) {
      const double x0 = x(rng), y0 = y(rng);
      const Quad q = unit(rng) < 0.2 ? turned_text_quad(x0, y0, -35, 0, 0, size(rng), 11)
                                     : Quad::box(x0, y0, x0 + size(rng), y0 + size(rng) / 4);
      const std::vector<int> owners = {i % 5};
      for (const auto avoid :
           {Placer::Avoid::all_lines, Placer::Avoid::roof_lines, Placer::Avoid::no_lines}) {
        const bool want = brute_fits(bounds, used, lines, q, owners, avoid);
        ASSERT_EQ(placer.fits(q, owners, avoid), want) << "layout " << layout << ", quad " << i;
        ++(want ? fitting : refused);
      }
      if (placer.fits(q, owners, Placer::Avoid::no_lines)) {
        placer.take(q);
        used.push_back(q);
      }
    }
  }
  // Both answers were given often: the comparison tested something.
  EXPECT_GT(fitting, 1000);
  EXPECT_GT(refused, 1000);
}

// Leader lines of two point names: the tester's crossing pair, and pairs that only touch.
TEST(SvgLayout, SegmentsCrossOnlyWhenTheyIntersectInsideBoth) {
  EXPECT_TRUE(segments_cross({546.5, 224.9, 560.9, 199.7}, {546.5, 203.3, 578.5, 259.3}));
  EXPECT_FALSE(segments_cross({0, 0, 10, 0}, {0, 5, 10, 5}));     // parallel
  EXPECT_FALSE(segments_cross({0, 0, 10, 10}, {10, 10, 20, 0}));  // a shared end
  EXPECT_FALSE(segments_cross({0, 0, 10, 10}, {20, 0, 11, 9}));   // stops short
  const Quad q = Quad::box(10, 10, 20, 20);
  EXPECT_DOUBLE_EQ(distance_to_box(q, {15, 15}), 0);
  EXPECT_DOUBLE_EQ(distance_to_box(q, {23, 24}), 5);
  EXPECT_DOUBLE_EQ(distance_to_box(q, {5, 15}), 5);
}

// Tick labels over many decades: every step-th decade, the step 1, 2, 5, 10, 20, ... that
// leaves a label's length between neighbours.
TEST(SvgLayout, TickLabelsAreThinnedToRoundSteps) {
  EXPECT_EQ(label_step(60, 40), 1);
  EXPECT_EQ(label_step(30, 40), 2);
  EXPECT_EQ(label_step(16, 40), 5);
  EXPECT_EQ(label_step(7, 40), 10);
  EXPECT_EQ(label_step(3, 40), 20);
  EXPECT_TRUE(labelled_decade(1e-30, 5));
  EXPECT_FALSE(labelled_decade(1e-29, 5));
  EXPECT_TRUE(labelled_decade(1, 20));
  EXPECT_TRUE(labelled_decade(1e20, 20));
  EXPECT_FALSE(labelled_decade(1e10, 20));
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::report
