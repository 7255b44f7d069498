"""The Roofline performance model in Python, from the roofline C++ library.

Machines and their roofs (measured, from a machine document, from the hardware catalogue, or
given), points placed on them, the two-step diagnosis with what to do, hand-counted kernels,
comparisons of hardware at one intensity, the LLM inference model (``roofline.llm``), charts
that a notebook shows, and PyTorch operators on the roofline (``roofline.torch``).

Units: plain floats in SI base units, the unit in the name: ``work_flop``, ``traffic_byte``,
``time_s``, ``peak_flop_per_s``, ``bandwidth_byte_per_s``, ``intensity_flop_per_byte``. An
integer roof (``ComputeRoof.integer``) counts OP where a name says FLOP.

Errors are ``roofline.InputError`` (a ValueError), ``roofline.Unavailable`` (a RuntimeError)
and ``roofline.OutputError`` (an OSError), all ``roofline.Error``, carrying the message the CLI
prints. See docs/python.md.
"""

import math
import warnings
import os

from . import _roofline
from ._roofline import (
    Error,
    InputError,
    Unavailable,
    OutputError,
    Statistics,
    ComputeRoof,
    MemoryRoof,
    Ridge,
    Machine,
    CatalogueEntry,
    MachineAtIntensity,
    Comparison,
    RoofChange,
    Diff,
    Point,
    LevelJudgement,
    EmptyRoof,
    Diagnosis,
    KernelCount,
    NotPoint,
    PointsDocument,
    catalogue,
    compare,
    check,
    diff,
    diagnose,
    energy,
    kernel,
    kernels,
    dtypes,
    load_points,
)
from . import llm

__version__ = _roofline.__version__

__all__ = [
    "Error",
    "InputError",
    "Unavailable",
    "OutputError",
    "Statistics",
    "ComputeRoof",
    "MemoryRoof",
    "Ridge",
    "Machine",
    "CatalogueEntry",
    "MachineAtIntensity",
    "Comparison",
    "RoofChange",
    "Diff",
    "Point",
    "LevelJudgement",
    "EmptyRoof",
    "Diagnosis",
    "KernelCount",
    "NotPoint",
    "PointsDocument",
    "Chart",
    "catalogue",
    "compare",
    "check",
    "diff",
    "diagnose",
    "energy",
    "kernel",
    "kernels",
    "dtypes",
    "load_points",
    "llm",
]


class Chart:
    """A roofline chart: a machine's roofs, optional overlay machines, points.

    ``to_svg()`` and ``to_html()`` give what ``roofline plot`` writes (the HTML page is
    self-contained: tooltips, toggles, zoom, tables; no network); a notebook shows the chart
    through ``_repr_svg_`` (an image) or ``_repr_html_`` (the SVG in an ``<iframe srcdoc>``:
    its ids and styles apply to the chart alone, its tooltips show). ``save(path)`` picks the format from the extension
    (.svg .html .png .json .csv) and writes atomically.
    """

    def __init__(self, machine, points=(), *, overlays=(), title=None,
                 workload_intensity_flop_per_byte=None, no_overlap_curve=False, precision=""):
        # A machine is a Machine or what Machine() takes (a catalogue name, a document's
        # path), as everywhere a machine is taken (_roofline._machine).
        self.machine = _machine(machine, "Chart: machine")
        self.points = _list_of(points, Point, "points", "roofline.Point")
        self.overlays = _machines(overlays, "overlays")
        # As `roofline plot`: "Roofline of NAME" unless a title is given.
        self.title = "Roofline of " + self.machine.name if title is None else title
        self.workload_intensity_flop_per_byte = workload_intensity_flop_per_byte
        self.no_overlap_curve = no_overlap_curve
        # As `plot --precision` with --at: the roof every machine is compared and drawn at.
        self.precision = precision
        # What the chart's numbers assume that does not hold, and the points (by index) whose
        # configuration does not fit in memory: set by llm.chart from its report.
        self._warnings = []
        self._does_not_fit = {}
        # Files the chart was drawn from besides its machines' documents (llm.chart: the model's
        # config.json), which save() refuses to replace.
        self._inputs = []
        self._arguments()  # every argument checked here, not when the chart is first drawn

    def _arguments(self):
        """The chart's attributes checked (they may have been set since), named as the
        constructor's parameters."""
        machine = _machine(self.machine, "Chart: machine")
        points = _list_of(self.points, Point, "points", "roofline.Point")
        overlays = _machines(self.overlays, "overlays")
        _require(isinstance(self.title, str), "title", "a str", self.title)
        _roofline._text_value(self.title, "Chart: title")  # a lone surrogate: InputError
        # A line break: refused here, as drawing would refuse it (in a notebook, at display).
        _roofline._require_one_line(self.title, "chart title")
        workload = self.workload_intensity_flop_per_byte
        if workload is not None:
            _require(_is_real(workload), "workload_intensity_flop_per_byte",
                     "a number (FLOP/byte) or None", workload)
            # Read as the library reads a float argument: 10**400 is an InputError naming the
            # parameter, not float()'s bare OverflowError.
            value = _roofline._real_value(workload, "Chart: workload_intensity_flop_per_byte")
            if not (math.isfinite(value) and value > 0):
                raise InputError("Chart: workload_intensity_flop_per_byte: must be > 0 and "
                                 "finite (got %r)" % (workload,))
            workload = value
        _require(_is_bool(self.no_overlap_curve), "no_overlap_curve", "a bool",
                 self.no_overlap_curve)
        _require(isinstance(self.precision, str), "precision", "a str", self.precision)
        # One machine given twice, a precision a machine has no roof of, or a point whose W
        # counts other work than its roof (an int8 point on roofs of FLOP/s, which `roofline
        # plot` refuses) is refused here, not when first drawn.
        _roofline._check_chart_machines([machine] + overlays, self.precision, points)
        return ([machine] + overlays, points, self.title, workload,
                bool(self.no_overlap_curve), self.precision, list(self._warnings),
                dict(self._does_not_fit))

    def _spec(self, stacklevel=3):
        # The library's warnings (a level left out, a point not judged) said at the caller's
        # line, not this one: attributed here, Python's default filter showed each once a
        # session, whatever chart drew it.
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            spec = _roofline._Chart(*self._arguments())
        for w in said:
            warnings.warn(w.message, w.category, stacklevel=stacklevel)
        return spec

    def to_svg(self):
        """The chart as an SVG document (str)."""
        return self._spec().to_svg()

    def to_html(self):
        """The chart as one self-contained HTML page (str)."""
        return self._spec().to_html()

    def to_csv(self):
        """Roofs and points as CSV, one row each, with the diagnosis."""
        return self._spec().to_csv()

    def to_dict(self):
        """Roofs, ridges, points and their analyses (schema roofline.report)."""
        return self._spec().to_json()

    def not_drawn(self):
        """The points given that the chart leaves out, in their order: a list of dicts with
        ``name``, ``reason`` (short, as the chart's line says it: "no roof for fp16") and
        ``detail`` (the whole message, as the warning says it). The SVG, PNG and HTML say them
        too, and ``to_dict()`` has them as ``not_drawn``; empty when every point is drawn."""
        return self._spec().not_drawn()

    def to_terminal(self, columns=100):
        """A braille plot with tables, ``columns`` wide (40 to 1000, as ``plot --width``),
        without colour."""
        # An int as every int parameter takes one (docs/python.md): a bool, a float (40.0 too)
        # or a str is a TypeError; an int out of range an InputError.
        if not _roofline._is_integer(columns):
            raise TypeError("Chart.to_terminal: columns must be an int (got %s)"
                            % type(columns).__name__)
        # Read by the library's reader of an int (int, numpy integers and their 0-d arrays): a
        # numpy array of several is a TypeError naming columns, not numpy's bare one.
        whole = _roofline._int_value(columns, "Chart.to_terminal: columns")
        if whole is None or not 40 <= whole <= 1000:
            raise InputError("columns: expected a whole number from 40 to 1000 (got %r)" %
                             (columns,))
        return self._spec().to_terminal(whole)

    def save(self, path):
        """Writes the chart in the format the extension names (.svg .html .png .json .csv);
        path is a str or an os.PathLike (pathlib.Path)."""
        text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
        _require(isinstance(text, str), "path", "a str or an os.PathLike giving one", path,
                 where="Chart.save")
        self._spec().save(text, list(self._inputs))

    def __repr__(self):
        # What the chart holds, neither checked nor drawn (no warning, and no error for an
        # attribute set since); the title by Python's repr: no control character reaches a
        # terminal raw.
        overlays = len(self.overlays) if isinstance(self.overlays, (list, tuple)) else 0
        points = len(self.points) if isinstance(self.points, (list, tuple)) else 0
        return "<Chart %r: %d machine%s, %d point%s>" % (
            self.title, 1 + overlays, "s" if overlays else "", points, "" if points == 1 else "s")

    def _repr_svg_(self):
        return self.to_svg()

    def _repr_html_(self):
        # The SVG in an <iframe srcdoc>: a notebook cell holds a figure, not a whole page with
        # its scripts, and the figure is a document of its own. Inline, the chart's ids (its
        # clip path, #plot) and its <style> (text{...}, .title{...}, .bg{...}) were the notebook
        # page's: the rules restyled the page's text, and a second chart's clip-path referred
        # to the first chart's rect. In the frame they apply to the chart alone, and the SVG's
        # <title> tooltips still show (an <img> of it would lose them).
        return _isolated_html(self.to_svg(), self.title)


def _isolated_html(svg, title):
    """An SVG document as an <iframe> of its own size whose srcdoc holds it (HTML-escaped)."""
    import html
    import re

    svg = re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", svg)  # a processing instruction, not HTML
    root = re.search(r"<svg\b[^>]*>", svg)
    size = {}
    for key in ("width", "height"):
        found = re.search(r'\s%s="([0-9.]+)"' % key, root.group(0)) if root else None
        size[key] = found.group(1) if found else ("800" if key == "width" else "600")
    page = ('<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;'
            'padding:0;overflow:hidden}svg{display:block}</style></head><body>%s</body></html>'
            % svg)
    return ('<iframe srcdoc="%s" width="%s" height="%s" title="%s" style="border:0" '
            'scrolling="no"></iframe>' % (html.escape(page, quote=True), size["width"],
                                          size["height"], html.escape(title, quote=True)))


def _require(ok, name, expected, got, where="Chart"):
    if not ok:
        raise TypeError("%s: %s must be %s (got %s)" % (where, name, expected, type(got).__name__))


# A machine argument: the one rule of the package (the bindings' MachineArg), so Chart and
# roofline.torch take what diagnose, compare and the LLM functions take.
_machine = _roofline._machine


def _machines(items, name):
    """Chart's overlays: a list, each a machine as _machine reads it, named by its place."""
    _require(not isinstance(items, (str, bytes)) and hasattr(items, "__iter__"), name,
             "a list of machines (roofline.Machine, catalogue names or paths)", items)
    return [_machine(item, "Chart: %s[%d]" % (name, i)) for i, item in enumerate(items)]


def _list_of(items, cls, name, expected):
    """items as a list, each an instance of cls; a TypeError naming the parameter otherwise (a
    str is no list of them)."""
    _require(not isinstance(items, (str, bytes)) and hasattr(items, "__iter__"), name,
             "a list of " + expected, items)
    items = list(items)
    for i, item in enumerate(items):
        _require(isinstance(item, cls), "%s[%d]" % (name, i), "a " + expected, item)
    return items


# The library's own tests, so that Python and C++ agree on what a bool and a number are: a
# bool is Python's or numpy's (numpy.bool_, numpy 2's numpy.bool); a real number is what float()
# reads (int, float, numpy's numbers, Fraction, Decimal), never a bool, a str or a complex.
_is_bool = _roofline._is_bool
_is_real = _roofline._is_real


def _machine_chart(self, points=(), **kwargs):
    """This machine's roofs as a Chart, with points placed on them."""
    return Chart(self, points, **kwargs)


def _machine_repr_svg(self):
    return Chart(self).to_svg()


Machine.chart = _machine_chart
Machine.to_svg = lambda self, points=(), **kw: Chart(self, points, **kw).to_svg()
Machine.to_html = lambda self, points=(), **kw: Chart(self, points, **kw).to_html()
Machine._repr_svg_ = _machine_repr_svg


def _restore(cls, state):
    """A Machine or a Point again from what its __reduce__ gave: the machine document or points
    document its _state() wrote, read by the library's reader of such documents."""
    # (document, origin, file) for a Machine, (document,) for a Point: a state of another shape
    # (a pickle made by hand, or by another version) is said, not pybind11's signature dump.
    size = {Machine: 3, Point: 1}.get(cls)
    if size is None or not (isinstance(state, tuple) and len(state) == size
                            and all(isinstance(s, (str, bytes)) for s in state)):
        raise TypeError("a pickled %s: its state is not the %d text(s) a %s pickles" %
                        (getattr(cls, "__name__", "object"), size or 0,
                         getattr(cls, "__name__", "object")))
    return cls._from_state(*state)


# copy.copy and copy.deepcopy take the C++ value's copy (__copy__, __deepcopy__); pickle the
# document the object is (a machine document, a points document of one point).
Machine.__reduce__ = lambda self: (_restore, (Machine, self._state()))
Point.__reduce__ = lambda self: (_restore, (Point, self._state()))


def _not_copied(self):
    cls = type(self)
    raise TypeError("%s cannot be copied or pickled (only a Machine or a Point can): make it "
                    "again by the call that made it%s" % (
                        cls.__name__, ", or keep its to_dict(), a plain dict" if
                        hasattr(cls, "to_dict") else ""))


# Every other class of the library's objects (results, roofs, models): a clear TypeError from
# copy, deepcopy and pickle, where Python's own said "cannot pickle" or "__new__ alone".
for _module in (_roofline, _roofline.llm):
    for _cls in vars(_module).values():
        if (isinstance(_cls, type) and not issubclass(_cls, BaseException)
                and _cls not in (Machine, Point)):
            _cls.__reduce__ = _not_copied
del _module, _cls
