// json_text_with_arrays (json_out.hpp): a document written array element by element is the text
// json_text would write for the whole tree with those keys last, and reads back to it.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <string>
#include <utility>
#include <vector>

#include "roofline/json_out.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

JsonElement elements(std::vector<nlohmann::json> items) {
  return [items = std::move(items)](std::size_t i, nlohmann::json& e) {
    if (i >= items.size()) return false;
    e = items[i];
    return true;
  };
}

TEST(JsonTextWithArrays, HeadThenEachArrayIndented) {
  const nlohmann::json head = {{"schema", "s"}, {"version", 1}};
  const std::string text = json_text_with_arrays(
      head, {{"points", elements({{{"name", "a"}}, {{"name", "b"}, {"w", 2}}})},
             {"empty", elements({})}});
  EXPECT_EQ(text,
            "{\n"
            "  \"schema\": \"s\",\n"
            "  \"version\": 1,\n"
            "  \"points\": [\n"
            "    {\n"
            "      \"name\": \"a\"\n"
            "    },\n"
            "    {\n"
            "      \"name\": \"b\",\n"
            "      \"w\": 2\n"
            "    }\n"
            "  ],\n"
            "  \"empty\": []\n"
            "}\n");
  nlohmann::json whole = head;
  whole["points"] = {{{"name", "a"}}, {{"name", "b"}, {"w", 2}}};
  whole["empty"] = nlohmann::json::array();
  EXPECT_EQ(nlohmann::json::parse(text), whole);
}

TEST(JsonTextWithArrays, EmptyHead) {
  EXPECT_EQ(json_text_with_arrays(nlohmann::json::object(), {{"x", elements({1, 2})}}),
            "{\n  \"x\": [\n    1,\n    2\n  ]\n}\n");
  EXPECT_EQ(json_text_with_arrays(nlohmann::json::object(), {}), "{\n}\n");
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
