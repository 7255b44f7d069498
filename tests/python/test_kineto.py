"""roofline.torch's CUDA path: GPU time per operator from a kineto trace. Without a GPU here the
trace is made of stand-in events with the methods torch's _KinetoEvent has (1.13 and 2.x), with
the ids as torch fills them: an operator's correlation_id() is its own id, a kernel's and a
runtime call's linked_correlation_id() the id of the operator that launched it. The figures are
derived by hand below; one trace is a real one's events (HTA's test data)."""
import pytest

from roofline._kineto import gpu_seconds, is_device_event


class Ev:
    def __init__(self, name, device, start, dur, corr=0, linked=0, thread=1):
        self._n, self._d, self._s, self._u, self._c, self._l, self._t = (
            name, device, start, dur, corr, linked, thread)

    def name(self): return self._n
    def device_type(self): return "DeviceType." + self._d
    def start_us(self): return self._s
    def duration_us(self): return self._u
    def correlation_id(self): return self._c
    def linked_correlation_id(self): return self._l
    def start_thread_id(self): return self._t


def test_kernels_linked_to_their_runtime_call_go_to_the_operator_holding_the_call():
    # A trace whose kernels link to the runtime call (its correlation id) rather than to the
    # operator: the call's interval places it.
    linear = Ev("aten::linear", "CPU", 0, 100)
    addmm = Ev("aten::addmm", "CPU", 10, 50)          # inside linear
    mul = Ev("aten::mul", "CPU", 120, 20)
    other_thread = Ev("aten::mul", "CPU", 120, 20, thread=2)
    events = [
        linear, addmm, mul, other_thread,
        Ev("cudaLaunchKernel", "CPU", 20, 5, corr=7),    # in addmm (and linear): addmm's
        Ev("cudaLaunchKernel", "CPU", 30, 5, corr=8),    # addmm's second kernel
        Ev("cudaLaunchKernel", "CPU", 125, 5, corr=9),   # mul's, thread 1
        Ev("cudaLaunchKernel", "CPU", 500, 5, corr=10),  # in no operator: left out
        Ev("gemm_kernel", "CUDA", 200, 40, linked=7),
        Ev("gemm_tail", "CUDA", 230, 30, linked=8),     # overlaps the first by 10 µs
        Ev("mul_kernel", "CUDA", 300, 6, linked=9),
        Ev("stray", "CUDA", 600, 9, linked=10),
    ]
    assert is_device_event(events[-1]) and not is_device_event(linear)
    t = gpu_seconds(events, [linear, addmm, mul, other_thread])
    # addmm: union of [200, 240] and [230, 260] = 60 µs; mul (thread 1): 6 µs; linear launched
    # nothing itself; the thread-2 mul launched nothing.
    assert t == pytest.approx({1: 60e-6, 2: 6e-6})


def conv2d_trace():
    """aten::conv2d (with the FLOP count) holds convolution, _convolution and
    cudnn_convolution; the kernel, and its cudaLaunchKernel, link to cudnn_convolution (id 13):
    the operator innermost when it was launched, as torch links them. Torch 2.x gives runtime
    calls and kernels their CUPTI correlation ids as correlation_id(), counted apart from the
    operators' ids: aten::mm's launch has CUPTI id 13, cudnn_convolution's operator id."""
    conv2d = Ev("aten::conv2d", "CPU", 0, 300, corr=10)
    mm = Ev("aten::mm", "CPU", 500, 100, corr=15)
    return conv2d, mm, [
        conv2d,
        Ev("aten::convolution", "CPU", 2, 296, corr=11),
        Ev("aten::_convolution", "CPU", 4, 292, corr=12),
        Ev("aten::cudnn_convolution", "CPU", 6, 280, corr=13),
        Ev("cudaLaunchKernel", "CPU", 100, 8, corr=11, linked=13),
        Ev("implicit_gemm", "CUDA", 400, 2000, corr=11, linked=13, thread=7),
        Ev("aten::add_", "CPU", 320, 20, corr=14),           # no FLOP count here
        Ev("cudaLaunchKernel", "CPU", 325, 8, corr=12, linked=14),
        Ev("bias_kernel", "CUDA", 2400, 30, corr=12, linked=14, thread=7),
        mm,
        Ev("cudaLaunchKernel", "CPU", 510, 8, corr=13, linked=15),
        Ev("gemm", "CUDA", 2500, 50, corr=13, linked=15, thread=7),
    ]


def test_a_kernel_goes_to_the_counted_operator_that_holds_the_one_it_links_to():
    conv2d, mm, events = conv2d_trace()
    # Only aten::conv2d and aten::mm have a FLOP count: the kernel of cudnn_convolution inside
    # conv2d is its GPU time (2000 µs), not the launch's nor cudnn_convolution's, and not mm's,
    # whose launch shares the number 13; the add_'s kernel, outside both, is nobody's.
    assert gpu_seconds(events, [conv2d, mm]) == pytest.approx({0: 2000e-6, 1: 50e-6})
    # Given every CPU event, the operator the kernel links to owns it (never the launch).
    host = [e for e in events if not is_device_event(e)]
    got = {host[i].name(): t for i, t in gpu_seconds(events, host).items()}
    assert got == pytest.approx({"aten::cudnn_convolution": 2000e-6, "aten::add_": 30e-6,
                                 "aten::mm": 50e-6})


def test_a_real_traces_matrix_product_gets_its_kernels_time():
    # facebookresearch/HolisticTraceAnalysis tests/data/call_stack/backward_thread.json
    # (c1235b44, an A100 trace): aten::mm in the backward thread, its cudaLaunchKernel and a
    # 45 µs cutlass kernel, which links to the launch (correlation 2131433). Timestamps less
    # 1666149715000000 µs.
    mm = Ev("aten::mm", "CPU", 364330, 58, corr=67247, thread=24922)
    events = [
        Ev("ProfilerStep#552", "CPU", 33200, 413451, corr=49220, thread=3914),
        Ev("## backward ##", "CPU", 287655, 107988, corr=56949, thread=3914),
        Ev("autograd::engine::evaluate_function: AddmmBackward0", "CPU", 364322, 145,
           corr=67242, thread=24922),
        Ev("AddmmBackward0", "CPU", 364324, 102, corr=67243, thread=24922),
        mm,
        Ev("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>", "CUDA",
           428509, 45, corr=2131433, linked=2131433, thread=7),
        Ev("cudaLaunchKernel", "CPU", 364374, 10, corr=2131433, linked=2131433, thread=24922),
    ]
    assert gpu_seconds(events, [mm]) == pytest.approx({0: 45e-6})


def test_a_cpu_only_trace_has_no_gpu_time():
    op = Ev("aten::mm", "CPU", 0, 10)
    assert gpu_seconds([op], [op]) == {}


class Shaped(Ev):
    def __init__(self, name, start, dur, shapes, thread=1):
        super().__init__(name, "CPU", start, dur, thread=thread)
        self._shapes = shapes

    def shapes(self): return self._shapes


def test_a_dispatch_modes_outer_records_are_dropped():
    from roofline._kineto import redispatched
    events = [
        Shaped("aten::linear", 0, 100, [[2, 8], [4, 8], [4]]),
        Shaped("aten::addmm", 10, 80, [[4], [2, 8], [8, 4]]),   # as the mode receives it
        Shaped("aten::addmm", 15, 70, [[4], [2, 8], [8, 4]]),   # as it runs: kept
        Shaped("aten::addmm", 200, 50, [[4], [2, 8], [8, 4]]),  # a later call: kept
        Shaped("aten::addmm", 20, 10, [[4], [2, 8], [8, 4]], thread=2),  # another thread
        Shaped("aten::relu", 300, 20, [[2, 4]]),
        Shaped("aten::relu", 305, 10, [[2, 8]]),                # other shapes: not a copy
        Ev("kernel", "CUDA", 15, 70),
    ]
    assert redispatched(events) == {1}
    # A zero-length call at the last microsecond of another is the next call, not inside it.
    back_to_back = [Shaped("aten::t", 0, 5, [[4, 8]]), Shaped("aten::t", 5, 0, [[4, 8]])]
    assert redispatched(back_to_back) == set()


class Counted(float):
    """A time in µs that counts the order comparisons made with it (sorts, interval tests), so
    that the work of matching kernels to operators is measured without a clock."""
    comparisons = 0

    def _compare(name):
        def compare(self, other):
            Counted.comparisons += 1
            return getattr(float, name)(self, other)
        return compare

    __lt__, __le__ = _compare("__lt__"), _compare("__le__")
    __gt__, __ge__ = _compare("__gt__"), _compare("__ge__")

    def __add__(self, other): return Counted(float(self) + other)
    def __radd__(self, other): return Counted(other + float(self))
    def __sub__(self, other): return Counted(float(self) - other)
    def __neg__(self): return Counted(-float(self))


def steps(n):
    """n training-step-like slices: linear ⊃ addmm (counted) ⊃ its launch, the kernel, and four
    small operators, as a profiler records a loop."""
    events, ops = [], []
    for i in range(n):
        t = 100 * i
        addmm = Ev("aten::addmm", "CPU", Counted(t + 5), Counted(40), corr=10 * i + 1)
        ops.append(addmm)
        events += [Ev("aten::linear", "CPU", Counted(t), Counted(50), corr=10 * i), addmm,
                   Ev("cudaLaunchKernel", "CPU", Counted(t + 20), Counted(5), linked=10 * i + 1),
                   Ev("gemm", "CUDA", Counted(t + 30), Counted(7), linked=10 * i + 1, thread=7)]
        events += [Ev("aten::empty", "CPU", Counted(t + 60 + j), Counted(1), corr=10 * i + 6 + j)
                   for j in range(4)]
    return events, ops


def test_matching_kernels_to_operators_grows_near_linearly_with_the_trace():
    # Comparisons, not seconds: 4× the events must cost about 4× (n log n: 5×), not 16×.
    counts = []
    for n in (250, 1000):
        events, ops = steps(n)
        Counted.comparisons = 0
        t = gpu_seconds(events, ops)
        assert t == pytest.approx({i: 7e-6 for i in range(n)})
        counts.append(Counted.comparisons)
    assert counts[1] < 8 * counts[0], counts


def test_an_operator_starting_with_its_launcher_does_not_take_the_launchers_kernels():
    # A counted operator inside an uncounted launcher, starting in the same microsecond, was
    # pushed first in the sweep and took the launcher's kernel: the kernel goes to the counted
    # operator that holds the launcher (conv2d), not to its child.
    conv2d = Ev("aten::conv2d", "CPU", 0, 300, corr=10)
    launcher = Ev("aten::cudnn_convolution", "CPU", 6, 280, corr=13)
    child = Ev("aten::mul", "CPU", 6, 100, corr=14)  # counted, inside the launcher
    events = [conv2d, launcher, child,
              Ev("cudaLaunchKernel", "CPU", 200, 8, corr=50, linked=13),
              Ev("implicit_gemm", "CUDA", 400, 2000, corr=50, linked=13, thread=7)]
    assert gpu_seconds(events, [conv2d, child]) == pytest.approx({0: 2000e-6})
    assert gpu_seconds(events, [child, conv2d]) == pytest.approx({1: 2000e-6})


def test_a_kernel_whose_operator_is_missing_is_not_given_to_a_runtime_call_of_that_number():
    # Torch 2.x counts runtime calls' correlation ids apart from the operators': with
    # cudnn_convolution (id 13) not in the trace, its kernel went to aten::mm, whose launch has
    # CUPTI id 13. A trace that links calls to operators is never matched through the calls.
    conv2d, mm, events = conv2d_trace()
    events = [e for e in events if e.name() != "aten::cudnn_convolution"]
    assert gpu_seconds(events, [conv2d, mm]) == pytest.approx({1: 50e-6})
