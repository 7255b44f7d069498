#pragma once
// Field access for JSON documents with errors that name the file, the field path and the value.
#include <optional>
#include <string>

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
/// Checks "schema" and "version" of a document.
void check_schema(const nlohmann::json& j, const char* schema, int version, const Where& w);

}  // namespace roofline::io
