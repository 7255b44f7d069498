"""LLM inference on the roofline (docs/llm.md): a transformer's operators with closed-form W and
Q, placed on a machine's roofs. Prefill is a GEMM (compute-bound), decode a GEMV (memory-bound,
I ≈ batch for fp16 weights).

    >>> import roofline
    >>> r = roofline.llm.analyse(roofline.llm.model("llama-2-7b"),
    ...                          roofline.Machine("a100-80gb"), batch=1, context=2048)
    >>> r.time_per_token_s, r.tokens_per_s

The numbers are those ``roofline llm`` prints for the same inputs.
"""

from ._roofline.llm import Model, Aggregate, Report, model, models, analyse

__all__ = ["Model", "Aggregate", "Report", "model", "models", "analyse", "chart"]


def chart(report, title=None):
    """The report's operators on its machine's roofs, as a roofline.Chart."""
    from . import Chart
    if title is None:
        title = "%s on %s" % (report.model.name, report.machine.name)
    return Chart(report.machine, report.points(), title=title)
