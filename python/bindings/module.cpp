// roofline._roofline: the module's entry point and the error translation.
//
// The library's typed errors (roofline/error.hpp) become Python exceptions of the same names,
// carrying the message the CLI prints after "roofline: error: " (apps/roofline/main.cpp): the
// same text with anything from files shown escaped (roofline/sanitize.hpp), so a traceback in a
// terminal never carries raw control characters either.
#include <nlohmann/json.hpp>

#include <cstring>

#include "common.hpp"
#include "roofline/error.hpp"
#include "roofline/sanitize.hpp"

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

double number_of(const py::handle& v, const std::string& what) {
  // Any real number: int, float and what converts as they do (numpy's int64 and float32,
  // Fraction, Decimal: __index__ or __float__); not a bool, whose True would read as 1, nor a
  // str or a complex.
  const bool number = !PyBool_Check(v.ptr()) && !PyComplex_Check(v.ptr()) &&
                      (PyFloat_Check(v.ptr()) || PyIndex_Check(v.ptr()) ||
                       (Py_TYPE(v.ptr())->tp_as_number != nullptr &&
                        Py_TYPE(v.ptr())->tp_as_number->nb_float != nullptr));
  if (!number)
    throw InputError(what + " must be a number (got " +
                     std::string(py::str(py::type::of(v).attr("__name__"))) + ")");
  const double x = PyFloat_AsDouble(v.ptr());
  if (x == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();  // OverflowError: an int beyond a double's range
    const std::string digits = py::str(v);
    throw InputError(what + " is out of range (an integer of " + std::to_string(digits.size()) +
                     " digits)");
  }
  return x;
}

py::object json_to_python(const nlohmann::json& j) {
  return (*g_json_loads)(j.dump());
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
      raise(g_input_error, e.what());
    } catch (const Unavailable& e) {
      raise(g_unavailable, e.what());
    } catch (const OutputError& e) {
      raise(g_output_error, e.what());
    } catch (const Interrupted&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const Error& e) {
      raise(g_error, e.what());
    } catch (const nlohmann::json::exception& e) {
      // As the CLI: a document whose JSON is well-formed but of the wrong shape.
      raise(g_input_error, std::string("bad document: ") + e.what());
    }
  });
}

namespace {
// An object made by `Cls.__new__(Cls)` alone has no C++ value: pybind11 hands its methods
// uninitialised memory (garbage numbers, crashes). Each class of this module therefore gets a
// metaclass whose call (`Cls(...)`, the one way to make an object) marks the thread as
// constructing, and a __new__ that refuses to run unmarked. Objects the library returns are
// made by pybind11 directly and never pass through either.
thread_local int g_constructing = 0;
ternaryfunc g_base_call = nullptr;
newfunc g_base_new = nullptr;

PyObject* constructing_call(PyObject* type, PyObject* args, PyObject* kwargs) {
  ++g_constructing;
  PyObject* made = g_base_call(type, args, kwargs);
  --g_constructing;
  return made;
}

PyObject* guarded_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  if (g_constructing == 0) {
    const char* dot = std::strrchr(type->tp_name, '.');
    const char* name = dot != nullptr ? dot + 1 : type->tp_name;
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
  rp::register_machine(m);
  rp::register_point(m);
  rp::register_kernels(m);
  rp::register_charts(m);
  rp::register_llm(m);
}
