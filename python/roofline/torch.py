"""A PyTorch model's operators on the roofline.

    import roofline, roofline.torch
    with roofline.torch.profile() as prof:
        model(x)                      # an existing training or inference step
    machine = roofline.Machine("a100-80gb")          # or roofline.Machine.measure()
    print(prof.table(machine))
    prof.chart(machine)               # a notebook shows it

Or around a whole script: ``python3 -m roofline.torch --hw NAME script.py [args...]``.

Where each number comes from:

* W is torch's own FLOP count: the profiler's ``with_flops`` (torch 1.13: matrix products
  ``aten::mm``, ``aten::addmm``, ``aten::bmm``, ``aten::conv2d`` and the elementwise
  ``aten::mul``/``aten::add``) per call. Where torch has ``torch.utils.flop_counter.
  FlopCounterMode`` (torch 2.1 and later), ``profile()`` runs it too, and the per-type
  aggregates (``by_type``) take its totals as W — it counts at the dispatcher, covering
  operators the profiler has no count for (attention, convolutions and their backward);
  ``Operator.work_source`` says which counted. The mode makes the profiler record each operator
  twice, the second inside the first: the outer record (the mode's Python around the operator)
  is dropped. Operators neither gives a FLOP count for are left out. torch 1.13 counts an
  elementwise mul/add as the size of its first input (``v * x`` with v [1000], x [1000, 1000]:
  1000): W of an elementwise operator is at least one FLOP per element of its broadcast output.
* Q is the compulsory traffic of the operator: the bytes of every tensor it reads (inputs and
  weights) once, plus the bytes of the output it writes, from the shapes and dtypes the
  profiler records (``record_shapes``; torch 1.13 records no strides, so an expanded, stride-0
  operand is counted at its full shape and Q is then an upper estimate). Otherwise it is a
  lower bound on the real traffic, like the
  library's hand counts (caches that miss, tiles re-read, write-allocate all add to it). Where
  the output's shape does not follow from the input shapes (a convolution's depends on stride
  and padding, which the profiler does not record) only the inputs are counted:
  ``Operator.output_counted`` says so, and the bound is lower still. Each input is read in its
  own dtype; the output is written in the result's dtype, which torch's type promotion gives
  (``torch.result_type``: among tensors the higher category — bool < integer < float <
  complex — then the larger size; then 0-dim tensors, then Python numbers, each only where its
  category is higher, a number's float as float32; see _result_dtype for what the profiler's
  record cannot tell apart): ``y * 2`` on fp32 ``y`` writes fp32, not int64.
  That result dtype is also the operator's precision: a matrix product, convolution or
  attention is judged on that precision's highest roof (the tensor roof), every other operator
  (elementwise mul/add, ``h * 2.0`` in fp16) on its vector roof ("fp16 vector"), since it does
  not run on the tensor cores.
* T is the profiler's wall time of the operator on the CPU (children included) for operators
  that run on the CPU. Where torch sees a GPU, ``profile()`` also records CUDA activity (CUPTI),
  and an operator with a FLOP count that launched GPU work gets as T the time of that work (on
  a GPU the CPU time is only the launch). Each kernel or copy links to the operator innermost
  on the launching thread when it was launched (aten::cudnn_convolution), and its time goes up
  to the innermost operator with a FLOP count whose interval holds that one, on the same thread
  (aten::conv2d); runtime calls (``cudaLaunchKernel``) and operators without a count never own
  GPU time. T is the union of the intervals of the kernels and copies an operator owns
  (roofline._kineto). ``Operator.time_source`` says which (``"cpu"`` or ``"gpu"``). The GPU
  path is tested on stand-in events and on the events of a real A100 trace; it has not run on
  a GPU here.
"""

import functools
import math
import sys
import warnings

try:
    import torch as _torch
    from torch.profiler import ProfilerActivity as _ProfilerActivity
    from torch.profiler import profile as _torch_profile
except Exception as _e:  # noqa: BLE001  (a broken torch raises OSError, RuntimeError, ...)
    # The package imports without torch; this module says what is missing.
    _missing = ("roofline.torch needs PyTorch (the Python module 'torch', Debian package "
                "python3-torch), which this Python (%s) cannot import: %s" % (
                    sys.executable,
                    _e if isinstance(_e, ImportError) else "%s: %s" % (type(_e).__name__, _e)))
    if __name__ == "__main__":  # python3 -m roofline.torch: the CLI's one line, no traceback
        sys.stderr.write("roofline: unavailable: %s\n" % _missing)
        sys.exit(3)
    raise ImportError(_missing) from _e

from . import Chart, InputError, Point, diagnose
from ._roofline import _format_number, _terminal_safe
from ._roofline import _int_value, _is_integer, _is_real, _real_value
from ._roofline import dtypes as _dtypes
from ._kineto import enclosing as _enclosing
from ._kineto import gpu_seconds as _gpu_seconds
from ._kineto import is_device_event as _is_device_event
from ._kineto import redispatched as _redispatched
from ._kineto import timed as _timed

__all__ = ["Operator", "Profile", "profile", "main"]

# c10's category of each scalar type the profiler records, by its name (bool < integer <
# floating < complex), and its size in bytes (of the real part for a complex type): torch's
# promotion of types follows from them.
_KIND = {
    "bool": (0, 1), "unsigned char": (1, 1), "signed char": (1, 1), "short int": (1, 2),
    "int": (1, 4), "long int": (1, 8), "c10::Half": (2, 2), "c10::BFloat16": (2, 2),
    "float": (2, 4), "double": (2, 8), "c10::complex<c10::Half>": (3, 2),
    "c10::complex<float>": (3, 4), "c10::complex<double>": (3, 8),
}
# Bytes per element.
_DTYPE_BYTES = {name: size * (2 if kind == 3 else 1) for name, (kind, size) in _KIND.items()}
_COMPLEX = {"c10::Half": "c10::complex<c10::Half>", "float": "c10::complex<float>",
            "double": "c10::complex<double>"}
_REAL = {c: r for r, c in _COMPLEX.items()}
# The roofline library's precision of each (the compute roof a point is judged against).
_DTYPE_PRECISION = {
    "double": "fp64", "float": "fp32", "c10::Half": "fp16", "c10::BFloat16": "bf16",
    "long int": "int64", "int": "int32", "short int": "int16", "signed char": "int8",
    "unsigned char": "int8", "bool": "bool", "c10::complex<c10::Half>": "complex32",
    "c10::complex<float>": "complex64", "c10::complex<double>": "complex128",
}


# Operators that run on a matrix engine (tensor cores, matrix cores, AMX, an MXU): matrix
# products, convolutions, attention; by the words of their names (aten::mm, addmm, bmm,
# baddbmm, _addmm_activation, matmul, linear, conv2d, cudnn_convolution, einsum,
# _scaled_dot_product_flash_attention). Every other operator (elementwise mul/add/div,
# activations) runs on the vector units: it is judged on its precision's vector roof
# ("fp16 vector", as the library picks it: a roof on no matrix engine), not on the tensor roof
# above it (an A100's fp16 tensor roof is 4x its fp16 vector roof); where the machine has no
# vector roof of it, on its highest roof with a note that the bound is optimistic
# (Point.vector_only: the rule of `roofline kernel` and roofline.kernel() points).
_MATRIX_WORDS = ("matmul", "linear", "conv", "einsum", "attention", "tensordot", "bilinear")


def _on_matrix_engine(name):
    """Whether an operator (its name, or by_type()'s "aten::mm (bf16)") is a matrix product,
    a convolution or attention, which the tensor roof judges."""
    base = name.split(" (")[0].split("::")[-1].lower()
    words = [w for w in base.split("_") if w]
    return (any(w.endswith("mm") for w in words)
            or any(word in base for word in _MATRIX_WORDS))


def _percent(ratio):
    """A ratio as a percentage as the CLI prints it: the library's format_number with 3
    significant digits (91.8%, 0.0285%, 1.25e+33%, never a hundred digits)."""
    return _format_number(100 * ratio, 3) + "%"


def _safe(text):
    """An operator's name for a terminal, by the library's one rule (sanitize.hpp): controls,
    bidirectional formatting and bytes that were no UTF-8 shown as \\uXXXX, so a name cannot
    move the cursor, retitle the window or reorder the line."""
    try:
        data = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that stood for no byte
        data = text.encode("utf-8", "surrogatepass")
    return _terminal_safe(data)


def _promote(a, b):
    """torch.promote_types of two dtypes (c10's names): the higher category; within one the
    larger size; uint8 with int8 is int16, float16 with bfloat16 float32; a complex type with a
    wider float gets that float's width."""
    (kind_a, size_a), (kind_b, size_b) = _KIND[a], _KIND[b]
    if a == b:
        return a
    if kind_a != kind_b:
        high, low = (a, b) if kind_a > kind_b else (b, a)
        if high in _REAL and _KIND[low][0] == 2:
            return _COMPLEX.get(_promote(_REAL[high], low), "c10::complex<float>")
        return high
    if size_a != size_b:
        return a if size_a > size_b else b
    return "float" if kind_a == 2 else "short int"


def _promote_skip_none(a, b):
    """_promote where either may be None (c10's Undefined: no operand of that kind)."""
    if a is None:
        return b
    if b is None:
        return a
    return _promote(a, b)


def _combine(high, low):
    """c10's combine_categories: the type of the operands of higher priority, unless those of
    lower priority are of a higher category (None: no operand of that priority)."""
    kind_high = _KIND[high][0] if high is not None else None
    kind_low = _KIND[low][0] if low is not None else None
    if kind_high == 3:
        return high
    if kind_low == 3:  # a complex operand: complex of the float width of the higher ones
        return _COMPLEX.get(high, "c10::complex<float>") if kind_high == 2 else low
    if kind_high == 2:
        return high
    if kind_high == 0 or kind_low == 2:
        return _promote_skip_none(high, low)
    return high if high is not None else low


# How the profiler records a Python number torch wrapped into a tensor (``y * 2``): with shape
# [] and one of these dtypes, never another. A [] operand of another dtype is a 0-dim tensor.
_WRAPPED = {"double": "float", "long int": "long int", "bool": "bool",
            "c10::complex<double>": "c10::complex<float>"}


def _result_dtype(tensors):
    """The dtype of an elementwise operator's result from its (shape, dtype) operands, by
    torch.result_type's rule: three priorities, tensors with dimensions above 0-dim tensors
    above wrapped Python numbers; an operand of lower priority counts only where its category
    (bool < integer < float < complex) is higher. An operand recorded with shape [] and a
    dtype a Python number is recorded with (double, long int, bool, complex<double>) is taken
    for a wrapped number, a float or complex one as the default dtype (float32); with another
    dtype it is a 0-dim tensor. Where every operand has shape [], the first is a 0-dim tensor.
    A 0-dim float64 (int64, bool, complex128) tensor beside tensors with dimensions cannot be
    told from a number: it is taken for one."""
    dims = [d for shape, d in tensors if shape]
    zero = [d for shape, d in tensors if not shape and d not in _WRAPPED]
    numbers = [_WRAPPED[d] for shape, d in tensors if not shape and d in _WRAPPED]
    if not dims and not zero:
        zero = [tensors[0][1]]
        numbers = [_WRAPPED[d] for _, d in tensors[1:]]
    reduce = functools.partial(functools.reduce, _promote_skip_none)
    return _combine(reduce(dims, None), _combine(reduce(zero, None), reduce(numbers, None)))


# The types whose work is counted in OP (the library's built-in integer types).
_INTEGER_TYPES = frozenset(t["name"] for t in _dtypes() if t["integer"])


def _roofs(machine):
    """A roofline.Machine, or the catalogue entry or document a str or an os.PathLike
    (pathlib.Path) names (as `--hw`): read as every function of the package reads a machine
    (roofline._machine), with its TypeError naming the parameter otherwise."""
    from . import _machine

    return _machine(machine, "machine")


def _has_roof(machine, precision):
    """Whether the machine has a compute roof that judges points of this precision ('' = the
    default roof, which every machine has): one that counts their work, OP for an integer type
    (an int8 product is not judged on a roof of FLOP/s, such as a peak given as a number)."""
    if not precision:
        return True
    try:
        roof = machine.compute_roof(precision)
    except InputError:
        return False
    return roof.integer or precision.split(" ")[0] not in _INTEGER_TYPES


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _broadcast(shapes):
    """numpy/torch broadcasting of several shapes (the output of an elementwise operator)."""
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = [s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0]
        big = [d for d in dims if d != 1]
        out.append(big[0] if big else 1)
    return out


_ELEMENTWISE = {"aten::" + op for op in ("mul", "add", "sub", "div", "mul_", "add_", "sub_",
                                          "div_")}


def _output_shape(name, tensors):
    """The output shape of an operator from its tensor inputs, where it follows from them."""
    shapes = [s for s, _ in tensors]
    if name == "aten::mm" and len(shapes) == 2:
        return [shapes[0][0], shapes[1][1]]
    if name == "aten::addmm" and len(shapes) == 3:  # bias, A (m×k), B (k×n)
        return [shapes[1][0], shapes[2][1]]
    if name == "aten::bmm" and len(shapes) == 2:
        return [shapes[0][0], shapes[0][1], shapes[1][2]]
    if name == "aten::baddbmm" and len(shapes) == 3:
        return [shapes[1][0], shapes[1][1], shapes[2][2]]
    if name in _ELEMENTWISE and len(shapes) == 2:
        return _broadcast(shapes)
    if name in _POINTWISE_UNARY and len(shapes) == 1:
        return shapes[0]
    return None


# How many tensor inputs each operator whose output shape follows from them takes: one more
# recorded tensor is the out= overload's output (mm.out, addmm.out, mul.out, ...).
_INPUTS = {"aten::mm": 2, "aten::bmm": 2, "aten::addmm": 3, "aten::baddbmm": 3}


def _inputs(name):
    if name in _INPUTS:
        return _INPUTS[name]
    if name in _ELEMENTWISE:
        return 2
    return 1 if name in _POINTWISE_UNARY else None


# Operators whose output has their first input's shape (element-wise on one tensor; softmax along
# a dimension).
_POINTWISE_UNARY = {
    "aten::" + op for op in ("relu", "relu_", "gelu", "silu", "silu_", "sigmoid", "tanh", "exp",
                             "neg", "clamp_min", "softmax", "_softmax", "log_softmax", "dropout")}


def _absorb(g, work, traffic, time_s, calls, output_counted, time_source):
    """Adds calls to an aggregate Operator: W, Q, T and the count summed."""
    g.work_flop += work
    g.traffic_byte += traffic
    g.time_s += time_s
    g.calls += calls
    g.output_counted = g.output_counted and output_counted
    if g.time_source != time_source:
        g.time_source = "mixed"


def _measure(what, value):
    """A number of an Operator (W, Q, T) as the library reads a float argument: a number
    (TypeError otherwise, a bool and a str too), in a float's range, finite and >= 0
    (InputError naming the argument otherwise)."""
    if not _is_real(value):
        raise TypeError("Operator: %s must be a number (got %s)" % (what, type(value).__name__))
    x = _real_value(value, "Operator: " + what)  # 10**400: an InputError naming it
    if not (math.isfinite(x) and x >= 0):
        raise InputError("Operator: %s: must be >= 0 and finite (got %r)" % (what, value))
    return x


class Operator:
    """One operator call (or, from ``Profile.by_type()``, all calls of one operator type).

    work_flop: torch's FLOP count; traffic_byte: compulsory bytes (a lower bound, see the
    module's documentation); time_s: the profiler's time; calls: how many calls it sums.
    """

    def __init__(self, name, work_flop, traffic_byte, time_s, precision, shapes=None,
                 output_counted=True, calls=1, time_source="cpu", work_source="profiler"):
        # Checked as every class of the package checks its arguments: a str where a number
        # goes is a TypeError, a number out of range an InputError naming the argument.
        if not isinstance(name, str):
            raise TypeError("Operator: name must be a str (got %s)" % type(name).__name__)
        if not name:
            raise InputError("Operator: name: empty (an operator needs a name)")
        if not isinstance(precision, str):
            raise TypeError("Operator: precision must be a str (got %s)"
                            % type(precision).__name__)
        self.name = name
        self.work_flop = _measure("work_flop", work_flop)
        self.traffic_byte = _measure("traffic_byte", traffic_byte)
        self.time_s = _measure("time_s", time_s)
        if not _is_integer(calls):
            raise TypeError("Operator: calls must be an int (got %s)" % type(calls).__name__)
        calls = _int_value(calls, "Operator: calls")
        if calls is None or calls < 1:
            raise InputError("Operator: calls: must be a whole number >= 1 (got %r)" % (calls,))
        self.precision = precision
        self.shapes = shapes
        self.output_counted = output_counted
        self.calls = calls
        self.time_source = time_source
        self.work_source = work_source

    @property
    def intensity_flop_per_byte(self):
        return self.work_flop / self.traffic_byte if self.traffic_byte else math.inf

    @property
    def performance_flop_per_s(self):
        return self.work_flop / self.time_s if self.time_s else math.inf

    def point(self, name=None):
        """The operator as a roofline.Point (source 'torch.profiler')."""
        note = ("Q: compulsory traffic of inputs, weights and output (a lower bound but for "
                "stride-0 operands)")
        if not self.output_counted:
            note = ("Q: compulsory traffic of inputs and weights only (a lower bound but for "
                    "stride-0 operands)")
        if self.time_source == "gpu":
            note += "; T: the GPU time of the kernels it launched"
        if self.work_source != "profiler":
            note += "; W: torch's " + self.work_source
        # An operator on no matrix engine is judged on its dtype's vector roof, by the rule
        # `roofline kernel` and roofline.kernel() points follow (Point.vector_only).
        # A name given is the point's (Point refuses an empty one); None: the operator's.
        return Point(self.name if name is None else name, self.work_flop, self.traffic_byte,
                     self.time_s, precision=self.precision or "", source="torch.profiler",
                     note=note,
                     vector_only=bool(self.precision) and not _on_matrix_engine(self.name))

    def __repr__(self):
        # The tables' four significant digits (_format_number), the name quoted as every repr
        # of the package quotes a name.
        def n(v):
            return _format_number(v, 4)
        return "<Operator '%s' ×%d W=%s FLOP Q=%s B T=%s s>" % (
            _safe(self.name), self.calls, n(self.work_flop), n(self.traffic_byte), n(self.time_s))


def _wrapped_numbers(tensors):
    """The places of the operands that are Python numbers torch wrapped (``h * 2.0``), as
    _result_dtype tells them: shape [] and a dtype a number is recorded with, beside a tensor
    with dimensions or a 0-dim tensor of another dtype (where every operand is such, the first
    is a tensor)."""
    dims = any(shape for shape, _ in tensors)
    zero = any(not shape and d not in _WRAPPED for shape, d in tensors)
    return {i for i, (shape, d) in enumerate(tensors)
            if not shape and d in _WRAPPED and (dims or zero or i > 0)}


def _traffic(name, tensors):
    """(compulsory bytes, whether the output is in them) of an operator's (shape, dtype)
    tensor operands: each read once in its own dtype, the output written once in the result's
    dtype (an in-place operator's: its first operand's). A Python number (``h * 2.0``) is an
    immediate operand, no memory traffic. An out= overload records the output as one more
    operand: it is counted once, as written."""
    numbers = _wrapped_numbers(tensors)
    traffic = sum(_numel(s) * _DTYPE_BYTES[d] for i, (s, d) in enumerate(tensors)
                  if i not in numbers)
    n = _inputs(name)
    if n is not None and len(tensors) == n + 1:  # the out= overload: the last is the output
        out = _output_shape(name, tensors[:n])
        return traffic, out is not None and out == tensors[n][0]
    out = _output_shape(name, tensors)
    if out is not None:
        dtype = tensors[0][1] if name.endswith("_") else _result_dtype(tensors)
        return traffic + _numel(out) * _DTYPE_BYTES[dtype], True
    return traffic, False


def _work(name, flops, tensors):
    """W of a call: torch's count, but for an elementwise operator at least one FLOP per
    output element (torch 1.13 counts mul and add as the numel of their first input, so
    v * x with v [1000] and x [1000, 1000] was 1000 FLOP)."""
    if name in _ELEMENTWISE:
        n = 2
        out = _output_shape(name, tensors[:n]) if len(tensors) >= n else None
        if out is not None:
            return max(flops, _numel(out))
    return flops


def _flops_ok(flops):
    """Whether a profiler FLOP count is one: a finite number >= 0."""
    import math

    try:
        return math.isfinite(flops) and flops >= 0
    except (TypeError, OverflowError):
        return False


def _operator(event, gpu_time_s=None, flops=None):
    """An Operator from a kineto event with a FLOP count (the profiler's, or `flops`), or None.
    gpu_time_s: the GPU time of the work it launched, which replaces its CPU time as T."""
    if flops is None:
        flops = event.flops()
    if flops <= 0:
        return None
    name = event.name()
    tensors = [(list(shape), dtype) for shape, dtype in zip(event.shapes(), event.dtypes())
               if dtype in _KIND]  # tensors and numbers ('Scalar', lists and None are not)
    if not tensors:
        return None
    traffic, output_counted = _traffic(name, tensors)
    flops = _work(name, flops, tensors)
    try:  # tensor sizes past a float (a shape of 10**200 elements) are no point to place
        traffic, flops = float(traffic), float(flops)
    except OverflowError:
        traffic = flops = float("inf")
    if not (math.isfinite(traffic) and math.isfinite(flops)):
        warnings.warn("roofline.torch: %s left out: its tensors' sizes are beyond a float"
                      % _safe(name), stacklevel=2)
        return None
    time_s = event.duration_us() * 1e-6
    time_source = "cpu"
    if gpu_time_s:
        time_s, time_source = gpu_time_s, "gpu"
    if time_s <= 0 or traffic <= 0:
        return None  # below the profiler's microsecond resolution: no point to place
    precision = _DTYPE_PRECISION.get(_result_dtype(tensors), "")
    return Operator(name, flops, traffic, time_s, precision, shapes=[s for s, _ in tensors],
                    output_counted=output_counted, time_source=time_source)


def _flop_counter_mode():
    """torch's FlopCounterMode class where this torch has one (2.1 and later), else None."""
    try:
        from torch.utils.flop_counter import FlopCounterMode
    except ImportError:
        return None
    return FlopCounterMode


def _aten_name(packet):
    """'aten::mm' for FlopCounterMode's key of aten.mm (an OpOverloadPacket, printed 'aten.mm')."""
    text = str(packet)
    return text.replace(".", "::", 1) if "::" not in text else text


def _with_gpu_time(events, calls, device):
    """[(call, seconds of GPU work it owns, or None)]; device: whether the trace has any."""
    gpu = _gpu_seconds(events, calls) if device and calls else {}
    return [(e, gpu.get(i)) for i, e in enumerate(calls)]


def _holding(host, counted):
    """Names of the types the profiler counts and the counter does not (`counted`: its totals
    per name) whose calls hold a call of a type the counter counted, on the same thread."""
    outer = [e for e in host if e.flops() > 0 and e.name() not in counted]
    inner = [e for e in host if e.name() in counted]
    names = set()
    for stack in _enclosing(outer, inner):
        names.update(outer[i].name() for i in stack)
    return names


# The kinds of machine whose roofs are a device's (a GPU, a TPU, an accelerator, a SoC's GPU or
# NPU): the host's CPU time of an operator is never that device's time.
_DEVICE_KINDS = ("gpu", "tpu", "accelerator", "soc")


def _article(word):
    return "an" if word[:1] in "aeiou" else "a"


def _host_cpu_model():
    """This host's CPU model as `roofline measure` records it (info.cpu: the CPUID brand
    string, which Linux shows as /proc/cpuinfo's "model name"), or '' where unknown."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name":
                    return value.strip()
    except OSError:
        pass
    return ""


def _measured_here(machine):
    """Whether a CPU machine is a measurement of this host (Machine.measure(), or the document
    `roofline measure` wrote here): roofs measured, the document's name this host's name (the
    hostname measure gives it) and, where both are known, its CPU model this host's."""
    import socket

    if not any(r.provenance == "measured" for r in machine.compute_roofs):
        return False
    if machine.name != socket.gethostname():
        return False
    recorded, here = str(machine.info.get("cpu") or ""), _host_cpu_model()
    return not (recorded and here) or recorded.split() == here.split()


def _from_catalogue(machine):
    """Whether the machine is a catalogue entry: named as one, or read from its file."""
    from . import catalogue

    import os

    try:
        entries = catalogue()
        return machine.origin in {e.name for e in entries} or os.path.realpath(
            machine.origin) in {os.path.realpath(e.path) for e in entries}
    except Exception:  # noqa: BLE001  (a catalogue that cannot be read: not known to be one)
        return False


def _at_precision(p, precision):
    """The point judged at another precision's roof (diagnose(), table() and chart()'s
    precision=): an element-wise operator stays vector_only, so it is held against that type's
    vector roof, never moved onto the tensor cores by the precision given."""
    return Point(p.name, p.work_flop, p.traffic_byte, p.time_s, precision=precision,
                 source=p.source, note=p.note, vector_only=p.vector_only)


def _host_time_note(machine, ops):
    """Host times judged against roofs that are not this host's: what the attainment reads is
    this host's time on another machine's roofs (a CPU-only run judged on an A100, on a Jetson's
    GPU, on a catalogue EPYC). None when no operator is so judged: a CPU measured here, roofs
    given as numbers (the user's word), or no operator timed on the host."""
    kind = machine.info.get("kind")
    host = sum(1 for o in ops if o.time_source in ("cpu", "mixed"))
    if not host:
        return None
    count = "%d operator%s" % (host, "" if host == 1 else "s")
    name = _safe(machine.name)
    if kind in _DEVICE_KINDS:
        return ("%s timed on the host (time_source 'cpu': no device time was recorded), judged "
                "against the roofs of %s, %s %s: the verdicts read host time, not the device's"
                % (count, name, _article(kind), kind))
    if kind != "cpu" or _measured_here(machine):
        return None
    if not any(r.provenance == "measured" for r in machine.compute_roofs):
        what = "a catalogue cpu" if _from_catalogue(machine) else "a cpu's stated roofs"
    else:
        what = "a cpu measured on %s" % _safe(repr(machine.name))
        if machine.info.get("cpu"):
            what += " (%s)" % _safe(str(machine.info["cpu"]))
    return ("%s timed on this host, judged against the roofs of %s (%s, not a measurement of "
            "this host): the verdicts read this host's time on another machine's roofs"
            % (count, name, what))


def _warn_host_time(where, machine, ops):
    note = _host_time_note(machine, ops)
    if note:
        warnings.warn("%s: %s" % (where, note), UserWarning, stacklevel=3)


class Profile:
    """What ``profile()`` recorded: the operators with a FLOP count, in call order."""

    def __repr__(self):
        if self._running:
            return "<roofline.torch.Profile (running)>"
        # What was recorded, without reading the trace (a repr says nothing and warns nothing).
        events = len(self._events)
        return "<roofline.torch.Profile: %d profiler event%s%s>" % (
            events, "" if events == 1 else "s",
            ", W from FlopCounterMode" if self._counted else "")

    def __reduce__(self):
        # torch's profiler events do not pickle (Python said "cannot pickle '_KinetoEvent'"):
        # said as every other object of the package says it.
        raise TypeError("Profile cannot be copied or pickled (only a Machine or a Point can): "
                        "keep its points() (Points pickle) or its table()")

    def __init__(self):
        self._events = []
        self._prof = None
        self._counted = {}  # FlopCounterMode's totals per operator name, where it ran
        self._cache = None  # (events, counted, analysis): the trace read once
        self._running = False  # inside the profile() block that fills it

    @property
    def flop_counter(self):
        """'FlopCounterMode' where torch's dispatcher-level counter ran, else None."""
        return "FlopCounterMode" if self._counted else None

    def _analysis(self):
        """The calls and their GPU time, read once per trace (table() and chart() ask again)."""
        if self._running:
            raise RuntimeError("roofline.torch: the profile is still running: its operators "
                               "are known when the profile() block has ended")
        cache = self._cache
        if cache is None or cache[0] is not self._events or cache[1] is not self._counted:
            cache = self._cache = (self._events, self._counted, self._analyse())
        return cache[2]

    def _analyse(self):
        events, untimed = _timed(self._events)
        if untimed:
            warnings.warn("roofline.torch: %d profiler event%s left out: a start or duration "
                          "that is not a finite number (or a negative duration)"
                          % (untimed, "" if untimed == 1 else "s"), stacklevel=4)
        # A FLOP count that is no number >= 0 (NaN and negative ones were dropped unsaid, an inf
        # one failed the whole table): left out, said, as an untimed event is.
        counted_badly = [e for e in events if not _flops_ok(e.flops())]
        if counted_badly:
            events = [e for e in events if _flops_ok(e.flops())]
            warnings.warn("roofline.torch: %d profiler event%s left out: a FLOP count that is "
                          "not a finite number >= 0" % (len(counted_badly),
                                                        "" if len(counted_badly) == 1 else "s"),
                          stacklevel=4)
        drop = _redispatched(events) if self._counted else set()
        host = [e for i, e in enumerate(events) if i not in drop and not _is_device_event(e)]
        with_flops = {e.name() for e in host if e.flops() > 0}
        profiled = [e for e in host if e.flops() > 0]
        counted = [e for e in host if e.name() in self._counted and e.name() not in with_flops]
        device = any(_is_device_event(e) for e in events)
        return {False: _with_gpu_time(events, profiled, device),
                True: _with_gpu_time(events, counted, device),
                "outer": _holding(host, self._counted) if self._counted else set()}

    def _calls(self, counted_only=False):
        """(event, gpu seconds or None) per CPU operator call, the mode's outer records
        dropped; all calls with a profiler FLOP count, or (counted_only) those of the types
        only the FLOP counter counts. GPU time goes to these calls only (_kineto.gpu_seconds):
        a kernel to the one among them that holds the operator it links to."""
        return self._analysis()[counted_only]

    def _enclosing_counted(self):
        """Names of the types the profiler counts and the counter does not, whose calls hold a
        call of a type the counter counted (same thread, within its interval)."""
        return self._analysis()["outer"]

    def operators(self):
        """Every operator call with a FLOP count from the profiler, as Operators."""
        ops = []
        for e, gpu in self._calls():
            op = _operator(e, gpu)
            if op is not None:
                ops.append(op)
        return ops

    def by_type(self):
        """The calls aggregated per operator name and dtype: W, Q and T summed (I = ΣW/ΣQ). An
        operator called with several dtypes (autocast's bf16 matmuls beside fp32 ones) gives
        one row per dtype, named "aten::mm (bf16)", each judged on its own precision's roof.
        Where FlopCounterMode ran, W of each type it counted is its total, and the types only
        it counted are added (Q and T from their calls); its totals are per name, so a counted
        operator's dtypes stay one row, on the machine's default roof (precision '')."""
        groups = {}  # (name, precision) → the calls' sum, in the order first seen

        def add(op):
            g = groups.get((op.name, op.precision))
            if g is None:
                groups[(op.name, op.precision)] = Operator(
                    op.name, op.work_flop, op.traffic_byte, op.time_s, op.precision, None,
                    op.output_counted, 1, op.time_source)
            else:
                _absorb(g, op.work_flop, op.traffic_byte, op.time_s, 1, op.output_counted,
                        op.time_source)

        # Where the counter ran, a type only the profiler counts whose calls hold a call the
        # counter counted is the same work under another name (aten::conv2d holds
        # aten::convolution, which the counter sees): left out, not counted twice.
        outer = self._enclosing_counted() if self._counted else set()
        for op in self.operators():
            if op.name not in outer:
                add(op)
        for e, gpu in self._calls(counted_only=True):
            op = _operator(e, gpu, flops=1)  # W set from the counter's total below
            if op is not None:
                add(op)
        by_name = {}
        for (name, _), g in groups.items():
            by_name.setdefault(name, []).append(g)
        out = []
        for name, parts in by_name.items():
            if name in self._counted:
                g = parts[0]
                for other in parts[1:]:
                    _absorb(g, other.work_flop, other.traffic_byte, other.time_s, other.calls,
                            other.output_counted, other.time_source)
                    g.precision = ""  # the counter's total spans the dtypes: the default roof
                g.work_flop = float(self._counted[name])
                g.work_source = "FlopCounterMode"
                out.append(g)
                continue
            for g in parts:
                if len(parts) > 1:
                    g.name = "%s (%s)" % (name, g.precision or "other dtype")
                out.append(g)
        return [g for g in out if g.work_flop > 0]

    def points(self, by_type=False):
        """The operators (or the per-type aggregates) as roofline.Points. by_type defaults to
        False here, one point per call ("aten::mm #3"), unlike diagnose(), chart() and table(),
        which default to by_type=True (one per operator type and dtype): points(by_type=True)
        gives the points chart() places."""
        ops = self.by_type() if by_type else self.operators()
        if by_type:
            return [op.point() for op in ops]
        return [op.point("%s #%d" % (op.name, i + 1)) for i, op in enumerate(ops)]

    def diagnose(self, machine, by_type=True, precision=None):
        """[(Operator, Diagnosis or None)] on a machine's roofs. precision None = each
        operator's dtype, and an operator whose dtype the machine has no roof for (an int64
        index computation: no machine has an int64 roof) gets None, not judged; '' = the
        machine's default compute roof for every operator. Operators timed on the host judged
        on roofs that are not this host's (a GPU's, TPU's, accelerator's or SoC's, or a CPU's
        that is no measurement of this host: a catalogue CPU) are warned about
        (UserWarning)."""
        pairs = self._diagnose(machine, by_type, precision)
        # The operators judged, as chart() counts them: one left unjudged (None) reads no time.
        _warn_host_time("roofline.torch.Profile.diagnose", _roofs(machine),
                        [op for op, d in pairs if d is not None])
        return pairs

    def _diagnose(self, machine, by_type, precision):
        machine = _roofs(machine)
        _check_precision(machine, precision)
        ops = self.by_type() if by_type else self.operators()
        out = []
        for op in ops:
            p = op.point()
            if precision is not None:
                p = _at_precision(p, precision)
            out.append((op, diagnose(p, machine) if _has_roof(machine, p.precision) else None))
        return out

    def chart(self, machine, by_type=True, title="PyTorch operators", precision=None):
        """The operators on the machine's roofs as a roofline.Chart (those whose dtype the
        machine has no roof for are left out, as diagnose() leaves them unjudged). precision
        as diagnose()'s: None = each operator's dtype, '' = the machine's default compute roof
        for every operator, a precision = that precision's roof for every operator."""
        machine = _roofs(machine)
        _check_precision(machine, precision)
        ops = self.by_type() if by_type else self.operators()
        _warn_host_time("roofline.torch.Profile.chart", machine,
                        [op for op in ops if _has_roof(
                            machine, op.precision if precision is None else precision)])
        return self._chart(machine, by_type, title, precision)

    def _chart(self, machine, by_type, title, precision=None):
        points = self.points(by_type=by_type)
        if precision is not None:
            points = [_at_precision(p, precision) for p in points]
        points = [p for p in points if _has_roof(machine, p.precision)]
        return Chart(machine, points, title=title)

    def table(self, machine=None, by_type=True, precision=None):
        """A text table: per operator W, Q (compulsory), I, T, P and, given a machine, the
        verdict and the attainment of its roof."""
        rows = [("operator", "calls", "W (FLOP)", "Q≥ (byte)", "I (FLOP/byte)", "T (s)",
                 "P (FLOP/s)", "verdict", "attainment")]
        if machine is not None:
            machine = _roofs(machine)
            pairs = self._diagnose(machine, by_type, precision)
        else:
            pairs = [(o, None) for o in (self.by_type() if by_type else self.operators())]
        unjudged = set()
        # A diagnosis's note that the bound is optimistic (an element-wise operator judged on
        # a matrix engine's roof: the machine has no vector roof of its dtype), once each.
        optimistic = []
        for op, d in pairs:
            for n in (d.notes if d else []):
                if "the bound is optimistic" in n and n not in optimistic:
                    optimistic.append(n)
            verdict = d.verdict if d else ""
            if machine is not None and d is None:
                judged_on = op.precision if precision is None else precision
                verdict = "no %s roof" % judged_on
                unjudged.add(judged_on)
            rows.append((_safe(op.name), str(op.calls), "%.4g" % op.work_flop,
                         "%.4g" % op.traffic_byte, "%.4g" % op.intensity_flop_per_byte,
                         "%.4g" % op.time_s, "%.4g" % op.performance_flop_per_s,
                         verdict, _percent(d.attainment) if d else ""))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
        if len(rows) == 1:
            lines.append("no operator with a FLOP count was recorded")
        lines.append("Q≥: compulsory traffic (inputs, weights, output once): a lower bound, so I "
                     "is an upper bound, except for a broadcast (stride-0) operand, counted at "
                     "its full shape")
        if by_type and self._counted:
            lines.append("W: torch's FlopCounterMode total per operator type")
        note = _host_time_note(machine, [o for o, _ in pairs]) if machine is not None else None
        if note:
            lines.append("T: " + note)
        lines.extend(optimistic)
        if unjudged:
            lines.append("no %s roof: %s has no compute roof of that precision (for an "
                         "operator off the matrix engine, no vector roof of it), so those "
                         "operators are not judged (precision='' judges every operator on the "
                         "default roof)" % ("/".join(sorted(unjudged)), _safe(machine.name)))
        return "\n".join(lines) + "\n"


def _check_precision(machine, precision):
    """precision= of diagnose(), table() and chart(): None, or a str naming a dtype's precision
    or a roof of the machine (an InputError as compute_roof's otherwise)."""
    if precision is not None and not isinstance(precision, str):
        raise TypeError("precision: expected a str (got %s)" % type(precision).__name__)
    if precision and precision not in _DTYPE_PRECISION.values() and not _has_roof(
            machine, precision):
        machine.compute_roof(precision)  # an unknown precision: its InputError


def _profiler_enabled():
    """Whether torch's autograd profiler is already on in this thread."""
    enabled = getattr(_torch.autograd, "_profiler_enabled", None)
    return bool(enabled()) if enabled is not None else False


class profile:
    """Context manager: profiles what runs inside it with torch's profiler (CPU, shapes,
    FLOPs) and gives a Profile, a new one each time the block is entered."""

    def __init__(self):
        self._profile = None
        self._prof = None
        self._counter = None

    def __enter__(self):
        if _profiler_enabled():
            raise RuntimeError(
                "roofline.torch.profile(): torch's profiler is already running in this thread "
                "(another roofline.torch.profile() or torch.profiler.profile() holds it, or "
                "the script runs under python3 -m roofline.torch, which profiles it): torch "
                "profiles one block at a time, so profile() cannot nest")
        activities = [_ProfilerActivity.CPU]
        if _torch.cuda.is_available():  # the GPU's own time of what the operators launch
            activities.append(_ProfilerActivity.CUDA)
        self._profile = Profile()
        self._profile._running = True
        self._prof = _torch_profile(activities=activities, record_shapes=True, with_flops=True)
        self._prof.__enter__()
        counter = _flop_counter_mode()
        self._counter = counter(display=False) if counter is not None else None
        if self._counter is not None:
            self._counter.__enter__()
        return self._profile

    def __exit__(self, exc_type, exc, tb):
        if self._counter is not None:
            self._counter.__exit__(exc_type, exc, tb)
            totals = self._counter.get_flop_counts().get("Global", {})
            self._profile._counted = {_aten_name(k): v for k, v in totals.items() if v > 0}
        result = self._prof.__exit__(exc_type, exc, tb)
        self._profile._events = list(self._prof.profiler.kineto_results.events())
        self._profile._prof = self._prof
        self._profile._running = False
        return result


def _arguments(argv):
    import argparse

    class Once(argparse.Action):
        """An option's value, counted: one given twice is refused after parsing (as the CLI
        refuses --machine given twice), not silently replaced by the last."""

        def __call__(self, parser, namespace, values, option_string=None):
            given = getattr(namespace, "_given", None) or {}
            given[self.dest] = given.get(self.dest, 0) + 1
            namespace._given = given
            setattr(namespace, self.dest, values)

    parser = argparse.ArgumentParser(
        prog="python3 -m roofline.torch",
        usage="%(prog)s [-h] [--hw NAME | --machine FILE] [--per-call] [--chart FILE] "
              "script [args ...]",
        description="Run a PyTorch script and place its operators on the roofline.")
    parser.add_argument("--hw", action=Once,
                        help="catalogue name or machine document for the roofs")
    parser.add_argument("--machine", action=Once,
                        help="machine document (from `roofline measure`)")
    parser.add_argument("--per-call", action="store_true", help="one row per operator call")
    parser.add_argument("--chart", action=Once,
                        help="write the chart here (.svg, .html, .png, .json, .csv)")
    parser.add_argument("script", nargs="?")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    a = parser.parse_args(argv)
    if a.script is None:  # argparse named the optional args as required too
        parser.error("the following argument is required: script")
    return a


_CHART_FORMATS = (".svg", ".html", ".png", ".json", ".csv")


def _not_a_file(mode):
    """What a path that is no regular file is, in words."""
    import stat

    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"


def _check_script(path):
    """Refuses a script path that names no readable regular file, saying what it names."""
    import os

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError("%s: no such file (the script to run)" % ascii(path)) from None
    except OSError as e:
        raise InputError("%s: %s (the script to run)" % (ascii(path), e.strerror)) from None
    kind = _not_a_file(mode) if not os.path.isfile(path) else None
    if kind:
        raise InputError("%s: is %s, not a script to run" % (ascii(path), kind))
    if not os.access(path, os.R_OK):
        raise InputError("%s: cannot be read (permission denied): the script to run"
                         % ascii(path))


def _check_chart(path, machine=None, script=None, machine_flag=None):
    """Refuses, before the script runs, a chart path Chart.save would refuse after it: an
    unknown format, a folder that is not there, a path that names no regular file; and one
    that is an input, the machine document or the script itself."""
    import os

    if os.path.isdir(path):
        raise InputError("%s: is a directory (give a file name: chart.svg)" % ascii(path))
    extension = os.path.splitext(path)[1]
    if extension.lower() not in _CHART_FORMATS:
        raise InputError("%s: unknown format %s (use .svg, .html, .png, .json or .csv)"
                         % (ascii(path), ascii(extension)))
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise InputError("%s: folder %s does not exist" % (ascii(path), ascii(folder)))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError("%s: folder %s is not writable" % (ascii(path), ascii(folder)))
    if os.path.lexists(path) and (os.path.islink(path) or not os.path.isfile(path)):
        kind = "a symbolic link" if os.path.islink(path) else _not_a_file(os.stat(path).st_mode)
        raise InputError("%s: is %s: the chart is written to a new file renamed over it"
                         % (ascii(path), kind))
    if machine and os.path.exists(path) and os.path.exists(machine) and \
            os.path.samefile(path, machine):
        raise InputError("%s: is the machine document (%s): the chart would replace it"
                         % (ascii(path), "--machine" if machine_flag is None else machine_flag))
    if script and os.path.exists(path) and os.path.exists(script) and \
            os.path.samefile(path, script):
        raise InputError("%s: is the script to run: the chart would replace it"
                         % ascii(path))
    from ._roofline import _check_writable
    _check_writable(path, "--chart")  # read-only, and what else every output refuses


def _machine(a):
    """The roofs the arguments name (None: no roofs), every argument and output path checked
    before the script runs, which may take long."""
    from . import Machine

    for dest, count in sorted((getattr(a, "_given", None) or {}).items()):
        if count > 1:  # the CLI's words for an option given more than once
            raise InputError("--%s: given %d times; give it once" % (dest, count))
    if a.hw is not None and a.machine is not None:
        raise InputError("give --hw or --machine, not both")
    if a.hw == "":
        raise InputError("unknown machine '' (--hw names a catalogue machine or a document)")
    if a.machine == "":
        raise InputError("--machine '': give a machine document")
    if a.chart is not None and not (a.hw or a.machine):
        raise InputError("--chart needs roofs: give --hw or --machine")
    if a.chart is not None:
        _check_chart(a.chart, a.machine or a.hw, a.script, "--machine" if a.machine else "--hw")
    _check_script(a.script)
    return Machine(a.hw or a.machine) if a.hw or a.machine else None


def _run(script, args):
    """(the Profile of the script run as __main__, the code its sys.exit() gave or None, the
    exception it ended with or None): a script that exits, raises or is interrupted still has
    what ran profiled, as under python -m cProfile. Its folder is sys.path[0], as under
    ``python3 script.py``."""
    import os
    import runpy

    # The caller's sys.argv and sys.path[0] are the script's while it runs, and the caller's
    # again after, however it ends (main() may be called from Python, not only as -m).
    saved_argv = sys.argv
    saved_path = list(sys.path)
    sys.argv = [script] + args
    script_folder = os.path.dirname(os.path.abspath(script))
    if sys.path:
        sys.path[0] = script_folder
    else:
        sys.path.insert(0, script_folder)
    code = error = None
    try:
        with profile() as prof:
            try:
                runpy.run_path(script, run_name="__main__")
            except SystemExit as e:
                code = e.code
            except BaseException as e:  # noqa: BLE001  (KeyboardInterrupt too: after the table)
                error = e
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path
    return prof, code, error


def _print_exception(error, script):
    """The traceback Python would print for the script's exception, from the script's own
    frames on (not roofline's or runpy's)."""
    import os
    import traceback

    path = os.path.abspath(script)
    tb = error.__traceback__
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != path:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb or error.__traceback__)
    sys.stderr.flush()


def _exit_status(code):
    """The process's exit status for a sys.exit() argument, as Python gives it: None 0, a
    number itself, anything else printed on stderr and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write("%s\n" % (code,))
    return 1


def main(argv=None):
    """``python3 -m roofline.torch [--hw NAME | --machine FILE] [--per-call] [--chart FILE]
    script.py [args]``: runs the script under profile() and prints its operators on the
    machine's roofs. Returns the exit status: the script's own where it called sys.exit(), 1
    after its traceback where it raised, 130 where it was interrupted (KeyboardInterrupt), 2
    for bad arguments (argparse's usage and message on stderr; it raises no SystemExit), 0
    after --help."""
    from . import Error

    import os

    # A command line is a list of words: a str would be read one character at a time.
    if argv is not None and (isinstance(argv, (str, bytes)) or not isinstance(argv, (list, tuple))
                             or not all(isinstance(w, str) for w in argv)):
        raise TypeError("main: argv must be a list of strings (got %s)" % type(argv).__name__)
    try:
        a = _arguments(argv)
    except SystemExit as e:  # argparse's: its message (or --help) is on stderr (stdout)
        return _exit_status(e.code)
    error = code = None
    try:
        machine = _machine(a)
        chart = os.path.abspath(a.chart) if a.chart else None  # the script may chdir()
        prof, code, error = _run(a.script, a.args)
        broken_pipe = False
        try:
            sys.stdout.write(prof.table(machine, by_type=not a.per_call))
            sys.stdout.flush()
        except BrokenPipeError:
            # A reader that went away (| head): as the CLI, which SIGPIPE ends with 141, no
            # traceback; stdout goes to /dev/null so the interpreter's last flush says nothing.
            # The chart and the script's own error still follow.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
            broken_pipe = True
        if chart:
            # The table above says what a warning would.
            prof._chart(_roofs(machine), not a.per_call, "PyTorch operators").save(chart)
        if broken_pipe:
            if error is not None:
                _print_exception(error, a.script)
            return 128 + 13
    except Error as e:
        if error is not None:
            _print_exception(error, a.script)
        sys.stderr.write("roofline: error: %s\n" % e)
        return 2
    if error is not None:  # as Python ends on an uncaught exception: the traceback, 1 (130)
        _print_exception(error, a.script)
        return 130 if isinstance(error, KeyboardInterrupt) else 1
    return _exit_status(code)


if __name__ == "__main__":
    sys.exit(main())
