#include "roofline/dtype.hpp"
#include "roofline/strings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

#include "roofline/error.hpp"
#include "roofline/sanitize.hpp"

namespace roofline {
namespace {}  // namespace

const std::vector<DataType>& builtin_dtypes() {
  // Sizes: IEEE 754 binary64/32/16; bfloat16; TF32 is stored as 4 bytes (19 bits used);
  // OCP FP8 E4M3/E5M2; two's-complement integers; int4 packs two per byte (docs/model.md §3).
  static const std::vector<DataType> types{
      {"fp64", 8, false, "IEEE binary64"},
      {"fp32", 4, false, "IEEE binary32"},
      {"tf32", 4, false, "TensorFloat-32 (fp32 storage, 10-bit mantissa compute)"},
      {"fp16", 2, false, "IEEE binary16"},
      {"bf16", 2, false, "bfloat16"},
      {"fp8-e4m3", 1, false, "OCP FP8 E4M3"},
      {"fp8-e5m2", 1, false, "OCP FP8 E5M2"},
      {"fp4", 0.5, false, "4-bit float (E2M1)"},
      {"int32", 4, true, "32-bit integer"},
      {"int16", 2, true, "16-bit integer"},
      {"int8", 1, true, "8-bit integer"},
      {"int4", 0.5, true, "4-bit integer, two per byte"},
  };
  return types;
}

DataType parse_dtype(std::string_view name_in) {
  const std::string name = lower(name_in);
  struct Alias {
    const char* alias;
    const char* canonical;
  };
  static const Alias aliases[] = {
      {"double", "fp64"},       {"f64", "fp64"},      {"float64", "fp64"},
      {"float", "fp32"},        {"f32", "fp32"},      {"float32", "fp32"},
      {"single", "fp32"},       {"half", "fp16"},     {"f16", "fp16"},
      {"float16", "fp16"},      {"bfloat16", "bf16"}, {"fp8", "fp8-e4m3"},
      {"e4m3", "fp8-e4m3"},     {"e5m2", "fp8-e5m2"}, {"fp8_e4m3", "fp8-e4m3"},
      {"fp8_e5m2", "fp8-e5m2"}, {"i8", "int8"},       {"i16", "int16"},
      {"i32", "int32"},         {"i4", "int4"},       {"int", "int32"},
  };
  std::string canonical = name;
  for (const auto& a : aliases)
    if (name == a.alias) canonical = a.canonical;
  for (const auto& t : builtin_dtypes())
    if (t.name == canonical) return t;
  // custom:NAME:BYTES[:int]
  if (name.rfind("custom:", 0) == 0) {
    const std::string rest = std::string(name_in.substr(7));
    const auto colon = rest.find(':');
    if (colon != std::string::npos && colon > 0) {
      const std::string custom_name = rest.substr(0, colon);
      // The name is printed in tables, charts and reprs: one plain line.
      if (terminal_safe(custom_name) != custom_name)
        throw InputError("data type '" + terminal_safe(name_in) +
                         "': a control character or line break in the custom type's name");
      // A custom type named as a built-in one would print as it ("custom:fp16:2" shown as
      // fp16, whatever its size): the name must tell them apart.
      for (const auto& t : builtin_dtypes())
        if (lower(custom_name) == t.name)
          throw InputError("data type '" + terminal_safe(name_in) + "': '" + custom_name +
                           "' is a built-in type's name; give the custom type its own");
      std::string bytes_text = rest.substr(colon + 1);
      bool integer = false;
      if (bytes_text.size() > 4 && bytes_text.substr(bytes_text.size() - 4) == ":int") {
        integer = true;
        bytes_text.resize(bytes_text.size() - 4);
      }
      if (const double bytes = decimal_number(bytes_text).value_or(0); bytes > 0)
        return {custom_name, bytes, integer, "custom type"};
    }
    throw InputError("data type '" + terminal_safe(name_in) +
                     "': a custom type is written custom:NAME:BYTES[:int], BYTES > 0");
  }
  const std::string known = join(builtin_dtypes(), [](const auto& t) { return t.name; });
  throw InputError("unknown data type '" + terminal_safe(name_in) + "' (known: " + known +
                   ", or custom:NAME:BYTES)");
}

bool is_roof_precision(std::string_view name) {
  const std::string l = lower(std::string(name));
  // Beyond the built-in types: the narrow floats of datasheets and an NPU's "ops".
  static const char* const kMore[] = {"ops", "fp4", "fp6", "fp8"};
  if (std::find(std::begin(kMore), std::end(kMore), l) != std::end(kMore)) return true;
  try {
    parse_dtype(l);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

std::optional<bool> precision_counts_operations(std::string_view precision) {
  const std::string l = lower(std::string(precision));
  if (l == "ops") return true;
  // The narrow floats of datasheets that have no built-in size here.
  if (l == "fp4" || l == "fp6" || l == "fp8") return false;
  if (l.empty()) return std::nullopt;
  try {
    return parse_dtype(l).integer;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

bool is_point_precision(std::string_view name) {
  // The types the tool's producers name that have no built-in size here: an int64 index
  // product of roofline.torch, an x87 loop of flopcount, an ncu kernel's tensor work of no known
  // type — each judged on roofs given as numbers.
  static const char* const kProduced[] = {"int64",      "bool", "complex32", "complex64",
                                          "complex128", "fp80", "fp128",     "tensor"};
  const std::string l = lower(std::string(name));
  return std::find(std::begin(kProduced), std::end(kProduced), l) != std::end(kProduced) ||
         is_roof_precision(name);
}

void require_roof_precision(const std::string& precision, const std::string& what) {
  const std::string type = precision.substr(0, precision.find(' '));
  if (!is_point_precision(type))
    throw InputError(what +
                     " names the roof's precision, a data type (fp64, fp32, bf16, fp16, fp8, "
                     "int8, ...) or a type and its unit (\"fp16 tensor\"); '" +
                     terminal_safe(type) + "' is none");
}

std::string work_unit_for(const DataType& t) {
  return t.integer ? "OP" : "FLOP";
}

}  // namespace roofline
