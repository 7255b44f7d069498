#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "roofline/json_out.hpp"

using namespace roofline;
using nlohmann::json;

TEST(FirstNonFinite, AllFiniteGivesNothing) {
  EXPECT_FALSE(first_non_finite(json::parse(R"({"a": [1, 2.5, {"b": -3e300}], "c": "inf"})")));
  EXPECT_FALSE(first_non_finite(json(1.5)));
}

TEST(FirstNonFinite, NamesTheFirstInDocumentOrderByJsonPointer) {
  json doc = {{"decode", {{"steps", json::array({1.0, 2.0, 3.0})}}}};
  doc["decode"]["steps"][1] = std::numeric_limits<double>::infinity();
  doc["decode"]["steps"][2] = std::nan("");
  const auto found = first_non_finite(doc);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->pointer, "/decode/steps/1");
  EXPECT_TRUE(std::isinf(found->value));
  // The pointer leads back to the value.
  EXPECT_TRUE(std::isinf(doc.at(json::json_pointer(found->pointer)).get<double>()));
}

TEST(FirstNonFinite, EscapesSlashAndTildeInKeys) {
  // RFC 6901 §3: '~' is written "~0" and '/' "~1", so a key holding them still names one place.
  json doc;
  doc["tokens/s"]["a~b"] = std::nan("");
  const auto found = first_non_finite(doc);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->pointer, "/tokens~1s/a~0b");
  EXPECT_TRUE(std::isnan(doc.at(json::json_pointer(found->pointer)).get<double>()));
}

TEST(FirstNonFinite, TheDocumentItselfIsTheEmptyPointer) {
  const auto found = first_non_finite(json(-std::numeric_limits<double>::infinity()));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->pointer, "");
  EXPECT_LT(found->value, 0);
}
