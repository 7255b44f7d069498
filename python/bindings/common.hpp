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

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "roofline/diagnosis.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/point.hpp"

namespace roofline::python {

namespace py = pybind11;

/// A float argument: what Python's float() takes (int, float, numpy's numbers, Fraction,
/// Decimal), but not a bool, whose True pybind's own double would read as 1.0. Signatures and
/// stubs show it as `float`; a bool gives the TypeError of any argument of the wrong type, an
/// int beyond a float's range (10**400) an InputError saying so (real_value).
struct Real {
  double value = 0;
  operator double() const { return value; }  // NOLINT(google-explicit-constructor)
};

/// An int argument (is_integer): an int or what has __index__, read through it. A bool, a
/// float (2.0 too), a Decimal, a Fraction or numpy's floats is the TypeError of any argument of
/// the wrong type (pybind's own int took True as 1 and cut 2.7 to 2); an int beyond a C int an
/// InputError.
struct Int {
  int value = 0;
  operator int() const { return value; }  // NOLINT(google-explicit-constructor)
};

/// A bool argument: Python's bool or numpy's (is_bool), nothing else. pybind's own bool read
/// any object with __bool__ in its converting pass, so 0.5 and 2 ran as True while "no" was a
/// TypeError; here every value that is not a bool is the TypeError of any argument of the wrong
/// type. Signatures and stubs show it as `bool`.
struct Bool {
  bool value = false;
  operator bool() const { return value; }  // NOLINT(google-explicit-constructor)
};

/// A parameter's name as a template argument (`PathArg<"path">`).
template <std::size_t N>
struct ArgName {
  constexpr ArgName(const char (&s)[N]) {  // NOLINT(google-explicit-constructor)
    std::copy_n(s, N, text);
  }
  char text[N] = {};
};

/// A bool argument named NAME: Bool, and a TypeError naming the parameter for anything else.
template <ArgName Name>
struct BoolArg : Bool {};

/// A float argument named NAME: Real, and a TypeError naming the parameter for anything else
/// ("batch: expected a number (got str)"), where the unnamed Real gave pybind's "incompatible
/// function arguments" with the whole signature.
template <ArgName Name>
struct RealArg : Real {};

/// An int argument named NAME: Int, and a TypeError naming the parameter for anything else
/// ("threads: expected an int (got float)"), as the LLM functions' tp says it.
template <ArgName Name>
struct IntArg : Int {};

/// A path argument named NAME (path_arg): a str, or an os.PathLike giving one (pathlib.Path).
/// bytes, or an os.PathLike giving bytes, is a TypeError naming the parameter ("path: a path is
/// a str or an os.PathLike giving one, not bytes"), where pybind's own std::string and
/// std::filesystem::path took bytes; anything else the TypeError of any argument of the wrong
/// type. Signatures show it as `Union[str, os.PathLike]`.
template <ArgName Name>
struct PathArg {
  std::string value;
  operator const std::string&() const { return value; }  // NOLINT(google-explicit-constructor)
};

/// A str argument named NAME: its UTF-8 text (text_value), so that a str UTF-8 cannot encode
/// (a lone surrogate, "a\ud800b") is an InputError naming the parameter where pybind's own
/// std::string gave "incompatible function arguments". Anything else, bytes too, is a TypeError
/// naming the parameter ("name: expected a str (got bytes)"): pybind's own std::string took
/// bytes as they were, so b"\xff" became a name no str could give back (.name, to_dict() and
/// pickle then raised UnicodeDecodeError). Signatures show it as `str`.
template <ArgName Name>
struct TextArg {
  std::string value;
  operator const std::string&() const { return value; }  // NOLINT(google-explicit-constructor)
  bool empty() const { return value.empty(); }
};

/// Several machines drawn or compared together, as the CLI takes them (`plot --compare`,
/// `hw compare`): one machine given twice is refused, and machines of one document name are
/// told apart by their file names (`vm (before.json)`), else by their place (`vm (#2)`).
/// `given[k]` is the name machines[k] was asked by (Machine::given), "" where none: messages
/// name each as the user typed it ("'h100-sxm' and 'h100' are one machine"), as the CLI does.
void distinct_machines(std::vector<MachineDocument>& machines,
                       const std::vector<std::string>& given, const std::string& who);

/// A name from a file in a repr: escaped (terminal_safe) and in single quotes ("'H100'").
std::string quoted(const std::string& name);
/// A fraction in a repr as a percentage in the tables' digits ("97.5%").
std::string percent(double fraction);

/// Each line as a UserWarning beginning with `who` (e.g. "roofline.diagnose: …").
void warn_each(const std::string& who, const std::vector<std::string>& lines);

/// What a comparison of machines at these roofs (one per machine) warns, as `hw compare` does, as
/// UserWarnings (python -W error: errors) from `who`: a roof that accumulates narrower than fp32
/// against full-precision ones (narrow_against_full), and with `mixed` the roofs' precisions
/// differing (mixed_precisions: default roofs compared without precision=).
void warn_comparison(const std::vector<const RoofSet*>& sets, const std::vector<std::string>& roofs,
                     bool mixed, const std::string& who);

/// What Python's Machine holds: a machine document (measured, catalogued or given roofs).
struct Machine {
  MachineDocument doc;
  /// The catalogue name, alias or path it was asked by, as typed ("h100" for h100-sxm's entry);
  /// "" for a machine made otherwise (measured, given roofs, unpickled).
  std::string given{};
};

/// A machine argument named NAME: a roofline.Machine, or what Machine() takes (a catalogue name
/// or the path of a machine document: a str or an os.PathLike), as the CLI's --hw takes either;
/// anything else a TypeError naming the parameter. An unknown name is Machine()'s InputError
/// ("unknown machine ... did you mean"), not pybind's "incompatible function arguments".
/// Signatures show it as `Union[Machine, str, os.PathLike]`. Every function of the package that
/// takes a machine reads it so: the bindings through this caster, Python's side (Chart,
/// roofline.torch) through machine_arg, which the caster calls.
template <ArgName Name>
struct MachineArg {
  Machine value;
  operator const Machine&() const { return value; }  // NOLINT(google-explicit-constructor)
};

/// What a machine argument may be, as its TypeError says it.
inline constexpr const char* kMachineExpected =
    "a roofline.Machine, a catalogue name or a machine document's path";

/// A machine argument (MachineArg's rule) read from `value`, `name` naming it in the TypeError
/// ("NAME: expected a roofline.Machine, ... (got int)"); Python's side calls it as
/// `_roofline._machine`.
Machine machine_arg(const py::handle& value, const std::string& name);

/// Several machines (compare's `machines`): a list or another sequence, not a str, each read by
/// machine_arg and named by its place ("machines[1]: expected ..."); anything else the TypeError
/// naming `name`.
std::vector<Machine> machines_arg(const py::handle& value, const std::string& name);

/// A chart's inputs: the machine, optional overlays and points (report.hpp's ReportInput).
struct ChartSpec {
  std::vector<MachineDocument> machines;
  std::vector<Point> points;
  std::string title;
  std::optional<double> workload_line;
  std::string workload_precision;  ///< the precision the machines are compared at ("": defaults)
  bool no_overlap_curve = false;
  /// The points given that the chart leaves out, with why (fit_to_roofs): drawn as a line in the
  /// chart, listed by Chart.not_drawn() and to_dict().
  std::vector<PointLeftOut> not_drawn;
  /// What the chart's numbers assume that does not hold (llm.chart: the report's warnings), and
  /// the points (indices into `points`) whose configuration does not fit in memory
  /// (ReportInput::warnings, does_not_fit).
  std::vector<std::string> warnings;
  std::map<size_t, std::string> does_not_fit;
};
std::string chart_svg(const ChartSpec& c);
std::string chart_html(const ChartSpec& c);

/// JSON from the library as a Python object (json.loads of its text, written as the CLI's
/// --json writes it: json_text, whose ill-formed UTF-8 of a file name becomes U+FFFD;
/// register_errors looks json.loads up, so it must run first).
py::object json_to_python(const nlohmann::json& j);

/// Whether `v` is a bool: Python's, or numpy's (`numpy.bool_`, numpy 2's `numpy.bool`: no bool
/// subclass, but its True reads as 1 all the same). The one test of the package: Python's
/// side calls it as `_roofline._is_bool`.
bool is_bool(const py::handle& v);

/// Whether `v` is a real number float() reads: a float, what has __index__ (int, numpy's
/// integers) or __float__ (numpy's floats, Fraction, Decimal); not a bool (is_bool), whose True
/// would read as 1, nor a str or a complex. Python's side calls it as `_roofline._is_real`.
bool is_real(const py::handle& v);

/// Whether `v` is an integer: an int or what has __index__ (numpy's integers), not a bool
/// (is_bool). A float is none, even 2.0 (it has no __index__), nor is a Decimal, a Fraction or
/// numpy's floats: their int() would cut 2.7 to 2.
bool is_integer(const py::handle& v);

/// The value of an integer (is_integer) read through __index__, or nullopt beyond a C int; an
/// exception __index__ raises is real_value's.
std::optional<int> int_value(const py::handle& v, const std::string& what);

/// The value of a real number (is_real), through __index__ where it has one (an int, exactly
/// rounded) and else __float__. Raised by them: an OverflowError is an InputError naming `what`
/// ("WHAT is out of range (an integer of 401 digits)"; `what` "" says "a number"); a value
/// __float__ reads as inf or 0 that is neither (Decimal("1e400"), Decimal("1e-400")) is that
/// InputError naming the value given, not a rounded value judged later; an exception
/// that is no Exception (KeyboardInterrupt, SystemExit) or a MemoryError propagates as it is;
/// any other becomes a TypeError naming `what`, chained to it.
double real_value(const py::handle& v, const std::string& what);

/// The UTF-8 text of a str. A str that UTF-8 cannot encode (a lone surrogate, "a\ud800b",
/// which pybind's own std::string refused as "incompatible function arguments" and a cast as a
/// bare RuntimeError) is an InputError naming `what` and the first surrogate and its index; a
/// value that is no str the TypeError naming `what` ("WHAT must be a str (got int)").
std::string text_value(const py::handle& v, const std::string& what);

/// A file name or a text derived from one (a path, a document's origin, a model named by its
/// folder) as Python's str: os.fsdecode's (surrogateescape), so that a name that is no UTF-8
/// (os.fsdecode(b"m\xe9.json")) comes back as the str the user gave, where pybind's own
/// std::string raised UnicodeDecodeError.
py::str fs_text(const std::string& name);

/// The InputError of a str holding a lone surrogate (text_value's, path_arg's), naming `what`.
[[noreturn]] void refuse_surrogate(const py::handle& str, const std::string& what);

/// "a WORD" or "an WORD" by the word's first letter ("an int", "a ndarray"), as a message names a
/// type.
std::string with_article(const std::string& word);

/// An int as a message shows it: its digits, or "an integer of N digits" when it has more than
/// 30.
std::string int_text(const py::handle& v);

/// A Python int or float as a double: InputError naming `what` for anything else ("must be a
/// number (got str)"), and real_value's errors.
double number_of(const py::handle& v, const std::string& what);

/// A path argument: a str, or an os.PathLike whose __fspath__ gives a str (pathlib.Path);
/// nullopt for anything else. bytes (or an os.PathLike giving bytes) is a TypeError naming
/// `what`: the library's paths are text.
std::optional<std::string> path_arg(const py::handle& o, const std::string& what);

/// Numbers (energy's `intensities`): a list or another iterable, not a str, each a real number
/// (is_real, read by real_value) named by its place ("intensities[1]: expected a number (got
/// str)"); anything else the TypeError naming `name`.
std::vector<double> reals_arg(const py::handle& value, const std::string& name);

/// A library message as Python says it: each CLI flag a Python parameter takes the value of
/// named as that parameter ("--tp 3: must divide ..." → "tp 3: must divide ...", "--threads" →
/// "threads"); other flags and text as they are (messages.cpp holds the table).
std::string python_message(const std::string& message);

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
/// Makes every function of `m` (its classes', its submodules') refuse a keyword whose name
/// UTF-8 cannot encode with an InputError naming the function, before pybind11 sees it: its
/// "incompatible function arguments" message aborted the interpreter on such a name.
void check_keyword_names(py::module_& m);

}  // namespace roofline::python

namespace pybind11::detail {
template <>
struct type_caster<roofline::python::Real> {
  PYBIND11_TYPE_CASTER(roofline::python::Real, const_name("float"));
  bool load(handle src, bool convert) {
    // As pybind's double: without conversions (an overload's first pass) a float only. Errors
    // raised while reading the number propagate from here (pybind11 passes on an exception a
    // caster throws), so 10**400 is no "incompatible function arguments".
    return load_named_real(src, convert, "", value);
  }
  /// The load of a Real named `name` ("" where the parameter has no name here): its errors
  /// (10**400, Decimal("1e400"), a numpy array) name it and the value given (real_value).
  static bool load_named_real(handle src, bool convert, const char* name,
                              roofline::python::Real& out) {
    if (!src || !roofline::python::is_real(src)) return false;
    if (!convert && !PyFloat_Check(src.ptr())) return false;
    out.value = roofline::python::real_value(src, name);
    return true;
  }
  static handle cast(roofline::python::Real v, return_value_policy, handle) {
    return PyFloat_FromDouble(v.value);
  }
};

template <>
struct type_caster<roofline::python::Int> {
  PYBIND11_TYPE_CASTER(roofline::python::Int, const_name("int"));
  bool load(handle src, bool) { return load_named_int(src, "", value); }
  /// The load of an Int named `name` ("" where the parameter has no name here), its errors
  /// naming it.
  static bool load_named_int(handle src, const char* name, roofline::python::Int& out) {
    if (!src || !roofline::python::is_integer(src)) return false;
    if (const auto v = roofline::python::int_value(src, name)) {
      out.value = *v;
      return true;
    }
    throw roofline::InputError(std::string(*name != 0 ? name : "an int argument") +
                               " is out of range (" + roofline::python::int_text(src) +
                               "; from -2147483648 to 2147483647)");
  }
  static handle cast(roofline::python::Int v, return_value_policy, handle) {
    return PyLong_FromLong(v.value);
  }
};

template <>
struct type_caster<roofline::python::Bool> {
  PYBIND11_TYPE_CASTER(roofline::python::Bool, const_name("bool"));
  bool load(handle src, bool) {
    if (!src || !roofline::python::is_bool(src)) return false;
    const int truth = PyObject_IsTrue(src.ptr());
    if (truth < 0) throw error_already_set();
    value.value = truth == 1;
    return true;
  }
  static handle cast(roofline::python::Bool v, return_value_policy, handle) {
    return handle(v.value ? Py_True : Py_False).inc_ref();
  }
};

/// What the named casters share: the plain caster's value, else a TypeError naming the
/// parameter ("NAME: expected WHAT (got TYPE)"); an overload's first pass (no conversions)
/// declines quietly, so the next overload is still tried.
template <class Plain>
bool load_named(handle src, bool convert, const char* name, const char* expected, Plain& out) {
  make_caster<Plain> plain;
  if (plain.load(src, convert)) {
    out = cast_op<Plain>(plain);
    return true;
  }
  if (!src || !convert) return false;
  throw type_error(std::string(name) + ": expected " + expected + " (got " +
                   std::string(str(type::handle_of(src).attr("__name__"))) + ")");
}

/// A named bool (BoolArg): anything but a bool is a TypeError naming the parameter, as a bool
/// keyword's is ("sequence_parallel: expected a bool (got float)"), where the unnamed Bool gave
/// pybind's "incompatible function arguments".
template <roofline::python::ArgName Name>
struct type_caster<roofline::python::BoolArg<Name>> {
  PYBIND11_TYPE_CASTER(roofline::python::BoolArg<Name>, const_name("bool"));
  bool load(handle src, bool convert) {
    return load_named<roofline::python::Bool>(src, convert, Name.text, "a bool", value);
  }
  static handle cast(roofline::python::BoolArg<Name> v, return_value_policy, handle) {
    return handle(v.value ? Py_True : Py_False).inc_ref();
  }
};

/// A named float (RealArg): what Real takes; anything else a TypeError naming the parameter.
/// An overload's first pass (no conversions) still declines quietly, as Real does.
template <roofline::python::ArgName Name>
struct type_caster<roofline::python::RealArg<Name>> {
  PYBIND11_TYPE_CASTER(roofline::python::RealArg<Name>, const_name("float"));
  bool load(handle src, bool convert) {
    // As load_named, with the parameter's name given to the reader of the number too.
    if (type_caster<roofline::python::Real>::load_named_real(src, convert, Name.text, value))
      return true;
    if (!src || !convert) return false;
    throw type_error(std::string(Name.text) + ": expected a number (got " +
                     std::string(str(type::handle_of(src).attr("__name__"))) + ")");
  }
  static handle cast(roofline::python::RealArg<Name> v, return_value_policy, handle) {
    return PyFloat_FromDouble(v.value);
  }
};

/// A named int (IntArg): what Int takes; anything else a TypeError naming the parameter.
template <roofline::python::ArgName Name>
struct type_caster<roofline::python::IntArg<Name>> {
  PYBIND11_TYPE_CASTER(roofline::python::IntArg<Name>, const_name("int"));
  bool load(handle src, bool convert) {
    // As load_named, with the parameter's name given to the reader of the int too.
    if (type_caster<roofline::python::Int>::load_named_int(src, Name.text, value)) return true;
    if (!src || !convert) return false;
    throw type_error(std::string(Name.text) + ": expected an int (got " +
                     std::string(str(type::handle_of(src).attr("__name__"))) + ")");
  }
  static handle cast(roofline::python::IntArg<Name> v, return_value_policy, handle) {
    return PyLong_FromLong(v.value);
  }
};

template <roofline::python::ArgName Name>
struct type_caster<roofline::python::TextArg<Name>> {
  PYBIND11_TYPE_CASTER(roofline::python::TextArg<Name>, const_name("str"));
  bool load(handle src, bool convert) {
    if (!src) return false;
    if (PyUnicode_Check(src.ptr())) {
      value.value = roofline::python::text_value(src, Name.text);  // a surrogate: InputError
      return true;
    }
    if (!convert) return false;  // an overload's first pass declines quietly
    throw type_error(std::string(Name.text) + ": expected a str (got " +
                     std::string(str(type::handle_of(src).attr("__name__"))) + ")");
  }
  static handle cast(const roofline::python::TextArg<Name>& t, return_value_policy, handle) {
    return PyUnicode_DecodeUTF8(t.value.data(), static_cast<Py_ssize_t>(t.value.size()), nullptr);
  }
};

template <roofline::python::ArgName Name>
struct type_caster<roofline::python::PathArg<Name>> {
  PYBIND11_TYPE_CASTER(roofline::python::PathArg<Name>, const_name("Union[str, os.PathLike]"));
  bool load(handle src, bool convert) {
    if (!src) return false;
    auto path = roofline::python::path_arg(src, Name.text);  // bytes: the TypeError naming it
    if (!path) {
      if (!convert) return false;
      throw type_error(std::string(Name.text) + ": expected a str or an os.PathLike (got " +
                       std::string(str(type::handle_of(src).attr("__name__"))) + ")");
    }
    value.value = std::move(*path);
    return true;
  }
  static handle cast(const roofline::python::PathArg<Name>& p, return_value_policy, handle) {
    return PyUnicode_FromStringAndSize(p.value.data(), static_cast<Py_ssize_t>(p.value.size()));
  }
};

/// What the object-or-name casters share (MachineArg, llm's ModelArg): the bound object
/// itself, else a str or os.PathLike resolved by `resolve` (its own error for an unknown name:
/// "unknown machine ... did you mean"), else a TypeError naming the parameter. None is that
/// TypeError too: pybind loads it as a null pointer, which cast_op refuses with its own error.
template <class Object, class Resolve>
bool load_object_or_name(handle src, bool convert, const char* name, const char* expected,
                         Object& out, Resolve resolve) {
  if (!src) return false;
  make_caster<Object> object;
  if (!src.is_none() && object.load(src, convert)) {
    out = cast_op<const Object&>(object);
    return true;
  }
  if (!convert) return false;
  if (auto path = roofline::python::path_arg(src, name)) {
    out = resolve(*path);
    return true;
  }
  throw type_error(std::string(name) + ": expected " + expected + " (got " +
                   std::string(str(type::handle_of(src).attr("__name__"))) + ")");
}

template <roofline::python::ArgName Name>
struct type_caster<roofline::python::MachineArg<Name>> {
  PYBIND11_TYPE_CASTER(roofline::python::MachineArg<Name>,
                       const_name("Union[Machine, str, os.PathLike]"));
  bool load(handle src, bool convert) {
    // The first pass (no conversions) takes a Machine only; the second reads what machine_arg
    // reads, so a name or a wrong type has one rule wherever a machine is taken.
    if (!convert) {
      make_caster<roofline::python::Machine> object;
      if (!src || src.is_none() || !object.load(src, false)) return false;
      value.value = cast_op<const roofline::python::Machine&>(object);
      return true;
    }
    if (!src) return false;
    value.value = roofline::python::machine_arg(src, Name.text);
    return true;
  }
  static handle cast(const roofline::python::MachineArg<Name>& m, return_value_policy policy,
                     handle parent) {
    return make_caster<roofline::python::Machine>::cast(m.value, policy, parent);
  }
};
}  // namespace pybind11::detail
