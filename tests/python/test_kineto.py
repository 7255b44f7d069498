"""roofline.torch's CUDA path: GPU time per operator from a kineto trace. Without a GPU here the
trace is made of stand-in events with the methods torch 1.13's _KinetoEvent has; the figures are
derived by hand below. It has not met a real CUDA trace."""
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


def test_kernels_go_to_the_innermost_operator_that_launched_them():
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
