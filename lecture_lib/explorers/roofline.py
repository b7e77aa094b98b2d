"""Chapter 1 explorers: the lecture's latency and cost graphs, and the context slope, live.

Controls map one-to-one onto the parameters of the plots in lecture_lib.plots.roofline.
"""
from __future__ import annotations

from .. import hardware
from ..plots import roofline as rplots
from .base import DTYPES, Explorer, choice_slider, float_slider, labelled, range_slider, system_model_controls

CONTEXTS = [0, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000,
            500_000, 1_000_000]
BATCHES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000,
           100_000, 200_000, 500_000, 1_000_000]
CONTEXT_RANGE = [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]


def _one_of(options) -> str:
    """'bf16', 'fp8 or bf16', 'fp4, fp8 or bf16': a list for a sentence."""
    options = list(options)
    if len(options) <= 1:
        return "".join(options)
    return f"{', '.join(options[:-1])} or {options[-1]}"


def _draw(plot, values):
    """plot.update(**values), with a widget-friendly message when the chip lacks the dtype."""
    chip = hardware.resolve(values["hw"])
    wd = values["weight_dtype"]
    if wd not in chip.dtypes:
        offered = [d for d in DTYPES if d in chip.dtypes]
        raise ValueError(f"{chip.name} has no published {wd} tensor rate; choose {_one_of(offered)} weights.")
    plot.update(**values)


class LatencyExplorer(Explorer):
    """Graph 1 live: step time vs batch; watch the regime flip as the context grows."""

    title = "Latency of one decode step vs batch (lecture graph 1)"
    plot_class = rplots.LatencyVsBatch

    def draw(self, **values):
        _draw(self.plot, values)

    def make_controls(self):
        d = self.plot.params
        return {**system_model_controls(d),
                "context": choice_slider(labelled(CONTEXTS), d["context"], "context (tokens)"),
                "batch_range": range_slider(labelled(BATCHES), tuple(d["batch_range"]), "batch range")}


class CostExplorer(LatencyExplorer):
    """Graph 2 live: dollars per million tokens vs batch at a rental price per chip-hour."""

    title = "Cost per token vs batch (lecture graph 2)"
    plot_class = rplots.CostVsBatch

    def make_controls(self):
        return {**super().make_controls(),
                "dollars_per_chip_hour": float_slider(self.plot.params["dollars_per_chip_hour"],
                                                      0.5, 10.0, 0.5, "$/chip-hour")}


class ContextSlopeExplorer(Explorer):
    """Per-sequence compute vs KV time over context: where decode turns memory-bound for good."""

    title = "Per-sequence compute vs KV reads over context (dense and sqrt-sparse attention)"

    plot_class = rplots.ContextSlopes

    def draw(self, **values):
        _draw(self.plot, values)

    def make_controls(self):
        d = self.plot.params
        return {**system_model_controls(d),
                "context_range": range_slider(labelled(CONTEXT_RANGE), tuple(d["context_range"]),
                                              "context range")}
