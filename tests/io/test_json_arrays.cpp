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

// In key order, each array is written where its key sorts among head's, as json_text writes the
// whole tree (nlohmann keeps an object's keys sorted): the same text, byte for byte.
TEST(JsonTextWithArrays, InKeyOrderIsTheWholeTreesText) {
  const nlohmann::json head = {
      {"a", {{"nested", {1, 2}}, {"s", "x\ny"}}}, {"m", nlohmann::json::object()}, {"z", nullptr}};
  const std::vector<nlohmann::json> b = {{{"k", 1.5}, {"list", {1, 2}}}, 2};
  const std::string text = json_text_with_arrays(
      head, {{"b", elements(b)}, {"n", elements({})}, {"zz", elements({"last"})}},
      ArrayPlace::in_key_order);
  nlohmann::json whole = head;
  whole["b"] = b;
  whole["n"] = nlohmann::json::array();
  whole["zz"] = {"last"};
  EXPECT_EQ(text, json_text(whole) + "\n");
  EXPECT_LT(text.find("\"b\": ["), text.find("\"m\": {}"));
  EXPECT_LT(text.find("\"n\": []"), text.find("\"z\": null"));
  // After head's keys (the default), as before.
  const std::string after = json_text_with_arrays(head, {{"b", elements(b)}});
  EXPECT_LT(after.find("\"z\": null"), after.find("\"b\": ["));
  nlohmann::json with_b = head;
  with_b["b"] = b;
  EXPECT_EQ(nlohmann::json::parse(after), with_b);
}

// release_json empties a tree from its leaves up (its destruction then allocates nothing).
TEST(JsonTextWithArrays, ReleaseEmptiesATree) {
  nlohmann::json j = {{"a", {{"b", {1, {{"c", 2}}}}}}, {"d", "e"}};
  release_json(j);
  EXPECT_EQ(j, nlohmann::json::object());
  nlohmann::json list = {{1, 2}, {{"x", 1}}};
  release_json(list);
  EXPECT_EQ(list, nlohmann::json::array());
  nlohmann::json number = 3;
  release_json(number);
  EXPECT_EQ(number, 3);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
