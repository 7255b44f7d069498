// Point and diagnose(): the two-step diagnosis with its prescription (diagnosis.hpp), the
// same function `roofline point` calls.
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <string_view>

#include "common.hpp"
#include "roofline/check_io.hpp"
#include "roofline/diagnosis.hpp"
#include "roofline/documents.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"
#include "roofline/text.hpp"

namespace roofline::python {
/// Point's traffic_byte: bytes at the default level (a Real), or bytes per level from any
/// mapping (a dict, types.MappingProxyType, a collections.abc.Mapping).
struct Traffic {
  double bytes = 0;
  py::object levels;  ///< the mapping; None for a number
};
}  // namespace roofline::python

namespace pybind11::detail {
template <>
struct type_caster<roofline::python::Traffic> {
  PYBIND11_TYPE_CASTER(roofline::python::Traffic, const_name("Union[float, Mapping[str, float]]"));
  bool load(handle src, bool convert) {
    // A number read by the one reader, its errors naming traffic_byte (a numpy array of
    // several, Decimal("1e400")).
    roofline::python::Real real;
    if (type_caster<roofline::python::Real>::load_named_real(src, convert, "traffic_byte", real)) {
      value.bytes = real.value;
      return true;
    }
    if (!src) return false;
    if (!(PyDict_Check(src.ptr()) ||
          isinstance(src, module_::import("collections.abc").attr("Mapping")))) {
      if (!convert) return false;  // an overload's first pass declines quietly
      // Named, as every argument of Point is: pybind's "incompatible constructor arguments"
      // listed the signature and said nothing of which argument or why. A quantity with its
      // unit ("1 GB") is no number here: the package's numbers are SI floats (docs/python.md).
      throw type_error("traffic_byte: expected a number (bytes) or a mapping {level: bytes} (got " +
                       std::string(str(type::handle_of(src).attr("__name__"))) + ")");
    }
    value.levels = reinterpret_borrow<object>(src);
    return true;
  }
  static handle cast(const roofline::python::Traffic& t, return_value_policy, handle) {
    return t.levels ? t.levels.inc_ref() : PyFloat_FromDouble(t.bytes);
  }
};
}  // namespace pybind11::detail

namespace roofline::python {

namespace {

Point make_point(const TextArg<"name">& name_arg, RealArg<"work_flop"> work, const Traffic& traffic,
                 RealArg<"time_s"> time, const TextArg<"precision">& precision,
                 const TextArg<"source">& source, const TextArg<"note">& note,
                 const TextArg<"work_unit">& work_unit, BoolArg<"vector_only"> vector_only) {
  const std::string& name = name_arg;
  Point p;
  p.name = name;
  p.work = Work(work);
  // What W counts, as `-W "2 TOP"` says it on the command line: FLOP or OP ('' = as the
  // precision's type says).
  const std::string given = lower(work_unit.value);
  const std::string unit = given == "flop" ? "FLOP" : given == "op" ? "OP" : "";
  if (!given.empty() && unit.empty())
    throw InputError("point '" + name + "': work_unit: '" + terminal_safe(work_unit.value) +
                     "': expected 'FLOP', 'OP' or '' (as the precision says)");
  p.work_unit = unit;
  p.time = Seconds(time);
  p.precision = precision.value;
  p.source = source.value;
  p.note = note.value;
  p.vector_only = vector_only;
  if (!traffic.levels) {
    p.traffic.push_back({"", Bytes(traffic.bytes)});
  } else {
    // A hierarchical point: bytes counted at each memory level (as --traffic-at LEVEL=Q), in
    // the order given (the first level is the one I is quoted at, as on the command line).
    // Its keys, each looked up (mapping[key]): a Mapping's items() need not yield tuples.
    for (const py::handle key_item : traffic.levels) {
      const py::object key = py::reinterpret_borrow<py::object>(key_item);
      const py::object value = traffic.levels[key];
      if (!py::isinstance<py::str>(key))
        throw InputError("point '" + name + "': traffic: a level is named by a string (got " +
                         py::repr(key).cast<std::string>() + ")");
      const std::string level = text_value(key, "point '" + name + "': traffic: a level's name");
      // "" would be read as the machine's default level; the CLI's --traffic-at refuses a
      // LEVEL=BYTES without its level.
      if (level.empty())
        throw InputError("point '" + name +
                         "': traffic_byte: a level's name is '' (name the memory level, e.g. "
                         "{'DRAM': 1e9}, or give a number for the default level)");
      // traffic[LEVEL], as Point::validate names the level in its messages.
      p.traffic.push_back(
          {level, Bytes(number_of(value, "point '" + name + "': traffic[" + level + "]"))});
    }
    if (p.traffic.empty()) throw InputError("point '" + name + "': traffic: no level given");
  }
  p.validate();
  return p;
}

/// Point's parameters in order; the first four are required.
constexpr const char* kPointParameters[] = {"name",   "work_flop", "traffic_byte",
                                            "time_s", "precision", "source",
                                            "note",   "work_unit", "vector_only"};
constexpr std::size_t kPointParameterCount = std::size(kPointParameters);
constexpr std::size_t kPointRequired = 4;

std::string type_name(const py::handle& o) {
  return py::str(py::type::of(o).attr("__name__"));
}

/// One argument read by its caster (the named ones raise their own TypeError); a caster that
/// declines (a TextArg given an int) is the TypeError naming the parameter.
template <class T>
T point_argument(const py::object& value, const char* name, const char* expected) {
  py::detail::make_caster<T> caster;
  if (!caster.load(value, true))
    throw py::type_error(std::string(name) + ": expected " + expected + " (got " +
                         type_name(value) + ")");
  return py::detail::cast_op<T>(std::move(caster));
}

/// The parameter a misnamed keyword meant: the one it starts (work → work_flop), else the one
/// within two edits (wrok_flop), else "".
std::string meant_parameter(const std::string& key) {
  for (const char* p : kPointParameters)
    if (std::string_view(p).rfind(key, 0) == 0) return p;
  for (const char* p : kPointParameters)
    if (edit_distance(key, p) <= 2) return p;
  return "";
}

/// Point(...) with its arguments matched to parameters here rather than by pybind: a keyword
/// Point has not ("work", the CLI's name), one given twice, one missing or too many arguments
/// is a TypeError naming it, where pybind listed the signature and the call ("incompatible
/// constructor arguments"); each value is then read by its parameter's caster, whose TypeError
/// names the parameter ("work_flop: expected a number (got str)"). The matching is in C++, not
/// a Python __init__, so no Python frame ever holds a Point whose construction failed (its
/// methods would read memory no Point was built in).
Point point_from_call(const py::args& args, const py::kwargs& kwargs) {
  if (args.size() > kPointParameterCount)
    throw py::type_error("Point: takes at most " + std::to_string(kPointParameterCount) +
                         " arguments (got " + std::to_string(args.size()) + ")");
  std::array<py::object, kPointParameterCount> given;
  for (std::size_t i = 0; i < args.size(); ++i) given[i] = args[i];
  for (const auto& [key_handle, value] : kwargs) {
    // A name UTF-8 cannot encode: the InputError naming it (a cast raised UnicodeEncodeError).
    const std::string key = text_value(key_handle, "Point(): a keyword's name");
    const auto* found = std::find_if(std::begin(kPointParameters), std::end(kPointParameters),
                                     [&](const char* p) { return key == p; });
    if (found == std::end(kPointParameters)) {
      const std::string all = join(kPointParameters, [](const char* p) { return p; });
      const std::string meant = meant_parameter(key);
      throw py::type_error("Point: no parameter '" + terminal_safe(key) + "'" +
                           (meant.empty() ? "" : " (did you mean '" + meant + "'?)") +
                           " (parameters: " + all + ")");
    }
    const auto index = static_cast<std::size_t>(found - std::begin(kPointParameters));
    if (given[index])
      throw py::type_error("Point: " + key + " given twice (by position and by keyword)");
    given[index] = py::reinterpret_borrow<py::object>(value);
  }
  std::string missing;
  for (std::size_t i = 0; i < kPointRequired; ++i)
    if (!given[i]) missing += (missing.empty() ? "" : ", ") + std::string(kPointParameters[i]);
  if (!missing.empty())
    throw py::type_error("Point: missing " + missing + " (W in FLOP, Q in bytes, T in s: numbers)");
  auto text = [&](std::size_t i, const char* fallback) {
    return given[i] ? given[i] : py::str(fallback);
  };
  return make_point(point_argument<TextArg<"name">>(given[0], "name", "a str"),
                    point_argument<RealArg<"work_flop">>(given[1], "work_flop", "a number"),
                    point_argument<Traffic>(given[2], "traffic_byte", "a number or a mapping"),
                    point_argument<RealArg<"time_s">>(given[3], "time_s", "a number"),
                    point_argument<TextArg<"precision">>(text(4, ""), "precision", "a str"),
                    point_argument<TextArg<"source">>(text(5, "python"), "source", "a str"),
                    point_argument<TextArg<"note">>(text(6, ""), "note", "a str"),
                    point_argument<TextArg<"work_unit">>(text(7, ""), "work_unit", "a str"),
                    point_argument<BoolArg<"vector_only">>(given[8] ? given[8] : py::bool_(false),
                                                           "vector_only", "a bool"));
}

/// The diagnosis's prose (title, prescription, causes, notes) names roofs and points from files:
/// escaped, as everything the package prints (a raw ESC reached print(d.title)).
std::vector<std::string> safe_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines) out.push_back(terminal_safe(l));
  return out;
}

void register_point_class(py::module_& m) {
  py::class_<Point>(m, "Point",
                    "A workload on the chart: work W (FLOP), traffic Q (bytes, per memory level "
                    "for a hierarchical point) and time T (s). I = W/Q, P = W/T.")
      .def(py::init(&point_from_call),
           "Point(name, work_flop, traffic_byte, time_s, precision='', source='python', note='', "
           "work_unit='', vector_only=False). "
           "work_flop, time_s: numbers in FLOP and s (a str such as '1 TFLOP' is a TypeError "
           "naming the parameter). traffic_byte: bytes at the machine's default level, or a "
           "dict {level: bytes}. precision: a dtype or compute-roof name ('' = the machine's "
           "default). work_unit: what W counts, 'FLOP' or 'OP' ('' = as the precision's type "
           "says: OP for int8). vector_only: the work runs on no matrix engine (no matrix "
           "product), so a dtype precision is judged on its vector roof where the machine has "
           "one, as `roofline kernel` judges such a kernel. InputError naming the field when W, "
           "Q or T is not > 0 and finite.")
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
      .def_readonly("vector_only", &Point::vector_only,
                    "the work runs on no matrix engine: judged on its dtype's vector roof where "
                    "the machine has one (a kernel's point that is no matrix product)")
      .def_property_readonly(
          "work_unit", [](const Point& p) { return stated_work_unit(p); },
          "what W counts: 'FLOP' or 'OP' as given, else as the precision's type says; '' when "
          "neither says (read in the unit of the roof the point is judged on)")
      .def_property_readonly(
          "performance_flop_per_s", [](const Point& p) { return p.performance().value; }, "P = W/T")
      .def_property_readonly(
          "intensity_flop_per_byte", [](const Point& p) { return p.intensity().value; },
          "I = W/Q at the first level given (the only one of a plain point), the I the CLI "
          "quotes and the chart's x. A point with traffic at several levels has one I per "
          "level (docs/model.md §4: I_L = W/Q_L; intensity_by_level, intensity_at), and "
          "diagnose() judges each on its own roof: the binding one (Diagnosis.binding_level, "
          "Diagnosis.levels) need not be the first.")
      .def_property_readonly(
          "intensity_by_level",
          [](const Point& p) {
            std::vector<std::pair<std::string, double>> out;
            for (const auto& t : p.traffic) out.emplace_back(t.level, (p.work / t.bytes).value);
            return out;
          },
          "[(level, I = W/Q at that level)] in the order given, as traffic_by_level; level '' "
          "= the machine's default")
      .def(
          "intensity_at",
          [](const Point& p, const TextArg<"level">& l) { return p.intensity(l.value).value; },
          py::arg("level"), "I = W/Q at a level; InputError when the point has no such level")
      .def("to_dict", [](const Point& p) { return json_to_python(point_to_json(p)); })
      // copy and deepcopy: the C++ value's copy. pickle (Point.__reduce__ in
      // python/roofline/__init__.py): a points document of the one point, the JSON to_dict()
      // is in `roofline point --points`'s form, read back by the points files' reader.
      .def("__copy__", [](const Point& p) { return p; })
      .def(
          "__deepcopy__", [](const Point& p, const py::handle&) { return p; }, py::arg("memo"))
      .def("_state",
           [](const Point& p) {
             PointsDocument d;
             d.points.push_back(p);
             return py::make_tuple(py::bytes(points_to_json(d).dump()));
           })
      .def_static("_from_state",
                  [](const std::string& text) {
                    // What _state() wrote: one point (a state made by hand holding none or two is
                    // said, not read as its first point or an index past the end).
                    const std::string origin = "a pickled Point";
                    auto points = points_from_json(parse_json(text, origin), origin).points;
                    if (points.size() != 1)
                      throw InputError(origin + ": its state holds " +
                                       std::to_string(points.size()) + " points, expected 1");
                    return points.front();
                  })
      .def("__repr__", [](const Point& p) {
        // In the units its W counts (OP/byte, OP/s for int8), as `roofline point` reads it
        // before it is judged.
        const UnitSystem u = point_units(p, UnitSystem{});
        return "<Point '" + terminal_safe(p.name) + "' I=" + format_intensity(p.intensity(), u) +
               " P=" + format_work_rate(p.performance(), u) + ">";
      });
}

/// A level's judgement and an empty roof as Python holds them: with the units the CLI prints
/// them in (judged_units: OP/byte and OP/s on an integer roof; an empty roof in its own roof's,
/// RoofSet::units_of), which the structs alone do not know.
struct LevelJudgementView : LevelJudgement {
  UnitSystem units;
};
struct EmptyRoofView : EmptyRoof {
  UnitSystem units;
};

std::string level_judgement_repr(const LevelJudgementView& j) {
  return "<LevelJudgement '" + terminal_safe(j.level) +
         "' I=" + format_intensity(j.intensity, j.units) + ": " + j.attainment_percent + "% of " +
         format_work_rate(j.attainable, j.units) + ", " +
         (j.memory_side ? "memory-bound" : "compute-bound") + ">";
}

std::string empty_roof_repr(const EmptyRoofView& e) {
  return "<EmptyRoof '" + terminal_safe(e.name) + "' " + format_work_rate(e.peak, e.units) +
         ", gain " + format_number(e.gain, 4) + "x>";
}

/// What Python's Diagnosis holds: the point as judged, its diagnosis and the roofs.
struct Analysis {
  Point point;
  Diagnosis d;
  RoofSet roofs;
};

std::vector<LevelJudgementView> level_views(const Analysis& a) {
  const UnitSystem u = judged_units(a.roofs, a.d);
  std::vector<LevelJudgementView> out;
  for (const auto& j : a.d.levels) {
    LevelJudgementView v;
    static_cast<LevelJudgement&>(v) = j;
    v.units = u;
    out.push_back(v);
  }
  return out;
}

std::vector<EmptyRoofView> empty_roof_views(const Analysis& a) {
  std::vector<EmptyRoofView> out;
  for (const auto& e : a.d.empty_roofs_above) {
    EmptyRoofView v;
    static_cast<EmptyRoof&>(v) = e;
    const ComputeRoof* roof = a.roofs.find_compute(e.name);
    v.units = roof != nullptr ? a.roofs.units_of(*roof) : a.roofs.units;
    out.push_back(v);
  }
  return out;
}

/// diagnose(): as `roofline point` judges it. Traffic at a level the machine has no roof for is
/// left out, the point judged at its other levels, with a warning; a point left with none is
/// refused.
Analysis diagnose_point(const py::object& point, const MachineArg<"machine">& given,
                        RealArg<"touching"> touching, RealArg<"above"> above,
                        RealArg<"higher_roof_factor"> higher_roof_factor) {
  if (!py::isinstance<Point>(point))
    throw py::type_error("point: expected a roofline.Point (got " + type_name(point) + ")");
  const Point& p = point.cast<const Point&>();
  const Machine& machine = given;
  DiagnosisOptions o;
  o.touching = touching;
  o.above = above;
  o.higher_roof_factor = higher_roof_factor;
  FittedPoints fitted = fit_to_roofs({p}, machine.doc.roofs);
  if (fitted.points.empty()) (void)diagnose(p, machine.doc.roofs, o);  // says why
  warn_each("roofline.diagnose", fitted.warnings);
  const Point& judged = fitted.points.front();
  return Analysis{judged, diagnose(judged, machine.doc.roofs, o), machine.doc.roofs};
}

void register_diagnosis(py::module_& m) {
  py::class_<LevelJudgementView>(m, "LevelJudgement", "The point judged at one memory level.")
      .def_readonly("level", &LevelJudgement::level)
      .def_property_readonly("intensity_flop_per_byte",
                             [](const LevelJudgementView& j) { return j.intensity.value; })
      .def_property_readonly("attainable_flop_per_s",
                             [](const LevelJudgementView& j) { return j.attainable.value; })
      .def_readonly("attainment", &LevelJudgement::attainment, "P / attainable")
      .def_readonly("memory_side", &LevelJudgement::memory_side, "left of this level's ridge")
      .def_property_readonly("ridge_flop_per_byte",
                             [](const LevelJudgementView& j) { return j.ridge.value; })
      .def("__repr__", &level_judgement_repr);

  py::class_<EmptyRoofView>(m, "EmptyRoof", "A higher flat roof the point does not use.")
      .def_readonly("name", &EmptyRoof::name)
      .def_property_readonly("peak_flop_per_s", [](const EmptyRoofView& e) { return e.peak.value; })
      .def_readonly("gain", &EmptyRoof::gain, "its peak ÷ the binding compute roof")
      .def("__repr__", &empty_roof_repr);

  py::class_<Analysis>(m, "Diagnosis",
                       "The two-step diagnosis: is the point touching a roof, and which one; "
                       "the verdict, its title and what to do (docs/model.md).")
      .def_property_readonly(
          "verdict", [](const Analysis& a) { return to_string(a.d.verdict); },
          "far-below, just-below (from 80% of its roof up to a touching threshold above 0.8), "
          "memory-bound, compute-bound, faster-unit-unused or above-roof")
      // Escaped as everything printed is: it names roofs, which come from files.
      .def_property_readonly("title", [](const Analysis& a) { return terminal_safe(a.d.title); })
      .def_property_readonly(
          "prescription", [](const Analysis& a) { return terminal_safe(a.d.prescription); },
          "what to do")
      .def_property_readonly(
          "causes", [](const Analysis& a) { return safe_lines(a.d.causes); },
          "above-roof: the likely causes")
      .def_property_readonly("notes", [](const Analysis& a) { return safe_lines(a.d.notes); })
      .def_property_readonly("compute_roof", [](const Analysis& a) { return a.d.compute_roof; })
      .def_property_readonly("binding_level", [](const Analysis& a) { return a.d.binding_level; })
      .def_property_readonly("binding_is_memory",
                             [](const Analysis& a) { return a.d.binding_is_memory; })
      .def_property_readonly(
          "intensity_flop_per_byte", [](const Analysis& a) { return binding_intensity(a.d).value; },
          "I at the binding level (docs/model.md §6: a hierarchical point's headline I, where "
          "the chart draws it and the `intensity` of to_dict()), which need not be the first "
          "level's Point.intensity_flop_per_byte")
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
      .def_property_readonly("levels", &level_views)
      .def_property_readonly("empty_roofs_above", &empty_roof_views)
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

  m.def("diagnose", &diagnose_point, py::arg("point"), py::arg("machine"),
        py::arg("touching") = 0.8, py::arg("above") = 1.05, py::arg("higher_roof_factor") = 1.5,
        "Diagnoses a point on a machine's roofs as `roofline point` does. touching: attainment at "
        "which the point is on its roof (0.8); above: attainment beyond which it is impossible "
        "(1.05); higher_roof_factor: how much higher an unused flat roof must be to be named.");
}

/// Points given to check(): a points file (a str or an os.PathLike such as pathlib.Path) or a
/// list of Point. A path is kept to be read once the request is known to be complete.
struct PointsArg {
  std::optional<std::string> path;
  std::vector<Point> points;
};

PointsArg points_arg(const py::object& o, const std::string& what) {
  const std::string expected = what + ": expected a points file's path (a str or an os.PathLike) " +
                               "or a list of Point (got ";
  if (auto path = path_arg(o, what)) return PointsArg{std::move(path), {}};
  // A str or bytes is a sequence of characters, a dict a mapping: neither is a list of Point.
  if (py::isinstance<py::bytes>(o) || !PySequence_Check(o.ptr()) || PyDict_Check(o.ptr()))
    throw py::type_error(expected + type_name(o) + ")");
  PointsArg a;
  for (const py::handle item : o) {
    if (!py::isinstance<Point>(item))
      throw py::type_error(expected + with_article(type_name(o)) + " holding " +
                           with_article(type_name(item)) + ")");
    a.points.push_back(item.cast<Point>());
  }
  return a;
}

CheckedPoints checked_points(const PointsArg& a, const std::string& what) {
  if (a.path) return load_checked_points(*a.path);
  CheckedPoints c;
  c.doc.points = a.points;
  c.doc.origin = "the " + what + " list";  // what messages name it by
  c.spreads.resize(c.doc.points.size());
  return c;
}

void check_thresholds(CheckConfig& config, std::optional<RealArg<"min_attainment">> min_attainment,
                      std::optional<RealArg<"noise">> noise) {
  if (min_attainment) {
    if (!(*min_attainment > 0 && *min_attainment <= 1))
      throw InputError("min_attainment: expected a number in (0, 1] (got " +
                       format_number(*min_attainment) + ")");
    config.min_attainment = static_cast<double>(*min_attainment);
    config.min_attainment_from = "min_attainment";  // the CLI's "--min-attainment"
  }
  if (noise) {
    const std::string got =
        "noise: expected a number in (0, 1) (got " + format_number(*noise) + ")";
    if (std::isnan(*noise)) throw InputError(got);
    if (!(*noise > 0))
      throw InputError(got + ": the noise is how far a rerun may differ from its baseline, so " +
                       "it is more than 0 (with none, every difference would be a change)");
    if (!(*noise < kBlindNoise))
      throw InputError(got + ": a noise of 100% or more is too noisy to judge");
    config.noise = static_cast<double>(*noise);
    config.noise_from = "noise";  // the CLI's "--noise"
  }
}

void register_check(py::module_& m) {
  // The gate (`roofline check`, docs/check.md): points from a file (with the spreads a run
  // writes) or a list of Points (no spreads: the assumed noise applies).
  m.def(
      "check",
      [](const py::object& points, const std::optional<MachineArg<"machine">>& machine,
         const py::object& baseline, std::optional<RealArg<"min_attainment">> min_attainment,
         std::optional<RealArg<"noise">> noise, const py::object& config,
         const TextArg<"precision">& precision) {
        // Every argument's type first, then the values, as a call with a wrong type gives a
        // TypeError whatever else is missing.
        const PointsArg now = points_arg(points, "points");
        std::optional<PointsArg> before;
        if (!baseline.is_none()) before = points_arg(baseline, "baseline");
        std::optional<std::string> config_path;
        if (!config.is_none()) {
          config_path = path_arg(config, "config");
          if (!config_path)
            throw py::type_error(
                "config: expected a check config's path (a str or an "
                "os.PathLike) or None (got " +
                type_name(config) + ")");
        }
        CheckRequest req;
        if (config_path) req.config = load_check_config(*config_path);
        check_thresholds(req.config, min_attainment, noise);
        // The CLI's message names its flags (--machine FILE|NAME, or --peak and --bandwidth);
        // check() takes its roofs as one argument, machine.
        if (!machine && (req.config.min_attainment || !req.config.rules.empty()))
          throw InputError(
              "a minimum attainment needs roofs: give machine= (a roofline.Machine, such as "
              "Machine.from_roofs(peak_flop_per_s, bandwidth_byte_per_s), a catalogue name or a "
              "machine document's path)");
        check_gate_request(req.config, machine.has_value(), before.has_value());
        req.points = checked_points(now, "points");
        if (machine) req.machine = machine->value.doc;
        if (before) req.baseline = checked_points(*before, "baseline");
        req.precision = precision.value;
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

/// A points document as Python reads it (`load_points`): its points, and its runs that are no
/// point (a copy's bandwidth, W = 0) as every command lists them.
void register_points_document(py::module_& m) {
  py::class_<PointLeftOut>(m, "NotPoint",
                           "A run a points document holds that is no point: a bandwidth run of "
                           "`roofline run` (copy: W = 0, so no intensity), which plot, point, "
                           "check and diff list as not drawn, placed, judged or compared.")
      .def_readonly("name", &PointLeftOut::name, "named as a run's point is: 'copy @L1'")
      .def_readonly("reason", &PointLeftOut::reason, "short: 'no arithmetic, W = 0'")
      .def_readonly("detail", &PointLeftOut::detail,
                    "the whole message, with its bandwidth Q/T where the document gives it")
      .def_property_readonly(
          "traffic_byte",
          [](const PointLeftOut& n) {
            return n.traffic.empty() ? 0.0 : n.traffic.front().bytes.value;
          },
          "Q: its bytes per call at its first level, the run's own, as Point.traffic_byte (a run "
          "lists the same Q at each level below it); 0 when the document gives none")
      .def_property_readonly(
          "traffic_by_level",
          [](const PointLeftOut& n) {
            std::vector<std::pair<std::string, double>> out;
            for (const auto& t : n.traffic) out.emplace_back(t.level, t.bytes.value);
            return out;
          },
          "[(level, bytes)] in the order given")
      .def_property_readonly(
          "time_s",
          [](const PointLeftOut& n) { return n.time > 0 ? std::optional(n.time) : std::nullopt; },
          "T: seconds per call (the sustained repetition), None when the document gives none")
      .def(
          "to_dict", [](const PointLeftOut& n) { return json_to_python(left_out_to_json(n)); },
          "The entry `roofline plot --report x.json` lists it with under not_drawn, and `diff "
          "--json` under not_compared_a/_b")
      .def("__repr__", [](const PointLeftOut& n) {
        return "<NotPoint " + quoted(n.name) + ": " +
               terminal_safe(bandwidth_run_note(n, "", "", true)) + ">";
      });
  py::class_<PointsDocument>(m, "PointsDocument",
                             "A points document (schema roofline.points) as load_points reads "
                             "it, as the CLI's commands read one.")
      .def_readonly("points", &PointsDocument::points)
      .def_readonly("not_points", &PointsDocument::not_points,
                    "its runs that are no point (NotPoint: a bandwidth run, W = 0)")
      .def_readonly("machine", &PointsDocument::machine,
                    "the machine the points were taken on ('' when not given)")
      .def_property_readonly(
          "units",
          [](const PointsDocument& d) { return std::make_pair(d.units.work, d.units.traffic); },
          "(work, traffic): ('FLOP', 'byte') unless the document says otherwise")
      .def_readonly("origin", &PointsDocument::origin, "the path it was read from")
      .def("__repr__", [](const PointsDocument& d) {
        return "<PointsDocument " + quoted(d.origin) + ": " + std::to_string(d.points.size()) +
               (d.points.size() == 1 ? " point" : " points") +
               (d.not_points.empty()
                    ? std::string()
                    : ", " + std::to_string(d.not_points.size()) +
                          (d.not_points.size() == 1 ? " bandwidth run" : " bandwidth runs")) +
               ">";
      });
  m.def(
      "load_points", [](const PathArg<"path">& path) { return load_points_file(path.value); },
      py::arg("path"),
      "A points document (what `roofline run -o`, `import` and `profile` write) read as the "
      "CLI's commands read it: `points` (Point) and `not_points` (NotPoint: its bandwidth runs, "
      "W = 0, which are no point).");
}

}  // namespace

void register_point(py::module_& m) {
  register_point_class(m);
  register_diagnosis(m);
  register_check(m);
  register_points_document(m);
}

}  // namespace roofline::python
