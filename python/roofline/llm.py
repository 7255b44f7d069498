"""LLM inference on the roofline (docs/llm.md): a transformer's operators with closed-form W and
Q, placed on a machine's roofs. Prefill is a GEMM (compute-bound), decode a GEMV (memory-bound,
I ≈ batch for fp16 weights).

    >>> import roofline
    >>> r = roofline.llm.analyse(roofline.llm.model("llama-2-7b"),
    ...                          roofline.Machine("a100-80gb"), batch=1, context=2048)
    >>> r.time_per_token_s, r.tokens_per_s

The whole request, a serving engine, speculative decoding, a training step and the cost per
token are there too (``request``, ``serve``, ``speculative``, ``train``, ``cost``), and one model
on several machines side by side (``compare``), each with the
numbers ``roofline llm --json`` gives for the same flags (``to_dict()`` is that JSON section).

The numbers are those ``roofline llm`` prints for the same inputs.
"""

from ._roofline.llm import (Model, Aggregate, Report, Request, Serving, Speculative, Training,
                            Cost, model, models, analyse, request, serve, speculative, train,
                            cost, compare)

__all__ = ["Model", "Aggregate", "Report", "Request", "Serving", "Speculative", "Training",
           "Cost", "model", "models", "analyse", "request", "serve", "speculative", "train",
           "cost", "compare", "chart"]


def chart(report, title=None):
    """The report's operators on its machine's roofs, as a roofline.Chart."""
    from . import Chart
    # A Request, a Serving or anything else has no operators on roofs: said, naming the
    # parameter, not an AttributeError from inside.
    if not isinstance(report, Report):
        raise TypeError("chart: report must be a roofline.llm.Report, from "
                        "roofline.llm.analyse() (got %s)" % type(report).__name__)
    if title is None:
        title = report.chart_title  # as `roofline llm --report` titles it
    # The roofs the model was judged against (report.compute_roof, not the machine's default
    # fp32 roof), as `roofline llm --report` draws them.
    c = Chart(report.judged_machine, report.points(), title=title)
    # What the text warns of (a model larger than the memory among them) the chart says too,
    # and draws the points of a configuration that does not fit hollow.
    c._warnings = list(report.warnings)
    c._does_not_fit = report._points_over_memory()
    # The model's config.json (a preset has none) is an input the chart is not saved over, as
    # `roofline llm -m cfg.json --report cfg.json` refuses.
    c._inputs = [] if report.model.origin == "preset" else [report.model.origin]
    return c
