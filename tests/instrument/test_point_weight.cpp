// The points document's per-point `weight` (the dot size charts may use; profile --instrument
// gives each function its share of the run's time).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "roofline/error.hpp"
#include "roofline/io.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {
using nlohmann::json;

json document(const json& weight) {
  json p = {{"name", "f"}, {"work", 10}, {"traffic", 5}, {"time", 1}};
  if (!weight.is_null()) p["weight"] = weight;
  return {{"schema", "roofline.points"}, {"version", 1}, {"points", {p}}};
}

TEST(PointWeight, ReadWrittenAndCheckedLikeTheOtherFields) {
  const PointsDocument d = points_from_json(document(0.25), "w.json");
  ASSERT_EQ(d.points.size(), 1u);
  EXPECT_EQ(d.points[0].weight, 0.25);
  EXPECT_EQ(points_to_json(d)["points"][0]["weight"], 0.25);
  // Absent: 0, and not written back.
  const PointsDocument none = points_from_json(document(nullptr), "w.json");
  EXPECT_EQ(none.points[0].weight, 0);
  EXPECT_FALSE(points_to_json(none)["points"][0].contains("weight"));
  EXPECT_THROW(points_from_json(document(-1), "w.json"), InputError);
  EXPECT_THROW(points_from_json(document("big"), "w.json"), InputError);
  Point p;
  p.name = "f";
  p.work = Work(1);
  p.time = Seconds(1);
  p.traffic = {{"", Bytes(1)}};
  p.weight = std::numeric_limits<double>::infinity();
  EXPECT_THROW(p.validate(), InputError);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
