// Fuzzes the document readers with deep and huge inputs built from the fuzzer's bytes: the text
// nested 1 to 102 400 levels deep in arrays or objects, and repeated into a document of 4 MiB.
// Every input must end in a parsed document or an InputError — never a crash, a stack overflow in a
// later recursion, or an accepted document nested deeper than kMaxJsonDepth.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/io.hpp"

namespace {

int depth_of(const nlohmann::json& j) {
  // Iterative: the check itself must not recurse over a deep document.
  int deepest = 0;
  std::vector<std::pair<const nlohmann::json*, int>> todo{{&j, 1}};
  while (!todo.empty()) {
    const auto [node, depth] = todo.back();
    todo.pop_back();
    if (!node->is_structured()) continue;
    deepest = std::max(deepest, depth);
    for (const auto& child : *node) todo.push_back({&child, depth + 1});
  }
  return deepest;
}

void read_as_documents(const std::string& text) {
  nlohmann::json j;
  try {
    j = roofline::parse_json(text, "fuzz");
  } catch (const roofline::InputError&) {
    return;
  }
  if (depth_of(j) > roofline::kMaxJsonDepth) std::abort();  // the limit let one through
  try {
    (void)roofline::machine_from_json(j, "fuzz");
  } catch (const roofline::InputError&) {
  }
  try {
    (void)roofline::points_from_json(j, "fuzz");
  } catch (const roofline::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string inner(reinterpret_cast<const char*>(data) + 2, size - 2);
  // Deep: the first byte sets the depth (1 to 102 400), the second how each level opens.
  const size_t depth = (static_cast<size_t>(data[0]) + 1) * 400 / (data[1] & 1 ? 1 : 400);
  std::string deep;
  deep.reserve(inner.size() + depth * 6);
  for (size_t i = 0; i < depth; ++i) deep += (data[1] & 2) ? "{\"k\":" : "[";
  deep += inner.empty() ? "1" : inner;
  for (size_t i = 0; i < depth; ++i) deep += (data[1] & 2) ? "}" : "]";
  read_as_documents(deep);
  // Huge (when the second byte says so, to keep the other runs fast): the text repeated into
  // an array of about 4 MiB.
  if (!inner.empty() && (data[1] & 4)) {
    std::string huge = "[";
    while (huge.size() < (4u << 20)) huge += inner + ",";
    huge.back() = ']';
    read_as_documents(huge);
  }
  return 0;
}
