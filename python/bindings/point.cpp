// Point and diagnose(): the two-step diagnosis with its prescription (diagnosis.hpp), the
// same function `roofline point` calls.
#include <pybind11/stl.h>

#include <variant>

#include "common.hpp"
#include "roofline/check_io.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/text.hpp"

namespace roofline::python {

namespace {

using Traffic = std::variant<Real, py::dict>;

Point make_point(const std::string& name, Real work, const Traffic& traffic, Real time,
                 const std::string& precision, const std::string& source, const std::string& note) {
  Point p;
  p.name = name;
  p.work = Work(work);
  p.time = Seconds(time);
  p.precision = precision;
  p.source = source;
  p.note = note;
  if (const Real* q = std::get_if<Real>(&traffic)) {
    p.traffic.push_back({"", Bytes(*q)});
  } else {
    // A hierarchical point: bytes counted at each memory level (as --traffic-at LEVEL=Q), in
    // the order given (the first level is the one I is quoted at, as on the command line).
    for (const auto& [key, value] : std::get<py::dict>(traffic)) {
      if (!py::isinstance<py::str>(key))
        throw InputError("point '" + name + "': traffic: a level is named by a string (got " +
                         py::repr(key).cast<std::string>() + ")");
      const auto level = key.cast<std::string>();
      p.traffic.push_back(
          {level, Bytes(number_of(value, "point '" + name + "': traffic['" + level + "']"))});
    }
    if (p.traffic.empty()) throw InputError("point '" + name + "': traffic: no level given");
  }
  p.validate();
  return p;
}

void register_point_class(py::module_& m) {
  py::class_<Point>(m, "Point",
                    "A workload on the chart: work W (FLOP), traffic Q (bytes, per memory level "
                    "for a hierarchical point) and time T (s). I = W/Q, P = W/T.")
      .def(py::init(&make_point), py::arg("name"), py::arg("work_flop"), py::arg("traffic_byte"),
           py::arg("time_s"), py::arg("precision") = "", py::arg("source") = "python",
           py::arg("note") = "",
           "traffic_byte: bytes at the machine's default level, or a dict {level: bytes}. "
           "precision: a dtype or compute-roof name ('' = the machine's default). InputError "
           "naming the field when W, Q or T is not > 0 and finite.")
      .def_readonly("name", &Point::name)
      .def_property_readonly("work_flop", [](const Point& p) { return p.work.value; })
      .def_property_readonly("time_s", [](const Point& p) { return p.time.value; })
      .def_property_readonly(
          "traffic_byte", [](const Point& p) { return p.traffic.front().bytes.value; },
          "Q at the first (or only) level")
      .def_property_readonly(
          "traffic_by_level",
          [](const Point& p) {
            std::vector<std::pair<std::string, double>> out;
            for (const auto& t : p.traffic) out.emplace_back(t.level, t.bytes.value);
            return out;
          },
          "[(level, bytes)] in the order given; level '' = the machine's default")
      .def_readonly("precision", &Point::precision)
      .def_readonly("source", &Point::source)
      .def_readonly("note", &Point::note)
      .def_property_readonly(
          "performance_flop_per_s", [](const Point& p) { return p.performance().value; }, "P = W/T")
      .def_property_readonly(
          "intensity_flop_per_byte", [](const Point& p) { return p.intensity().value; },
          "I = W/Q at the first level")
      .def(
          "intensity_at", [](const Point& p, const std::string& l) { return p.intensity(l).value; },
          py::arg("level"), "I = W/Q at a level; InputError when the point has no such level")
      .def("to_dict", [](const Point& p) { return json_to_python(point_to_json(p)); })
      .def("__repr__", [](const Point& p) {
        return "<Point '" + terminal_safe(p.name) + "' I=" + format_intensity(p.intensity()) +
               " P=" + format_work_rate(p.performance()) + ">";
      });
}

void register_diagnosis(py::module_& m) {
  py::class_<LevelJudgement>(m, "LevelJudgement", "The point judged at one memory level.")
      .def_readonly("level", &LevelJudgement::level)
      .def_property_readonly("intensity_flop_per_byte",
                             [](const LevelJudgement& j) { return j.intensity.value; })
      .def_property_readonly("attainable_flop_per_s",
                             [](const LevelJudgement& j) { return j.attainable.value; })
      .def_readonly("attainment", &LevelJudgement::attainment, "P / attainable")
      .def_readonly("memory_side", &LevelJudgement::memory_side, "left of this level's ridge")
      .def_property_readonly("ridge_flop_per_byte",
                             [](const LevelJudgement& j) { return j.ridge.value; });

  py::class_<EmptyRoof>(m, "EmptyRoof", "A higher flat roof the point does not use.")
      .def_readonly("name", &EmptyRoof::name)
      .def_property_readonly("peak_flop_per_s", [](const EmptyRoof& e) { return e.peak.value; })
      .def_readonly("gain", &EmptyRoof::gain, "its peak ÷ the binding compute roof");

  struct Analysis {
    Point point;
    Diagnosis d;
    RoofSet roofs;
  };
  py::class_<Analysis>(m, "Diagnosis",
                       "The two-step diagnosis: is the point touching a roof, and which one; "
                       "the verdict, its title and what to do (docs/model.md).")
      .def_property_readonly(
          "verdict", [](const Analysis& a) { return to_string(a.d.verdict); },
          "far-below, memory-bound, compute-bound, faster-unit-unused or "
          "above-roof")
      .def_property_readonly("title", [](const Analysis& a) { return a.d.title; })
      .def_property_readonly(
          "prescription", [](const Analysis& a) { return a.d.prescription; }, "what to do")
      .def_property_readonly(
          "causes", [](const Analysis& a) { return a.d.causes; }, "above-roof: the likely causes")
      .def_property_readonly("notes", [](const Analysis& a) { return a.d.notes; })
      .def_property_readonly("compute_roof", [](const Analysis& a) { return a.d.compute_roof; })
      .def_property_readonly("binding_level", [](const Analysis& a) { return a.d.binding_level; })
      .def_property_readonly("binding_is_memory",
                             [](const Analysis& a) { return a.d.binding_is_memory; })
      .def_property_readonly("performance_flop_per_s",
                             [](const Analysis& a) { return a.d.performance.value; })
      .def_property_readonly("attainable_flop_per_s",
                             [](const Analysis& a) { return a.d.attainable.value; })
      .def_property_readonly("attainment", [](const Analysis& a) { return a.d.attainment; })
      .def_property_readonly(
          "headroom_factor", [](const Analysis& a) { return a.d.headroom.factor; },
          "binding roof ÷ P (> 1: headroom)")
      .def_property_readonly("headroom_decades",
                             [](const Analysis& a) { return a.d.headroom.decades; })
      .def_property_readonly("touching", [](const Analysis& a) { return a.d.touching; })
      .def_property_readonly("levels", [](const Analysis& a) { return a.d.levels; })
      .def_property_readonly("empty_roofs_above",
                             [](const Analysis& a) { return a.d.empty_roofs_above; })
      .def_property_readonly("point", [](const Analysis& a) { return a.point; })
      .def(
          "to_dict",
          [](const Analysis& a) { return json_to_python(analysis_to_json(a.point, a.d, a.roofs)); },
          "The same object as one entry of `roofline point --json`.")
      .def("__str__",
           [](const Analysis& a) {
             return terminal_safe_lines(render_point_analysis(a.point, a.d, a.roofs, false));
           })
      .def("__repr__", [](const Analysis& a) {
        return "<Diagnosis " + to_string(a.d.verdict) + ": " + terminal_safe(a.d.title) + ">";
      });

  m.def(
      "diagnose",
      [](const Point& p, const Machine& machine, Real touching, Real above,
         Real higher_roof_factor) {
        DiagnosisOptions o;
        o.touching = touching;
        o.above = above;
        o.higher_roof_factor = higher_roof_factor;
        return Analysis{p, diagnose(p, machine.doc.roofs, o), machine.doc.roofs};
      },
      py::arg("point"), py::arg("machine"), py::arg("touching") = 0.8, py::arg("above") = 1.05,
      py::arg("higher_roof_factor") = 1.5,
      "Diagnoses a point on a machine's roofs as `roofline point` does. touching: attainment at "
      "which the point is on its roof (0.8); above: attainment beyond which it is impossible "
      "(1.05); higher_roof_factor: how much higher an unused flat roof must be to be named.");
}

void register_check(py::module_& m) {
  // The gate (`roofline check`, docs/check.md): points from a file (with the spreads a run
  // writes) or a list of Points (no spreads: the assumed noise applies).
  auto checked = [](const py::object& o, const char* what) {
    if (py::isinstance<py::str>(o)) return load_checked_points(o.cast<std::string>());
    CheckedPoints c;
    try {
      c.doc.points = o.cast<std::vector<Point>>();
    } catch (const py::cast_error&) {
      throw InputError(std::string(what) + ": expected a points file path or a list of Point");
    }
    c.doc.origin = std::string("the ") + what + " list";  // what messages name it by
    c.spreads.resize(c.doc.points.size());
    return c;
  };
  m.def(
      "check",
      [checked](const py::object& points, const std::optional<Machine>& machine,
                const py::object& baseline, std::optional<Real> min_attainment,
                std::optional<Real> noise, const std::optional<std::string>& config,
                const std::string& precision) {
        CheckRequest req;
        if (config) req.config = load_check_config(*config);
        if (min_attainment) {
          if (!(*min_attainment > 0 && *min_attainment <= 1))
            throw InputError("min_attainment: expected a number in (0, 1] (got " +
                             format_number(*min_attainment) + ")");
          req.config.min_attainment = min_attainment;
        }
        if (noise) {
          if (!(*noise > 0 && *noise < kBlindNoise))
            throw InputError("noise: expected a number in (0, 1) (got " + format_number(*noise) +
                             "): a noise of 100% or more lets any slowdown pass");
          req.config.noise = noise;
        }
        check_gate_request(req.config, machine.has_value(), !baseline.is_none());
        req.points = checked(points, "points");
        if (machine) req.machine = machine->doc;
        if (!baseline.is_none()) req.baseline = checked(baseline, "baseline");
        req.precision = precision;
        return json_to_python(run_check(req).json);
      },
      py::arg("points"), py::arg("machine") = py::none(), py::arg("baseline") = py::none(),
      py::arg("min_attainment") = py::none(), py::arg("noise") = py::none(),
      py::arg("config") = py::none(), py::arg("precision") = "",
      "The CI gate of `roofline check`: each point held to a minimum attainment of its roof "
      "(needs machine) and, given a baseline (a points file or list of Point), to its earlier "
      "performance beyond the noise. Returns the object `roofline check --json` prints "
      "(schema roofline.check.result: passed, counts, points with status and why); raises "
      "roofline.InputError where the CLI exits 2.");
}

}  // namespace

void register_point(py::module_& m) {
  register_point_class(m);
  register_diagnosis(m);
  register_check(m);
}

}  // namespace roofline::python
