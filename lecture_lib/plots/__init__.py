"""Presentation layer: pictures (pure: parameters in, matplotlib Figure out) and Markdown tables.

    from lecture_lib.plots import roofline as rplots
    rplots.latency_vs_batch("GB200-NVL72", "DeepSeek-V3")     # a matplotlib Figure
    rplots.LatencyVsBatch(context=10_000)                     # the same, updatable; displays in Jupyter

Not imported by `import lecture_lib` (matplotlib is slow to import); import it where you draw.
"""
from . import roofline  # noqa: F401
from .live import LivePlot, decade_limits, positive  # noqa: F401
