// Machine, its roofs (with provenance and statistics), ridges, the hardware catalogue and
// compare — over io.hpp, roof.hpp, model.hpp, hardware.hpp, compare.hpp and measure.hpp.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

#include "common.hpp"
#include "roofline/check.hpp"
#include "roofline/check_io.hpp"
#include "roofline/compare.hpp"
#include "roofline/diff.hpp"
#include "roofline/dtype.hpp"
#include "roofline/energy_catalogue.hpp"
#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/json_out.hpp"
#include "roofline/measure.hpp"
#include "roofline/model.hpp"
#include "roofline/point.hpp"
#include "roofline/quantity.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/statistics.hpp"
#include "roofline/text.hpp"

namespace roofline::python {

std::string quoted(const std::string& name) {
  return "'" + terminal_safe(name) + "'";
}

std::string percent(double fraction) {
  return format_number(100 * fraction, 3) + "%";
}

void warn_each(const std::string& who, const std::vector<std::string>& lines) {
  for (const auto& line : lines)
    if (PyErr_WarnEx(PyExc_UserWarning, (who + ": " + line).c_str(), 1) < 0)
      throw py::error_already_set();
}

void warn_comparison(const std::vector<const RoofSet*>& sets, const std::vector<std::string>& roofs,
                     bool mixed, const std::string& who) {
  if (const std::string narrow = narrow_against_full(sets, roofs); !narrow.empty())
    warn_each(who, {terminal_safe(narrow)});
  if (const auto m = mixed ? mixed_precisions(sets, roofs) : std::nullopt)
    warn_each(who,
              {"comparing different precisions (" + terminal_safe(m->named) + "); give " +
               (m->common_group.empty() ? std::string("precision= a precision every machine has")
                                        : "precision=\"" + m->common_group + "\"") +
               " to compare like with like"});
}

Machine machine_arg(const py::handle& value, const std::string& name) {
  Machine out;
  py::detail::load_object_or_name(value, true, name.c_str(), kMachineExpected, out,
                                  [](const std::string& p) {
                                    return Machine{resolve_machine(p), p};
                                  });
  return out;
}

std::vector<double> reals_arg(const py::handle& value, const std::string& name) {
  auto refuse = [&](const py::handle& v, const std::string& what, const char* expected) {
    return py::type_error(what + ": expected " + expected + " (got " +
                          std::string(py::str(py::type::handle_of(v).attr("__name__"))) + ")");
  };
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) ||
      !py::hasattr(value, "__iter__"))
    throw refuse(value, name, "a list of numbers");
  std::vector<double> out;
  for (const py::handle item : value) {
    const std::string what = name + "[" + std::to_string(out.size()) + "]";
    if (!is_real(item)) throw refuse(item, what, "a number");
    out.push_back(real_value(item, what));
  }
  return out;
}

std::vector<Machine> machines_arg(const py::handle& value, const std::string& name) {
  // A str or bytes is a sequence of characters, a dict a mapping: neither is a list of machines.
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) ||
      !PySequence_Check(value.ptr()) || PyDict_Check(value.ptr()))
    throw py::type_error(name + ": expected a list of machines (each " + kMachineExpected +
                         ") (got " + std::string(py::str(py::type::of(value).attr("__name__"))) +
                         ")");
  std::vector<Machine> out;
  for (const py::handle item : value)
    out.push_back(machine_arg(item, name + "[" + std::to_string(out.size()) + "]"));
  return out;
}

namespace {

/// The compute roof a precision (or roof name) picks, as a point of that precision is judged:
/// one that counts other work than the precision's type is refused, as diagnose() refuses the
/// point (an int8 precision on roofs given as FLOP/s, which stand for every floating-point
/// precision: work counted in OP against a peak in FLOP/s is no bound).
const ComputeRoof& roof_counting(const RoofSet& roofs, const std::string& precision,
                                 const std::string& what) {
  Point probe;
  probe.precision = precision;
  const std::string unit = stated_work_unit(probe);
  const ComputeRoof& c = roofs.select_compute(precision, unit);
  if (const std::string why = roofs.work_mismatch(c, unit); !why.empty())
    throw InputError(what + " '" + terminal_safe(precision) + "': " + terminal_safe(why));
  return c;
}

std::optional<double> opt_rate(const std::optional<WorkRate>& r) {
  return r ? std::optional<double>(r->value) : std::nullopt;
}
std::optional<double> opt_rate(const std::optional<ByteRate>& r) {
  return r ? std::optional<double>(r->value) : std::nullopt;
}

/// The roofs given as two numbers, as the CLI's --peak and --bandwidth (a flat roof named by
/// its precision, else "peak", and a slanted roof at `level`).
Machine from_roofs(RealArg<"peak_flop_per_s"> peak, RealArg<"bandwidth_byte_per_s"> bandwidth,
                   const TextArg<"precision">& precision, const TextArg<"level">& level,
                   const TextArg<"name">& name) {
  if (!(peak > 0) || !std::isfinite(peak))
    throw InputError("peak_flop_per_s: must be > 0 and finite (got " + format_number(peak) + ")");
  if (!(bandwidth > 0) || !std::isfinite(bandwidth))
    throw InputError("bandwidth_byte_per_s: must be > 0 and finite (got " +
                     format_number(bandwidth) + ")");
  if (name.empty()) throw InputError("name: must not be empty (charts and tables show it)");
  // The CLI's --level has a default; here "" would silently become DRAM.
  if (level.empty()) throw InputError("level: must not be empty (the memory level, e.g. 'DRAM')");
  // As the CLI's --peak with --precision: a data type, or a type and its unit ("fp16
  // tensor"); a typo would become the roof's name and judge every point without a word.
  if (!precision.empty())
    require_roof_precision(precision.value, "precision '" + precision.value + "':");
  Machine m;
  GivenRoofs g;
  g.name = name.value;
  g.peak = WorkRate(peak);
  g.bandwidth = ByteRate(bandwidth);
  g.precision = precision.value;
  g.level = level.value;
  g.peak_source = "Machine.from_roofs peak_flop_per_s";
  g.bandwidth_source = "Machine.from_roofs bandwidth_byte_per_s";
  m.doc.roofs = given_roofs(g);
  m.doc.origin = "given roofs";
  return m;
}

/// Names (measure's precisions and levels): a list or another sequence of str, not a str
/// itself, each read by text_value and named by its place ("levels[0]: expected a str (got
/// int)"); anything else the TypeError naming `name`, where pybind's std::vector gave
/// "incompatible function arguments" with the whole signature.
std::vector<std::string> texts_arg(const py::handle& value, const std::string& name,
                                   const char* example) {
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) ||
      !PySequence_Check(value.ptr()) || PyDict_Check(value.ptr()))
    throw py::type_error(name + ": expected a list of str (e.g. " + example + ") (got " +
                         std::string(py::str(py::type::of(value).attr("__name__"))) + ")");
  std::vector<std::string> out;
  for (const py::handle item : value) {
    const std::string what = name + "[" + std::to_string(out.size()) + "]";
    if (!py::isinstance<py::str>(item))
      throw py::type_error(what + ": expected a str (got " +
                           std::string(py::str(py::type::of(item).attr("__name__"))) + ")");
    out.push_back(text_value(item, what));
  }
  return out;
}

Machine measure(BoolArg<"quick"> quick, IntArg<"threads"> threads, const py::object& precisions,
                const py::object& levels, BoolArg<"curve"> curve, const py::object& progress) {
  // Every argument's type before the measurement: a callback of the wrong type would otherwise
  // be found only when first called, minutes in.
  if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
    throw py::type_error("progress: expected a callable progress(fraction, what) or None (got " +
                         std::string(py::str(py::type::of(progress).attr("__name__"))) + ")");
  // 0 (the default) is one thread per core; the CLI's --threads takes a count from 1.
  if (threads < 0)
    throw InputError(
        "threads: must be 0 (the default: one thread per core) or a number of "
        "threads from 1 (got " +
        std::to_string(static_cast<long long>(threads)) + ")");
  MeasureOptions o;
  o.quick = quick;
  o.threads = threads;
  o.precisions = texts_arg(precisions, "precisions", "['fp32', 'fp64']");
  o.levels = texts_arg(levels, "levels", "['L1', 'DRAM']");
  o.curve = curve;
  // Ctrl-C while measuring: the progress callback looks for Python's pending signals and raises
  // the cancel flag, so the measurement stops at its next safe point (Interrupted).
  std::atomic<bool> cancel{false};
  o.cancel = &cancel;
  o.progress = [&](double done, const std::string& what) {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      PyErr_Clear();
      cancel = true;
      return;
    }
    if (!progress.is_none()) progress(done, fs_text(what));
  };
  Machine m;
  {
    py::gil_scoped_release release;
    m.doc = measure_machine(o);
  }
  return m;
}

struct MachineDiff {
  RoofSetDiff d;
  MachineDocument a, b;
};

/// A roof as Python holds it: the roof and the units its machine prints it in (RoofSet::units_of
/// for a compute roof: OP/s on an integer roof, a custom roofline's own work; the set's traffic
/// for a memory roof), which the roof alone does not know. The repr prints in them, as `hw show`.
struct ComputeRoofView : ComputeRoof {
  UnitSystem units;
};
struct MemoryRoofView : MemoryRoof {
  UnitSystem units;
};

ComputeRoofView compute_view(const RoofSet& set, const ComputeRoof& c) {
  ComputeRoofView v;
  static_cast<ComputeRoof&>(v) = c;
  v.units = set.units_of(c);
  return v;
}

MemoryRoofView memory_view(const RoofSet& set, const MemoryRoof& r) {
  MemoryRoofView v;
  static_cast<MemoryRoof&>(v) = r;
  v.units = set.units;
  return v;
}

std::vector<ComputeRoofView> compute_views(const RoofSet& set) {
  std::vector<ComputeRoofView> out;
  for (const auto& c : set.compute) out.push_back(compute_view(set, c));
  return out;
}

std::vector<MemoryRoofView> memory_views(const RoofSet& set) {
  std::vector<MemoryRoofView> out;
  for (const auto& r : set.memory) out.push_back(memory_view(set, r));
  return out;
}

// The reprs: one line, the type and the figures looked at first, numbers as the tables print
// them (quantity.hpp), every name from a file escaped (terminal_safe) and quoted.

/// In the roof's own unit, which the statistics do not know (FLOP/s, OP/s or byte/s): numbers.
std::string statistics_repr(const Statistics& s) {
  return "<Statistics median " + format_number(s.median) + ", spread " + percent(robust_spread(s)) +
         ", " + std::to_string(s.repetitions) + " repetitions" + (s.noisy ? ", noisy" : "") + ">";
}

std::string ridge_repr(const RidgePoint& r) {
  return "<Ridge " + (r.label.empty() ? "" : quoted(r.label) + " ") +
         "I*=" + format_intensity(r.ridge, r.units) + " (" + quoted(r.compute_roof) + " " +
         format_work_rate(r.peak, r.units) + " on " + quoted(r.memory_level) + " " +
         format_byte_rate(r.bandwidth, r.units) + ")>";
}

std::string side(bool memory_side) {
  return memory_side ? "memory-bound" : "compute-bound";
}

std::string machine_at_intensity_repr(const MachineAtIntensity& x) {
  return "<MachineAtIntensity " + quoted(x.machine) + " " +
         format_work_rate(x.attainable, x.units) + " attainable, " + side(x.memory_side) + " (" +
         quoted(x.compute_roof) + ", " + quoted(x.memory_level) +
         ", ridge I*=" + format_intensity(x.ridge, x.units) + ")>";
}

/// Each machine's ratio to the first, as `hw compare` writes it ("1.718x"), and its regime.
std::string comparison_repr(const Comparison& c) {
  if (c.machines.empty()) return "<Comparison>";
  std::string text = "<Comparison at I=" + format_intensity(c.intensity, c.machines.front().units);
  for (size_t i = 0; i < c.machines.size(); ++i)
    text += std::string(i == 0 ? ": " : ", ") + quoted(c.machines[i].machine) + " " +
            format_number(c.ratios[i], 4) + "x" +
            (i == 0 ? "" : " (" + to_string(c.regimes[i]) + ")");
  return text + ">";
}

/// B/A and the verdict against the noise, as `roofline diff` says them. The values are left out:
/// whether a compute roof counts FLOP or OP is the machine's to say, not the change's.
std::string roof_change_repr(const RoofChange& c) {
  return "<RoofChange " + std::string(c.compute ? "compute " : "memory ") + quoted(c.name) +
         ": B/A = " + format_number(c.ratio, 4) + ", " +
         (c.work_units_differ ? work_units_not_compared(c.work_unit_a, c.work_unit_b)
                              : noise_verdict(c.exceeds_spread, c.noise, /*brief=*/true)) +
         ">";
}

std::string diff_repr(const MachineDiff& x) {
  const auto count = [&](std::optional<bool> verdict) {
    return std::count_if(x.d.changes.begin(), x.d.changes.end(), [&](const RoofChange& c) {
      return c.exceeds_spread.has_value() == verdict.has_value() &&
             (!verdict || *c.exceeds_spread == *verdict);
    });
  };
  const auto beyond = count(true);
  // A roof judged neither way: of work of different units (FLOP against OP: not compared), too
  // noisy (a noise of 100% or more), or no spread carried.
  const auto not_compared = std::count_if(x.d.changes.begin(), x.d.changes.end(),
                                          [](const RoofChange& c) { return c.work_units_differ; });
  const auto too_noisy =
      std::count_if(x.d.changes.begin(), x.d.changes.end(), [](const RoofChange& c) {
        return !c.work_units_differ && c.noise && *c.noise >= kBlindNoise;
      });
  const auto unknown = count(std::nullopt) - too_noisy - not_compared;
  // Said as `roofline diff` says them (one code, noise_verdict): not counted as within the
  // noise.
  const std::string no_spread = noise_verdict(std::nullopt, std::nullopt, /*brief=*/false);
  // The roofs compared: all without a spread said as one verdict, else counted by verdict.
  const auto compared = static_cast<std::ptrdiff_t>(x.d.changes.size()) - not_compared;
  std::string verdicts;
  if (x.d.changes.empty() || (compared > 0 && unknown == compared)) {
    verdicts = no_spread;
  } else if (compared > 0) {
    verdicts = std::to_string(beyond) + " beyond the noise";
    if (too_noisy > 0)
      verdicts +=
          ", " + std::to_string(too_noisy) + " too noisy to judge (a noise of 100% or more)";
    if (unknown > 0) verdicts += ", " + std::to_string(unknown) + " with " + no_spread;
  }
  if (not_compared > 0)
    verdicts += (verdicts.empty() ? "" : ", ") + std::to_string(not_compared) +
                " not compared (work of different units)";
  // Two documents of one machine name (a measurement before and after) told apart by their
  // files' names, as `roofline diff` heads them.
  const auto label = [](const MachineDocument& m, const MachineDocument& other) {
    std::string n = quoted(m.roofs.name);
    if (m.roofs.name == other.roofs.name && !m.file.empty() && m.file != other.file)
      n += " (" + terminal_safe(std::filesystem::path(m.file).filename().string()) + ")";
    return n;
  };
  return "<Diff " + label(x.a, x.b) + " → " + label(x.b, x.a) + ": " +
         std::to_string(x.d.changes.size()) + " roofs paired, " + verdicts + ", " +
         std::to_string(x.d.only_a.size()) + " only in A, " + std::to_string(x.d.only_b.size()) +
         " only in B, ridge " +
         (x.d.ridge_work_units_differ
              ? work_units_not_compared(x.d.ridge_units_a.work, x.d.ridge_units_b.work)
              : "B/A = " + format_number(x.d.ridge_ratio, 4)) +
         ">";
}

void register_roofs(py::module_& m) {
  py::class_<Statistics>(m, "Statistics",
                         "Repeated-measurement statistics of a measured roof, in the roof's own "
                         "unit (FLOP/s or byte/s).")
      .def_readonly("repetitions", &Statistics::repetitions)
      .def_readonly("median", &Statistics::median)
      .def_readonly("best", &Statistics::best)
      .def_readonly("min", &Statistics::min)
      .def_readonly("max", &Statistics::max)
      .def_readonly("cv", &Statistics::cv, "coefficient of variation (stddev / mean)")
      .def_readonly("noisy", &Statistics::noisy, "spread above the measurement's threshold")
      .def_readonly("sustained", &Statistics::sustained,
                    "the third-fastest sample: the best rate reached at least three times")
      .def_property_readonly(
          "second",
          [](const Statistics& s) {
            return s.second > 0 ? std::optional<double>(s.second) : std::nullopt;
          },
          "the second-fastest sample; None where the document does not carry it")
      .def_property_readonly(
          "q1",
          [](const Statistics& s) { return s.q3 > 0 ? std::optional<double>(s.q1) : std::nullopt; },
          "the lower quartile of the samples; None where the document carries no quartiles")
      .def_property_readonly(
          "q3",
          [](const Statistics& s) { return s.q3 > 0 ? std::optional<double>(s.q3) : std::nullopt; },
          "the upper quartile of the samples; None where the document carries no quartiles")
      .def_property_readonly(
          "iqr",
          [](const Statistics& s) {
            return s.q3 > 0 ? std::optional<double>(s.iqr()) : std::nullopt;
          },
          "(q3 - q1) / median, the document's 'iqr'; None where it carries no quartiles")
      .def_property_readonly(
          "spread", [](const Statistics& s) { return robust_spread(s); },
          "the relative spread docs/measure.md defines (robust_spread): iqr from 5 samples on "
          "(with quartiles), the full range (max - min) / median below")
      .def_property_readonly("confirmed", &Statistics::confirmed,
                             "the best is within 2% of the sustained rate")
      .def("__repr__", &statistics_repr);

  py::class_<ComputeRoofView>(m, "ComputeRoof",
                              "A flat roof π: peak rate of one precision and unit.")
      .def_readonly("name", &ComputeRoof::name)
      .def_readonly("precision", &ComputeRoof::precision)
      .def_readonly("unit", &ComputeRoof::unit, "execution unit / instruction class")
      .def_property_readonly(
          "peak_flop_per_s", [](const ComputeRoofView& c) { return c.peak.value; },
          "π in FLOP/s (OP/s when `integer`)")
      .def_property_readonly(
          "provenance", [](const ComputeRoofView& c) { return to_string(c.provenance); },
          "'measured', 'theoretical' or 'datasheet'")
      .def_readonly("source", &ComputeRoof::source, "URL, document or how it was measured")
      .def_property_readonly(
          "theoretical_flop_per_s",
          [](const ComputeRoofView& c) { return opt_rate(c.theoretical); },
          "cores × clock × work per cycle, beside a measured roof; None when not known")
      .def_readonly("formula", &ComputeRoof::formula, "the theoretical roof's inputs, in words")
      .def_readonly("statistics", &ComputeRoof::stats, "None unless measured")
      .def_readonly("integer", &ComputeRoof::integer, "counted in OP")
      .def_readonly("sparse", &ComputeRoof::sparse, "a structured-sparsity figure")
      .def("__repr__", [](const ComputeRoofView& c) {
        return "<ComputeRoof '" + terminal_safe(c.name) + "' " + format_work_rate(c.peak, c.units) +
               " " + to_string(c.provenance) + ">";
      });

  py::class_<MemoryRoofView>(m, "MemoryRoof", "A slanted roof β·I: bandwidth of one memory level.")
      .def_readonly("level", &MemoryRoof::level)
      .def_readonly("kind", &MemoryRoof::kind,
                    "cache, memory, interconnect, network, storage or custom")
      .def_property_readonly(
          "bandwidth_byte_per_s", [](const MemoryRoofView& r) { return r.bandwidth.value; },
          "β in byte/s")
      .def_property_readonly("provenance",
                             [](const MemoryRoofView& r) { return to_string(r.provenance); })
      .def_readonly("source", &MemoryRoof::source)
      .def_property_readonly("theoretical_byte_per_s",
                             [](const MemoryRoofView& r) { return opt_rate(r.theoretical); })
      .def_readonly("formula", &MemoryRoof::formula)
      .def_readonly("statistics", &MemoryRoof::stats)
      .def_readonly("size_bytes", &MemoryRoof::size_bytes, "capacity of the level; None if unknown")
      .def_readonly("convention", &MemoryRoof::convention,
                    "'named' (bytes the code names) or 'moved' (incl. write-allocate); '' unknown")
      .def_readonly("mixes_byte_per_s", &MemoryRoof::mixes, "byte/s per access mix")
      .def("__repr__", [](const MemoryRoofView& r) {
        return "<MemoryRoof '" + terminal_safe(r.level) + "' " +
               format_byte_rate(r.bandwidth, r.units) + " " + to_string(r.provenance) + ">";
      });

  py::class_<RidgePoint>(m, "Ridge", "A ridge point I* = π/β of a compute roof on a memory roof.")
      .def_readonly("label", &RidgePoint::label)
      .def_readonly("compute_roof", &RidgePoint::compute_roof)
      .def_property_readonly("peak_flop_per_s", [](const RidgePoint& r) { return r.peak.value; })
      .def_readonly("memory_level", &RidgePoint::memory_level)
      .def_property_readonly("bandwidth_byte_per_s",
                             [](const RidgePoint& r) { return r.bandwidth.value; })
      .def_property_readonly("ridge_flop_per_byte",
                             [](const RidgePoint& r) { return r.ridge.value; })
      .def("__repr__", &ridge_repr);
}

void register_machine_properties(py::class_<Machine>& cls) {
  cls.def_property_readonly("name", [](const Machine& x) { return x.doc.roofs.name; })
      .def_property_readonly(
          "origin", [](const Machine& x) { return fs_text(x.doc.origin); },
          "the file it was read from (the str given, a name that is no UTF-8 as os.fsdecode "
          "gives it), or the catalogue name")
      .def_property_readonly(
          "units",
          [](const Machine& x) {
            return py::make_tuple(x.doc.roofs.units.work, x.doc.roofs.units.traffic);
          },
          "(work unit, traffic unit): ('FLOP', 'byte') unless a custom roofline")
      .def_property_readonly("compute_roofs",
                             [](const Machine& x) { return compute_views(x.doc.roofs); })
      .def_property_readonly("memory_roofs",
                             [](const Machine& x) { return memory_views(x.doc.roofs); })
      .def_property_readonly("default_compute",
                             [](const Machine& x) { return x.doc.roofs.default_compute; })
      .def_property_readonly("default_memory",
                             [](const Machine& x) { return x.doc.roofs.default_memory; })
      .def_property_readonly(
          "info", [](const Machine& x) { return json_to_python(info_json(x.doc)); },
          "what describes the machine (CPU, clock, vendor, sources...) as a dict");
}

void register_machine_methods(py::class_<Machine>& cls) {
  cls.def(
         "compute_roof",
         [](const Machine& x, const TextArg<"name_or_precision">& s) {
           return compute_view(x.doc.roofs,
                               roof_counting(x.doc.roofs, s.value, "name_or_precision"));
         },
         py::arg("name_or_precision") = "",
         "The flat roof a point is judged against: a roof name, else the highest dense roof of "
         "that precision, '' the default. InputError listing the roofs when none matches.")
      .def(
          "memory_roof",
          [](const Machine& x, const TextArg<"level">& l) {
            return memory_view(x.doc.roofs, x.doc.roofs.select_memory(l.value));
          },
          py::arg("level") = "", "The slanted roof of a level ('' = the default).")
      .def(
          "ridge_flop_per_byte",
          [](const Machine& x, const TextArg<"precision">& precision,
             const TextArg<"level">& level) {
            return ridge(roof_counting(x.doc.roofs, precision.value, "precision"),
                         x.doc.roofs.select_memory(level.value))
                .value;
          },
          py::arg("precision") = "", py::arg("level") = "", "I* = π/β in FLOP/byte.")
      .def(
          "attainable_flop_per_s",
          [](const Machine& x, RealArg<"intensity_flop_per_byte"> intensity,
             const TextArg<"precision">& precision, const TextArg<"level">& level) {
            if (!(intensity >= 0) || !std::isfinite(intensity))
              throw InputError("intensity_flop_per_byte: must be ≥ 0 and finite (got " +
                               format_number(intensity) + ")");
            return attainable(roof_counting(x.doc.roofs, precision.value, "precision"),
                              x.doc.roofs.select_memory(level.value), Intensity(intensity))
                .value;
          },
          py::arg("intensity_flop_per_byte"), py::arg("precision") = "", py::arg("level") = "",
          "min(π, β·I) in FLOP/s.")
      .def(
          "ridges",
          [](const Machine& x, const TextArg<"level">& level) {
            return ridges_per_roof(x.doc.roofs, level.value);
          },
          py::arg("level") = "", "The ridge of every dense compute roof against a level.")
      .def(
          "to_json", [](const Machine& x) { return json_text(machine_to_json(x.doc)) + "\n"; },
          "The machine document (docs/schema.md) as JSON text.")
      .def(
          "save",
          [](const Machine& x, const PathArg<"path">& path) {
            write_file_atomic(path.value, machine_to_json(x.doc).dump(2) + "\n");
          },
          py::arg("path"),
          "Writes the machine document atomically (as the CLI's -o); path is a str or an "
          "os.PathLike.")
      .def("__str__",
           [](const Machine& x) { return terminal_safe_lines(render_roofs(x.doc.roofs)); })
      .def("__repr__", [](const Machine& x) {
        const auto roofs = [](std::size_t n, const char* kind) {
          return std::to_string(n) + " " + kind + (n == 1 ? " roof" : " roofs");
        };
        return "<Machine '" + terminal_safe(x.doc.roofs.name) +
               "': " + roofs(x.doc.roofs.compute.size(), "compute") + ", " +
               roofs(x.doc.roofs.memory.size(), "memory") + ">";
      });
}

/// What copy, deepcopy and pickle need (Machine.__reduce__ in python/roofline/__init__.py): a
/// copy is the C++ value's; a pickle holds the machine document as its JSON text, read back by
/// the reader of machine documents (as Machine.load reads one), and where it came from (origin,
/// file), which the document does not hold. Bytes: a path need not be UTF-8.
void register_machine_copies(py::class_<Machine>& cls) {
  cls.def("__copy__", [](const Machine& x) { return x; })
      .def(
          "__deepcopy__", [](const Machine& x, const py::handle&) { return x; }, py::arg("memo"))
      .def("_state",
           [](const Machine& x) {
             return py::make_tuple(py::bytes(machine_to_json(x.doc).dump()),
                                   py::bytes(x.doc.origin), py::bytes(x.doc.file));
           })
      .def_static("_from_state",
                  [](const std::string& text, const std::string& origin, const std::string& file) {
                    Machine m{machine_from_json(parse_json(text, "a pickled Machine"), origin)};
                    m.doc.file = file;
                    return m;
                  });
}

void register_catalogue(py::module_& m) {
  py::class_<HardwareSummary>(m, "CatalogueEntry", "One entry of the hardware catalogue.")
      .def_readonly("name", &HardwareSummary::name)
      .def_readonly("display_name", &HardwareSummary::display_name)
      .def_readonly("vendor", &HardwareSummary::vendor)
      .def_readonly("kind", &HardwareSummary::kind)
      .def_readonly("release_year", &HardwareSummary::release_year)
      .def_readonly("memory_bytes", &HardwareSummary::memory_bytes)
      .def_readonly("aliases", &HardwareSummary::aliases)
      .def_property_readonly("path",
                             [](const HardwareSummary& h) { return fs_text(h.path.string()); })
      .def_property_readonly("machine", [](const HardwareSummary& h) { return Machine{h.machine}; })
      .def("__repr__", [](const HardwareSummary& h) {
        return "<CatalogueEntry '" + terminal_safe(h.name) + "'>";
      });

  m.def(
      "catalogue",
      [](const PathArg<"hw_dir">& hw_dir) {
        std::vector<std::string> problems;
        auto entries = load_catalogue(hw_dir, &problems);
        if (!problems.empty()) {
          std::string text;
          for (const auto& p : problems) text += (text.empty() ? "" : "; ") + p;
          // A warning turned into an error (python -W error) propagates as that error.
          if (PyErr_WarnEx(PyExc_UserWarning,
                           terminal_safe_lines("skipped catalogue files: " + text).c_str(), 1) < 0)
            throw py::error_already_set();
        }
        return entries;
      },
      py::arg("hw_dir") = "",
      "Every hardware catalogue entry (`roofline hw list`); files that fail to load are skipped "
      "with a warning naming them.");
}

void register_compare(py::module_& m) {
  py::class_<MachineAtIntensity>(m, "MachineAtIntensity")
      .def_readonly("machine", &MachineAtIntensity::machine)
      .def_readonly("compute_roof", &MachineAtIntensity::compute_roof)
      .def_readonly("memory_level", &MachineAtIntensity::memory_level)
      .def_property_readonly("peak_flop_per_s",
                             [](const MachineAtIntensity& x) { return x.peak.value; })
      .def_property_readonly("bandwidth_byte_per_s",
                             [](const MachineAtIntensity& x) { return x.bandwidth.value; })
      .def_property_readonly("ridge_flop_per_byte",
                             [](const MachineAtIntensity& x) { return x.ridge.value; })
      .def_property_readonly("attainable_flop_per_s",
                             [](const MachineAtIntensity& x) { return x.attainable.value; })
      .def_readonly("memory_side", &MachineAtIntensity::memory_side)
      .def("__repr__", &machine_at_intensity_repr);

  py::class_<Comparison>(m, "Comparison",
                         "Machines at one intensity: the roof heights there and their ratios.")
      .def_property_readonly("intensity_flop_per_byte",
                             [](const Comparison& c) { return c.intensity.value; })
      .def_readonly("machines", &Comparison::machines)
      .def_readonly("ratios", &Comparison::ratios,
                    "attainable of each machine ÷ that of the first (the best speedup)")
      .def_property_readonly(
          "regimes",
          [](const Comparison& c) {
            std::vector<std::string> out;
            for (auto r : c.regimes) out.push_back(to_string(r));
            return out;
          },
          "'bandwidth ratio', 'peak ratio' or 'mixed' per machine against the first")
      .def_property_readonly(
          "note", [](const Comparison& c) { return mixed_work_note(c); },
          "what a ratio between roofs of other work means (OP/s against FLOP/s: the same "
          "products at another type), as `hw compare` says it; '' when every roof counts the "
          "same work")
      .def("to_dict", [](const Comparison& c) { return json_to_python(comparison_to_json(c)); })
      .def("__repr__", &comparison_repr);

  m.def(
      "compare",
      [](const py::object& machines_given, RealArg<"intensity_flop_per_byte"> intensity,
         const TextArg<"precision">& precision, const TextArg<"level">& level) {
        const std::vector<Machine> machines = machines_arg(machines_given, "machines");
        // As `hw compare`: a ratio needs a second machine (one alone read 1.0 against itself).
        if (machines.size() < 2)
          throw InputError("compare: give at least two machines (got " +
                           std::to_string(machines.size()) + ")");
        if (!(intensity > 0) || !std::isfinite(intensity))
          throw InputError("intensity_flop_per_byte: must be > 0 and finite (got " +
                           format_number(intensity) + ")");
        std::vector<MachineDocument> docs;
        std::vector<std::string> given;
        for (const Machine& x : machines) {
          docs.push_back(x.doc);
          given.push_back(x.given);
        }
        distinct_machines(docs, given, "compare");
        std::vector<const RoofSet*> sets;
        for (const auto& x : docs) sets.push_back(&x.roofs);
        // The roof of each machine as `roofline hw compare --precision` picks it.
        std::vector<std::string> roofs;
        for (const RoofSet* r : sets)
          roofs.push_back(select_compute_roof(*r, precision.value).name);
        Comparison c = compare_roofs_at(sets, Intensity(intensity), roofs, level.value);
        c.precision = precision.value;
        // As `hw compare` warns: default roofs of different precisions are no like-for-like
        // ratio, nor a narrow-accumulate roof against full-precision ones.
        warn_comparison(sets, roofs, precision.value.empty(), "roofline.compare");
        return c;
      },
      py::arg("machines"), py::arg("intensity_flop_per_byte"), py::arg("precision") = "",
      py::arg("level") = "",
      "The roofs of two or more machines at one intensity (`roofline hw compare --at I`): the "
      "attainable rate of each and its ratio to the first.");
}

void register_diff(py::module_& m) {
  py::class_<RoofChange>(m, "RoofChange", "One roof in two machine documents: B/A and the noise.")
      .def_readonly("name", &RoofChange::name)
      .def_readonly("roof_a", &RoofChange::roof_a, "A's roof paired (compute roof name or level)")
      .def_readonly("roof_b", &RoofChange::roof_b, "B's roof paired")
      .def_property_readonly("kind",
                             [](const RoofChange& c) { return c.compute ? "compute" : "memory"; })
      .def_readonly("a", &RoofChange::a, "A's value (FLOP/s or byte/s)")
      .def_readonly("b", &RoofChange::b, "B's value")
      .def_readonly("ratio", &RoofChange::ratio, "b / a")
      .def_readonly("spread_a", &RoofChange::spread_a, "A's robust relative spread, if carried")
      .def_readonly("spread_b", &RoofChange::spread_b)
      .def_readonly("noise", &RoofChange::noise,
                    "the larger of the spreads and the run-to-run agreement (3% compute, 5% "
                    "memory); None when neither side carries a spread")
      .def_readonly(
          "exceeds_spread", &RoofChange::exceeds_spread,
          "whether the change exceeds the noise (both runs' spreads and the run-to-run agreement); "
          "None when neither carries a spread, or when the roofs count work of different units")
      .def_property_readonly(
          "comparable", [](const RoofChange& c) { return !c.work_units_differ; },
          "False when one roof counts FLOP and the other OP (an int8 roof): the ratio is of "
          "different quantities, not judged (to_dict()'s comparable, unit_a, unit_b)")
      .def("__repr__", &roof_change_repr);

  py::class_<MachineDiff>(m, "Diff",
                          "Two machines side by side (`roofline diff A B`): each roof's ratio "
                          "and whether it exceeds the noise, what one side lacks, the ridge.")
      .def_property_readonly("changes", [](const MachineDiff& x) { return x.d.changes; })
      .def_property_readonly("only_a", [](const MachineDiff& x) { return x.d.only_a; })
      .def_property_readonly("only_b", [](const MachineDiff& x) { return x.d.only_b; })
      .def_property_readonly("ridge_ratio", [](const MachineDiff& x) { return x.d.ridge_ratio; })
      .def(
          "to_dict",
          [](const MachineDiff& x) { return json_to_python(machines_diff_to_json(x.d, x.a, x.b)); },
          "The same object as `roofline diff A B --json`.")
      .def("__repr__", &diff_repr);
  m.def(
      "diff",
      [](const MachineArg<"a">& a_arg, const MachineArg<"b">& b_arg) {
        const Machine &a = a_arg, &b = b_arg;
        return MachineDiff{diff_roofs(a.doc.roofs, b.doc.roofs), a.doc, b.doc};
      },
      py::arg("a"), py::arg("b"), "`roofline diff A B` for two machines: B's roofs against A's.");
}

void register_energy(py::module_& m) {
  m.def(
      "energy",
      [](const MachineArg<"machine">& machine_given, std::optional<RealArg<"eps_flop">> eps_flop,
         std::optional<RealArg<"eps_mem">> eps_mem, std::optional<RealArg<"pi0">> pi0,
         const py::object& intensities_given, const TextArg<"precision">& precision,
         const TextArg<"level">& level) {
        const std::vector<double> intensities = reals_arg(intensities_given, "intensities");
        EnergyQuery q;
        if (eps_flop) q.eps_flop = JoulePerWork(*eps_flop);
        if (eps_mem) q.eps_mem = JoulePerByte(*eps_mem);
        if (pi0) q.pi0 = Watt(*pi0);
        q.intensities.assign(intensities.begin(), intensities.end());
        q.precision = precision.value;
        q.level = level.value;
        const EnergyAnalysis an = analyse_energy(machine_given.value.doc, q);
        // As `roofline energy --intensity`: without costs the intensities would be dropped.
        if (!an.costs && !intensities.empty())
          throw InputError(
              "intensities: the energy roofline needs energy costs: give eps_flop and eps_mem, "
              "or a machine measured where RAPL could be read (" +
              an.measured_why + ")");
        if (!an.costs && !an.bound) throw Unavailable(no_energy_figures(an));
        return json_to_python(energy_analysis_to_json(an));
      },
      py::arg("machine"), py::arg("eps_flop") = py::none(), py::arg("eps_mem") = py::none(),
      py::arg("pi0") = py::none(), py::arg("intensities") = std::vector<double>{},
      py::arg("precision") = "", py::arg("level") = "",
      "The energy roofline of `roofline energy --json` (docs/energy.md): costs given (eps_flop J "
      "per unit of work, eps_mem J per byte, pi0 W) or measured by `roofline measure` where RAPL "
      "could be read; the model (balances, peak work per joule, balance point, the roof at each "
      "intensity) and the catalogue's power bound. The CLI's object less `power_interface` "
      "(this machine's RAPL zones) and the points of --points. Unavailable (the CLI's exit 3) "
      "when there are neither costs nor a power bound.");
}

}  // namespace

void register_machine(py::module_& m) {
  register_roofs(m);
  py::class_<Machine> cls(m, "Machine",
                          "A machine's roofs: measured here, from a machine document, from the "
                          "hardware catalogue, or given as two numbers.");
  // Paths are a str or an os.PathLike (pathlib.Path); bytes is a TypeError (PathArg).
  cls.def(
         py::init([](const PathArg<"name_or_path">& name_or_path, const PathArg<"hw_dir">& hw_dir) {
           return Machine{resolve_machine(name_or_path, hw_dir), name_or_path.value};
         }),
         py::arg("name_or_path"), py::arg("hw_dir") = "",
         "A catalogue name or alias (case-insensitive) or the path of a machine document, as "
         "the CLI's --hw/--machine.")
      .def_static(
          "load",
          [](const PathArg<"path">& path) {
            // As Machine.save says it, not the reader's ": no such file" of a name with nothing.
            if (path.value.empty()) throw InputError("path: an empty file name");
            return Machine{load_machine_file(path.value)};
          },
          py::arg("path"),
          "Loads a machine document (docs/schema.md) written by `roofline measure`.")
      .def_static(
          "from_catalogue",
          [](const TextArg<"name">& name, const PathArg<"hw_dir">& hw_dir) {
            return Machine{resolve_machine(name.value, hw_dir), name.value};
          },
          py::arg("name"), py::arg("hw_dir") = "",
          "A hardware catalogue entry by name or alias (`roofline hw list`).")
      .def_static("from_roofs", &from_roofs, py::arg("peak_flop_per_s"),
                  py::arg("bandwidth_byte_per_s"), py::arg("precision") = "",
                  py::arg("level") = "DRAM", py::arg("name") = "given roofs",
                  "One flat and one slanted roof, as the CLI's --peak and --bandwidth.")
      .def_static("measure", &measure, py::arg("quick") = false, py::arg("threads") = 0,
                  py::arg("precisions") = py::tuple(), py::arg("levels") = py::tuple(),
                  py::arg("curve") = true, py::arg("progress") = py::none(),
                  "Measures this machine's CPU roofs as `roofline measure` does (seconds with "
                  "quick=True, minutes otherwise). progress(fraction, what) is called as it goes; "
                  "Ctrl-C stops it (KeyboardInterrupt).");
  register_machine_properties(cls);
  register_machine_methods(cls);
  register_machine_copies(cls);
  register_catalogue(m);
  register_compare(m);
  register_diff(m);
  register_energy(m);
}

}  // namespace roofline::python
