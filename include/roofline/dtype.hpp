#pragma once
// Data types and their storage sizes (docs/model.md §3: FP64 8, FP32 4, FP16/BF16 2, FP8/INT8 1
// byte; int4 is half a byte). The size is what sets Q for a given element count, so halving it
// doubles I (quantisation raises intensity, docs/model.md §6).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

struct DataType {
  std::string name;      ///< canonical lower-case name, e.g. "fp32", "fp8-e4m3"
  double bytes = 0;      ///< storage bytes per element (int4: 0.5)
  bool integer = false;  ///< integer work is counted in OP, not FLOP
  std::string description;

  bool operator==(const DataType& o) const { return name == o.name && bytes == o.bytes; }
};

/// The built-in types: fp64, fp32, tf32, fp16, bf16, fp8-e4m3, fp8-e5m2, int32, int16, int8, int4.
const std::vector<DataType>& builtin_dtypes();

/// Looks a type up by name or alias ("double", "float", "half", "fp8" = fp8-e4m3, "i8"...), or
/// builds a custom one from "custom:NAME:BYTES". Throws InputError listing the known names.
DataType parse_dtype(std::string_view name);

/// Whether `name` is a catalogue roof's precision: a built-in data type under any spelling
/// (parse_dtype), a narrow float datasheets give (fp8, fp6, fp4), or "ops" (an NPU's TOPS figure
/// that names no type). The catalogue checker's rule.
bool is_roof_precision(std::string_view name);

/// Whether `name` is a precision a point may name: a roof's (is_roof_precision) or one the
/// tool's own producers write that has no built-in size — PyTorch's int64, bool and
/// complex32/64/128 (roofline.torch), flopcount's fp80 and fp128 (x87, __float128), and the ncu
/// importer's "tensor" (tensor work of no known type). The rule of the roofs given as numbers
/// (which stand for every such precision: RoofSet::select_compute), of the CLI's --peak
/// --precision and of Python's Machine.from_roofs.
bool is_point_precision(std::string_view name);

/// InputError unless `precision` is a point's precision (is_point_precision) or one followed by
/// its unit ("fp16 tensor"): "WHAT names the roof's precision, a data type (fp64, ...) or a
/// type and its unit ("fp16 tensor"); 'TYPE' is none". `what` names where it was given
/// ("--precision fp99: with --peak it", "precision 'fp99':").
void require_roof_precision(const std::string& precision, const std::string& what);

/// Whether a roof of this precision counts OP (true) or FLOP (false): an integer type under any
/// spelling (int8, int4, i8, ...) and "ops" (a TOPS figure of unnamed precision) count OP, a
/// floating-point type (fp64 ... fp4, bf16, tf32) FLOP; nullopt for no precision or one of no
/// known kind (a roof given as two numbers, a custom roofline's). The one rule by which a machine
/// document's roof (`"integer"`, docs/schema.md), the catalogue checker and the roofs given as
/// numbers read the work a precision counts.
std::optional<bool> precision_counts_operations(std::string_view precision);

/// Work unit name for a data type: "OP" for integer types, "FLOP" otherwise.
std::string work_unit_for(const DataType& t);

}  // namespace roofline
