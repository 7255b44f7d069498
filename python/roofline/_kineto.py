"""GPU time of the operators in a torch profiler trace (roofline.torch's CUDA path).

Kept apart from roofline.torch so it imports (and is tested) without torch: it reads only the
methods of torch's kineto events (``_KinetoEvent`` in torch 1.13 and 2.x alike: ``name()``,
``device_type()``, ``start_us()``, ``duration_us()``, ``correlation_id()``,
``linked_correlation_id()``, ``start_thread_id()``).

What the ids mean (torch/autograd/profiler.py, which builds its own tables from them): a CPU
operator's ``correlation_id()`` is its own id (the trace's "External id"); a kernel, copy or
memset on the GPU, and the runtime call that started it (``cudaLaunchKernel``, ...), have as
``linked_correlation_id()`` the id of the operator that was innermost on the launching thread
when it was launched (aten::cudnn_convolution, not the aten::conv2d that holds it). A trace
whose GPU activity links to its runtime call instead (a runtime call's own correlation id) is
read too: the activity then belongs to the operator holding that call. That fallback is taken
only in a trace none of whose runtime calls links to an operator: torch 2.x numbers runtime
calls apart from operators, so there a call's id may equal an unrelated operator's.

From the operator it links to, GPU activity goes up to the innermost of the operators of
interest (those with a FLOP count) whose CPU interval holds that operator's start, on the same
thread (one that starts in the same microsecond but is shorter is its child, not its holder); runtime calls and operators without a count never own it. An operator's GPU time is the
length of the union of its activities' intervals (overlapping streams are not counted twice).
Every step sorts once and sweeps (or looks up by id), so a trace is read in O(n log n).
"""

import math
import re

__all__ = ["is_device_event", "timed", "gpu_seconds", "redispatched", "enclosing"]

# The runtime and driver calls of CUDA and ROCm (cudaLaunchKernel, cuLaunchKernel,
# hipLaunchKernel): CPU events, never operators.
_RUNTIME_CALL = re.compile(r"(cuda|cu|hip|hsa)[A-Z_]")


def is_device_event(event):
    """True for activity on a GPU (kernels, copies), False for CPU-side events."""
    return "CPU" not in str(event.device_type()).upper()


def timed(events):
    """(the events with a finite start and a finite duration not below 0, in their order; how
    many others there were)."""
    kept = []
    for e in events:
        start, duration = e.start_us(), e.duration_us()
        if math.isfinite(start) and math.isfinite(duration) and duration >= 0:
            kept.append(e)
    return kept, len(events) - len(kept)


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


def enclosing(operators, targets):
    """[for each target: the indices in ``operators`` of those on its thread whose interval
    [start, end) holds the target's start, outermost first]. An operator that starts in the
    same microsecond as the target but is shorter is inside it (its child), not holding it:
    at one start the longer span holds the shorter, and of equal spans the operator holds the
    target. One sort and one sweep per thread."""
    by_thread = {}
    for i, op in enumerate(operators):
        by_thread.setdefault(op.start_thread_id(), []).append(
            (op.start_us(), -op.duration_us(), 0, i))
    for j, t in enumerate(targets):
        by_thread.setdefault(t.start_thread_id(), []).append(
            (t.start_us(), -t.duration_us(), 1, j))
    out = [() for _ in targets]
    for items in by_thread.values():
        _sweep(sorted(items), out)
    return out


def _sweep(items, out):
    """One thread's operators (kind 0) and targets (kind 1), sorted by start, at one start the
    longest first and of equal length the operators first: each target gets the stack of
    operators open there."""
    stack = []  # (end, index), nested: the innermost last
    for start, negative_duration, kind, index in items:
        while stack and stack[-1][0] <= start:
            stack.pop()
        if kind == 0:
            stack.append((start - negative_duration, index))
        else:
            out[index] = tuple(i for _, i in stack)


def _device_intervals(events):
    """{linked id: [(start, end) of each GPU activity linked to it]}."""
    by_link = {}
    for e in events:
        if is_device_event(e) and e.linked_correlation_id():
            start = e.start_us()
            by_link.setdefault(e.linked_correlation_id(), []).append(
                (start, start + e.duration_us()))
    return by_link


def _links_to_calls(events):
    """Whether the trace links GPU activity to runtime calls: none of its runtime calls links
    to an operator (torch 1.13 and 2.x link a call to the operator that made it, with an id
    counted apart from the call's own, so a call's correlation id says nothing there)."""
    for e in events:
        if is_device_event(e):
            continue
        linked = e.linked_correlation_id()
        if linked and linked != e.correlation_id() and _RUNTIME_CALL.match(e.name()):
            return False
    return True


def _launchers(events, ids):
    """{linked id: the CPU event it names}: the operator with that correlation id (torch's
    meaning), else, in a trace that links GPU activity to runtime calls, a runtime call with
    it."""
    ops, calls = {}, {}
    for e in events:
        if is_device_event(e) or e.correlation_id() not in ids:
            continue
        # A runtime call links to its operator; an operator links to nothing.
        runtime = e.linked_correlation_id() != 0 or _RUNTIME_CALL.match(e.name()) is not None
        (calls if runtime else ops).setdefault(e.correlation_id(), e)
    if calls and not _links_to_calls(events):
        calls = {}
    return {i: ops[i] if i in ops else calls[i] for i in ids if i in ops or i in calls}


def gpu_seconds(events, operators):
    """{index in ``operators``: seconds of GPU activity it owns} for the operators (the events
    of interest, a subset of ``events``: those with a FLOP count) that own any. ``events`` is
    the whole trace. Activity whose link names no CPU event, or whose launching operator lies in
    none of ``operators``, is left out."""
    by_link = _device_intervals(events)
    launchers = _launchers(events, by_link)
    own = {id(op): i for i, op in enumerate(operators)}
    owner = {link: own[id(e)] for link, e in launchers.items() if id(e) in own}
    links = [link for link in launchers if link not in owner]
    held = enclosing(operators, [launchers[link] for link in links])
    owner.update((link, stack[-1]) for link, stack in zip(links, held) if stack)
    per_op = {}
    for link, i in owner.items():
        per_op.setdefault(i, []).extend(by_link[link])
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
