"""GPU time of the operators in a torch profiler trace (roofline.torch's CUDA path).

Kept apart from roofline.torch so it imports (and is tested) without torch: it reads only the
methods of torch's kineto events (``_KinetoEvent`` in torch 1.13: ``name()``, ``device_type()``,
``start_us()``, ``duration_us()``, ``correlation_id()``, ``linked_correlation_id()``,
``start_thread_id()``).

An operator launches GPU work through runtime calls on its CPU thread (``cudaLaunchKernel``,
``cudaMemcpyAsync``, ...); CUPTI gives each call a correlation id, and the GPU activity it started
carries the same id as its linked correlation id. A launch belongs to the innermost operator of
interest whose CPU interval contains its start on the same thread; an operator's GPU time is the
length of the union of its activities' intervals (overlapping streams are not counted twice).
"""

__all__ = ["is_device_event", "gpu_seconds", "redispatched"]


def is_device_event(event):
    """True for activity on a GPU (kernels, copies), False for CPU-side events."""
    return "CPU" not in str(event.device_type()).upper()


def _union_us(intervals):
    total = 0.0
    end = None
    for s, e in sorted(intervals):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def gpu_seconds(events, operators):
    """{index in ``operators``: seconds of GPU activity it launched} for the operator events
    (a subset of ``events``) that launched any. ``events`` is the whole trace."""
    host = [e for e in events if not is_device_event(e)]
    device = {}
    for e in events:
        if is_device_event(e):
            device.setdefault(e.linked_correlation_id(), []).append(e)
    spans = []
    for i, op in enumerate(operators):
        start = op.start_us()
        spans.append((op.start_thread_id(), start, start + op.duration_us(), i))
    per_op = {}
    for launch in host:
        if launch.correlation_id() not in device:
            continue
        t, at = launch.start_thread_id(), launch.start_us()
        best = None
        for thread, s, e, i in spans:
            if thread == t and s <= at <= e and (best is None or e - s < best[0]):
                best = (e - s, i)
        if best is None:
            continue
        for k in device[launch.correlation_id()]:
            per_op.setdefault(best[1], []).append((k.start_us(), k.start_us() + k.duration_us()))
    return {i: _union_us(iv) * 1e-6 for i, iv in per_op.items()}


def redispatched(events):
    """Indices of the CPU events that enclose another of the same name, input shapes and thread.

    Under a Python dispatch mode (torch's FlopCounterMode is one) every operator is recorded
    twice: once as the mode receives it and once as the mode runs it, the second inside the
    first. The inner record is the operator's own work; the outer adds the mode's Python. The
    outer ones are these indices.
    """
    drop = set()
    open_by_key = {}
    order = sorted((i for i, e in enumerate(events) if not is_device_event(e)),
                   key=lambda i: (events[i].start_us(), -events[i].duration_us()))
    for i in order:
        e = events[i]
        key = (e.name(), e.start_thread_id(), tuple(tuple(s) for s in e.shapes()))
        stack = open_by_key.setdefault(key, [])
        start, end = e.start_us(), e.start_us() + e.duration_us()
        # Ended before this one began (a zero-length record at another's last microsecond is
        # the next call, not one inside it).
        while stack and (stack[-1][0] < start or (stack[-1][0] == start and end == start)):
            stack.pop()
        if stack and end <= stack[-1][0]:
            drop.add(stack[-1][1])
        stack.append((end, i))
    return drop

