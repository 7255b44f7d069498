"""The stand-in kineto event the torch tests share."""


class Event:
    """A stand-in for torch's _KinetoEvent (the methods roofline.torch reads), with the ids as
    torch fills them: an operator's correlation_id() is its own id; a kernel's and a runtime
    call's linked_correlation_id() that of the operator that launched it."""

    def __init__(self, name, start, dur, corr=0, linked=0, thread=1, device="CPU", flops=0,
                 shapes=(), dtypes=()):
        self._v = dict(name=name, start_us=start, duration_us=dur, correlation_id=corr,
                       linked_correlation_id=linked, start_thread_id=thread, flops=flops,
                       device_type="DeviceType." + device, shapes=list(shapes),
                       dtypes=list(dtypes))

    def __getattr__(self, method):
        try:
            value = self.__dict__["_v"][method]
        except KeyError:
            raise AttributeError(method) from None
        return lambda: value
