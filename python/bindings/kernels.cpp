// The kernel counts (kernels.hpp): hand-counted W and compulsory Q of catalogue kernels, the
// numbers `roofline kernel` prints.
#include <pybind11/stl.h>

#include <cmath>

#include "common.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/kernels.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"

namespace roofline::python {

namespace {

struct Count {
  KernelCount k;
  std::string dtype;
  std::map<std::string, double> params;  ///< every parameter, given or defaulted
};

Count count_kernel(const std::string& name, const std::string& dtype,
                   const std::map<std::string, double>& sizes) {
  const KernelRequest req = kernel_request(name, dtype, sizes, "");
  return Count{req.spec->count(req.params, req.dtype), req.dtype.name, req.params};
}

void register_kernel_count(py::module_& m) {
  py::class_<Count>(m, "KernelCount",
                    "Hand-counted work W and compulsory traffic Q of a kernel: a lower bound "
                    "on real traffic (every distinct element moves once).")
      .def_property_readonly("kernel", [](const Count& c) { return c.k.kernel; })
      .def_property_readonly("dtype", [](const Count& c) { return c.dtype; })
      .def_property_readonly(
          "work_flop", [](const Count& c) { return c.k.work.value; },
          "W in FLOP (OP when `integer`)")
      .def_property_readonly(
          "traffic_byte", [](const Count& c) { return c.k.traffic.value; },
          "compulsory Q in the bytes the code names")
      .def_property_readonly(
          "traffic_write_allocate_byte",
          [](const Count& c) { return c.k.traffic_write_allocate.value; },
          "Q with the read-for-ownership of stored arrays")
      .def_property_readonly(
          "intensity_flop_per_byte", [](const Count& c) { return c.k.intensity().value; },
          "I = W/Q")
      .def_property_readonly("blas_level", [](const Count& c) { return c.k.blas_level; })
      .def_property_readonly("work_formula", [](const Count& c) { return c.k.work_formula; })
      .def_property_readonly("traffic_formula", [](const Count& c) { return c.k.traffic_formula; })
      .def_property_readonly("note", [](const Count& c) { return c.k.note; })
      .def_property_readonly("integer", [](const Count& c) { return c.k.integer; })
      .def(
          "point",
          [](const Count& c, RealArg<"time_s"> time_s, const TextArg<"name">& name) {
            // A copy moves bytes and computes nothing: on the roofline it would sit at I = 0,
            // off the logarithmic axis.
            if (!(c.k.work.value > 0))
              throw InputError("kernel '" + c.k.kernel +
                               "' does no arithmetic (W = " + format_number(c.k.work.value) +
                               "), so it has no point on the roofline (I = W/Q = 0): time it "
                               "against the memory roofs (bandwidth_byte_per_s) instead");
            Point p;
            p.name = name.empty() ? c.k.kernel : name;
            p.work = c.k.work;
            p.traffic.push_back({"", c.k.traffic});
            p.time = Seconds(time_s);
            p.precision = c.dtype;
            // An axpy never runs on tensor cores: judged, as `roofline kernel` judges it, on its
            // dtype's vector roof (kernel_compute_roof and diagnose share vector_roof_for).
            p.vector_only = !c.k.matrix_product;
            p.source = "formula";
            p.validate();
            return p;
          },
          py::arg("time_s"), py::arg("name") = "",
          "The kernel as a Point that took time_s (W and compulsory Q from the count).")
      .def("to_dict",
           [](const Count& c) {
             // As `roofline kernel --json`: the counts, the data type and every parameter.
             return json_to_python(kernel_result_to_json(c.k, c.dtype, c.params));
           })
      .def("__repr__", [](const Count& c) {
        // The figures first, as `roofline kernel` prints them, then the formulas they come from.
        const UnitSystem u = c.k.integer ? UnitSystem::op() : UnitSystem::flop();
        return "<KernelCount " + terminal_safe(c.k.kernel + " (" + c.dtype + ")") +
               ": W=" + format_work(c.k.work, u) + " Q=" + format_bytes(c.k.traffic) +
               " I=" + format_intensity(c.k.intensity(), u) +
               " (W=" + terminal_safe(c.k.work_formula) +
               ", Q=" + terminal_safe(c.k.traffic_formula) + ")>";
      });
}

void register_kernel_functions(py::module_& m) {
  m.def(
      "kernel",
      [](const TextArg<"name">& name_arg, const TextArg<"dtype">& dtype, const py::kwargs& sizes) {
        const std::string& name = name_arg;
        std::map<std::string, double> s;
        for (const auto& [k, v] : sizes) {
          const std::string key = text_value(k, name + ": a size's name");
          // A number only: "1", None or 10**400 would otherwise raise pybind's "Unable to
          // cast".
          s[key] = number_of(v, name + ": size " + key);
        }
        return count_kernel(name, dtype, s);
      },
      py::arg("name"), py::arg("dtype") = "",
      "W, Q and I of a catalogue kernel, e.g. kernel('saxpy', n=1e8), kernel('gemm', m=N, n=N, "
      "k=N). dtype '' = the alias's (saxpy fp32, daxpy fp64) or the kernel's default. "
      "InputError for an unknown kernel (listing the names), a missing or unknown size.");

  m.def(
      "kernels",
      []() {
        py::list out;
        for (const auto& s : kernel_catalogue()) {
          py::dict d;
          d["name"] = s.name;
          d["aliases"] = s.aliases;
          d["params"] = s.params;
          // Optional sizes: those with a default, and every optional one by name (gemm's
          // cache has none: absent unless given).
          py::dict defaults;
          std::vector<std::string> optional;
          for (const auto& [name, value] : s.defaults) {
            optional.push_back(name);
            if (!std::isnan(value)) defaults[py::str(name)] = value;
          }
          d["defaults"] = defaults;
          d["optional"] = optional;
          d["default_dtype"] = s.default_dtype;
          d["description"] = s.description;
          out.append(d);
        }
        return out;
      },
      "The kernel catalogue (`roofline kernel list`): name, aliases, size parameters, optional "
      "ones and their defaults.");

  m.def(
      "dtypes",
      []() {
        py::list out;
        for (const auto& t : builtin_dtypes()) {
          py::dict d;
          d["name"] = t.name;
          d["bytes"] = t.bytes;
          d["integer"] = t.integer;
          d["description"] = t.description;
          out.append(d);
        }
        return out;
      },
      "The built-in data types and their storage bytes per element.");
}

}  // namespace

void register_kernels(py::module_& m) {
  register_kernel_count(m);
  register_kernel_functions(m);
}

}  // namespace roofline::python
