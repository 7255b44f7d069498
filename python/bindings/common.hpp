#pragma once
// Shared pieces of the Python bindings (docs/python.md): the objects Python holds and the
// registration function of each part of the module. The bindings are a thin layer over the
// public headers: every number comes from the library, as the CLI's do.
//
// Units: plain floats in SI base units with the unit in the attribute name (`peak_flop_per_s`,
// `bandwidth_byte_per_s`, `intensity_flop_per_byte`, `time_s`). An integer roof counts OP
// where the name says FLOP (its `integer` flag is set), and a machine with custom units
// (`Machine.units`) counts in those.
#include <pybind11/pybind11.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "roofline/io.hpp"
#include "roofline/point.hpp"

namespace roofline::python {

namespace py = pybind11;

/// A float argument: what Python's float() takes (int, float, numpy's numbers, Fraction,
/// Decimal), but not a bool, whose True pybind's own double would read as 1.0. Signatures and
/// stubs show it as `float`; a bool gives the TypeError of any argument of the wrong type.
struct Real {
  double value = 0;
  operator double() const { return value; }  // NOLINT(google-explicit-constructor)
};

/// What Python's Machine holds: a machine document (measured, catalogued or given roofs).
struct Machine {
  MachineDocument doc;
};

/// A chart's inputs: the machine, optional overlays and points (report.hpp's ReportInput).
struct ChartSpec {
  std::vector<MachineDocument> machines;
  std::vector<Point> points;
  std::string title;
  std::optional<double> workload_line;
  bool no_overlap_curve = false;
};
std::string chart_svg(const ChartSpec& c);
std::string chart_html(const ChartSpec& c);

/// JSON from the library as a Python object (json.loads of its text; register_errors looks
/// json.loads up, so it must run first).
py::object json_to_python(const nlohmann::json& j);

/// A Python int or float as a double: InputError naming `what` for anything else ("must be a
/// number (got str)") and for an int beyond a double's range (10**400), where pybind's own
/// cast says only "Unable to cast".
double number_of(const py::handle& v, const std::string& what);

/// The exception classes, and json.loads for json_to_python.
void register_errors(py::module_& m);
/// While alive, the classes registered get a metaclass whose call marks construction; when it
/// ends, their __new__ refuses to run unmarked, so `Cls.__new__(Cls)` alone is a TypeError and
/// never an object without a C++ value (module.cpp).
class ConstructionGuard {
 public:
  ConstructionGuard();
  ~ConstructionGuard();
  ConstructionGuard(const ConstructionGuard&) = delete;
  ConstructionGuard& operator=(const ConstructionGuard&) = delete;

 private:
  PyTypeObject* base_ = nullptr;
  PyTypeObject* meta_ = nullptr;
  std::set<PyTypeObject*> before_;  ///< classes registered before the guard: not ours
};
void register_machine(py::module_& m);
void register_point(py::module_& m);
void register_kernels(py::module_& m);
void register_charts(py::module_& m);
void register_llm(py::module_& m);

}  // namespace roofline::python

namespace pybind11::detail {
template <>
struct type_caster<roofline::python::Real> {
  PYBIND11_TYPE_CASTER(roofline::python::Real, const_name("float"));
  bool load(handle src, bool convert) {
    if (!src || PyBool_Check(src.ptr())) return false;
    type_caster<double> d;
    if (!d.load(src, convert)) return false;
    value.value = static_cast<double>(d);
    return true;
  }
  static handle cast(roofline::python::Real v, return_value_policy, handle) {
    return PyFloat_FromDouble(v.value);
  }
};
}  // namespace pybind11::detail
