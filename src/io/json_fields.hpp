#pragma once
// Field access for JSON documents with errors that name the file, the field path and the value.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/quantity.hpp"

namespace roofline::io {

/// "file: compute[2].peak" style location of a field.
struct Where {
  std::string origin;
  std::string path;
  Where operator/(const std::string& field) const {
    return {origin, path.empty() ? field : path + "." + field};
  }
  Where operator[](size_t index) const {
    return {origin, path + "[" + std::to_string(index) + "]"};
  }
  std::string str() const { return path.empty() ? origin : origin + ": " + path; }
};

[[noreturn]] void fail(const Where& w, const std::string& why);

const nlohmann::json& require(const nlohmann::json& obj, const std::string& key, const Where& w);
std::string get_string(const nlohmann::json& obj, const std::string& key, const Where& w,
                       std::optional<std::string> fallback = std::nullopt);
/// A number, or a string with units parsed as `dim` ("2 TB/s"). Must be finite; when
/// `positive`, > 0.
double get_quantity(const nlohmann::json& obj, const std::string& key, Dimension dim,
                    const Where& w, bool positive = true);
std::optional<double> get_optional_quantity(const nlohmann::json& obj, const std::string& key,
                                            Dimension dim, const Where& w, bool positive = true);
bool get_bool(const nlohmann::json& obj, const std::string& key, const Where& w, bool fallback);
/// A field of `obj` that is none of `known` but one of them misspelt ("precison", "tiems") or in
/// another case ("Name") is refused, naming it and the field meant, with `consequence` (what
/// would go wrong unread): a document may carry more fields than its reader takes, but not one
/// meant for it that it would skip. Refused beside the right field too ("precision" and
/// "precison": which one was meant?), unless it is longer than that field ("times" beside
/// "time" is another field). One edit from a name of up to six letters, two from a longer one;
/// names of three letters or fewer only by case.
void refuse_misspelt_fields(const nlohmann::json& obj, const Where& w,
                            const std::vector<std::string>& known, const std::string& consequence);
/// Checks "schema" and "version" of a document.
void check_schema(const nlohmann::json& j, const char* schema, int version, const Where& w);

}  // namespace roofline::io
