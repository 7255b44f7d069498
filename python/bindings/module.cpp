// roofline._roofline: the module's entry point and the error translation.
//
// The library's typed errors (roofline/error.hpp) become Python exceptions of the same names,
// carrying the message the CLI prints after "roofline: error: " (apps/roofline/main.cpp): the
// same text with anything from files shown escaped (roofline/sanitize.hpp), so a traceback in a
// terminal never carries raw control characters either.
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string_view>

#include "common.hpp"
#include "roofline/error.hpp"
#include "roofline/json_out.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline::python {

namespace {

// Exception classes, created once with the module (pybind11 keeps them alive with it).
PyObject* g_error = nullptr;
PyObject* g_input_error = nullptr;
PyObject* g_unavailable = nullptr;
PyObject* g_output_error = nullptr;

PyObject* new_exception(py::module_& m, const char* name, py::handle bases, const char* doc) {
  const std::string qualified = std::string("roofline.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));  // steals the reference into the module
  return type;
}

void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, terminal_safe_lines(message).c_str());
}

}  // namespace

namespace {
// json.loads, looked up once when the module loads (under the import's GIL). A function-local
// static here deadlocked: importing json releases the GIL while C++ holds the static's guard,
// so threads calling to_dict() for the first time at once each waited on the other. Never
// destroyed: a static py::object would be released after the interpreter has gone.
const py::object* g_json_loads = nullptr;
}  // namespace

namespace {
/// Whether `type` is named `module`.`name` (its __module__ and __name__, as Python spells them).
bool type_named(const py::handle& type, const char* module, const char* name) {
  const py::object m = py::getattr(type, "__module__", py::none());
  if (!py::isinstance<py::str>(m) || m.cast<std::string>() != module) return false;
  const py::object n = py::getattr(type, "__name__", py::none());
  return py::isinstance<py::str>(n) && n.cast<std::string>() == name;
}

/// The element of a 0-d numpy array (`numpy.array(3.0)`), as `a[()]` gives it: numpy's scalar
/// of the array's dtype, which float() reads as it reads the array. Anything else is returned
/// as it is. numpy is never imported: its ndarray is known by name, in the type's MRO.
py::object scalar_of(const py::handle& v) {
  PyObject* o = v.ptr();
  const py::object same = py::reinterpret_borrow<py::object>(v);
  if (PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || PyUnicode_Check(o)) return same;
  const py::object mro = py::getattr(py::type::handle_of(v), "__mro__", py::none());
  if (!py::isinstance<py::tuple>(mro)) return same;
  bool array = false;
  for (const auto& t : mro) array = array || type_named(t, "numpy", "ndarray");
  if (!array) return same;
  const py::object ndim = py::getattr(v, "ndim", py::none());
  if (!PyLong_Check(ndim.ptr()) || PyLong_AsLong(ndim.ptr()) != 0) return same;
  return v[py::tuple()];
}
}  // namespace

bool is_bool(const py::handle& v) {
  PyObject* o = v.ptr();
  if (PyBool_Check(o)) return true;
  if (PyLong_Check(o) || PyFloat_Check(o)) return false;  // the common cases, looked up in no dict
  // A 0-d array of numpy's bool is a bool as its element is.
  if (const py::object s = scalar_of(v); !s.is(v)) return is_bool(s);
  // numpy's bool is no bool subclass: named by its type, `numpy.bool_` in numpy 1 and
  // `numpy.bool` in numpy 2 (its __module__ and __name__, as Python spells them).
  const py::handle type = py::type::handle_of(v);
  return type_named(type, "numpy", "bool_") || type_named(type, "numpy", "bool");
}

bool is_real(const py::handle& v) {
  PyObject* o = v.ptr();
  if (const py::object s = scalar_of(v); !s.is(v)) return is_real(s);  // numpy.array(3.0)
  if (PyComplex_Check(o) || is_bool(v)) return false;
  const PyNumberMethods* n = Py_TYPE(o)->tp_as_number;
  return PyFloat_Check(o) || PyIndex_Check(o) || (n != nullptr && n->nb_float != nullptr);
}

bool is_integer(const py::handle& v) {
  if (const py::object s = scalar_of(v); !s.is(v)) return is_integer(s);  // numpy.array(3)
  return (PyLong_Check(v.ptr()) || PyIndex_Check(v.ptr())) && !is_bool(v);
}

std::string int_text(const py::handle& v) {
  if (const py::object s = scalar_of(v); !s.is(v)) return int_text(s);
  // The integer __index__ gives (numpy's int64, an object with __index__ alone), as Python
  // shows an int; what has none shows as str() shows it.
  py::object as_int = py::reinterpret_borrow<py::object>(v);
  if (!PyLong_Check(v.ptr()) && PyIndex_Check(v.ptr())) {
    as_int = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
    if (!as_int) {
      PyErr_Clear();
      as_int = py::reinterpret_borrow<py::object>(v);
    }
  }
  std::string digits = py::str(as_int);
  if (digits.size() <= 30) return digits;
  if (digits.front() == '-') digits.erase(0, 1);
  return "an integer of " + std::to_string(digits.size()) + " digits";
}

std::string with_article(const std::string& word) {
  const bool vowel = !word.empty() && std::string("aeiouAEIOU").find(word[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + word;
}

namespace {
/// The value as the user gave it, for a message: an int's digits (int_text), else its repr,
/// escaped and cut to 60 characters.
std::string given_text(const py::handle& v) {
  if (PyLong_Check(v.ptr())) return int_text(v);
  const py::object r = py::reinterpret_steal<py::object>(PyObject_Repr(v.ptr()));
  if (!r) {
    PyErr_Clear();
    return "a value";
  }
  std::string text = terminal_safe(py::str(r).cast<std::string>());
  if (text.size() > 60) text = cut_at_code_point(text, 57) + "...";
  return text;
}

/// The exception pending after __index__ or __float__ of `v` failed, as real_value says.
[[noreturn]] void number_failed(const py::handle& v, const py::handle& as_int, const char* method,
                                const std::string& what) {
  py::error_already_set e;  // takes the pending exception
  const std::string named = what.empty() ? "a number" : what;
  if (e.matches(PyExc_OverflowError))
    throw InputError(named + " is out of range (" + (as_int ? int_text(as_int) : given_text(v)) +
                     ")");
  // KeyboardInterrupt, SystemExit, GeneratorExit; MemoryError: not the number's fault.
  if (!e.matches(PyExc_Exception) || e.matches(PyExc_MemoryError)) throw std::move(e);
  const std::string type = py::str(py::type::of(v).attr("__name__"));
  const std::string cause = py::str(py::type::of(e.value()).attr("__name__"));
  e.restore();
  py::raise_from(PyExc_TypeError,
                 ((what.empty() ? "" : what + ": ") + "could not read " + with_article(type) +
                  " as a number (its " + method + " raised " + cause + ")")
                     .c_str());
  throw py::error_already_set();
}

/// A value __float__ read as inf or 0 that is neither (Decimal("1e400"), Decimal("1e-400"),
/// numpy's longdouble beyond a double): refused as out of a float's range, naming what was
/// given, where the rounded value was judged ("work must be finite (got inf)", "time must be >
/// 0 (got 0)"). A value equal to what was read (Decimal("Infinity"), 0) is read as it is.
double within_range(const py::handle& v, double x, const std::string& what) {
  if (std::isfinite(x) && x != 0) return x;
  if (std::isnan(x)) return x;
  const py::object read = py::reinterpret_steal<py::object>(PyFloat_FromDouble(x));
  const int same = read ? PyObject_RichCompareBool(v.ptr(), read.ptr(), Py_EQ) : -1;
  if (same != 0) {
    if (same < 0) PyErr_Clear();  // no comparison: the value stands as read
    return x;
  }
  throw InputError((what.empty() ? "a number" : what) + " is out of range (" + given_text(v) +
                   (x == 0 ? ": below a float's smallest magnitude, 4.9e-324, it would read as 0)"
                           : ": beyond a float's largest magnitude, 1.797693e308)"));
}
}  // namespace

double real_value(const py::handle& v, const std::string& what) {
  PyObject* o = v.ptr();
  if (PyFloat_CheckExact(o)) return PyFloat_AS_DOUBLE(o);
  // A 0-d array's __index__ refuses a float element ("only integer scalar arrays..."): its
  // element is read instead, as float() reads the array.
  if (const py::object s = scalar_of(v); !s.is(v)) return real_value(s, what);
  // __index__ first: an int's exact value, rounded once (and used where __float__ is absent or
  // broken, as numpy's integers and an int subclass may have it).
  if (!PyFloat_Check(o) && PyIndex_Check(o)) {
    const py::object as_int = py::reinterpret_steal<py::object>(PyNumber_Index(o));
    if (!as_int) number_failed(v, py::handle(), "__index__", what);
    const double x = PyLong_AsDouble(as_int.ptr());
    if (x == -1.0 && PyErr_Occurred()) number_failed(v, as_int, "__index__", what);
    return x;
  }
  const double x = PyFloat_AsDouble(o);
  if (x == -1.0 && PyErr_Occurred()) number_failed(v, py::handle(), "__float__", what);
  return PyFloat_Check(o) ? x : within_range(v, x, what);
}

double number_of(const py::handle& v, const std::string& what) {
  if (!is_real(v))
    throw InputError(what + " must be a number (got " +
                     std::string(py::str(py::type::of(v).attr("__name__"))) + ")");
  return real_value(v, what);
}

std::optional<int> int_value(const py::handle& v, const std::string& what) {
  if (const py::object s = scalar_of(v); !s.is(v)) return int_value(s, what);
  const py::object as_int = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!as_int) number_failed(v, py::handle(), "__index__", what);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(as_int.ptr(), &overflow);
  if (x == -1 && PyErr_Occurred()) number_failed(v, as_int, "__index__", what);
  if (overflow != 0 || x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
    return std::nullopt;
  return static_cast<int>(x);
}

void refuse_surrogate(const py::handle& str, const std::string& what) {
  const Py_ssize_t n = PyUnicode_GetLength(str.ptr());
  Py_ssize_t at = 0;
  Py_UCS4 c = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    const Py_UCS4 x = PyUnicode_ReadChar(str.ptr(), i);
    if (x >= 0xD800 && x <= 0xDFFF) {
      at = i;
      c = x;
      break;
    }
  }
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
  const py::object shown_obj = py::reinterpret_steal<py::object>(PyObject_ASCII(str.ptr()));
  std::string shown = shown_obj ? std::string(py::str(shown_obj)) : std::string("a str");
  if (!shown_obj) PyErr_Clear();
  if (shown.size() > 80) shown = shown.substr(0, 76) + "...'";
  throw InputError((what.empty() ? std::string("a str argument") : what) + ": " + shown +
                   " holds a lone surrogate (" + code + " at index " + std::to_string(at) +
                   "), which is no text: UTF-8 cannot encode it");
}

void distinct_machines(std::vector<MachineDocument>& machines,
                       const std::vector<std::string>& given, const std::string& who) {
  std::vector<std::string> names;
  std::vector<const MachineDocument*> read;
  std::vector<MachineDocument*> renamed;
  for (auto& m : machines) {
    // As the user gave it, as the CLI names its arguments ("'h100-sxm' and 'h100' are one
    // machine"): the name or path typed, else the catalogue name or the path read (origin), not
    // the catalogue's file.
    const size_t k = names.size();
    names.push_back(k < given.size() && !given[k].empty() ? given[k]
                    : !m.origin.empty()                   ? m.origin
                    : m.file.empty()                      ? m.roofs.name
                                                          : m.file);
    read.push_back(&m);
    renamed.push_back(&m);
  }
  refuse_one_machine_twice(names, read, who);
  name_machines_apart(names, renamed);
}

std::string text_value(const py::handle& v, const std::string& what) {
  if (!PyUnicode_Check(v.ptr()))
    throw py::type_error(what + " must be a str (got " +
                         std::string(py::str(py::type::handle_of(v).attr("__name__"))) + ")");
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(v.ptr(), &size);
  if (text == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) throw py::error_already_set();
    PyErr_Clear();
    refuse_surrogate(v, what);
  }
  return std::string(text, static_cast<std::size_t>(size));
}

std::optional<std::string> path_arg(const py::handle& o, const std::string& what) {
  auto refuse_bytes = [&] {
    throw py::type_error(what + ": a path is a str or an os.PathLike giving one, not bytes");
  };
  // The file system's bytes of a str, as Python opens it (surrogateescape: a name that is no
  // UTF-8, os.fsdecode(b"m\xe9.json"), is its own bytes again; a plain cast refused it).
  auto fs_bytes = [&](const py::handle& str) {
    const py::object b = py::reinterpret_steal<py::object>(PyUnicode_EncodeFSDefault(str.ptr()));
    if (!b) {
      // A surrogate that no byte stood for ("a\ud800b"): no file has that name.
      if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) throw py::error_already_set();
      PyErr_Clear();
      refuse_surrogate(str, what);
    }
    return std::string(PyBytes_AS_STRING(b.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(b.ptr())));
  };
  if (py::isinstance<py::str>(o)) return fs_bytes(o);
  if (py::isinstance<py::bytes>(o)) refuse_bytes();
  if (!py::hasattr(py::type::of(o), "__fspath__")) return std::nullopt;
  const py::object path = py::module_::import("os").attr("fspath")(o);
  if (!py::isinstance<py::str>(path)) refuse_bytes();
  return fs_bytes(path);
}

py::object json_to_python(const nlohmann::json& j) {
  // json_text, as the CLI's --json: a file name that is no UTF-8 (an origin, a model's folder)
  // is written with U+FFFD where dump() refused the whole document.
  return (*g_json_loads)(json_text(j, -1));
}

py::str fs_text(const std::string& name) {
  PyObject* s = PyUnicode_DecodeFSDefaultAndSize(name.data(), static_cast<Py_ssize_t>(name.size()));
  if (s == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

void register_errors(py::module_& m) {
  g_json_loads = new py::object(py::module_::import("json").attr("loads"));
  g_error = new_exception(m, "Error", py::handle(PyExc_Exception),
                          "Base of every error the roofline library raises on purpose.");
  g_input_error = new_exception(
      m, "InputError", py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError)),
      "Bad input: a value, field or file that is wrong; the message names what, where and why "
      "(the CLI exits 2 with it).");
  g_unavailable = new_exception(
      m, "Unavailable", py::make_tuple(py::handle(g_error), py::handle(PyExc_RuntimeError)),
      "A capability this machine lacks (no PMU, GPU, MPI, rsvg-convert); the CLI exits 3.");
  g_output_error = new_exception(
      m, "OutputError", py::make_tuple(py::handle(g_error), py::handle(PyExc_OSError)),
      "An output could not be written (disk full, I/O error); the CLI exits 4.");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      // The library names its inputs by the CLI's flags: here, by the Python parameters.
      raise(g_input_error, python_message(e.what()));
    } catch (const Unavailable& e) {
      raise(g_unavailable, python_message(e.what()));
    } catch (const OutputError& e) {
      raise(g_output_error, e.what());
    } catch (const Interrupted&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const Error& e) {
      raise(g_error, python_message(e.what()));
    } catch (const nlohmann::json::exception& e) {
      // As the CLI: a document whose JSON is well-formed but of the wrong shape.
      raise(g_input_error, std::string("bad document: ") + e.what());
    }
  });
}

namespace {
/// The tests of a number the package's Python side shares with the bindings (is_bool,
/// is_real), and real_value for a number it reads itself (Chart's workload line).
void register_numbers(py::module_& m) {
  m.def(
      "_check_writable",
      [](const PathArg<"path">& path, const TextArg<"what">& what) {
        check_writable_path(path.value, what.value);
      },
      py::arg("path"), py::arg("what") = "",
      "InputError unless `path` could be written as every output is (its folder there, no "
      "folder, special file, link or read-only file): the check the CLI makes before its work.");
  m.def(
      "_is_bool", [](const py::handle& v) { return is_bool(v); }, py::arg("value"),
      "Whether value is a bool: Python's, or numpy's (numpy.bool_, numpy 2's numpy.bool).");
  m.def(
      "_is_real", [](const py::handle& v) { return is_real(v); }, py::arg("value"),
      "Whether value is a real number the library's float arguments take (not a bool, a str or "
      "a complex).");
  m.def(
      "_is_integer", [](const py::handle& v) { return is_integer(v); }, py::arg("value"),
      "Whether value is an int the library's int arguments take (an int or what has __index__, "
      "not a bool).");
  m.def(
      "_int_value",
      [](const py::handle& v, const std::string& what) -> py::object {
        const std::optional<int> read = int_value(v, what);
        return read ? py::object(py::int_(*read)) : py::object(py::none());
      },
      py::arg("value"), py::arg("what"),
      "An int (_is_integer) read as the library reads one, its errors naming `what`; None "
      "beyond a C int.");
  m.def(
      "_text_value",
      [](const py::handle& v, const std::string& what) { return text_value(v, what); },
      py::arg("value"), py::arg("what"),
      "A str's text as the library's str arguments read it; a lone surrogate an InputError "
      "naming `what`.");
  m.def(
      "_require_one_line",
      [](const py::handle& v, const std::string& what) {
        require_one_line(text_value(v, what), what);
      },
      py::arg("value"), py::arg("what"),
      "InputError naming `what` when the text holds a line break (as a chart title or a name "
      "is refused when drawn).");
  m.def(
      "_python_message", [](const std::string& message) { return python_message(message); },
      py::arg("message"),
      "A library message with the CLI flags Python takes as parameters named as those "
      "(python_message, what every error raised through the bindings gets).");
  m.def(
      "_machine", [](const py::handle& v, const std::string& what) { return machine_arg(v, what); },
      py::arg("value"), py::arg("what"),
      "A machine argument as every function of the package reads one (MachineArg): a Machine "
      "as it is, a catalogue name or a machine document's path (str, os.PathLike) resolved; "
      "anything else a TypeError naming `what`.");
  m.def(
      "_real_value",
      [](const py::handle& v, const std::string& what) { return real_value(v, what); },
      py::arg("value"), py::arg("what"),
      "A real number's value as the library's float arguments read it; out of range an "
      "InputError naming `what`.");
}
}  // namespace

namespace {
// An object made by `Cls.__new__(Cls)` alone has no C++ value: pybind11 hands its methods
// uninitialised memory (garbage numbers, crashes). Each class of this module therefore gets a
// metaclass whose call (`Cls(...)`, the one way to make an object) marks the thread as
// constructing, and a __new__ that refuses to run unmarked. Objects the library returns are
// made by pybind11 directly and never pass through either.
thread_local int g_constructing = 0;
ternaryfunc g_base_call = nullptr;
newfunc g_base_new = nullptr;

/// What returns the objects of a class that has no constructor, for the TypeError of making
/// one (pybind11's own says "No constructor defined!").
const char* made_by(std::string_view cls) {
  static const std::map<std::string_view, const char*> kFrom = {
      {"Statistics", "ComputeRoof.statistics, MemoryRoof.statistics"},
      {"ComputeRoof", "Machine.compute_roof(), Machine.compute_roofs"},
      {"MemoryRoof", "Machine.memory_roof(), Machine.memory_roofs"},
      {"Ridge", "Machine.ridges()"},
      {"CatalogueEntry", "roofline.catalogue()"},
      {"MachineAtIntensity", "Comparison.machines"},
      {"Comparison", "roofline.compare()"},
      {"RoofChange", "Diff.changes"},
      {"Diff", "roofline.diff()"},
      {"LevelJudgement", "Diagnosis.levels"},
      {"EmptyRoof", "Diagnosis.empty_roofs_above"},
      {"Diagnosis", "roofline.diagnose()"},
      {"KernelCount", "roofline.kernel()"},
      {"Model", "roofline.llm.model()"},
      {"Aggregate", "Report.prefill, Report.decode_linear, Report.decode_attention"},
      {"Report", "roofline.llm.analyse()"},
      {"Request", "roofline.llm.request()"},
      {"Serving", "roofline.llm.serve()"},
      {"Speculative", "roofline.llm.speculative()"},
      {"Training", "roofline.llm.train()"},
      {"Cost", "roofline.llm.cost()"}};
  const auto it = kFrom.find(cls);
  return it != kFrom.end() ? it->second : "the library's functions";
}

const char* short_name(const PyTypeObject* type) {
  const char* dot = std::strrchr(type->tp_name, '.');
  return dot != nullptr ? dot + 1 : type->tp_name;
}

/// Whether the class has a constructor: an __init__ defined by py::init or in Python, not the
/// slot pybind11 gives every class (which raises "No constructor defined!"). -1 with an
/// exception set when the lookup fails.
int has_constructor(PyTypeObject* type) {
  PyObject* init = PyObject_GetAttrString(reinterpret_cast<PyObject*>(type), "__init__");
  if (init == nullptr) return -1;
  const int has = Py_TYPE(init) != &PyWrapperDescr_Type ? 1 : 0;
  Py_DECREF(init);
  return has;
}

/// The TypeError of making an object of a class with no constructor; nullptr.
PyObject* no_constructor(PyTypeObject* type) {
  const char* name = short_name(type);
  PyErr_Format(PyExc_TypeError,
               "%s has no constructor: its objects come from the library (%s), not from "
               "%s(...)",
               name, made_by(name), name);
  return nullptr;
}

PyObject* constructing_call(PyObject* type, PyObject* args, PyObject* kwargs) {
  const int has = has_constructor(reinterpret_cast<PyTypeObject*>(type));
  if (has < 0) return nullptr;
  if (has == 0) return no_constructor(reinterpret_cast<PyTypeObject*>(type));
  ++g_constructing;
  PyObject* made = g_base_call(type, args, kwargs);
  --g_constructing;
  return made;
}

PyObject* guarded_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  if (g_constructing == 0) {
    const int has = has_constructor(type);
    if (has < 0) return nullptr;
    if (has == 0) return no_constructor(type);
    const char* name = short_name(type);
    PyErr_Format(PyExc_TypeError, "%s.__new__ alone makes no object: call %s(...)", name, name);
    return nullptr;
  }
  return g_base_new(type, args, kwargs);
}

// `Cls.__new__(Cls)` as Python spells it: the class's own entry, so that the lookup does not
// find the base's (whose check would refuse it with a message naming pybind11's internals).
PyObject* new_method(PyObject* owner, PyObject* args, PyObject* kwargs) {
  PyObject* type = PyTuple_Size(args) > 0 ? PyTuple_GetItem(args, 0) : nullptr;
  // As object.__new__ checks: cls is the class the method belongs to or a subclass of it (a
  // call made while some object is being constructed must not make an int, or another class).
  if (type == nullptr || !PyType_Check(type) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type),
                        reinterpret_cast<PyTypeObject*>(owner))) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "__new__(cls): cls must be %s or a subclass of it",
                 reinterpret_cast<PyTypeObject*>(owner)->tp_name);
    return nullptr;
  }
  PyObject* rest = PyTuple_GetSlice(args, 1, PyTuple_Size(args));
  if (rest == nullptr) return nullptr;
  // Not the class's slot: a Python subclass's slot calls this very entry back.
  PyObject* made = guarded_new(reinterpret_cast<PyTypeObject*>(type), rest, kwargs);
  Py_DECREF(rest);
  return made;
}
PyMethodDef g_new_def = {"__new__",
                         reinterpret_cast<PyCFunction>(reinterpret_cast<void*>(&new_method)),
                         METH_VARARGS | METH_KEYWORDS, "Refused alone: call the class."};
}  // namespace

ConstructionGuard::ConstructionGuard() {
  auto& internals = py::detail::get_internals();
  base_ = internals.default_metaclass;
  g_base_call = base_->tp_call;
  g_base_new = reinterpret_cast<PyTypeObject*>(internals.instance_base)->tp_new;
  static PyType_Slot slots[] = {{Py_tp_call, reinterpret_cast<void*>(&constructing_call)},
                                {0, nullptr}};
  static PyType_Spec spec = {"roofline._roofline.type", 0, 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  PyObject* meta = PyType_FromSpecWithBases(&spec, reinterpret_cast<PyObject*>(base_));
  if (meta == nullptr) throw py::error_already_set();
  meta_ = reinterpret_cast<PyTypeObject*>(meta);  // kept for the interpreter's life
  internals.default_metaclass = meta_;            // the classes registered from here on
  for (const auto& entry : internals.registered_types_py) before_.insert(entry.first);
}

ConstructionGuard::~ConstructionGuard() {
  auto& internals = py::detail::get_internals();
  internals.default_metaclass = base_;  // other modules' classes are not ours to change
  // Only the classes this module registered while the guard was alive (pybind11's internals
  // are shared with every other pybind11 module).
  for (const auto& [type, infos] : internals.registered_types_py) {
    if (Py_TYPE(type) != meta_ || before_.count(type) != 0) continue;
    type->tp_new = guarded_new;
    PyObject* method = PyCFunction_NewEx(&g_new_def, reinterpret_cast<PyObject*>(type), nullptr);
    PyObject* as_static = method != nullptr ? PyStaticMethod_New(method) : nullptr;
    Py_XDECREF(method);
    if (as_static == nullptr || PyDict_SetItemString(type->tp_dict, "__new__", as_static) != 0) {
      PyErr_Clear();  // the slot alone still refuses; only the message is the base's
    }
    Py_XDECREF(as_static);
    PyType_Modified(type);
  }
}

namespace {
// pybind11's dispatcher (2.10) writes the keywords of a call no overload took into its
// "incompatible function arguments" message as std::string, outside its try: a keyword whose
// name UTF-8 cannot encode (`f(**{"\ud800": 1})`) threw error_already_set through CPython's C
// frames and aborted the interpreter. Every function of the module therefore runs through
// checked_dispatch, which refuses such a name first, as the functions taking **kwargs do.
PyCFunction g_dispatcher = nullptr;

/// How a message names the function of a pybind11 capsule: "diff()", "Machine.compute_roof()",
/// "Point()" for a constructor.
std::string function_name(PyObject* capsule) {
  const auto* rec = static_cast<const py::detail::function_record*>(
      PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule)));
  if (rec == nullptr) {
    PyErr_Clear();
    return "a function";
  }
  const std::string name = rec->name != nullptr ? rec->name : "";
  std::string owner;
  if (rec->scope && PyType_Check(rec->scope.ptr()))
    owner = short_name(reinterpret_cast<PyTypeObject*>(rec->scope.ptr()));
  if (name == "__init__" && !owner.empty()) return owner + "()";
  return (owner.empty() ? "" : owner + ".") + name + "()";
}

/// The InputError of a keyword's name holding a lone surrogate; false with an exception set.
bool keyword_names_ok(PyObject* self, PyObject* kwargs) {
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  Py_ssize_t pos = 0;
  while (kwargs != nullptr && PyDict_Next(kwargs, &pos, &key, &value)) {
    if (!PyUnicode_Check(key) || PyUnicode_AsUTF8AndSize(key, nullptr) != nullptr) continue;
    if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return false;
    PyErr_Clear();
    try {
      refuse_surrogate(key, function_name(self) + ": a keyword's name");
    } catch (const InputError& e) {
      raise(g_input_error, e.what());
    } catch (...) {
      PyErr_SetString(PyExc_TypeError, "a keyword's name is no text (a lone surrogate)");
    }
    return false;
  }
  return true;
}

/// Whether the function of a pybind11 capsule takes **kwargs: it reads its keywords' names
/// itself (text_value), with its own message ("saxpy: a size's name").
bool takes_kwargs(PyObject* capsule) {
  const auto* rec = static_cast<const py::detail::function_record*>(
      PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule)));
  if (rec == nullptr) PyErr_Clear();
  return rec != nullptr && rec->has_kwargs;
}

/// What is wrong with a call's arguments before their types: a keyword the function has not,
/// a positional argument beyond its parameters, a required one missing; "" when none is, or
/// when the function has overloads (each its own parameters) or takes *args or **kwargs.
std::string call_shape_error(PyObject* capsule, PyObject* args, PyObject* kwargs) {
  const auto* rec = static_cast<const py::detail::function_record*>(
      PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule)));
  if (rec == nullptr) {
    PyErr_Clear();
    return "";
  }
  if (rec->next != nullptr || rec->has_args || rec->has_kwargs) return "";
  const std::string name = function_name(capsule);
  const std::size_t self = rec->is_method ? 1 : 0;  // args[0] and the first record: self
  const auto given = static_cast<std::size_t>(PyTuple_Size(args));
  std::vector<bool> named(rec->args.size(), false);
  PyObject* key = nullptr;
  PyObject* value = nullptr;
  Py_ssize_t pos = 0;
  while (kwargs != nullptr && PyDict_Next(kwargs, &pos, &key, &value)) {
    const char* text = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : nullptr;
    if (text == nullptr) {
      PyErr_Clear();
      return "";
    }
    std::size_t i = self;
    while (i < rec->args.size() && std::strcmp(rec->args[i].name, text) != 0) ++i;
    if (i == rec->args.size()) {
      std::string meant;  // the parameter it starts (time -> time_s)
      for (std::size_t j = self; j < rec->args.size(); ++j)
        if (std::string_view(rec->args[j].name).rfind(text, 0) == 0) meant = rec->args[j].name;
      return name + " got an unexpected keyword argument '" + terminal_safe(text) + "'" +
             (meant.empty() ? "" : " (did you mean '" + meant + "'?)");
    }
    named[i] = true;
  }
  if (given > rec->nargs_pos)
    return name + " takes at most " + std::to_string(rec->nargs_pos - self) +
           " positional arguments (got " + std::to_string(given - self) + ")";
  for (std::size_t i = self; i < rec->args.size(); ++i)
    if (i >= given && !named[i] && !rec->args[i].value)
      return name + " missing required argument '" + rec->args[i].name + "'";
  return "";
}

PyObject* checked_dispatch(PyObject* self, PyObject* args, PyObject* kwargs) {
  if (kwargs != nullptr && !takes_kwargs(self) && !keyword_names_ok(self, kwargs)) return nullptr;
  using Dispatch = PyObject* (*)(PyObject*, PyObject*, PyObject*);
  PyObject* result =
      reinterpret_cast<Dispatch>(reinterpret_cast<void*>(g_dispatcher))(self, args, kwargs);
  // pybind11's "incompatible function arguments" (the whole signature, what was given) said
  // as Python's own functions say a call of the wrong shape, naming the argument.
  if (result != nullptr || !PyErr_ExceptionMatches(PyExc_TypeError)) return result;
  py::error_already_set e;
  try {
    const std::string said = py::str(e.value());
    if (said.find("incompatible function arguments") != std::string::npos ||
        said.find("incompatible constructor arguments") != std::string::npos) {
      const std::string shape = call_shape_error(self, args, kwargs);
      if (!shape.empty()) {
        PyErr_SetString(PyExc_TypeError, shape.c_str());
        return nullptr;
      }
    }
  } catch (...) {
    // The message could not be read: pybind11's own stands.
  }
  e.restore();
  return nullptr;
}

/// `f` (a function, or a method as a class holds it) made to run through checked_dispatch.
void check_keywords_of(PyObject* f) {
  py::object func = py::reinterpret_borrow<py::object>(f);
  if (PyInstanceMethod_Check(f)) {
    func = py::reinterpret_borrow<py::object>(PyInstanceMethod_GET_FUNCTION(f));
  } else if (Py_TYPE(f) == &PyStaticMethod_Type || Py_TYPE(f) == &PyClassMethod_Type) {
    func = py::getattr(func, "__func__", py::none());
  }
  if (!PyCFunction_Check(func.ptr())) return;
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(func.ptr())->m_ml;
  if (def->ml_meth == g_dispatcher)
    def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void*>(&checked_dispatch));
}

/// Every function of `m`, of its classes and of its submodules.
void check_keywords_in(const py::module_& m) {
  for (const auto& item : py::reinterpret_borrow<py::dict>(m.attr("__dict__"))) {
    PyObject* v = item.second.ptr();
    if (PyModule_Check(v)) {
      check_keywords_in(py::reinterpret_borrow<py::module_>(v));
    } else if (PyType_Check(v)) {
      for (const auto& attr : py::reinterpret_borrow<py::dict>(py::handle(
               reinterpret_cast<PyObject*>(reinterpret_cast<PyTypeObject*>(v)->tp_dict))))
        check_keywords_of(attr.second.ptr());
    } else {
      check_keywords_of(v);
    }
  }
}
}  // namespace

void check_keyword_names(py::module_& m) {
  // Any function of this module made by pybind11 has its dispatcher as its C function.
  g_dispatcher = reinterpret_cast<PyCFunctionObject*>(m.attr("_is_bool").ptr())->m_ml->ml_meth;
  check_keywords_in(m);
}

}  // namespace roofline::python

PYBIND11_MODULE(_roofline, m) {
  namespace rp = roofline::python;
  m.doc() =
      "The Roofline model from the roofline C++ library: machines and their roofs, points, the "
      "two-step diagnosis, kernel counts, hardware comparison, the LLM model and charts. Import "
      "`roofline`, not this module.";
  m.attr("__version__") = ROOFLINE_PYTHON_VERSION;
  const rp::ConstructionGuard guard;
  rp::register_errors(m);
  rp::register_numbers(m);
  rp::register_machine(m);
  rp::register_point(m);
  rp::register_kernels(m);
  rp::register_charts(m);
  rp::register_llm(m);
  // The one rule for text from files on a terminal (sanitize.hpp), for the pure-Python parts
  // (roofline.torch's operator names): bytes in (a str's surrogate escapes survive as the bytes
  // they stood for), printable text out.
  // The one number format of every table (quantity.hpp), for the pure-Python tables.
  m.def(
      "_format_number", [](double v, int digits) { return roofline::format_number(v, digits); },
      pybind11::arg("v"), pybind11::arg("digits") = 4);
  m.def(
      "_terminal_safe",
      [](const pybind11::bytes& text) { return roofline::terminal_safe(std::string(text)); },
      pybind11::arg("text"));
  rp::check_keyword_names(m);  // last: every function is defined
}
